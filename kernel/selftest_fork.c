/* `selftest fork`: copy-on-write fork of an address space (mm_fork, mm/fork.c) on the running
 * format and allocator, with no scheduler: a program is exec'd into one mm, forked into
 * another, and both are written through copy_to_user, the way a child's and a parent's system
 * calls would. Every case ends with both destroyed and checks that every frame came back. */
#include <arch/memory.h>
#include <arch/mmu.h>
#include <kernel/exec.h>
#include <kernel/kernel.h>
#include <kernel/proc.h>
#include <kernel/selftest.h>
#include <lib/errno.h>
#include <lib/string.h>
#include <mm/mm.h>
#include <mm/pgtable.h>
#include <mm/pmm.h>

#define EXPECT(cond, ...) selftest_expect((cond), "kernel/selftest_fork.c", __LINE__, __VA_ARGS__)

/* The address spaces are big; one pair at a time. */
static struct mm parent, child;

static uint64_t free_frames(void)
{
	struct pmm_stats st;

	pmm_get_stats(&st);
	return st.free;
}

/* Exec the built-in hello (native ABI) into mm, with randomization, as `run` would. */
static bool exec_hello(struct mm *mm)
{
	static char name[] = "hello";
	char *argv[] = { name, NULL };
	const struct fs_file *prog;
	int err = exec_lookup(name, false, &prog);
	int abi = err ? err : exec_image_abi(prog);

	if (!EXPECT(abi >= 0, "no runnable /bin/hello: %d", abi))
		return false;
	err = mm_init(mm, abi == 1, 1);
	if (!err)
		err = exec_image(mm, prog, 1, argv, true, false);
	if (err && mm->root)
		mm_destroy(mm);
	return EXPECT(err == 0, "exec hello: %d", err);
}

static void walk(const struct mm *mm, uint64_t va, struct pt_walk_result *w)
{
	pt_walk(mm->root, (uintptr_t)va, w);
}

static uint64_t stack_page(const struct mm *mm)
{
	return mm->start_stack & ~((uint64_t)PAGE_SIZE - 1);
}

/* Same layout and the same VMAs, field by field. */
static void expect_same_layout(const struct mm *a, const struct mm *b)
{
	EXPECT(a->mmap_base == b->mmap_base && a->start_brk == b->start_brk && a->brk == b->brk &&
	       a->stack_top == b->stack_top && a->start_stack == b->start_stack &&
	       a->load_bias == b->load_bias && a->vdso == b->vdso && a->entry == b->entry &&
	       a->compat == b->compat && a->asid == b->asid && a->rnd_pages == b->rnd_pages,
	       "layout differs: mmap_base %#llx/%#llx stack %#llx/%#llx",
	       (unsigned long long)a->mmap_base, (unsigned long long)b->mmap_base,
	       (unsigned long long)a->start_stack, (unsigned long long)b->start_stack);
	EXPECT(a->nr_vmas == b->nr_vmas && a->frames == b->frames,
	       "%u VMAs and %lu frames, child %u and %lu", a->nr_vmas, a->frames, b->nr_vmas,
	       b->frames);
	const struct vma *u = a->vmas, *v = b->vmas;
	for (; u && v; u = u->next, v = v->next)
		EXPECT(u->start == v->start && u->end == v->end && u->prot == v->prot &&
		       u->kind == v->kind && u->file == v->file && u->shared_pa == v->shared_pa &&
		       u->name == v->name && u->file_offset == v->file_offset,
		       "VMA %#llx-%#llx differs in the child", (unsigned long long)u->start,
		       (unsigned long long)u->end);
	EXPECT(!u && !v, "VMA lists of different lengths");
}

/* Counting the private pages of an mm by their frames' owners. */
struct owners {
	const struct vma *v;
	unsigned long pages, shared, writable;
};

static int count_owners(const struct pt_leaf *l, void *ctx)
{
	struct owners *o = ctx;

	if (o->v->shared_pa)
		return 0;
	o->pages++;
	o->shared += pmm_page_refs(l->info.pa) > 1;
	o->writable += (l->info.prot & PT_W) != 0;
	return 0;
}

static struct owners private_pages(const struct mm *mm)
{
	struct owners o = { 0 };
	const struct pt_visit_ops ops = { .leaf = count_owners };

	for (o.v = mm->vmas; o.v; o.v = o.v->next)
		pt_visit(mm->root, o.v->start, o.v->end - 1, &ops, &o);
	return o;
}

/* After fork both map the stack page's frame read-only, with two owners, through tables of
 * their own. A child's write (copy_to_user, as its system calls write) gives it a copy and
 * leaves the parent's bytes alone; the parent's write then finds its frame with one owner and
 * takes it back writable, without a copy. */
static void test_cow_write(void)
{
	static const char msg[] = "written by the child";
	uint64_t before = free_frames();
	char was[sizeof(msg)], now[sizeof(msg)];
	struct pt_walk_result pw, cw;

	if (!exec_hello(&parent))
		return;
	uint64_t va = stack_page(&parent);
	int err = mm_fork(&child, &parent);
	if (!EXPECT(err == 0, "mm_fork: %d", err)) {
		mm_destroy(&parent);
		return;
	}
	expect_same_layout(&parent, &child);
	walk(&parent, va, &pw);
	walk(&child, va, &cw);
	EXPECT(pw.mapped && cw.mapped && pw.pa == cw.pa, "stack page: parent %#llx, child %#llx",
	       (unsigned long long)pw.pa, (unsigned long long)cw.pa);
	EXPECT(!(pw.prot & PT_W) && !(cw.prot & PT_W), "stack page writable after fork");
	EXPECT(pmm_page_refs(pw.pa) == 2, "stack frame has %u owners", pmm_page_refs(pw.pa));
	for (unsigned s = 0; s < pw.nr_steps; s++)
		EXPECT(pw.steps[s].table_pa != cw.steps[s].table_pa, "L%u table shared", s);

	EXPECT(copy_from_user(&parent, was, va, sizeof(was)) == 0, "read parent");
	uint64_t f0 = free_frames();
	EXPECT(copy_to_user(&child, va, msg, sizeof(msg)) == 0, "child write");
	EXPECT(free_frames() + 1 == f0, "the child's write took %lld frames, want 1",
	       (long long)(f0 - free_frames()));
	walk(&child, va, &cw);
	EXPECT(cw.mapped && cw.pa != pw.pa && (cw.prot & PT_W), "child's page not its own copy");
	EXPECT(pmm_page_refs(pw.pa) == 1 && pmm_page_refs(cw.pa) == 1, "owners %u and %u",
	       pmm_page_refs(pw.pa), pmm_page_refs(cw.pa));
	EXPECT(copy_from_user(&parent, now, va, sizeof(now)) == 0 &&
	       memcmp(now, was, sizeof(now)) == 0, "the parent's page changed");
	EXPECT(copy_from_user(&child, now, va, sizeof(now)) == 0 &&
	       memcmp(now, msg, sizeof(now)) == 0, "the child's page lost its write");

	f0 = free_frames();
	EXPECT(copy_to_user(&parent, va, msg, sizeof(msg)) == 0, "parent write");
	struct pt_walk_result again;
	walk(&parent, va, &again);
	EXPECT(free_frames() == f0 && again.pa == pw.pa && (again.prot & PT_W),
	       "the sole owner's write copied (pa %#llx, was %#llx)", (unsigned long long)again.pa,
	       (unsigned long long)pw.pa);

	mm_destroy(&child);
	mm_destroy(&parent);
	EXPECT(free_frames() == before, "free frames %llu after, %llu before",
	       (unsigned long long)free_frames(), (unsigned long long)before);
}

/* The frames a root takes. */
static unsigned long root_frames(void)
{
	return (arch_pt_geometry()->table_bytes[0] + PAGE_SIZE - 1) / PAGE_SIZE;
}

/* A fork costs page-table frames only; every private page has two owners until one of the two
 * goes, and the child's end gives back exactly what the fork took. */
static void test_fork_costs_tables(void)
{
	uint64_t before = free_frames();

	if (!exec_hello(&parent))
		return;
	uint64_t f0 = free_frames();
	int err = mm_fork(&child, &parent);
	if (!EXPECT(err == 0, "mm_fork: %d", err)) {
		mm_destroy(&parent);
		return;
	}
	unsigned long tables = pt_table_frames(child.root, child.geo.task_size) + root_frames();
	EXPECT(f0 - free_frames() == tables, "fork took %llu frames, the child's tables are %lu",
	       (unsigned long long)(f0 - free_frames()), tables);
	struct owners p = private_pages(&parent), c = private_pages(&child);
	EXPECT(p.pages == parent.frames && p.pages == c.pages && p.pages > 0,
	       "private pages: parent %lu (frames %lu), child %lu", p.pages, parent.frames, c.pages);
	EXPECT(p.shared == p.pages && c.shared == c.pages, "%lu of %lu pages shared", p.shared,
	       p.pages);
	EXPECT(p.writable == 0 && c.writable == 0, "%lu parent and %lu child pages writable",
	       p.writable, c.writable);
	mm_destroy(&child);
	EXPECT(free_frames() == f0, "free %llu after the child, %llu before the fork",
	       (unsigned long long)free_frames(), (unsigned long long)f0);
	p = private_pages(&parent);
	EXPECT(p.shared == 0, "%lu pages still shared with no child", p.shared);
	mm_destroy(&parent);
	EXPECT(free_frames() == before, "free frames %llu after, %llu before",
	       (unsigned long long)free_frames(), (unsigned long long)before);
}

/* Take every free frame, chained through their first words; returns the chain. */
static phys_addr_t hoard_all(void)
{
	phys_addr_t head = 0, pa;

	while ((pa = pmm_alloc_page()) != 0) {
		*(phys_addr_t *)__va(pa) = head;
		head = pa;
	}
	return head;
}

static phys_addr_t release_one(phys_addr_t head)
{
	phys_addr_t next = *(phys_addr_t *)__va(head);

	pmm_free_page(head);
	return next;
}

/* With 0, 1, 2... frames free, mm_fork fails with -ENOMEM and leaves the frame count and every
 * owner count as they were, until enough are free and it succeeds. */
static void test_fork_out_of_memory(void)
{
	uint64_t before = free_frames();
	unsigned failures = 0;
	bool forked = false;

	if (!exec_hello(&parent))
		return;
	phys_addr_t hoard = hoard_all();
	for (unsigned spare = 0; spare < 64 && !forked && hoard; spare++) {
		uint64_t f0 = free_frames();
		int err = mm_fork(&child, &parent);
		if (err == 0) {
			forked = true;
			mm_destroy(&child);
		} else {
			failures++;
			EXPECT(err == -ENOMEM, "mm_fork with %u frames free: %d", spare, err);
		}
		struct owners p = private_pages(&parent);
		EXPECT(free_frames() == f0 && p.shared == 0,
		       "%u frames free: %llu free after, %lu pages still shared", spare,
		       (unsigned long long)free_frames(), p.shared);
		hoard = release_one(hoard);
	}
	EXPECT(forked && failures > 0, "forked %d after %u failures", forked, failures);
	while (hoard)
		hoard = release_one(hoard);
	mm_destroy(&parent);
	EXPECT(free_frames() == before, "free frames %llu after, %llu before",
	       (unsigned long long)free_frames(), (unsigned long long)before);
}

const struct selftest_case fork_cases[FORK_NR_CASES] = {
	{ "cow_write", test_cow_write },
	{ "fork_costs_tables", test_fork_costs_tables },
	{ "fork_out_of_memory", test_fork_out_of_memory },
};
