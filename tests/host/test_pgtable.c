/* mm/pgtable.c, the one page-table walker, over one preset's real descriptor format
 * (arch/<isa>/pte.c) and tables in host memory (fake/asm/memory.h), with a frame allocator of
 * its own that counts what is handed out and poisons what is free:
 *  - pt_map of pages across a table boundary: every page walks to its frame, the walk shows
 *    the steps and the prot, and the tables it needed are the ones expected;
 *  - PT_MAP_BLOCKS: pages up to a block boundary, then blocks, then pages again;
 *  - an existing leaf is refused (-EEXIST) unless PT_MAP_REPLACE, which flushes exactly the
 *    replaced leaves from the TLB; a block never replaces a table; unaligned pa is -EINVAL;
 *  - a run of leaves over a table with occupied slots in it: empty stretches filled, a
 *    non-zero invalid descriptor overwritten without a flush, a leaf stopping the run, also
 *    in the first slot of a run and in the last slot of a table;
 *  - blocks whose output addresses cross 4 GiB (i386's PSE-36 keeps bits 32-39 apart);
 *  - pt_visit, the one range traversal: unmap, protect and teardown as its callers write them
 *    (the helpers below) give every table back, a teardown of tables that are not live flushes
 *    nothing, leaves and tables come in address order with tables before their leaves, a
 *    callback's error stops the visit;
 *  - pt_print_walk prints one line per step with arch_pte_describe's words;
 *  - out of frames part-way (an allocator that fails after N frames), pt_map leaves no table it
 *    allocated behind, and an unmap frees empty tables even where it removes no leaf.
 * Built once per preset; CONFIG_* (from config.h) picks the format. */
#include "lib_under_test.h"

#include <arch/memory.h>
#include <arch/mmu.h>
#include <kernel/kernel.h>
#include <mm/pgtable.h>
#include <mm/pmm.h>

#include <sanitizer/asan_interface.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define PAGE ((uint64_t)1 << CONFIG_PAGE_SHIFT)
#define RAM_FRAMES 256

/* --- Fake RAM and frame allocator (what pt_alloc_table and teardown use). -------------------- */

uint8_t *host_ram;
phys_addr_t host_ram_pa;
uint64_t host_ram_size;
static bool frame_used[RAM_FRAMES];
static unsigned frames_out;
/* Frames the allocator still hands out before it fails; negative: no limit. */
static int alloc_budget = -1;

void *host_fake_va(phys_addr_t pa)
{
	if (pa < host_ram_pa || pa >= host_ram_pa + host_ram_size)
		fail_msg("__va(%#llx): not inside the fake RAM [%#llx, %#llx)", (unsigned long long)pa,
			 (unsigned long long)host_ram_pa,
			 (unsigned long long)(host_ram_pa + host_ram_size));
	return host_ram + (pa - host_ram_pa);
}

/* Lowest naturally aligned free run, zeroed, as the real allocator hands frames out. */
phys_addr_t pmm_alloc_pages(unsigned order)
{
	unsigned count = 1u << order;

	if (alloc_budget == 0)
		return 0;
	if (alloc_budget > 0)
		alloc_budget--;
	for (unsigned f = 0; f + count <= RAM_FRAMES; f += count) {
		unsigned i = 0;

		while (i < count && !frame_used[f + i])
			i++;
		if (i < count)
			continue;
		for (i = 0; i < count; i++)
			frame_used[f + i] = true;
		frames_out += count;
		ASAN_UNPOISON_MEMORY_REGION(host_ram + f * PAGE, count * PAGE);
		memset(host_ram + f * PAGE, 0, count * PAGE);
		return host_ram_pa + f * PAGE;
	}
	return 0;
}

void pmm_free_pages(phys_addr_t pa, unsigned order)
{
	unsigned count = 1u << order;
	uint64_t f = (pa - host_ram_pa) / PAGE;

	if (pa < host_ram_pa || f + count > RAM_FRAMES || (pa - host_ram_pa) % PAGE)
		fail_msg("freeing %#llx: not a frame of the fake RAM", (unsigned long long)pa);
	for (unsigned i = 0; i < count; i++) {
		if (!frame_used[f + i])
			fail_msg("double free of frame %#llx", (unsigned long long)(pa + i * PAGE));
		frame_used[f + i] = false;
	}
	frames_out -= count;
	/* A table used after it was freed is an ASan report. */
	ASAN_POISON_MEMORY_REGION(host_ram + f * PAGE, count * PAGE);
}

/* --- The hardware side and printk. ---------------------------------------------------------- */

static unsigned page_flushes;

void arch_pt_sync(void)
{
}

void arch_tlb_flush_page(uintptr_t va)
{
	page_flushes++;
}

static char printed[4096];
static size_t printed_len;

int vprintk(const char *fmt, va_list ap)
{
	int n = vsnprintf(printed + printed_len, sizeof(printed) - printed_len, fmt, ap);

	if (n > 0)
		printed_len = MIN(printed_len + (size_t)n, sizeof(printed) - 1);
	return n;
}

/* --- Helpers. ------------------------------------------------------------------------------- */

static const struct pt_geometry *g;
static unsigned last;
static uint64_t block;      /* the smallest block: what one last-level table covers */
static unsigned block_level;
static phys_addr_t root;

static uint64_t level_size(unsigned level)
{
	return (uint64_t)1 << g->shift[level];
}

/* Output addresses: va plus a block-aligned distance, so va and pa line up for blocks. */
static phys_addr_t pa_of(uint64_t va)
{
	return va + 4 * block;
}

static int setup(void **state)
{
	g = arch_pt_geometry();
	last = g->levels - 1;
	block_level = last - 1;
	block = level_size(block_level);
	host_ram_size = RAM_FRAMES * PAGE;
	host_ram = aligned_alloc(64 * 1024, host_ram_size);
	host_ram_pa = 0x80000000;
	ASAN_POISON_MEMORY_REGION(host_ram, host_ram_size);
	return host_ram ? 0 : -1;
}

static int teardown(void **state)
{
	ASAN_UNPOISON_MEMORY_REGION(host_ram, host_ram_size);
	free(host_ram);
	return 0;
}

/* Each test starts from a fresh root and must leave every frame free again. */
static int new_root(void **state)
{
	assert_true(arch_pte_leaf_allowed(block_level));
	assert_int_equal(frames_out, 0);
	alloc_budget = -1;
	root = pt_alloc_table(0);
	assert_true(root != 0);
	page_flushes = 0;
	printed_len = 0;
	printed[0] = '\0';
	return 0;
}

/* --- Unmap, protect and teardown as the kernel's callers write them: one visit each. ---- */

static int clear_leaf(const struct pt_leaf *l, void *ctx)
{
	pt_leaf_store(l, 0);
	pt_leaf_flush(l);
	(*(unsigned *)ctx)++;
	return 0;
}

/* Every leaf of [va, va + size) removed (their frames are the test's), the tables left empty
 * freed; the leaves removed. */
static unsigned unmap(uint64_t va, uint64_t size, unsigned flags)
{
	const struct pt_visit_ops ops = { .leaf = clear_leaf, .flags = PT_VISIT_FREE_EMPTY | flags };
	unsigned removed = 0;

	assert_int_equal(pt_visit(root, va, va + (size - 1), &ops, &removed), 0);
	return removed;
}

static int protect_leaf(const struct pt_leaf *l, void *ctx)
{
	pt_leaf_store(l, arch_pte_make_leaf(l->level, l->info.pa, *(unsigned *)ctx));
	pt_leaf_flush(l);
	return 0;
}

static void protect(uint64_t va, uint64_t size, unsigned prot)
{
	const struct pt_visit_ops ops = { .leaf = protect_leaf };

	assert_int_equal(pt_visit(root, va, va + (size - 1), &ops, &prot), 0);
}

static uint64_t root_reach(void)
{
	return (uint64_t)g->entries[0] << g->shift[0];
}

static int free_root(void **state)
{
	unmap(0, root_reach(), PT_VISIT_NOT_LIVE);
	pt_free_root(root);
	if (frames_out)
		fail_msg("%u frames still out after the teardown", frames_out);
	return 0;
}

/* Every step of a walk is the next level down, in the table the step above pointed to, at
 * va's index; every step but the last found a table. */
static void assert_steps_chain(uint64_t va, const struct pt_walk_result *w)
{
	phys_addr_t table = root;

	assert_true(w->nr_steps >= 1 && w->nr_steps <= g->levels);
	for (unsigned i = 0; i < w->nr_steps; i++) {
		const struct pt_step *s = &w->steps[i];

		assert_int_equal(s->level, i);
		assert_int_equal(s->table_pa, table);
		assert_int_equal(s->index, (va >> g->shift[i]) & (g->entries[i] - 1));
		if (i + 1 < w->nr_steps)
			assert_int_equal(s->info.kind, PTE_TABLE);
		table = s->info.pa;
	}
}

static void assert_maps(uint64_t va, phys_addr_t pa, unsigned want_level, unsigned prot)
{
	struct pt_walk_result w;

	pt_walk(root, (uintptr_t)va, &w);
	assert_steps_chain(va, &w);
	if (!w.mapped || w.pa != pa || w.steps[w.nr_steps - 1].level != want_level)
		fail_msg("va %#llx: mapped %d pa %#llx at L%u, want pa %#llx at L%u",
			 (unsigned long long)va, w.mapped, (unsigned long long)w.pa,
			 w.steps[w.nr_steps - 1].level, (unsigned long long)pa, want_level);
	assert_int_equal(w.prot & (PT_W | PT_USER), prot & (PT_W | PT_USER));
	assert_int_equal(w.nr_steps, want_level + 1);
}

static void assert_unmapped(uint64_t va)
{
	struct pt_walk_result w;

	pt_walk(root, (uintptr_t)va, &w);
	assert_false(w.mapped);
	assert_steps_chain(va, &w);
	/* Nothing to report but where it stopped: no address, no permissions. */
	assert_int_equal(w.pa, 0);
	assert_int_equal(w.prot, 0);
	assert_true(w.steps[w.nr_steps - 1].info.kind == PTE_INVALID ||
		    w.nr_steps == g->levels);
}

struct leaf_list {
	unsigned n;
	uint64_t va[16], size[16];
	phys_addr_t pa[16];
};

static int collect(const struct pt_leaf *leaf, void *ctx)
{
	struct leaf_list *l = ctx;

	if (l->n < 16) {
		l->va[l->n] = leaf->va;
		l->size[l->n] = leaf->size;
		l->pa[l->n] = leaf->info.pa;
	}
	l->n++;
	return 0;
}

static void collect_leaves(uint64_t lo, uint64_t hi, struct leaf_list *l)
{
	const struct pt_visit_ops ops = { .leaf = collect };

	assert_int_equal(pt_visit(root, lo, hi, &ops, l), 0);
}

#define USER_RW (PT_R | PT_W | PT_USER)
#define USER_RO (PT_R | PT_USER)

/* --- Tests. --------------------------------------------------------------------------------- */

/* Pages from 3 below a last-level table's end to 5 past the next one's start. */
static void test_pages_across_tables(void **state)
{
	const uint64_t va = 32 * block - 3 * PAGE;
	const uint64_t n = g->entries[last] + 8;
	unsigned before = frames_out;

	assert_int_equal(pt_map(root, (uintptr_t)va, pa_of(va), n * PAGE, USER_RW, 0), 0);
	for (uint64_t i = 0; i < n; i++)
		assert_maps(va + i * PAGE, pa_of(va + i * PAGE), last, USER_RW);
	assert_unmapped(va - PAGE);
	assert_unmapped(va + n * PAGE);
	/* Three last-level tables (the end of one, a whole one, the start of a third) and one
	 * table at each level between them and the root. */
	assert_int_equal(frames_out - before, 3 + (last - 1));
	/* The OOM report's pgtables: the same tables (none below va's half of the space is 0). */
	assert_int_equal(pt_table_frames(root, (uint64_t)g->entries[0] << g->shift[0]),
			 frames_out - before);
	assert_int_equal(pt_table_frames(root, va & ~(level_size(0) - 1)), 0);
	assert_int_equal(page_flushes, 0); /* nothing was live */
}

/* PT_MAP_BLOCKS: 2 pages up to a block boundary, 2 blocks, 3 pages. */
static void test_blocks_between_pages(void **state)
{
	const uint64_t va = 16 * block - 2 * PAGE;
	const uint64_t size = 2 * PAGE + 2 * block + 3 * PAGE;
	struct leaf_list l = { 0 };

	assert_int_equal(pt_map(root, (uintptr_t)va, pa_of(va), size, PT_R | PT_W, PT_MAP_BLOCKS),
			 0);
	collect_leaves(0, va + size + block - 1, &l);
	assert_int_equal(l.n, 7);
	for (unsigned i = 0; i < l.n; i++) {
		uint64_t want = i >= 2 && i < 4 ? block : PAGE;
		assert_int_equal(l.size[i], want);
		assert_int_equal(l.pa[i], pa_of(l.va[i]));
	}
	assert_int_equal(l.va[0], va);
	assert_int_equal(l.va[2], 16 * block);
	assert_int_equal(l.va[6], va + size - PAGE);
	assert_maps(16 * block + block / 2, pa_of(16 * block + block / 2), block_level, PT_R | PT_W);
}

/* An existing leaf stops a mapping: the pages before it are mapped, it keeps its frame. */
static void test_existing_leaf(void **state)
{
	const uint64_t va = 8 * block;

	assert_int_equal(pt_map(root, (uintptr_t)(va + 2 * PAGE), 0x10000 * PAGE, PAGE, USER_RO, 0),
			 0);
	assert_int_equal(pt_map(root, (uintptr_t)va, pa_of(va), 4 * PAGE, USER_RW, 0), -EEXIST);
	assert_maps(va, pa_of(va), last, USER_RW);
	assert_maps(va + PAGE, pa_of(va + PAGE), last, USER_RW);
	assert_maps(va + 2 * PAGE, 0x10000 * PAGE, last, USER_RO);
	assert_unmapped(va + 3 * PAGE);
	assert_int_equal(page_flushes, 0);
}

/* n pages from va mapped again with PT_MAP_REPLACE: all of them now map va's own frames
 * read-write, nothing after them is mapped, and `flushes` TLB flushes were made in all. */
static void assert_replaced_run(uint64_t va, unsigned n, unsigned flushes)
{
	assert_int_equal(pt_map(root, (uintptr_t)va, pa_of(va), n * PAGE, USER_RW, PT_MAP_REPLACE),
			 0);
	for (unsigned i = 0; i < n; i++)
		assert_maps(va + i * PAGE, pa_of(va + i * PAGE), last, USER_RW);
	assert_unmapped(va + n * PAGE);
	assert_int_equal(page_flushes, flushes);
}

/* PT_MAP_REPLACE: every leaf of the range replaced, and only the replaced ones flushed. */
static void test_replace(void **state)
{
	const uint64_t va = 8 * block;

	assert_int_equal(pt_map(root, (uintptr_t)(va + PAGE), pa_of(va), 2 * PAGE, USER_RO, 0), 0);
	assert_replaced_run(va, 4, 2);
}

/* One run of pages over a table that already holds a leaf and a non-zero invalid descriptor:
 * without PT_MAP_REPLACE the leaf stops it (after the pages before it); with it, every slot is
 * mapped, and only the slots that held leaves are flushed (the invalid one never was live). */
static void test_run_over_occupied_slots(void **state)
{
	const uint64_t va = 8 * block;
	const pte_t junk = 0x4; /* no type/present bits: invalid in every format */
	struct pt_walk_result w;
	struct pte_info info;

	assert_int_equal(pt_map(root, (uintptr_t)(va + 2 * PAGE), pa_of(va + 2 * PAGE), PAGE,
				USER_RO, 0),
			 0);
	pt_walk(root, (uintptr_t)(va + 2 * PAGE), &w);
	const struct pt_step *leaf = &w.steps[w.nr_steps - 1];
	arch_pte_decode(leaf->level, junk, &info);
	assert_int_equal(info.kind, PTE_INVALID);
	arch_pt_store(host_fake_va(leaf->table_pa), leaf->index + 3, junk); /* va + 5 pages */

	assert_int_equal(pt_map(root, (uintptr_t)va, pa_of(va), 8 * PAGE, USER_RW, 0), -EEXIST);
	assert_maps(va, pa_of(va), last, USER_RW);
	assert_maps(va + PAGE, pa_of(va + PAGE), last, USER_RW);
	assert_maps(va + 2 * PAGE, pa_of(va + 2 * PAGE), last, USER_RO);
	assert_unmapped(va + 3 * PAGE);
	assert_int_equal(page_flushes, 0);

	assert_replaced_run(va, 8, 3); /* the two pages of the first call and the RO one */
}

/* Occupied slots at the edges of runs: the last slot of a table (the run stops right at the
 * table's end, and the next run starts the next table) and the first slot of a run (nothing of
 * the range is mapped). */
static void test_occupied_run_edges(void **state)
{
	const uint64_t table_end = 16 * block, va = table_end - 4 * PAGE;

	assert_int_equal(pt_map(root, (uintptr_t)(table_end - PAGE), pa_of(va), PAGE, USER_RO, 0),
			 0);
	assert_int_equal(pt_map(root, (uintptr_t)va, pa_of(va), 8 * PAGE, USER_RW, 0), -EEXIST);
	for (unsigned i = 0; i < 3; i++)
		assert_maps(va + i * PAGE, pa_of(va + i * PAGE), last, USER_RW);
	assert_maps(table_end - PAGE, pa_of(va), last, USER_RO);
	assert_unmapped(table_end);

	/* Now the run's first slot holds a leaf: refused before anything is stored. */
	assert_int_equal(pt_map(root, (uintptr_t)(table_end - PAGE), pa_of(table_end - PAGE),
				2 * PAGE, USER_RW, 0),
			 -EEXIST);
	assert_unmapped(table_end);

	assert_replaced_run(va, 8, 4); /* the three pages of the first call and the RO one */
}

/* Blocks on both sides of 4 GiB of output address, each to its own: where a format keeps
 * the address bits above 31 apart (i386 4 MiB pages), consecutive descriptors do not differ
 * by the block size there. arm's short descriptors have no output address above 4 GiB. */
static void test_blocks_across_4g(void **state)
{
#ifdef CONFIG_ISA_ARM
	skip();
#else
	const uint64_t va = 8 * block;
	const phys_addr_t pa = 0x100000000ull - 2 * block;

	assert_int_equal(pt_map(root, (uintptr_t)va, pa, 4 * block, PT_R | PT_W, PT_MAP_BLOCKS), 0);
	for (unsigned i = 0; i < 4; i++)
		assert_maps(va + i * block + PAGE, pa + i * block + PAGE, block_level, PT_R | PT_W);
#endif
}

/* A block where a table already is would drop the subtree: refused. A page under a block
 * would need splitting it: refused too. */
static void test_block_and_table_conflicts(void **state)
{
	const uint64_t va = 8 * block;

	assert_int_equal(pt_map(root, (uintptr_t)(va + PAGE), pa_of(va + PAGE), PAGE, USER_RW, 0), 0);
	assert_int_equal(pt_map(root, (uintptr_t)va, pa_of(va), block, PT_R, PT_MAP_BLOCKS | PT_MAP_REPLACE),
			 -EEXIST);
	assert_maps(va + PAGE, pa_of(va + PAGE), last, USER_RW);
	assert_int_equal(pt_map(root, (uintptr_t)(va + block), pa_of(va + block), block, PT_R,
				PT_MAP_BLOCKS),
			 0);
	assert_int_equal(pt_map(root, (uintptr_t)(va + block + PAGE), pa_of(va), PAGE, PT_R, 0),
			 -EEXIST);
}

static void test_unaligned(void **state)
{
	assert_int_equal(pt_map(root, (uintptr_t)(8 * block), pa_of(8 * block) + 8, PAGE, PT_R, 0),
			 -EINVAL);
	assert_int_equal(pt_map(root, (uintptr_t)(8 * block), pa_of(8 * block), PAGE / 2, PT_R, 0),
			 -EINVAL);
	assert_unmapped(8 * block);
}

/* Unmapping everything gives the tables back, down to the root. */
static void test_unmap_frees_tables(void **state)
{
	const uint64_t va = 32 * block - 3 * PAGE;
	unsigned before = frames_out;

	assert_int_equal(pt_map(root, (uintptr_t)va, pa_of(va), 10 * PAGE, USER_RW, 0), 0);
	protect(va, 10 * PAGE, USER_RO);
	assert_maps(va + 4 * PAGE, pa_of(va + 4 * PAGE), last, USER_RO);
	assert_int_equal(unmap(va, 10 * PAGE, 0), 10);
	assert_unmapped(va + 4 * PAGE);
	assert_int_equal(frames_out, before);
}

/* A teardown of tables no CPU uses (PT_VISIT_NOT_LIVE): every table below the root back, and
 * not one TLB flush (the leaves' flushes are the callback's: none here). */
static int forget_leaf(const struct pt_leaf *l, void *ctx)
{
	pt_leaf_store(l, 0);
	return 0;
}

static void test_teardown_not_live(void **state)
{
	const struct pt_visit_ops ops = { .leaf = forget_leaf,
					  .flags = PT_VISIT_FREE_EMPTY | PT_VISIT_NOT_LIVE };
	unsigned before = frames_out;

	assert_int_equal(pt_map(root, (uintptr_t)(4 * block), pa_of(4 * block), 2 * PAGE, USER_RO, 0),
			 0);
	assert_int_equal(pt_map(root, (uintptr_t)(20 * block), pa_of(20 * block), PAGE, USER_RW, 0),
			 0);
	assert_true(frames_out > before);
	assert_int_equal(pt_visit(root, 4 * block, 4 * block + 2 * PAGE - 1, &ops, NULL), 0);
	assert_unmapped(4 * block);
	assert_maps(20 * block, pa_of(20 * block), last, USER_RW);
	assert_int_equal(pt_visit(root, 20 * block, 20 * block + PAGE - 1, &ops, NULL), 0);
	assert_int_equal(frames_out, before);
	assert_int_equal(page_flushes, 0);
}

/* The order of a visit: each table (below the root) before its leaves, leaves in address order,
 * and a leaf that starts below the range seen whole. */
struct trace {
	unsigned n;
	char kind[16];
	uint64_t va[16];
};

static int trace_leaf(const struct pt_leaf *l, void *ctx)
{
	struct trace *t = ctx;

	if (t->n < 16) {
		t->kind[t->n] = 'L';
		t->va[t->n] = l->va;
	}
	t->n++;
	return 0;
}

static int trace_table(unsigned level, phys_addr_t table, uint64_t va, void *ctx)
{
	struct trace *t = ctx;

	if (t->n < 16) {
		t->kind[t->n] = (char)('0' + level);
		t->va[t->n] = va;
	}
	t->n++;
	return 0;
}

static void test_visit_order(void **state)
{
	const uint64_t va = 16 * block - PAGE;
	const struct pt_visit_ops ops = { .leaf = trace_leaf, .table = trace_table };
	struct trace t = { 0 };

	/* A page at the end of one last-level table, a page at the start of the next. */
	assert_int_equal(pt_map(root, (uintptr_t)va, pa_of(va), 2 * PAGE, USER_RW, 0), 0);
	assert_int_equal(pt_visit(root, va + 1, va + PAGE, &ops, &t), 0);
	/* The tables from L1 down to the first page's, its page, the second last-level table, its
	 * page (the levels above are shared: 16 blocks lie in one table at every preset). */
	assert_int_equal(t.n, last + 3);
	for (unsigned i = 0; i < last; i++)
		assert_int_equal(t.kind[i], '0' + i + 1);
	assert_int_equal(t.kind[last], 'L');
	assert_int_equal(t.va[last], va); /* seen whole, from below the range's start */
	assert_int_equal(t.kind[last + 1], '0' + last);
	assert_int_equal(t.va[last + 1], va + PAGE);
	assert_int_equal(t.kind[last + 2], 'L');
	assert_int_equal(t.va[last + 2], va + PAGE);
}

/* A callback's error stops the visit there and is what pt_visit returns. */
static int stop_at_second(const struct pt_leaf *l, void *ctx)
{
	return ++*(unsigned *)ctx == 2 ? -EINTR : 0;
}

static void test_visit_stops_on_error(void **state)
{
	const uint64_t va = 8 * block;
	const struct pt_visit_ops ops = { .leaf = stop_at_second };
	unsigned seen = 0;

	assert_int_equal(pt_map(root, (uintptr_t)va, pa_of(va), 4 * PAGE, USER_RW, 0), 0);
	assert_int_equal(pt_visit(root, va, va + 4 * PAGE - 1, &ops, &seen), -EINTR);
	assert_int_equal(seen, 2);
}

/* A root slot no other test uses, whatever the root's size (arm64 16K/VA48: two slots). */
static uint64_t fresh_slot_va(void)
{
	return MIN(3u, g->entries[0] - 1) * level_size(0);
}

/* The walk of va stops in the root: nothing below it is linked. */
static void assert_no_table_below_root(uint64_t va)
{
	struct pt_walk_result w;

	pt_walk(root, (uintptr_t)va, &w);
	assert_int_equal(w.nr_steps, 1);
	assert_int_equal(w.steps[0].info.kind, PTE_INVALID);
}

/* A page where no table exists yet needs one table per level below the root. With fewer
 * frames than that, pt_map fails with -ENOMEM and takes back every table it allocated. */
static void test_map_out_of_frames_frees_new_tables(void **state)
{
	const uint64_t va = fresh_slot_va() + 5 * PAGE;

	for (unsigned budget = 0; budget < last; budget++) {
		unsigned before = frames_out;

		alloc_budget = (int)budget;
		assert_int_equal(pt_map(root, (uintptr_t)va, pa_of(va), PAGE, USER_RW, 0), -ENOMEM);
		if (frames_out != before)
			fail_msg("budget %u: %u frames out before, %u after", budget, before, frames_out);
		assert_no_table_below_root(va);
	}
	alloc_budget = last;
	assert_int_equal(pt_map(root, (uintptr_t)va, pa_of(va), PAGE, USER_RW, 0), 0);
	assert_maps(va, pa_of(va), last, USER_RW);
}

/* Under tables that exist, only the missing last-level table is new; when it cannot be had,
 * the tables that were there stay (they hold the other page), and nothing else is left. */
static void test_map_out_of_frames_keeps_old_tables(void **state)
{
	const uint64_t va = fresh_slot_va(), far = va + 2 * block;
	unsigned before;

	assert_int_equal(pt_map(root, (uintptr_t)va, pa_of(va), PAGE, USER_RW, 0), 0);
	before = frames_out;
	alloc_budget = 0;
	assert_int_equal(pt_map(root, (uintptr_t)far, pa_of(far), PAGE, USER_RW, 0), -ENOMEM);
	assert_int_equal(frames_out, before);
	assert_maps(va, pa_of(va), last, USER_RW);
	assert_unmapped(far);
	alloc_budget = -1;
	assert_int_equal(unmap(va, PAGE, 0), 1);
	assert_no_table_below_root(va);
}

/* A range over two last-level tables, out of frames for the second: the pages under the first
 * stay mapped (pt_map maps what it can, like an -EEXIST stop), no empty table is left, and
 * unmapping the range gives back every table. */
static void test_map_range_out_of_frames(void **state)
{
	const uint64_t va = fresh_slot_va() + block - 2 * PAGE;
	unsigned before = frames_out;

	alloc_budget = (int)last; /* the tables down to the first last-level table */
	assert_int_equal(pt_map(root, (uintptr_t)va, pa_of(va), 4 * PAGE, USER_RW, 0), -ENOMEM);
	assert_maps(va, pa_of(va), last, USER_RW);
	assert_maps(va + PAGE, pa_of(va + PAGE), last, USER_RW);
	assert_unmapped(va + 2 * PAGE);
	assert_int_equal(frames_out - before, last);
	alloc_budget = -1;
	assert_int_equal(unmap(va, 4 * PAGE, 0), 2);
	assert_int_equal(frames_out, before);
}

/* Tables with no leaf under them (as a failed map used to leave): an unmap of their range
 * frees them though it removes nothing, and one over a wider range frees them too. */
static void test_unmap_frees_empty_tables(void **state)
{
	const uint64_t va = fresh_slot_va() + 7 * PAGE;
	unsigned before = frames_out;
	struct pt_walk_result w;

	for (unsigned round = 0; round < 2; round++) {
		assert_int_equal(pt_map(root, (uintptr_t)va, pa_of(va), PAGE, USER_RW, 0), 0);
		pt_walk(root, (uintptr_t)va, &w);
		const struct pt_step *leaf = &w.steps[w.nr_steps - 1];
		arch_pt_store(host_fake_va(leaf->table_pa), leaf->index, 0); /* leaf gone, tables stay */
		assert_int_equal(frames_out - before, last);
		if (round == 0)
			assert_int_equal(unmap(va, PAGE, 0), 0);
		else
			assert_int_equal(unmap(PAGE, va + 8 * block, 0), 0);
		assert_int_equal(frames_out, before);
		assert_no_table_below_root(va);
	}
}

/* `pt walk` output: one line per level with the entry's description, then the result. */
static void test_print_walk(void **state)
{
	const uint64_t va = 8 * block + 5 * PAGE;
	struct pt_walk_result w;
	char want[PTE_DESCRIBE_MAX], line[256];

	assert_int_equal(pt_map(root, (uintptr_t)va, pa_of(va), PAGE, USER_RW, 0), 0);
	pt_walk(root, (uintptr_t)(va + 0x10), &w);
	pt_print_walk((uintptr_t)(va + 0x10), &w);
	const struct pt_step *s = &w.steps[w.nr_steps - 1];
	arch_pte_describe(s->level, s->pte, want, sizeof(want));
	snprintf(line, sizeof(line), "  L%u table 0x%llx [%4u] %0*llx  %s\n", s->level,
		 (unsigned long long)s->table_pa, s->index, (int)g->pte_bytes * 2,
		 (unsigned long long)s->pte, want);
	assert_non_null(strstr(printed, line));
	snprintf(line, sizeof(line), "  => 0x%llx -> pa 0x%llx rw%c user\n",
		 (unsigned long long)(va + 0x10), (unsigned long long)(pa_of(va) + 0x10),
		 g->always_granted & PT_X ? 'x' : '-');
	assert_non_null(strstr(printed, line));
	assert_int_equal(w.nr_steps, last + 1);

	printed_len = 0;
	pt_walk(root, (uintptr_t)(va + PAGE), &w);
	pt_print_walk((uintptr_t)(va + PAGE), &w);
	snprintf(line, sizeof(line), "  => 0x%llx not mapped: translation fails at L%u\n",
		 (unsigned long long)(va + PAGE), last);
	assert_non_null(strstr(printed, line));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_pages_across_tables, new_root, free_root),
		cmocka_unit_test_setup_teardown(test_blocks_between_pages, new_root, free_root),
		cmocka_unit_test_setup_teardown(test_existing_leaf, new_root, free_root),
		cmocka_unit_test_setup_teardown(test_replace, new_root, free_root),
		cmocka_unit_test_setup_teardown(test_run_over_occupied_slots, new_root, free_root),
		cmocka_unit_test_setup_teardown(test_occupied_run_edges, new_root, free_root),
		cmocka_unit_test_setup_teardown(test_blocks_across_4g, new_root, free_root),
		cmocka_unit_test_setup_teardown(test_block_and_table_conflicts, new_root, free_root),
		cmocka_unit_test_setup_teardown(test_unaligned, new_root, free_root),
		cmocka_unit_test_setup_teardown(test_unmap_frees_tables, new_root, free_root),
		cmocka_unit_test_setup_teardown(test_teardown_not_live, new_root, free_root),
		cmocka_unit_test_setup_teardown(test_visit_order, new_root, free_root),
		cmocka_unit_test_setup_teardown(test_visit_stops_on_error, new_root, free_root),
		cmocka_unit_test_setup_teardown(test_print_walk, new_root, free_root),
		cmocka_unit_test_setup_teardown(test_map_out_of_frames_frees_new_tables, new_root,
						free_root),
		cmocka_unit_test_setup_teardown(test_map_out_of_frames_keeps_old_tables, new_root,
						free_root),
		cmocka_unit_test_setup_teardown(test_map_range_out_of_frames, new_root, free_root),
		cmocka_unit_test_setup_teardown(test_unmap_frees_empty_tables, new_root, free_root),
	};

	return cmocka_run_group_tests_name("pgtable." CONFIG_PRESET, tests, setup, teardown);
}
