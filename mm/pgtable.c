/* The one page-table walker. It knows nothing of any format: the arch's geometry says how a VA
 * splits into indices, and its encoders say what a descriptor means. Tables are reached through
 * the kernel's linear map (__va).
 *
 * One traversal, pt_visit, goes over what a range holds: through its callers unmapping,
 * mprotect, teardown, fork's copy, the dump and the table count. pt_map fills a range with
 * its own loop (below). pt_walk follows one address down, step by step, for `pt walk` and
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

/* One slot of the range at `level` (size bytes from va; lo and hi the range's part in it): a
 * table descended into (freed afterwards if
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
	if (info.kind == PTE_TABLE && level < last_level()) {
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
 * non-zero slot. With empty (the caller frees an empty table: PT_VISIT_FREE_EMPTY), *empty
 * says whether the table holds nothing afterwards (also after an error). */
static int visit_table(const struct visit *vs, unsigned level, phys_addr_t table, uint64_t base,
		       uint64_t lo, uint64_t hi, bool *empty)
{
	void *t = table_va(table);
	unsigned shift = geo()->shift[level], n = geo()->entries[level];
	uint64_t size = level_size(level);
	unsigned first = (unsigned)((lo - base) >> shift);
	unsigned end = (unsigned)MIN((hi - base) >> shift, (uint64_t)n - 1) + 1;
	bool kept = false;
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
		if ((i = next_nonzero(t, i, stop)) == stop) {
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

/* --- Mapping. ---------------------------------------------------------------------------------
 * Map builds where the visitor finds: it goes down once per table the range needs, making the
 * missing tables on the way, then stores that table's leaves in a row, so it has a short loop
 * of its own instead of the visitor's callbacks (docs/benchmarks.md says what that saves at
 * boot, where the kernel's own tables are mapped). */

/* The level of the largest leaf that maps va to pa with `remaining` bytes to go: the last level
 * unless PT_MAP_BLOCKS allows a block and va, pa and the size line up with one. -EINVAL when not
 * even a page fits (va or pa unaligned). */
static int leaf_level(uint64_t va, phys_addr_t pa, uint64_t remaining, unsigned flags)
{
	unsigned first = (flags & PT_MAP_BLOCKS) ? 0 : last_level();

	for (unsigned level = first; level <= last_level(); level++) {
		uint64_t size = level_size(level);

		/* va and pa both aligned to the leaf's size: so is their OR */
		if (IS_ALIGNED(va | pa, size) && remaining >= size && arch_pte_leaf_allowed(level))
			return (int)level;
	}
	return -EINVAL;
}

/* Take back what table_for allocated for va before it ran out: va's entry in the table at
 * `level` (tv) leads to a chain of new tables, each holding only the entry to the next, down to
 * `below` (exclusive). Unlinked and flushed first (a walk may have cached the new entries, though
 * they led to no page), then freed: no walk can reach a freed table. */
static void free_new_chain(void *tv, unsigned level, uint64_t va, unsigned below)
{
	unsigned idx = pt_index(level, va);
	struct pte_info info;

	decode_slot(level, arch_pt_load(tv, idx), &info);
	arch_pt_store(tv, idx, 0);
	arch_pt_sync();
	arch_tlb_flush_page((uintptr_t)va);
	for (unsigned l = level + 1; l < below; l++) {
		phys_addr_t t = info.pa;
		void *v = table_va(t);
		unsigned n = geo()->entries[l], slot = next_nonzero(v, 0, n);

		if (slot < n) { /* the last table of the chain has no entry */
			decode_slot(l, arch_pt_load(v, slot), &info);
			arch_pt_store(v, slot, 0);
		}
		free_table(l, t);
	}
}

/* Find the table that holds va's slot at `level`, allocating the tables missing on the way.
 * Returns 0, -ENOMEM, or -EEXIST when a block already covers va (blocks are not split). When an
 * allocation fails, the tables this call allocated are freed again: a failed map leaves no
 * empty table linked, which nothing would ever free (teardown and munmap go by leaves and
 * VMAs). */
static int table_for(phys_addr_t root, uint64_t va, unsigned level, phys_addr_t *table)
{
	phys_addr_t t = root;
	void *first_parent = NULL; /* the table whose entry leads to the first new one */
	unsigned first_level = 0;

	for (unsigned l = 0; l < level; l++) {
		void *tv = table_va(t);
		unsigned idx = pt_index(l, va);
		struct pte_info info;

		decode_slot(l, arch_pt_load(tv, idx), &info);
		if (info.kind == PTE_TABLE) {
			t = info.pa;
			continue;
		}
		if (info.kind != PTE_INVALID)
			return -EEXIST;
		phys_addr_t next = pt_alloc_table(l + 1);
		if (!next) {
			if (first_parent)
				free_new_chain(first_parent, first_level, va, l + 1);
			return -ENOMEM;
		}
		if (!first_parent) {
			first_parent = tv;
			first_level = l;
		}
		/* The new table's zeroes must reach the walker before the entry leading to it. */
		arch_pt_sync();
		arch_pt_store(tv, idx, arch_pte_make_table(l, next));
		t = next;
	}
	*table = t;
	return 0;
}

/* One occupied slot of a run: an invalid descriptor (not all zero) is overwritten, a leaf only
 * with PT_MAP_REPLACE (and flushed from the TLB), a table never. Returns 0 or -EEXIST. */
static int replace_slot(void *t, unsigned level, unsigned idx, uint64_t va, phys_addr_t pa,
			unsigned prot, unsigned flags)
{
	struct pte_info old;

	arch_pte_decode(level, arch_pt_load(t, idx), &old);
	if (old.kind == PTE_TABLE || (old.kind != PTE_INVALID && !(flags & PT_MAP_REPLACE)))
		return -EEXIST;
	arch_pt_store(t, idx, arch_pte_make_leaf(level, pa, prot));
	if (old.kind != PTE_INVALID)
		arch_tlb_flush_page((uintptr_t)va);
	return 0;
}

/* Store leaves of one size into consecutive slots of one table, from va on, while they fit in
 * the table and in the range: a range is walked down to once per table, not once per page (a
 * table ends exactly where the next bigger leaf could start). An empty slot simply gets its
 * leaf; an occupied one goes through replace_slot. Returns the bytes mapped, or -EEXIST when the
 * first slot holds a table, or a leaf that PT_MAP_REPLACE does not allow to replace; a later
 * such slot ends the run, and the next one reports it. */
static int64_t fill_leaves(phys_addr_t table, unsigned level, uint64_t va, phys_addr_t pa,
			   uint64_t remaining, unsigned prot, unsigned flags)
{
	void *t = table_va(table);
	uint64_t size = level_size(level);
	unsigned first = pt_index(level, va);
	/* Up to the end of the table or of the range: at least one slot, as leaf_level chose a
	 * leaf the range fills. */
	uint64_t room = geo()->entries[level] - first, wanted = remaining >> geo()->shift[level];
	unsigned count = (unsigned)(wanted < room ? wanted : room);

	for (unsigned i = 0; i < count; i++) {
		uint64_t offset = (uint64_t)i * size;
		int err = 0;

		if (pte_is_zero(arch_pt_load(t, first + i)))
			arch_pt_store(t, first + i, arch_pte_make_leaf(level, pa + offset, prot));
		else
			err = replace_slot(t, level, first + i, va + offset, pa + offset, prot, flags);
		if (err)
			return offset ? (int64_t)offset : err;
	}
	return (int64_t)((uint64_t)count * size);
}

/* Map the leaves of one table from va on; returns the bytes they cover, or a -errno. */
static int64_t map_run(phys_addr_t root, uint64_t va, phys_addr_t pa, uint64_t remaining,
		       unsigned prot, unsigned flags)
{
	int level = leaf_level(va, pa, remaining, flags);
	phys_addr_t table;

	if (level < 0)
		return level;
	int err = table_for(root, va, (unsigned)level, &table);
	if (err)
		return err;
	return fill_leaves(table, (unsigned)level, va, pa, remaining, prot, flags);
}

int pt_map(phys_addr_t root, uintptr_t va, phys_addr_t pa, size_t size, unsigned prot,
	   unsigned flags)
{
	uint64_t v = va, remaining = size;

	while (remaining) {
		int64_t done = map_run(root, v, pa, remaining, prot, flags);
		if (done < 0) {
			arch_pt_sync();
			return (int)done;
		}
		v += (uint64_t)done;
		pa += (uint64_t)done;
		remaining -= (uint64_t)done;
	}
	arch_pt_sync();
	return 0;
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


