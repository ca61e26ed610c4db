/* Arch interface: the page-table format as data plus pure encoders (host-testable), and the few
 * operations that touch the MMU. mm/pgtable.c is the one walker that uses them. */
#ifndef RNDBITS_ARCH_MMU_H
#define RNDBITS_ARCH_MMU_H

#include <lib/types.h>

struct boot_info;

#define PT_MAX_LEVELS 5

/* A descriptor, wide enough for every format (arm short and i386 entries are 32-bit). */
typedef uint64_t pte_t;

/* Permission and type bits a mapping asks for; each format encodes what it can. */
enum pt_prot {
	PT_R = 1u << 0,
	PT_W = 1u << 1,
	PT_X = 1u << 2,
	PT_USER = 1u << 3,
	PT_DEVICE = 1u << 4, /* device memory (nGnRE / strongly ordered / uncached) */
	PT_GLOBAL = 1u << 5, /* not tagged with an ASID/PCID: kernel mappings */
};

/* Shape of a translation table tree. Level 0 is the root. */
struct pt_geometry {
	unsigned levels;
	unsigned shift[PT_MAX_LEVELS];       /* VA bit where this level's index starts */
	unsigned entries[PT_MAX_LEVELS];     /* entries in one table at this level */
	unsigned table_bytes[PT_MAX_LEVELS]; /* size (and required alignment) of such a table */
	unsigned pte_bytes;                  /* 4 or 8 */
	unsigned always_granted;             /* pt_prot bits every valid leaf grants whether asked
						or not (i386 2-level: PT_X, no NX bit); 0 elsewhere */
	const char *name;                    /* e.g. "arm64 4K granule, 4 levels (VA_BITS 48)" */
};

enum pte_kind { PTE_INVALID, PTE_TABLE, PTE_BLOCK, PTE_PAGE };

/* What a descriptor means to the walker: structure only, no words (see arch_pte_describe). */
struct pte_info {
	enum pte_kind kind;
	phys_addr_t pa;   /* next table, or the output address of a block/page */
	unsigned prot;    /* enum pt_prot bits the descriptor grants */
	bool accessed;    /* AF set (formats without an access flag report true) */
};

/* Room arch_pte_describe needs for any descriptor of any format, with its terminator. */
#define PTE_DESCRIBE_MAX 96

/* The running preset's geometry. Always the same constant table: `const` lets the compiler ask
 * once per function instead of at every use. */
const struct pt_geometry *arch_pt_geometry(void) __attribute__((const));

/* Pure encoders and decoders (no side effects; compiled into host tests as well). */
bool arch_pte_leaf_allowed(unsigned level);   /* may a block/section/page live at this level? */
pte_t arch_pte_make_table(unsigned level, phys_addr_t table_pa);
pte_t arch_pte_make_leaf(unsigned level, phys_addr_t pa, unsigned prot);
/* Every walk step decodes, so this fills only the structured fields. */
void arch_pte_decode(unsigned level, pte_t pte, struct pte_info *out);
/* The descriptor's meaning in words, for `pt walk` and fault reports only, e.g.
 * "page AP=RW/RW UXN PXN AF Normal"; truncated to size - 1 characters and always terminated
 * (size > 0). Kept apart from decoding so that walks do no string work. */
void arch_pte_describe(unsigned level, pte_t pte, char *buf, size_t size);
/* For loops over a whole last-level table (fork's copy): each descriptor is read once and
 * asked only what the loop needs, without a full arch_pte_decode into a struct pte_info. */
/* Does a last-level descriptor map a page (what decode calls PTE_PAGE)? */
bool arch_pte_is_page(pte_t pte);
/* The frame a last-level page descriptor maps (arch_pte_is_page(pte)). */
phys_addr_t arch_pte_page_pa(pte_t pte);
/* A valid leaf (page or block at level) with its write permission taken away, every other bit
 * kept: copy-on-write's read-only share of a writable page. */
pte_t arch_pte_wrprotect(unsigned level, pte_t pte);
pte_t arch_pt_load(const void *table, unsigned idx);
void arch_pt_store(void *table, unsigned idx, pte_t pte);

/* Hardware side. */
/* Make stores to tables visible to the table walker (DSB and friends). */
void arch_pt_sync(void);
/* Invalidate the TLB entries for one page of the current address space, or everything. */
void arch_tlb_flush_page(uintptr_t va);
void arch_tlb_flush_all(void);
/* The root that translates va when the current user root is user_root (arm64 sends the upper
 * half to the kernel's TTBR1 root; the others share one root). */
phys_addr_t arch_pt_root_for(phys_addr_t user_root, uintptr_t va);
/* Prepare a fresh user root: copy the kernel half where the format shares one root. */
void arch_pt_init_user_root(void *root_va);
/* Switch the user address space (TTBR0 / CR3), with its ASID/PCID if the arch has them.
 * root 0 means "no user address space": only kernel mappings stay reachable (the kernel root
 * on x86/arm, an empty TTBR0 on arm64), so a process's tables can then be freed safely. */
void arch_switch_user_root(phys_addr_t root, unsigned asid);
/* Build the kernel's own page tables (W^X sections, linear map, devices) with mm/pgtable and
 * switch to them; returns the kernel root. Called once from kernel_main after pmm_init. */
phys_addr_t arch_mmu_init(const struct boot_info *bi);
/* The kernel root built by arch_mmu_init. */
phys_addr_t arch_kernel_root(void);

#endif
