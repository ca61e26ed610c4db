/* mm/vma.c: get_unmapped_area top-down and bottom-up with Linux's semantics, mmap/munmap/brk
 * argument checks and VMA splitting, on a fake arch whose page tables are stubs (the VMA layer
 * must not depend on what the tables hold). */
#include "lib_under_test.h"
#include <arch/memory.h>
#include <arch/mmu.h>
#include <mm/layout.h>
#include <mm/mm.h>
#include <mm/pgtable.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* Fake arch and page tables: nothing is ever mapped. */
uint64_t get_random_u64(void) { return 0; }
phys_addr_t pt_alloc_table(unsigned level) { return 0x1000; }
void arch_pt_init_user_root(void *root_va) {}
void arch_tlb_flush_all(void) {}
void arch_tlb_flush_page(uintptr_t va) {}
void pt_walk(phys_addr_t root, uintptr_t va, struct pt_walk_result *out)
{
	memset(out, 0, sizeof(*out));
}
int pt_map(phys_addr_t root, uintptr_t va, phys_addr_t pa, size_t size, unsigned prot,
	   unsigned flags) { return 0; }
phys_addr_t pmm_alloc_pages(unsigned order) { return 0; }
void pmm_free_pages(phys_addr_t pa, unsigned order) {}
int mm_map_new_page(struct mm *m, uint64_t va, unsigned prot, phys_addr_t *pa_out) { return -12; }

/* mprotect's page-table half: the last range a leaf visit (no table freeing: not an unmap)
 * covered and the permissions its leaf callback encoded. One fake leaf at the range's start. */
static uint64_t protected_va, protected_size;
static unsigned protected_prot;
unsigned pmm_page_refs(phys_addr_t pa) { return 1; }
bool pmm_page_put(phys_addr_t pa) { return true; }
void pt_free_root(phys_addr_t root) {}
void pt_leaf_store(const struct pt_leaf *leaf, pte_t pte) {}
void pt_leaf_flush(const struct pt_leaf *leaf) {}
/* mm_destroy's per-table loop (drop_table): the fake visitor never hands it a table. */
static const struct pt_geometry fake_geometry = { .levels = 1 };
const struct pt_geometry *arch_pt_geometry(void) { return &fake_geometry; }
pte_t arch_pt_load(const void *table, unsigned idx) { return 0; }
void arch_pt_store(void *table, unsigned idx, pte_t pte) {}
bool arch_pte_is_page(pte_t pte) { return false; }
phys_addr_t arch_pte_page_pa(pte_t pte) { return 0; }
pte_t arch_pte_make_leaf(unsigned level, phys_addr_t pa, unsigned prot)
{
	protected_prot = prot;
	return 0;
}
int pt_visit(phys_addr_t root, uint64_t lo, uint64_t hi, const struct pt_visit_ops *ops,
	     void *ctx)
{
	struct pt_leaf leaf = { .va = lo, .size = PAGE_SIZE, .info = { .kind = PTE_PAGE } };

	if (ops->flags & PT_VISIT_FREE_EMPTY)
		return 0;
	protected_va = lo;
	protected_size = hi - lo + 1;
	return ops->leaf ? ops->leaf(&leaf, ctx) : 0;
}

#define P PAGE_SIZE

static struct mm mm;

static void setup_mm(bool legacy)
{
	memset(&mm, 0, sizeof(mm));
	mm.root = 0x1000;
	task_geometry(false, &mm.geo);
	mmap_range(&mm.geo, RLIMIT_STACK_DEFAULT, false, legacy, 8, &mm.range);
	mm.mmap_base = mmap_base_at(&mm.range, 0);
	mm.stack_top = mm.geo.stack_top;
	assert_int_equal(vma_insert(&mm, mm.stack_top - 32 * P, mm.stack_top, PT_R | PT_W, VMA_STACK, 0), 0);
	assert_int_equal(vma_insert(&mm, 0x10 * P, 0x20 * P, PT_R | PT_X, VMA_IMAGE, 0), 0);
}

static void teardown(void)
{
	mm.root = 0x1000;
	mm_destroy(&mm);
}

static void test_topdown(void **state)
{
	setup_mm(false);
	uint64_t base = mm.mmap_base;
	/* The first map lands right below mmap_base, the next one right below that. */
	assert_int_equal(do_mmap(&mm, 0, P, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS), base - P);
	assert_int_equal(do_mmap(&mm, 0, 3 * P, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS), base - 4 * P);
	/* Unmapping the first leaves a one-page hole that a one-page map refills (highest fit). */
	assert_int_equal(do_munmap(&mm, base - P, P), 0);
	assert_int_equal(do_mmap(&mm, 0, P, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS), base - P);
	/* A two-page request does not fit the hole above... it goes below the others. */
	assert_int_equal(do_munmap(&mm, base - P, P), 0);
	assert_int_equal(do_mmap(&mm, 0, 2 * P, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS), base - 6 * P);
	teardown();
}

static void test_topdown_fallback(void **state)
{
	setup_mm(false);
	int anon = MAP_PRIVATE | MAP_ANONYMOUS;
	uint64_t ub = mm.geo.unmapped_base;
	/* Split the top-down area at TASK_UNMAPPED_BASE; then ask for more than either piece. The
	 * request fits bottom-up from TASK_UNMAPPED_BASE (which also spans the stack gap), where
	 * Linux retries when the top-down search fails. */
	assert_int_equal(do_mmap(&mm, ub - P, P, PROT_READ, anon | MAP_FIXED), ub - P);
	uint64_t len = mm.mmap_base - ub + P;
	assert_true(len > ub - P - 0x20 * P);
	assert_int_equal(do_mmap(&mm, 0, len, PROT_READ, anon), ub);
	/* The whole address space is too much. */
	assert_int_equal(do_mmap(&mm, 0, mm.geo.task_size, PROT_READ, anon), -12);
	teardown();
}

static void test_bottomup(void **state)
{
	setup_mm(true);
	uint64_t base = mm.mmap_base;
	assert_int_equal(base, mm.geo.unmapped_base);
	assert_int_equal(do_mmap(&mm, 0, P, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS), base);
	assert_int_equal(do_mmap(&mm, 0, 2 * P, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS), base + P);
	assert_int_equal(do_munmap(&mm, base, P), 0);
	assert_int_equal(do_mmap(&mm, 0, P, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS), base);
	teardown();
}

static void test_arguments(void **state)
{
	setup_mm(false);
	int anon = MAP_PRIVATE | MAP_ANONYMOUS;
	assert_int_equal(do_mmap(&mm, 0, 0, PROT_READ, anon), -22);          /* len 0 */
	assert_true(do_mmap(&mm, 0, P, 0x100 | PROT_READ, anon) > 0);       /* unknown PROT bits: ignored */
	assert_int_equal(do_mmap(&mm, 0, P, PROT_READ, anon | MAP_FIXED), -1); /* below mmap_min_addr: EPERM */
	assert_int_equal(do_mmap(&mm, 0, P, PROT_READ, MAP_PRIVATE), -9);    /* a file: EBADF */
	assert_int_equal(do_mmap(&mm, 0, P, PROT_READ, MAP_ANONYMOUS), -22); /* neither shared nor private */
	/* The type is a 4-bit field, not two flags: MAP_SHARED_VALIDATE (3) is for files only,
	 * and 5 (shared with a stray bit) is no type at all (Linux's do_mmap). */
	assert_int_equal(do_mmap(&mm, 0, P, PROT_READ, MAP_ANONYMOUS | MAP_SHARED_VALIDATE), -22);
	assert_int_equal(do_mmap(&mm, 0, P, PROT_READ, MAP_ANONYMOUS | MAP_SHARED | 0x4), -22);
	assert_int_equal(do_mmap(&mm, 123, P, PROT_READ, anon | MAP_FIXED), -22); /* unaligned fixed */
	assert_int_equal(do_munmap(&mm, 123, P), -22);
	assert_int_equal(do_munmap(&mm, P, 0), -22);
	assert_int_equal(do_munmap(&mm, mm.geo.task_size, P), -22);
	/* A free hint is honoured; a taken one is not. */
	assert_int_equal(do_mmap(&mm, 0x100 * P, P, PROT_READ, anon), 0x100 * P);
	assert_true(do_mmap(&mm, 0x100 * P, P, PROT_READ, anon) != (int64_t)(0x100 * P));
	teardown();
}

static void test_fixed_split(void **state)
{
	setup_mm(false);
	int anon = MAP_PRIVATE | MAP_ANONYMOUS;
	uint64_t a = 0x1000 * P;
	assert_int_equal(do_mmap(&mm, a, 8 * P, PROT_READ, anon | MAP_FIXED), a);
	unsigned before = mm.nr_vmas;
	/* MAP_FIXED in the middle splits the old VMA in three. */
	assert_int_equal(do_mmap(&mm, a + 2 * P, 2 * P, PROT_READ | PROT_WRITE, anon | MAP_FIXED), a + 2 * P);
	assert_int_equal(mm.nr_vmas, before + 2);
	assert_int_equal(vma_find(&mm, a + P)->end, a + 2 * P);
	assert_int_equal(vma_find(&mm, a + 2 * P)->prot & PT_W, PT_W);
	assert_int_equal(vma_find(&mm, a + 4 * P)->start, a + 4 * P);
	/* Unmapping a range that spans all three leaves nothing there. */
	assert_int_equal(do_munmap(&mm, a, 8 * P), 0);
	assert_null(vma_find(&mm, a + 3 * P));
	assert_int_equal(mm.nr_vmas, before - 1);
	teardown();
}

static void test_brk(void **state)
{
	setup_mm(false);
	mm.start_brk = mm.brk = 0x40 * P;
	assert_int_equal(do_brk(&mm, 0), 0x40 * P);               /* query */
	assert_int_equal(do_brk(&mm, 0x40 * P + 10), 0x40 * P + 10);
	assert_int_equal(vma_find(&mm, 0x40 * P)->kind, VMA_HEAP);
	assert_int_equal(do_brk(&mm, 0x44 * P), 0x44 * P);
	assert_int_equal(vma_find(&mm, 0x43 * P)->kind, VMA_HEAP);
	assert_int_equal(do_brk(&mm, 0x41 * P), 0x41 * P);        /* shrink */
	assert_null(vma_find(&mm, 0x42 * P));
	assert_int_equal(do_brk(&mm, 0x3f * P), 0x41 * P);        /* below start_brk: refused */
	teardown();
}

/* stack_guard_gap below the stack (Linux's vm_start_gap): a hinted mmap ending inside it is
 * placed elsewhere, one ending right at its edge is honoured, MAP_FIXED may go inside. */
static void test_hint_guard_gap(void **state)
{
	setup_mm(false);
	int anon = MAP_PRIVATE | MAP_ANONYMOUS;
	uint64_t stack = vma_find(&mm, mm.stack_top - P)->start, gap = mm.geo.guard_gap;
	assert_int_equal(gap, 256 * P);
	assert_int_equal(do_mmap(&mm, stack - P, P, PROT_READ, anon), mm.mmap_base - P);
	assert_int_equal(do_mmap(&mm, stack - gap, P, PROT_READ, anon), mm.mmap_base - 2 * P);
	assert_int_equal(do_mmap(&mm, stack - gap - 2 * P, 2 * P, PROT_READ, anon),
			 stack - gap - 2 * P);
	assert_int_equal(do_mmap(&mm, stack - 2 * P, P, PROT_READ, anon | MAP_FIXED), stack - 2 * P);
	/* A hint inside the stack itself is no place either. */
	assert_int_equal(do_mmap(&mm, stack + P, P, PROT_READ, anon), mm.mmap_base - 3 * P);
	teardown();
}

/* brk stops a guard gap below the stack, and a page below any other mapping (Linux's test in
 * brk: newbrk + PAGE_SIZE <= vm_start_gap(next)). */
static void test_brk_guard_gap(void **state)
{
	setup_mm(false);
	uint64_t stack = vma_find(&mm, mm.stack_top - P)->start, gap = mm.geo.guard_gap;
	mm.start_brk = mm.brk = stack - gap - 8 * P;
	assert_int_equal(do_brk(&mm, stack - gap - P), stack - gap - P);
	assert_int_equal(do_brk(&mm, stack - gap - P + 1), stack - gap - P); /* refused */
	assert_int_equal(do_brk(&mm, stack - P), stack - gap - P);            /* refused */
	assert_null(vma_find(&mm, stack - gap));

	uint64_t other = 0x1000 * P;
	assert_int_equal(do_mmap(&mm, other, P, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED),
			 other);
	mm.start_brk = mm.brk = other - 8 * P;
	assert_int_equal(do_brk(&mm, other - P), other - P);
	assert_int_equal(do_brk(&mm, other), other - P); /* refused: flush against the mapping */
	teardown();
}

/* mm/vma.c's pool, and how many address spaces of MM_MAX_VMAS it takes to run it dry (the
 * last one partly filled, or empty when the pool divides evenly). */
#define POOL_VMAS VMA_POOL_SIZE
#define POOL_MMS (POOL_VMAS / MM_MAX_VMAS + 1)

static void init_bare_mm(struct mm *m)
{
	memset(m, 0, sizeof(*m));
	m->root = 0x1000;
	task_geometry(false, &m->geo);
}

/* One-page VMAs at every other page from 0x100 up, each with its own prot, kind and offset. */
static uint64_t nth_start(unsigned k)
{
	return (0x100 + 2 * (uint64_t)k) * P;
}

static int insert_nth(struct mm *m, unsigned k)
{
	return vma_insert(m, nth_start(k), nth_start(k) + P, k % 2 ? PT_R : PT_R | PT_W,
			  k % 3 ? VMA_ANON : VMA_IMAGE, k * P);
}

/* Fill fresh address spaces, up to MM_MAX_VMAS each, until the pool runs dry; returns how many
 * VMAs that took. */
static unsigned fill_pool(struct mm *mms, unsigned nr_mms)
{
	unsigned total = 0;

	for (unsigned i = 0; i < nr_mms; i++) {
		init_bare_mm(&mms[i]);
		for (unsigned k = 0; k < MM_MAX_VMAS; k++) {
			int err = insert_nth(&mms[i], k);
			if (err) {
				assert_int_equal(err, -12);
				return total;
			}
			total++;
		}
	}
	return total;
}

/* Every VMA of m is exactly what insert_nth made: nothing left over from an earlier owner. */
static void check_vmas(struct mm *m)
{
	unsigned k = 0;

	for (struct vma *v = m->vmas; v; v = v->next, k++) {
		assert_int_equal(v->start, nth_start(k));
		assert_int_equal(v->end, nth_start(k) + P);
		assert_int_equal(v->prot, k % 2 ? PT_R : PT_R | PT_W);
		assert_int_equal(v->kind, k % 3 ? VMA_ANON : VMA_IMAGE);
		assert_int_equal(v->file_offset, k * P);
		assert_int_equal(v->shared_pa, 0);
	}
	assert_int_equal(k, m->nr_vmas);
}

/* The pool hands out each of its VMAs once (never-used slots first, then released ones), runs
 * dry at its size, refuses a split cleanly when dry, and gets every VMA back. */
static void test_pool(void **state)
{
	static struct mm mms[POOL_MMS];

	assert_int_equal(fill_pool(mms, POOL_MMS), POOL_VMAS);
	assert_int_equal(mms[POOL_MMS - 1].nr_vmas, POOL_VMAS - (POOL_MMS - 1) * MM_MAX_VMAS);
	for (unsigned i = 0; i < POOL_MMS; i++)
		check_vmas(&mms[i]);
	/* Dry: a hole punched in the middle of a VMA needs a second one, and nothing changes. */
	uint64_t big = nth_start(MM_MAX_VMAS);
	/* (One VMA given back by a full address space, taken by the last, which holds few: its
	 * map count is far from the limit, so only the pool refuses.) */
	struct mm *full = &mms[POOL_MMS - 2], *last = &mms[POOL_MMS - 1];
	assert_int_equal(do_munmap(full, nth_start(0), P), 0);
	assert_int_equal(vma_insert(last, big, big + 4 * P, PT_R, VMA_ANON, 0), 0);
	assert_true(last->nr_vmas < MM_MAX_VMAS);
	assert_int_equal(do_munmap(last, big + P, P), -12);
	assert_int_equal(vma_find(last, big + P)->end, big + 4 * P);

	/* Released VMAs, marked shared first, come back clean to another address space. */
	for (unsigned k = 0; k < MM_MAX_VMAS; k++)
		vma_set_shared(&mms[0], nth_start(k), 0x5000);
	mm_destroy(&mms[0]);
	assert_int_equal(fill_pool(mms, 1), MM_MAX_VMAS);
	check_vmas(&mms[0]);

	for (unsigned i = 0; i < POOL_MMS; i++) {
		mms[i].root = 0x1000;
		mm_destroy(&mms[i]);
	}
	/* All of them came back: the same number again. */
	assert_int_equal(fill_pool(mms, POOL_MMS), POOL_VMAS);
	for (unsigned i = 0; i < POOL_MMS; i++)
		mm_destroy(&mms[i]);
}

/* The map count limit (Linux's vm.max_map_count; here MM_MAX_VMAS per process, the pool's
 * share): at it, mmap is ENOMEM, and so are munmap and MAP_FIXED when they would split a VMA;
 * nothing changes. Removing a whole VMA still works, and frees room for one more. */
static void test_map_count_limit(void **state)
{
	static struct mm m;
	int anon = MAP_PRIVATE | MAP_ANONYMOUS;

	init_bare_mm(&m);
	m.range.topdown = true;
	m.mmap_base = m.geo.task_size / 2;
	uint64_t big = 0x10000 * P;
	assert_int_equal(vma_insert(&m, big, big + 4 * P, PT_R, VMA_ANON, 0), 0);
	for (unsigned k = 0; m.nr_vmas < MM_MAX_VMAS; k++)
		assert_int_equal(insert_nth(&m, k), 0);
	assert_int_equal(do_mmap(&m, 0, P, PROT_READ, anon), -12);
	assert_int_equal(do_munmap(&m, big + P, P), -12);
	assert_int_equal(do_mmap(&m, big + P, P, PROT_READ | PROT_WRITE, anon | MAP_FIXED), -12);
	assert_int_equal(vma_find(&m, big + P)->start, big);
	assert_int_equal(vma_find(&m, big + P)->end, big + 4 * P);
	assert_int_equal(m.nr_vmas, MM_MAX_VMAS);
	assert_int_equal(do_munmap(&m, nth_start(0), P), 0);
	assert_true(do_mmap(&m, 0, P, PROT_READ, anon) > 0);
	mm_destroy(&m);
}

/* mprotect: Linux's argument checks, the split at both ends, the leaves rewritten for exactly
 * the range, and the pieces merged again when their permissions match once more. */
static void test_mprotect(void **state)
{
	setup_mm(false);
	int anon = MAP_PRIVATE | MAP_ANONYMOUS;
	uint64_t a = 0x1000 * P;
	assert_int_equal(do_mmap(&mm, a, 4 * P, PROT_READ | PROT_WRITE, anon | MAP_FIXED), a);
	unsigned before = mm.nr_vmas;

	assert_int_equal(do_mprotect(&mm, a + 1, P, PROT_READ), -22);          /* unaligned */
	assert_int_equal(do_mprotect(&mm, a, P, PROT_READ | 0x100), -22);      /* unknown bit */
	assert_int_equal(do_mprotect(&mm, a, P, 0x01000000 | 0x02000000), -22); /* GROWSDOWN|UP */
	assert_int_equal(do_mprotect(&mm, a, 0, PROT_READ), 0);                /* nothing to do */
	assert_int_equal(do_mprotect(&mm, a, ~0ull, PROT_READ), -12);          /* wraps */
	assert_int_equal(do_mprotect(&mm, a, 5 * P, PROT_READ), -12);          /* runs past it */
	assert_int_equal(mm.nr_vmas, before);

	/* The middle two pages read-only: three VMAs, the leaves of just those two changed. */
	assert_int_equal(do_mprotect(&mm, a + P, 2 * P - 1, PROT_READ), 0);
	assert_int_equal(mm.nr_vmas, before + 2);
	assert_int_equal(vma_find(&mm, a)->end, a + P);
	assert_int_equal(vma_find(&mm, a + P)->prot, PT_R);
	assert_int_equal(vma_find(&mm, a + P)->end, a + 3 * P);
	assert_int_equal(vma_find(&mm, a + 3 * P)->prot, PT_R | PT_W);
	assert_int_equal(protected_va, a + P);
	assert_int_equal(protected_size, 2 * P);
	assert_int_equal(protected_prot, PT_R | PT_USER);

	/* Back to read-write: one VMA again, as Linux merges it. */
	assert_int_equal(do_mprotect(&mm, a + P, 2 * P, PROT_READ | PROT_WRITE), 0);
	assert_int_equal(mm.nr_vmas, before);
	assert_int_equal(vma_find(&mm, a + 2 * P)->start, a);
	assert_int_equal(vma_find(&mm, a + 2 * P)->end, a + 4 * P);

	/* A hole in the range: -ENOMEM, nothing split. */
	assert_int_equal(do_munmap(&mm, a + 2 * P, P), 0);
	unsigned holed = mm.nr_vmas;
	assert_int_equal(do_mprotect(&mm, a, 4 * P, PROT_READ), -12);
	assert_int_equal(mm.nr_vmas, holed);
	/* Across two VMAs with no hole between them: both change. */
	assert_int_equal(do_mmap(&mm, a + 2 * P, P, PROT_READ, anon | MAP_FIXED), a + 2 * P);
	assert_int_equal(do_mprotect(&mm, a, 4 * P, PROT_READ), 0);
	assert_int_equal(vma_find(&mm, a)->end, a + 4 * P); /* and merge into one */
	teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_topdown),
		cmocka_unit_test(test_topdown_fallback),
		cmocka_unit_test(test_bottomup),
		cmocka_unit_test(test_arguments),
		cmocka_unit_test(test_fixed_split),
		cmocka_unit_test(test_brk),
		cmocka_unit_test(test_hint_guard_gap),
		cmocka_unit_test(test_brk_guard_gap),
		cmocka_unit_test(test_pool),
		cmocka_unit_test(test_map_count_limit),
		cmocka_unit_test(test_mprotect),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
