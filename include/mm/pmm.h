/* Physical page-frame allocator over the free RAM the boot info describes. Counts are exact:
 * `free` prints them, and equal counts before and after a workload prove nothing leaked. */
#ifndef RNDBITS_PMM_H
#define RNDBITS_PMM_H

#include <lib/types.h>

struct boot_info;

/* Take over all RAM in bi minus the reserved ranges. Uses a bitmap placed in free RAM. */
void pmm_init(const struct boot_info *bi);

/* Allocate 2^order contiguous frames aligned to their size; zeroed. Returns the physical
 * address, or 0 when none is free. */
phys_addr_t pmm_alloc_pages(unsigned order);
static inline phys_addr_t pmm_alloc_page(void) { return pmm_alloc_pages(0); }
/* The same, not zeroed: memory the kernel alone reads, and only what it wrote first (a kernel
 * stack), or that is overwritten whole at once (a copy-on-write copy). Zeroing a 16 KiB stack was a tenth of what a fork cost beside its page tables. */
phys_addr_t pmm_alloc_pages_uninit(unsigned order);
void pmm_free_pages(phys_addr_t pa, unsigned order);
static inline void pmm_free_page(phys_addr_t pa) { pmm_free_pages(pa, 0); }

/* Frames shared copy-on-write (mm_fork) count their owners. An allocated frame has one;
 * pmm_page_get adds one (false when the count is at its limit: the caller copies instead),
 * pmm_page_put drops one and frees the frame with the last (returns true then). A frame with
 * more than one owner must not be freed with pmm_free_pages (a panic says so). */
bool pmm_page_get(phys_addr_t pa);
bool pmm_page_put(phys_addr_t pa);
/* Owners of the frame at pa: 0 when it is free or not RAM the allocator manages (reserved
 * frames such as the kernel image's count 1: they are not free). */
unsigned pmm_page_refs(phys_addr_t pa);

struct pmm_stats {
	uint64_t total; /* frames managed (RAM minus nothing: reserved frames count as used) */
	uint64_t used;
	uint64_t free;
	uint64_t peak_used; /* the most frames used at once since boot or pmm_reset_peak() */
};
void pmm_get_stats(struct pmm_stats *st);
/* Start a new peak from the frames used now (`bench` measures a workload's peak this way). */
void pmm_reset_peak(void);

#endif
