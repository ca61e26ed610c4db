/* The one page-table walker. It knows nothing of any format: the arch's geometry says how a VA
 * splits into indices, and its encoders say what a descriptor means. Tables are reached through
 * the kernel's linear map (__va).
 *
 * One traversal, pt_visit, goes over a range: mapping (filling the empty slots, making the
 * tables on the way), and through its callers unmapping, mprotect, teardown, fork's copy, the
 * dump and the table count. pt_walk follows one address down, step by step, for `pt walk` and
 * the faults that need to know where translation stopped. */
#include <arch/memory.h>
#include <arch/mmu.h>
#include <kernel/kernel.h>
#include <lib/errno.h>
#include <mm/pgtable.h>
#include <mm/pmm.h>

/* The geometry is fixed for the preset, and arch_pt_geometry is declared const: the compiler
 * asks once per function, not at every level of every walk. */
static const struct pt_geometry *geo(void)
{
	return arch_pt_geometry();
}

static unsigned last_level(void)
{
	return geo()->levels - 1;
}

static unsigned pt_index(unsigned level, uint64_t va)
{
	return (unsigned)((va >> geo()->shift[level]) & (geo()->entries[level] - 1));
}

static uint64_t level_size(unsigned level)
{
	return 1ULL << geo()->shift[level];
}

/* Frames needed for one table at this level, as a pmm order. */
static unsigned table_order(unsigned level)
{
	unsigned order = 0;

	while (((uint64_t)PAGE_SIZE << order) < geo()->table_bytes[level])
		order++;
	return order;
}

phys_addr_t pt_alloc_table(unsigned level)
{
	return pmm_alloc_pages(table_order(level));
}

static void free_table(unsigned level, phys_addr_t pa)
{
	pmm_free_pages(pa, table_order(level));
}

void pt_free_root(phys_addr_t root)
{
	free_table(0, root);
}

static void *table_va(phys_addr_t pa)
{
	return __va(pa);
}

/* An all-zero descriptor is invalid in every format (arm64 and arm: type bits 0; x86: P = 0),
 * and it is what nearly every entry of a scanned table is: bulk scans skip it without asking
 * the arch to decode it. */
static bool pte_is_zero(pte_t pte)
{
	return pte == 0;
}

/* Decode what a slot holds; an empty one (nearly every slot a new mapping meets) needs no
 * asking the arch. */
static void decode_slot(unsigned level, pte_t pte, struct pte_info *info)
{
	if (pte_is_zero(pte))
		info->kind = PTE_INVALID;
	else
		arch_pte_decode(level, pte, info);
}

/* The first entry at or after i (below n) whose bytes are not all zero, or n. Teardown and the
 * emptiness checks scan whole tables (8192 entries with 64K pages), so this reads plain words,
 * four at a time, where a descriptor is one word (every preset); else entry by entry. */
static unsigned next_nonzero(const void *table, unsigned i, unsigned n)
{
	if (geo()->pte_bytes == sizeof(unsigned long)) {
		const unsigned long *w = table;
		while (i < n && (i & 3))
			if (w[i])
				return i;
			else
				i++;
		while (i + 4 <= n && !(w[i] | w[i + 1] | w[i + 2] | w[i + 3]))
			i += 4;
		while (i < n && !w[i])
			i++;
		return i;
	}
	while (i < n && pte_is_zero(arch_pt_load(table, i)))
		i++;
	return i;
}

/* --- The range visitor. ------------------------------------------------------------------- */

struct visit {
	const struct pt_visit_ops *ops;
	void *ctx;
};

void pt_leaf_store(const struct pt_leaf *leaf, pte_t pte)
{
	arch_pt_store(leaf->table, leaf->index, pte);
}

void pt_leaf_flush(const struct pt_leaf *leaf)
{
	arch_pt_sync(); /* the new descriptor first, or a walk could cache the old one again */
	arch_tlb_flush_page((uintptr_t)leaf->va);
}

/* Does any slot in [from, to) of the table at level hold a valid descriptor? */
static bool holds_any(const void *t, unsigned level, unsigned from, unsigned to)
{
	for (unsigned i = next_nonzero(t, from, to); i < to; i = next_nonzero(t, i + 1, to)) {
		struct pte_info info;
		arch_pte_decode(level, arch_pt_load(t, i), &info);
		if (info.kind != PTE_INVALID)
			return true;
	}
	return false;
}

/* A new, zeroed table for the slot at `level`, linked in; 0 when no frame is left. */
static phys_addr_t link_new_table(void *t, unsigned i, unsigned level)
{
	phys_addr_t next = pt_alloc_table(level + 1);

	if (next) {
		/* The new table's zeroes must reach the walker before the entry leading to it. */
		arch_pt_sync();
		arch_pt_store(t, i, arch_pte_make_table(level, next));
	}
	return next;
}

/* Unlink the (empty) table at level + 1 that slot i leads to, and free it. Where the tables
 * are live the flush drops any walk the TLB cached through it (a table freed with no leaf
 * removed under it has had no leaf flush to do that). */
static void free_linked_table(const struct visit *vs, void *t, unsigned i, unsigned level,
			      phys_addr_t table, uint64_t va)
{
	arch_pt_store(t, i, 0);
	if (!(vs->ops->flags & PT_VISIT_NOT_LIVE)) {
		arch_pt_sync();
		arch_tlb_flush_page((uintptr_t)va);
	}
	free_table(level + 1, table);
}

static int visit_table(const struct visit *vs, unsigned level, phys_addr_t table, uint64_t base,
		       uint64_t lo, uint64_t hi, bool *empty);

/* An empty slot of the range at `level` (an all-zero or invalid descriptor): filled as
 * ops->fill says. Returns 0 or -errno; *next is a new table to go on down in, or 0. */
static int fill_slot(const struct visit *vs, unsigned level, void *t, unsigned i, uint64_t va,
		     uint64_t lo, uint64_t hi, phys_addr_t *next)
{
	struct pt_hole h = { .va = va, .level = level, .lo = lo, .hi = hi };
	int fill = vs->ops->fill(&h, vs->ctx);

	if (fill < 0)
		return fill;
	if (fill == PT_FILL_LEAF)
		arch_pt_store(t, i, h.leaf);
	if (fill != PT_FILL_TABLE)
		return 0;
	if (level == last_level())
		return -EINVAL; /* nothing is below the last level */
	*next = link_new_table(t, i, level);
	return *next ? 0 : -ENOMEM;
}

/* One slot of the range at `level` (size bytes from va; lo and hi the range's part in it): an
 * empty one filled (when ops->fill is given), a table descended into (freed afterwards if
 * PT_VISIT_FREE_EMPTY and nothing is left in it), a leaf handed to ops->leaf. *kept says
 * whether the slot holds anything afterwards. */
static int visit_slot(const struct visit *vs, unsigned level, void *t, unsigned i, uint64_t va,
		      uint64_t size, uint64_t lo, uint64_t hi, bool *kept)
{
	pte_t pte = arch_pt_load(t, i);
	struct pte_info info;
	phys_addr_t next = 0;
	int err = 0;

	decode_slot(level, pte, &info);
	if (info.kind == PTE_INVALID && vs->ops->fill) {
		err = fill_slot(vs, level, t, i, va, lo, hi, &next);
	} else if (info.kind == PTE_TABLE && level < last_level()) {
		next = info.pa;
		if (vs->ops->table)
			err = vs->ops->table(level + 1, next, va, vs->ctx);
		if (err == PT_VISIT_SKIP) {
			err = 0;
			next = 0;
		}
	} else if ((info.kind == PTE_PAGE || info.kind == PTE_BLOCK) && vs->ops->leaf) {
		const struct pt_leaf l = { .va = va, .size = size, .level = level, .pte = pte,
					   .info = info, .table = t, .index = i };
		err = vs->ops->leaf(&l, vs->ctx);
	}
	if (next && !err) {
		bool child_empty = false, free_empty = vs->ops->flags & PT_VISIT_FREE_EMPTY;
		err = visit_table(vs, level + 1, next, va, lo, hi, free_empty ? &child_empty : NULL);
		if (child_empty)
			free_linked_table(vs, t, i, level, next, va);
	}
	/* What the slot holds now: nothing, the invalid descriptor it held (never decoded
	 * again), or something valid that was there or was put there. */
	pte_t now = arch_pt_load(t, i);
	*kept = !pte_is_zero(now) && !(now == pte && info.kind == PTE_INVALID);
	return err;
}

/* Visit the slots of the table at `level` (which starts at base) that [lo, hi] covers: every
 * slot when empty ones are to be filled, else only the non-zero ones. With empty (the caller
 * frees an empty table: PT_VISIT_FREE_EMPTY), *empty says whether the table holds nothing
 * afterwards (also after an error: a map that ran out of frames leaves no empty table). */
static int visit_table(const struct visit *vs, unsigned level, phys_addr_t table, uint64_t base,
		       uint64_t lo, uint64_t hi, bool *empty)
{
	void *t = table_va(table);
	unsigned shift = geo()->shift[level], n = geo()->entries[level];
	uint64_t size = level_size(level);
	unsigned first = (unsigned)((lo - base) >> shift);
	unsigned end = (unsigned)MIN((hi - base) >> shift, (uint64_t)n - 1) + 1;
	bool every_slot = vs->ops->fill != NULL, kept = false;
	unsigned i = first;
	int err = 0;

	while (!err && i < end) {
		unsigned stop = end; /* where the part that may be mapped ends */

		if (vs->ops->next) { /* the caller knows: only [want, region_end) from here on */
			uint64_t region_end, want;
			want = vs->ops->next(base + ((uint64_t)i << shift), &region_end, vs->ctx);
			if (want > hi)
				break;
			i = (unsigned)((want - base) >> shift);
			if (region_end && region_end - 1 < hi)
				stop = (unsigned)((region_end - 1 - base) >> shift) + 1;
		}
		if (!every_slot && (i = next_nonzero(t, i, stop)) == stop) {
			i = stop;
			continue;
		}
		uint64_t va = base + ((uint64_t)i << shift);
		uint64_t last = va + (size - 1);
		bool slot_kept;

		err = visit_slot(vs, level, t, i, va, size, MAX(lo, va), MIN(hi, last), &slot_kept);
		kept = kept || slot_kept;
		i++;
	}
	/* With ops->next the slots it skipped hold nothing: no need to look. */
	if (empty)
		*empty = !kept && (vs->ops->next ||
				   (!holds_any(t, level, 0, first) && !holds_any(t, level, i, n)));
	return err;
}

int pt_visit(phys_addr_t root, uint64_t lo, uint64_t hi, const struct pt_visit_ops *ops,
	     void *ctx)
{
	struct visit vs = { ops, ctx };
	/* The root translates the VA bits its indices cover; the bits above them pick the root
	 * (arm64's two halves) or must repeat the top one (x86_64's canonical addresses), and
	 * stay in the addresses the visit reports. */
	unsigned bits = geo()->shift[0] + (unsigned)__builtin_ctz(geo()->entries[0]);
	uint64_t span_mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
	uint64_t base = lo & ~span_mask;

	hi = MIN(hi, base | span_mask);
	if (hi < lo)
		return 0;
	int err = visit_table(&vs, 0, root, base, lo, hi, NULL); /* the root is never freed here */
	arch_pt_sync();
	return err;
}

/* --- Mapping: a visit that fills the range. ------------------------------------------------- */

struct map_ctx {
	uint64_t va, last;  /* the range, last inclusive */
	phys_addr_t pa;     /* what va maps to */
	unsigned prot, flags;
};

/* Whether map puts a leaf in the slot at `level` that starts at va: the slot lies in the range
 * whole, and it is the last level, or PT_MAP_BLOCKS asks for blocks and the format has one
 * there that pa lines up with. Going down from the root, the first level where this holds
 * gets the largest leaf that fits. */
static bool leaf_fits(const struct map_ctx *m, unsigned level, uint64_t va)
{
	uint64_t size = level_size(level);

	if (va < m->va || m->last - va < size - 1)
		return false;
	if (level == last_level())
		return true;
	return (m->flags & PT_MAP_BLOCKS) && IS_ALIGNED(m->pa + (va - m->va), size) &&
	       arch_pte_leaf_allowed(level);
}

/* An empty slot: the leaf, where one fits the slot; else a table to go on down in (the slot
 * starts before the range, ends after it, or wants a smaller leaf). */
static int map_fill(struct pt_hole *h, void *ctx)
{
	const struct map_ctx *m = ctx;

	if (!leaf_fits(m, h->level, h->va))
		return PT_FILL_TABLE;
	h->leaf = arch_pte_make_leaf(h->level, m->pa + (h->va - m->va), m->prot);
	return PT_FILL_LEAF;
}

/* A table where map wants a block (in the slot above it) would drop the subtree: refused. */
static int map_table(unsigned level, phys_addr_t table, uint64_t va, void *ctx)
{
	(void)table;
	return leaf_fits(ctx, level - 1, va) ? -EEXIST : 0;
}

/* An existing leaf: replaced with PT_MAP_REPLACE when map would put a leaf of its size there
 * (and flushed); else refused, never overwritten silently (a page under a block would need the
 * block split). */
static int map_leaf(const struct pt_leaf *l, void *ctx)
{
	const struct map_ctx *m = ctx;

	if (!(m->flags & PT_MAP_REPLACE) || !leaf_fits(m, l->level, l->va))
		return -EEXIST;
	pt_leaf_store(l, arch_pte_make_leaf(l->level, m->pa + (l->va - m->va), m->prot));
	pt_leaf_flush(l);
	return 0;
}

int pt_map(phys_addr_t root, uintptr_t va, phys_addr_t pa, size_t size, unsigned prot,
	   unsigned flags)
{
	struct map_ctx m = { va, (uint64_t)va + (size - 1), pa, prot, flags };
	/* Only a block can conflict with a table. */
	const struct pt_visit_ops ops = { .leaf = map_leaf, .fill = map_fill,
					  .table = flags & PT_MAP_BLOCKS ? map_table : NULL,
					  .flags = PT_VISIT_FREE_EMPTY };

	/* Page aligned, so that a page fits wherever the range has one to go. */
	if (!IS_ALIGNED((uint64_t)va | pa | size, PAGE_SIZE))
		return -EINVAL;
	if (!size)
		return 0;
	return pt_visit(root, m.va, m.last, &ops, &m);
}

/* --- Counting. ------------------------------------------------------------------------------ */

static int count_table(unsigned level, phys_addr_t table, uint64_t va, void *ctx)
{
	(void)table;
	(void)va;
	*(unsigned long *)ctx += 1ul << table_order(level);
	return level == last_level() ? PT_VISIT_SKIP : 0; /* no table below its leaves */
}

unsigned long pt_table_frames(phys_addr_t root, uint64_t va_end)
{
	unsigned long frames = 0;
	const struct pt_visit_ops ops = { .table = count_table };

	if (va_end)
		pt_visit(root, 0, va_end - 1, &ops, &frames);
	return frames;
}

/* --- One address. --------------------------------------------------------------------------- */

void pt_walk(phys_addr_t root, uintptr_t va, struct pt_walk_result *out)
{
	struct pt_step *s = out->steps;
	phys_addr_t table = root;
	unsigned level = 0;

	/* Down while the step finds a table above the last level (a table where a page must be
	 * is not a translation). */
	for (;; level++, s++) {
		s->level = level;
		s->table_pa = table;
		s->index = pt_index(level, va);
		s->pte = arch_pt_load(table_va(table), s->index);
		arch_pte_decode(level, s->pte, &s->info);
		if (s->info.kind != PTE_TABLE || level == last_level())
			break;
		table = s->info.pa;
	}
	out->nr_steps = level + 1;
	out->mapped = s->info.kind == PTE_BLOCK || s->info.kind == PTE_PAGE;
	out->pa = out->mapped ? s->info.pa + ((uint64_t)va & (level_size(level) - 1)) : 0;
	out->prot = out->mapped ? s->info.prot : 0;
}

void pt_print_walk(uintptr_t va, const struct pt_walk_result *w)
{
	pt_print_walk_note(va, w, NULL);
}

void pt_print_walk_note(uintptr_t va, const struct pt_walk_result *w, const char *note)
{
	unsigned width = geo()->pte_bytes * 2;

	for (unsigned i = 0; i < w->nr_steps; i++) {
		const struct pt_step *s = &w->steps[i];
		char meaning[PTE_DESCRIBE_MAX];

		arch_pte_describe(s->level, s->pte, meaning, sizeof(meaning));
		printk("  L%u table 0x%llx [%4u] %0*llx  %s\n", s->level,
		       (unsigned long long)s->table_pa, s->index, (int)width,
		       (unsigned long long)s->pte, meaning);
	}
	if (w->mapped) {
		printk("  => 0x%llx -> pa 0x%llx %c%c%c %s%s%s%s\n", (unsigned long long)va,
		       (unsigned long long)w->pa, w->prot & PT_R ? 'r' : '-',
		       w->prot & PT_W ? 'w' : '-', w->prot & PT_X ? 'x' : '-',
		       w->prot & PT_USER ? "user" : "kernel", note ? " (" : "", note ? note : "",
		       note ? ")" : "");
	} else if (w->nr_steps) {
		printk("  => 0x%llx not mapped: translation fails at L%u\n", (unsigned long long)va,
		       w->steps[w->nr_steps - 1].level);
	}
}


