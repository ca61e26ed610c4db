/* The one generic page-table walker (mm/pgtable.c), over the arch's format (arch/mmu.h). Used by
 * the kernel's own MMU setup, process address spaces, `pt walk`, fault reports and teardown. */
#ifndef RNDBITS_PGTABLE_H
#define RNDBITS_PGTABLE_H

#include <arch/mmu.h>

/* Allocate a zeroed table for the root level (or a given level). Returns its physical address,
 * 0 when out of memory. */
phys_addr_t pt_alloc_table(unsigned level);
/* Give back a root table pt_alloc_table(0) made, once no table is left below it in the user
 * half (the kernel half's entries, where the root holds them, are shared, never freed). */
void pt_free_root(phys_addr_t root);

/* Map [va, va+size) to [pa, pa+size) with prot (all page aligned, else -EINVAL). With
 * PT_MAP_BLOCKS, use the largest leaf the format allows where va, pa and the remaining size are
 * aligned. Returns 0 or -ENOMEM/-EEXIST (an existing valid leaf is never overwritten silently;
 * PT_MAP_REPLACE allows it; a table is never replaced by a block, nor a block split). On
 * failure the leaves stored before it stay, and no table allocated by the call is left empty. */
enum { PT_MAP_BLOCKS = 1u << 0, PT_MAP_REPLACE = 1u << 1 };
int pt_map(phys_addr_t root, uintptr_t va, phys_addr_t pa, size_t size, unsigned prot,
	   unsigned flags);

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

/* The one range traversal: the slots of the tables reachable from root that [lo, hi] covers
 * (hi inclusive, so the top of the address space needs no special case), in address order,
 * down through every table: valid leaves (block or page) to ops->leaf, tables below the root to
 * ops->table before their slots; empty slots are skipped without decoding, so huge sparse
 * ranges are cheap. A leaf is seen whole even
 * where it starts below lo (blocks are never split). A callback's negative return stops the
 * visit, and pt_visit returns it. Unmap, mprotect, teardown, fork's copy, `pt dump` and the
 * table count are each one visit; pt_map has its own loop (mm/pgtable.c). */
struct pt_leaf {
	uint64_t va;          /* where the leaf starts */
	uint64_t size;        /* bytes it maps */
	unsigned level;
	pte_t pte;
	struct pte_info info; /* pte decoded */
	void *table;          /* the table holding it (linear map), for pt_leaf_store */
	unsigned index;
};

#define PT_VISIT_SKIP 1

struct pt_visit_ops {
	int (*leaf)(const struct pt_leaf *leaf, void *ctx);
	/* level is the table's own (1 and below), va the first address it maps; PT_VISIT_SKIP:
	 * not into this one (counting tables needs no look at the leaves). */
	int (*table)(unsigned level, phys_addr_t table, uint64_t va, void *ctx);
	/* Where pages may be mapped from va on, from what the caller knows (a process's VMAs):
	 * the lowest such address (above the range: none), and *end where that stretch ends
	 * (exclusive; 0: the top). The slots outside such stretches are skipped unread and count
	 * as empty for PT_VISIT_FREE_EMPTY: a teardown reads only the slots its VMAs cover. NULL:
	 * every slot of the range may hold something. */
	uint64_t (*next)(uint64_t va, uint64_t *end, void *ctx);
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

/* Rewrite (or with 0 remove) a leaf the visitor handed over; the walker sees it by the end of
 * the visit. Where the tables are live, the caller flushes the leaf (pt_leaf_flush makes the
 * store visible to the walker first, then drops the old translation). */
void pt_leaf_store(const struct pt_leaf *leaf, pte_t pte);
void pt_leaf_flush(const struct pt_leaf *leaf);

/* The frames of the tables below root (not counting root) that map addresses below va_end:
 * what Linux reports as a process's pgtables. */
unsigned long pt_table_frames(phys_addr_t root, uint64_t va_end);

#endif
