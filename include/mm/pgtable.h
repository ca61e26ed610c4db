/* The one generic page-table walker (mm/pgtable.c), over the arch's format (arch/mmu.h). Used by
 * the kernel's own MMU setup, process address spaces, `pt walk`, fault reports and teardown. */
#ifndef RNDBITS_PGTABLE_H
#define RNDBITS_PGTABLE_H

#include <arch/mmu.h>

/* Allocate a zeroed table for the root level (or a given level). Returns its physical address,
 * 0 when out of memory. */
phys_addr_t pt_alloc_table(unsigned level);
/* Give back a root table pt_alloc_table(0) made (its entries must be cleared first). */
void pt_free_root(phys_addr_t root);

/* Map [va, va+size) to [pa, pa+size) with prot. With PT_MAP_BLOCKS, use the largest leaf the
 * format allows where va, pa and the remaining size are aligned. Returns 0 or -ENOMEM/-EEXIST
 * (an existing valid leaf is never overwritten silently; PT_MAP_REPLACE allows it). On failure
 * the leaves stored before it stay, and no table allocated by the call is left empty. */
enum { PT_MAP_BLOCKS = 1u << 0, PT_MAP_REPLACE = 1u << 1 };
int pt_map(phys_addr_t root, uintptr_t va, phys_addr_t pa, size_t size, unsigned prot,
	   unsigned flags);

/* Remove the leaves covering [va, va+size) (page granular; blocks are not split), flush them
 * from the TLB and free every table below the root in the range that is empty afterwards (also
 * one that held no leaf to begin with). With free_frames, the frames the leaves pointed to go
 * back to the allocator too (user memory); returns how many leaves it removed. Skips empty
 * slots without decoding them, so huge sparse ranges are cheap. */
uint64_t pt_unmap(phys_addr_t root, uint64_t va, uint64_t size, bool free_frames);

/* Change the permissions of the leaves covering [va, va+size). */
int pt_protect(phys_addr_t root, uintptr_t va, size_t size, unsigned prot);

/* One step of a walk: what the table at this level says about va. */
struct pt_step {
	unsigned level;
	phys_addr_t table_pa;
	unsigned index;
	pte_t pte;
	struct pte_info info;
};

struct pt_walk_result {
	unsigned nr_steps;
	struct pt_step steps[PT_MAX_LEVELS];
	bool mapped;        /* the last step is a valid leaf */
	phys_addr_t pa;     /* the translation of va when mapped, else 0 */
	unsigned prot;      /* its permissions when mapped, else 0 */
};

/* Walk va from root; never allocates. */
void pt_walk(phys_addr_t root, uintptr_t va, struct pt_walk_result *out);

/* Print a walk in the `pt walk` format: one line per level, then the result. */
void pt_print_walk(uintptr_t va, const struct pt_walk_result *w);
/* The same with a note in parentheses at the end of the result line (NULL: none), e.g. what
 * `pt walk` says of a frame's owners. */
void pt_print_walk_note(uintptr_t va, const struct pt_walk_result *w, const char *note);

/* The one range traversal: every valid leaf (block or page) and every table below the root
 * that [lo, hi] reaches (hi inclusive, so the top of the address space needs no special case),
 * in address order; only tables that exist are visited, and empty slots are skipped without
 * decoding. A leaf is seen whole even where it starts below lo (blocks are never split). */
struct pt_leaf {
	uint64_t va;          /* where the leaf starts */
	uint64_t size;        /* bytes it maps */
	unsigned level;
	pte_t pte;
	struct pte_info info; /* pte decoded */
	void *table;          /* the table holding it (linear map), for pt_leaf_store */
	unsigned index;
};

struct pt_visit_ops {
	/* Each valid leaf; a non-zero return stops the visit and pt_visit returns it. NULL: none. */
	int (*leaf)(const struct pt_leaf *leaf, void *ctx);
	/* Each table below the root, before its entries (level, its address, the VA it starts
	 * at). NULL: none. */
	void (*table)(unsigned level, phys_addr_t table, uint64_t va, void *ctx);
	unsigned flags;
};

enum {
	/* Unlink and free every table below the root that is empty after its visit (also one
	 * that was empty to begin with): unmap and teardown. */
	PT_VISIT_FREE_EMPTY = 1u << 0,
	/* The tables are not live (a root no CPU uses, see arch_switch_user_root): unlinking a
	 * table needs no TLB flush. */
	PT_VISIT_NOT_LIVE = 1u << 1,
};

int pt_visit(phys_addr_t root, uint64_t lo, uint64_t hi, const struct pt_visit_ops *ops,
	     void *ctx);

/* Rewrite (or with 0 remove) a leaf the visitor handed over, made visible to the table walker.
 * The caller flushes the TLB where the tables are live (pt_leaf_flush). */
void pt_leaf_store(const struct pt_leaf *leaf, pte_t pte);
void pt_leaf_flush(const struct pt_leaf *leaf);

/* Call fn for every valid leaf (block or page) reachable from root below va_end, in address
 * order: its VA, size, output address and permissions. Built from the tables alone. */
typedef void (*pt_leaf_fn)(uint64_t va, uint64_t size, phys_addr_t pa, unsigned prot, void *ctx);
void pt_for_each_leaf(phys_addr_t root, uint64_t va_end, pt_leaf_fn fn, void *ctx);

/* The frames of the tables below root (not counting root) that map addresses below va_end:
 * what Linux reports as a process's pgtables. */
unsigned long pt_table_frames(phys_addr_t root, uint64_t va_end);

/* Free every table reachable from root below va_end (the user half), the frames of the
 * last-level leaves there when free_frames (a process's own pages), and the root itself if
 * free_root. Entries at or above va_end (the shared kernel half) are left alone. */
void pt_free_tables(phys_addr_t root, uint64_t va_end, bool free_frames, bool free_root);

/* Tear down a process's address space: the leaves and tables below root inside the given
 * ranges (sorted, disjoint, page aligned), then the root if free_root. The caller guarantees
 * nothing is mapped outside the ranges (a process's VMAs), so only the slots the ranges cover
 * are read, not whole tables. A leaf's frame goes back to the allocator unless its range says
 * keep_frames (the image's shared frames). Tables return to the allocator all zero. No TLB
 * maintenance: the tables must not be live (see arch_switch_user_root). */
struct pt_range {
	uint64_t start, end;
	bool keep_frames;
};
void pt_free_ranges(phys_addr_t root, const struct pt_range *ranges, unsigned nr_ranges,
		    bool free_root);

#endif
