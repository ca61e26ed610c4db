/* fork's address space: the child gets the parent's VMAs and layout and a page-table root of
 * its own that maps the same frames. Private writable pages become copy-on-write: read-only in
 * both, each frame counting its owners (mm/pmm.c), and the first write copies (mm/fault.c). */
#include <arch/memory.h>
#include <arch/mmu.h>
#include <kernel/kernel.h>
#include <lib/errno.h>
#include <mm/mm.h>
#include <mm/pgtable.h>
#include <mm/pmm.h>

/* Past this many write-protected pages one flush of the whole TLB is cheaper than a flush per
 * page. */
#define FLUSH_ALL_AFTER 32

struct fork_ctx {
	struct mm *child;
	const struct vma *v;    /* the parent's VMA being copied */
	unsigned long protected; /* parent leaves made read-only */
	/* The parent table that held the last leaf copied, and the child's table that maps the
	 * same addresses: a table's next leaves go straight into the same slot of the child's. */
	const void *parent_table;
	void *child_table;
};

/* Map leaf l's frame with prot in the child. The first leaf of each parent table goes through
 * pt_map, which makes the child's tables down to it, and a walk finds the child's table; the
 * leaves after it in the same table are stored at their index in that table, as Linux copies a
 * page table's entries range by range (a fork copies every leaf: one walk from the root each
 * was most of what a fork cost). */
static int child_map(struct fork_ctx *c, const struct pt_leaf *l, unsigned prot)
{
	if (l->table == c->parent_table) {
		arch_pt_store(c->child_table, l->index, arch_pte_make_leaf(l->level, l->info.pa, prot));
		return 0;
	}
	int err = pt_map(c->child->root, (uintptr_t)l->va, l->info.pa, (size_t)l->size, prot, 0);
	if (err)
		return err;
	struct pt_walk_result w;
	pt_walk(c->child->root, (uintptr_t)l->va, &w);
	const struct pt_step *last = &w.steps[w.nr_steps - 1];
	bool same_level = w.mapped && last->level == l->level && last->index == l->index;
	c->parent_table = same_level ? l->table : NULL;
	c->child_table = same_level ? __va(last->table_pa) : NULL;
	return 0;
}

/* One leaf of the parent: the child maps the same frame. An image frame (shared_pa) is the
 * kernel's and simply shared; a private frame gains an owner, and if writable becomes read-only
 * in the parent too, so that whichever writes first copies it. */
static int share_leaf(const struct pt_leaf *l, void *arg)
{
	struct fork_ctx *c = arg;
	bool counted = !c->v->shared_pa;
	unsigned prot = l->info.prot;

	if (counted) {
		if (!pmm_page_get(l->info.pa))
			return -ENOMEM; /* 65,536 owners: no more sharers */
		prot &= ~(unsigned)PT_W;
	}
	int err = child_map(c, l, prot);
	if (err) {
		if (counted)
			pmm_page_put(l->info.pa); /* the parent still owns it: never the last */
		return err;
	}
	if (!counted)
		return 0;
	c->child->frames++;
	if (l->info.prot & PT_W) {
		pt_leaf_store(l, arch_pte_make_leaf(l->level, l->info.pa, prot));
		if (++c->protected <= FLUSH_ALL_AFTER)
			pt_leaf_flush(l);
	}
	return 0;
}

/* The VMA v of the parent, with everything that describes it, in the child. */
static int copy_vma(struct mm *child, const struct vma *v)
{
	int err = vma_insert(child, v->start, v->end, v->prot, v->kind, v->file_offset);

	if (err)
		return err;
	struct vma *copy = vma_find(child, v->start);
	copy->file = v->file;
	copy->shared_pa = v->shared_pa;
	copy->name = v->name;
	return 0;
}

int mm_fork(struct mm *child, struct mm *parent)
{
	struct fork_ctx c = { .child = child };
	const struct pt_visit_ops ops = { .leaf = share_leaf };
	int err = mm_init(child, parent->compat, parent->asid);

	if (err)
		return err;
	/* Every layout field (mmap_base, brk, stack, vdso, load bias, the draw) as the parent
	 * has it; the tables and VMAs are the child's own. */
	phys_addr_t root = child->root;
	*child = *parent;
	child->root = root;
	child->vmas = NULL;
	child->nr_vmas = 0;
	child->frames = 0;
	for (const struct vma *v = parent->vmas; v && !err; v = v->next) {
		c.v = v;
		err = copy_vma(child, v);
		if (!err)
			err = pt_visit(parent->root, v->start, v->end - 1, &ops, &c);
	}
	if (c.protected > FLUSH_ALL_AFTER)
		arch_tlb_flush_all();
	/* Undone: the child's references go with its tables. The parent's pages it made
	 * read-only stay so until written, when break_cow finds them with one owner again and
	 * only makes them writable. */
	if (err)
		mm_destroy(child);
	return err;
}
