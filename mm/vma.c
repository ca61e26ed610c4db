/* VMAs: the list of what a process may touch, and the mmap/munmap/brk calls that edit it. The
 * page tables follow lazily (mm/fault.c) except where exec fills pages eagerly. */
#include <arch/memory.h>
#include <arch/mmu.h>
#include <kernel/fs.h>
#include <kernel/kernel.h>
#include <lib/errno.h>
#include <lib/string.h>
#include <mm/mm.h>
#include <mm/pgtable.h>
#include <mm/pmm.h>

/* VMAs come from a fixed pool: the kernel has no general heap, and a fixed pool cannot grow,
 * so a soak test that sees the same free count has seen every VMA come back. Slots never used
 * yet are handed out in order (vma_pool_used counts them) and released ones are reused first,
 * so nothing walks the pool at boot and the pool's memory need not start zeroed: vma_alloc
 * initialises every VMA it hands out. */
static struct vma vma_pool[VMA_POOL_SIZE] __section(".noclear");
static unsigned vma_pool_used;
static struct vma *vma_free_list;

static struct vma *vma_alloc(void)
{
	struct vma *v = vma_free_list;

	if (v)
		vma_free_list = v->next;
	else if (vma_pool_used < VMA_POOL_SIZE)
		v = &vma_pool[vma_pool_used++];
	else
		return NULL;
	*v = (struct vma){ 0 };
	return v;
}

static void vma_release(struct vma *v)
{
	v->next = vma_free_list;
	vma_free_list = v;
}

static uint64_t page_up(uint64_t x)
{
	return (x + PAGE_SIZE - 1) & ~((uint64_t)PAGE_SIZE - 1);
}

static bool page_aligned(uint64_t x)
{
	return (x & (PAGE_SIZE - 1)) == 0;
}

/* Remove one leaf of a user page. A frame of the process's own (counted in the allocator: not
 * an image frame, which stays) loses this owner; the last owner frees it (a frame fork shares
 * copy-on-write has others). v: the VMA the leaf lies in, or, for a teardown going over many
 * VMAs in address order, the first that may hold it. */
struct drop_ctx {
	const struct vma *v;
	bool live;        /* flush the TLB (the tables may be in use) */
	uint64_t removed;
};

static int drop_leaf(const struct pt_leaf *l, void *arg)
{
	struct drop_ctx *c = arg;

	while (c->v->next && c->v->end <= l->va)
		c->v = c->v->next;
	pt_leaf_store(l, 0);
	if (c->live)
		pt_leaf_flush(l);
	if (!c->v->shared_pa && l->info.kind == PTE_PAGE)
		pmm_page_put(l->info.pa);
	c->removed++;
	return 0;
}

/* Remove the pages of [start, end) inside v from the tables, and the tables left empty; v's
 * own frames lose this owner, shared image frames stay where they are. */
static void unmap_pages(struct mm *mm, const struct vma *v, uint64_t start, uint64_t end)
{
	uint64_t lo = MAX(start, v->start), hi = MIN(end, v->end);
	struct drop_ctx c = { .v = v, .live = true };
	const struct pt_visit_ops ops = { .leaf = drop_leaf, .flags = PT_VISIT_FREE_EMPTY };

	if (lo < hi) {
		pt_visit(mm->root, lo, hi - 1, &ops, &c);
		if (!v->shared_pa)
			mm->frames -= c.removed;
	}
}

int mm_init(struct mm *mm, bool compat, unsigned asid)
{
	memset(mm, 0, sizeof(*mm));
	mm->root = pt_alloc_table(0);
	if (!mm->root)
		return -ENOMEM;
	arch_pt_init_user_root(__va(mm->root));
	mm->compat = compat;
	mm->asid = asid;
	task_geometry(compat, &mm->geo);
	return 0;
}

/* drop_leaf's VMAs tell where pages may be from va on: in the first VMA that ends above va. */
static uint64_t next_in_vmas(uint64_t va, uint64_t *end, void *arg)
{
	struct drop_ctx *c = arg;

	while (c->v->next && c->v->end <= va)
		c->v = c->v->next;
	*end = c->v->end;
	return c->v->end <= va ? UINT64_MAX : MAX(va, c->v->start);
}

/* Teardown of a last-level table in one loop: every slot the VMAs cover is loaded once and
 * cleared, and a private page's frame loses this owner (arch_pte_is_page and
 * arch_pte_page_pa instead of a decode and a callback per leaf: a child's exit went mostly
 * there). The visitor then goes through the table, finds it empty and frees it. Higher
 * tables are simply visited; their blocks go to drop_leaf. */
static int drop_table(unsigned level, phys_addr_t table, uint64_t va, void *arg)
{
	const struct drop_ctx *c = arg;
	const struct pt_geometry *g = arch_pt_geometry();

	if (level != g->levels - 1)
		return 0;
	void *t = __va(table);
	uint64_t table_end = va + ((uint64_t)g->entries[level] << g->shift[level]);

	for (const struct vma *v = c->v; v && v->start < table_end; v = v->next) {
		uint64_t lo = MAX(va, v->start), hi = MIN(table_end, v->end);
		if (lo >= hi)
			continue;
		unsigned end = (unsigned)((hi - va) >> g->shift[level]);
		for (unsigned i = (unsigned)((lo - va) >> g->shift[level]); i < end; i++) {
			pte_t pte = arch_pt_load(t, i);
			if (!pte)
				continue;
			arch_pt_store(t, i, 0);
			if (!v->shared_pa && arch_pte_is_page(pte))
				pmm_page_put(arch_pte_page_pa(pte));
		}
	}
	return 0;
}

/* The address space is not live: a process's root is switched out before it is destroyed (or
 * was never switched in), and arch_switch_user_root's contract says that leaves no user
 * mapping reachable, stale TLB entries included. So nothing here needs a TLB flush. Every page
 * is mapped inside a VMA (exec, faults and munmap keep it so): one visit from the first VMA's
 * start to the last one's end, reading only the slots the VMAs cover, finds them all and
 * frees every table on the way. */
void mm_destroy(struct mm *mm)
{
	const struct pt_visit_ops ops = { .leaf = drop_leaf, .table = drop_table,
					  .next = next_in_vmas, .flags = PT_VISIT_FREE_EMPTY | PT_VISIT_NOT_LIVE };
	struct drop_ctx c = { .v = mm->vmas };

	if (!mm->root)
		return;
	if (mm->vmas) {
		const struct vma *last = mm->vmas;
		while (last->next)
			last = last->next;
		pt_visit(mm->root, mm->vmas->start, last->end - 1, &ops, &c);
	}
	pt_free_root(mm->root);
	while (mm->vmas) {
		struct vma *v = mm->vmas;
		mm->vmas = v->next;
		vma_release(v);
	}
	mm->nr_vmas = 0;
	mm->root = 0;
	mm->frames = 0;
}

struct vma *vma_find(struct mm *mm, uint64_t addr)
{
	for (struct vma *v = mm->vmas; v && v->start <= addr; v = v->next)
		if (addr < v->end)
			return v;
	return NULL;
}

void vma_set_shared(struct mm *mm, uint64_t start, phys_addr_t pa)
{
	struct vma *v = vma_find(mm, start);

	if (v && v->start == start)
		v->shared_pa = pa;
}

static bool range_free(struct mm *mm, uint64_t start, uint64_t end)
{
	for (struct vma *v = mm->vmas; v && v->start < end; v = v->next)
		if (v->end > start)
			return false;
	return true;
}

int vma_insert(struct mm *mm, uint64_t start, uint64_t end, unsigned prot, enum vma_kind kind,
	       uint64_t file_offset)
{
	struct vma **link = &mm->vmas;

	if (start >= end || !range_free(mm, start, end))
		return -EEXIST;
	if (mm->nr_vmas >= MM_MAX_VMAS)
		return -ENOMEM;
	struct vma *v = vma_alloc();
	if (!v)
		return -ENOMEM;
	v->start = start;
	v->end = end;
	v->prot = prot;
	v->kind = kind;
	v->file = NULL;
	v->file_offset = file_offset;
	v->shared_pa = 0;
	while (*link && (*link)->start < start)
		link = &(*link)->next;
	v->next = *link;
	*link = v;
	mm->nr_vmas++;
	return 0;
}

/* The lowest address a mapping may start at (mmap_min_addr: the first page stays unmapped so
 * NULL dereferences fault). */
static uint64_t mmap_min_addr(void)
{
	return PAGE_SIZE;
}

/* Linux's vm_start_gap: where the room below a VMA ends. Below the stack, stack_guard_gap
 * (256 pages) stays free as well, so that nothing placed there (a hinted mmap, the heap) can be
 * reached from the stack by a large frame or alloca that skips the guard page. */
static uint64_t vm_start_gap(const struct mm *mm, const struct vma *v)
{
	if (v->kind != VMA_STACK)
		return v->start;
	return v->start > mm->geo.guard_gap ? v->start - mm->geo.guard_gap : 0;
}

/* Where a gap's usable top ends: below next (its vm_start_gap), or at limit. */
static uint64_t gap_end_before(const struct mm *mm, const struct vma *next, uint64_t limit)
{
	return next ? MIN(vm_start_gap(mm, next), limit) : limit;
}

/* The first VMA that ends above addr (Linux's find_vma), or NULL. */
static struct vma *vma_after(struct mm *mm, uint64_t addr)
{
	struct vma *v = mm->vmas;

	while (v && v->end <= addr)
		v = v->next;
	return v;
}

/* Highest [addr, addr+len) inside [low, high) that touches no VMA. */
static uint64_t unmapped_topdown(struct mm *mm, uint64_t len, uint64_t low, uint64_t high)
{
	uint64_t best = 0;
	uint64_t prev_end = 0;

	for (struct vma *v = mm->vmas;; v = v->next) {
		uint64_t gap_lo = MAX(prev_end, low);
		uint64_t gap_hi = gap_end_before(mm, v, high);
		if (gap_hi > gap_lo && gap_hi - gap_lo >= len)
			best = gap_hi - len;
		if (!v || v->start >= high)
			break;
		prev_end = v->end;
	}
	return best;
}

/* Lowest [addr, addr+len) inside [low, high) that touches no VMA. */
static uint64_t unmapped_bottomup(struct mm *mm, uint64_t len, uint64_t low, uint64_t high)
{
	uint64_t prev_end = 0;

	for (struct vma *v = mm->vmas;; v = v->next) {
		uint64_t gap_lo = MAX(prev_end, low);
		uint64_t gap_hi = gap_end_before(mm, v, high);
		if (gap_hi > gap_lo && gap_hi - gap_lo >= len)
			return gap_lo;
		if (!v || v->start >= high)
			return 0;
		prev_end = v->end;
	}
}

uint64_t get_unmapped_area(struct mm *mm, uint64_t hint, uint64_t len)
{
	uint64_t task_size = mm->geo.task_size;

	if (len == 0 || len > task_size - mmap_min_addr())
		return 0;
	if (hint) {
		/* Linux's test: the VMAs before the hint end at or below it (they cannot grow up
		 * here), the next one's vm_start_gap is at or above its end. */
		hint = page_up(hint);
		struct vma *next = vma_after(mm, hint);
		if (hint >= mmap_min_addr() && hint <= task_size - len &&
		    (!next || hint + len <= vm_start_gap(mm, next)))
			return hint;
	}
	if (mm->range.topdown) {
		uint64_t a = unmapped_topdown(mm, len, mmap_min_addr(), mm->mmap_base);
		if (a)
			return a;
		/* Like Linux: when the top-down area is full, retry bottom-up above
		 * TASK_UNMAPPED_BASE up to the end of the task's address space. */
		return unmapped_bottomup(mm, len, mm->geo.unmapped_base, task_size);
	}
	return unmapped_bottomup(mm, len, mm->mmap_base, task_size);
}

/* Largest free gap inside [low, high) under the same rules the searches follow. */
static uint64_t largest_gap_in(struct mm *mm, uint64_t low, uint64_t high)
{
	uint64_t best = 0, prev_end = 0;

	for (struct vma *v = mm->vmas;; v = v->next) {
		uint64_t gap_lo = MAX(prev_end, low);
		uint64_t gap_hi = gap_end_before(mm, v, high);
		if (gap_hi > gap_lo)
			best = MAX(best, gap_hi - gap_lo);
		if (!v || v->start >= high)
			return best;
		prev_end = v->end;
	}
}

uint64_t largest_unmapped_area(struct mm *mm)
{
	uint64_t task_size = mm->geo.task_size;

	if (!mm->range.topdown)
		return largest_gap_in(mm, mm->mmap_base, task_size);
	return MAX(largest_gap_in(mm, mmap_min_addr(), mm->mmap_base),
		   largest_gap_in(mm, mm->geo.unmapped_base, task_size));
}

static unsigned prot_to_pt(unsigned long prot)
{
	return (prot & PROT_READ ? PT_R : 0) | (prot & PROT_WRITE ? PT_W | PT_R : 0) |
	       (prot & PROT_EXEC ? PT_X : 0);
}

/* Cut [start, end) out of every VMA and unmap its pages. */
static int unmap_range(struct mm *mm, uint64_t start, uint64_t end)
{
	struct vma **link = &mm->vmas;

	/* A split needs a spare VMA: make sure of it before anything changes. */
	if (mm->nr_vmas >= MM_MAX_VMAS)
		for (struct vma *v = mm->vmas; v && v->start < end; v = v->next)
			if (v->start < start && v->end > end)
				return -ENOMEM;
	for (struct vma *v = mm->vmas; v && v->start < end; v = v->next)
		unmap_pages(mm, v, start, end);

	while (*link) {
		struct vma *v = *link;
		if (v->end <= start) {
			link = &v->next;
			continue;
		}
		if (v->start >= end)
			break;
		if (v->start < start && v->end > end) { /* a hole in the middle: split */
			struct vma *tail = vma_alloc();
			if (!tail || mm->nr_vmas >= MM_MAX_VMAS) {
				if (tail)
					vma_release(tail);
				return -ENOMEM;
			}
			*tail = *v;
			tail->start = end;
			tail->file_offset += end - v->start;
			if (tail->shared_pa)
				tail->shared_pa += end - v->start;
			v->end = start;
			v->next = tail;
			mm->nr_vmas++;
			break;
		}
		if (v->start < start) {
			v->end = start;
			link = &v->next;
		} else if (v->end > end) {
			v->file_offset += end - v->start;
			if (v->shared_pa)
				v->shared_pa += end - v->start;
			v->start = end;
			break;
		} else {
			*link = v->next;
			vma_release(v);
			mm->nr_vmas--;
		}
	}
	return 0;
}

/* The address for a new mapping of len bytes (page rounded), after Linux's checks, with any
 * old mapping under a MAP_FIXED one removed; or -errno. */
static int64_t mmap_address(struct mm *mm, uint64_t addr, uint64_t len, unsigned long flags)
{
	uint64_t task_size = mm->geo.task_size;

	if (flags & MAP_FIXED) {
		if (!page_aligned(addr))
			return -EINVAL;
		if (addr > task_size - len)
			return -ENOMEM;
		if (addr < mmap_min_addr()) /* Linux: security_mmap_addr() without CAP_SYS_RAWIO */
			return -EPERM;
		int err = unmap_range(mm, addr, addr + len);
		return err ? err : (int64_t)addr;
	}
	addr = get_unmapped_area(mm, addr, len);
	return addr ? (int64_t)addr : -ENOMEM;
}

/* The mapping's type, the low four bits of the flags (Linux's do_mmap): shared or private;
 * for a file also MAP_SHARED_VALIDATE, a shared mapping that refuses the flags it does not
 * know (EOPNOTSUPP) where MAP_SHARED ignores them. Any other value is EINVAL. */
static int mmap_type_check(unsigned long flags, bool file)
{
	switch (flags & MAP_TYPE) {
	case MAP_SHARED:
	case MAP_PRIVATE:
		return 0;
	case MAP_SHARED_VALIDATE:
		if (!file)
			return -EINVAL;
		return (flags & ~MAP_LEGACY_MASK) ? -EOPNOTSUPP : 0;
	default:
		return -EINVAL;
	}
}

/* The checks every mmap makes; the length rounded up to pages, or 0 with *err set. */
static uint64_t mmap_length(struct mm *mm, uint64_t len, unsigned long flags, bool file,
			    int *err)
{
	*err = len == 0 ? -EINVAL : mmap_type_check(flags, file);
	if (*err == 0 && ((len = page_up(len)) == 0 || len > mm->geo.task_size))
		*err = -ENOMEM;
	return *err ? 0 : len;
}

int64_t do_mmap(struct mm *mm, uint64_t addr, uint64_t len, unsigned long prot,
		unsigned long flags)
{
	int err;

	/* Like Linux's mmap (not mprotect), unknown PROT bits are ignored. */
	if (len == 0)
		return -EINVAL;
	if (!(flags & MAP_ANONYMOUS))
		return -EBADF; /* a file mapping comes through do_mmap_file */
	len = mmap_length(mm, len, flags, false, &err);
	if (err)
		return err;
	int64_t at = mmap_address(mm, addr, len, flags);
	if (at < 0)
		return at;
	err = vma_insert(mm, (uint64_t)at, (uint64_t)at + len, prot_to_pt(prot), VMA_ANON, 0);
	return err ? err : at;
}

/* Copy the file's bytes from offset off into fresh private frames of [start, start + len):
 * the pages wholly past the end of the file stay unpopulated (zero on first touch, where
 * Linux would raise SIGBUS), the tail of the last one is zero. */
static int populate_from_file(struct mm *mm, const struct vma *v, const struct fs_file *file,
			      uint64_t off)
{
	for (uint64_t va = v->start; va < v->end && off < file->size; va += PAGE_SIZE) {
		phys_addr_t pa;
		int err = mm_map_new_page(mm, va, v->prot, &pa);
		if (err)
			return err;
		uint64_t n = MIN((uint64_t)PAGE_SIZE, file->size - off);
		memcpy(__va(pa), file->data + off, (size_t)n);
		off += PAGE_SIZE;
	}
	return 0;
}

int64_t do_mmap_file(struct mm *mm, uint64_t addr, uint64_t len, unsigned long prot,
		     unsigned long flags, const struct fs_file *file, uint64_t off)
{
	int err;

	len = mmap_length(mm, len, flags, true, &err);
	if (err)
		return err;
	if (!page_aligned(off))
		return -EINVAL;
	if (off + len < off)
		return -EOVERFLOW;
	/* The archive is read-only: a shared writable mapping could never reach the file. */
	if ((flags & MAP_TYPE) != MAP_PRIVATE && (prot & PROT_WRITE))
		return -EACCES;
	int64_t at = mmap_address(mm, addr, len, flags);
	if (at < 0)
		return at;
	err = vma_insert(mm, (uint64_t)at, (uint64_t)at + len, prot_to_pt(prot), VMA_ANON, off);
	if (err)
		return err;
	struct vma *v = vma_find(mm, (uint64_t)at);
	v->file = file;
	/* With no access at all, nothing can read the copy: the pages stay unpopulated. */
	err = v->prot ? populate_from_file(mm, v, file, off) : 0;
	if (err) {
		unmap_range(mm, v->start, v->end);
		return err;
	}
	return at;
}

int do_munmap(struct mm *mm, uint64_t addr, uint64_t len)
{
	if (!page_aligned(addr) || len == 0 || addr >= mm->geo.task_size)
		return -EINVAL;
	len = page_up(len);
	if (len == 0 || len > mm->geo.task_size - addr)
		return -EINVAL;
	return unmap_range(mm, addr, addr + len);
}

uint64_t do_brk(struct mm *mm, uint64_t newbrk)
{
	uint64_t old_end = page_up(mm->brk), new_end = page_up(newbrk);

	if (newbrk < mm->start_brk || newbrk >= mm->geo.task_size)
		return mm->brk;
	if (new_end < old_end) {
		if (unmap_range(mm, new_end, old_end))
			return mm->brk;
	} else if (new_end > old_end) {
		/* Linux's brk: the next mapping's vm_start_gap must lie at least a page above the
		 * new end (so the heap keeps the stack's guard gap too, and one free page before
		 * any other mapping). */
		struct vma *next = vma_after(mm, old_end);
		if (next && new_end + PAGE_SIZE > vm_start_gap(mm, next))
			return mm->brk;
		/* Grow the heap VMA (or create it: the first growth is where [heap] appears). */
		struct vma *heap = old_end > mm->start_brk ? vma_find(mm, old_end - 1) : NULL;
		if (heap && heap->kind == VMA_HEAP && heap->end == old_end)
			heap->end = new_end;
		else if (vma_insert(mm, old_end, new_end, PT_R | PT_W, VMA_HEAP, 0))
			return mm->brk;
	}
	mm->brk = newbrk;
	return mm->brk;
}

/* --- mprotect ----------------------------------------------------------------------------- */

bool vma_range_mapped(struct mm *mm, uint64_t start, uint64_t end)
{
	uint64_t covered = start;

	for (struct vma *v = vma_after(mm, start); v && v->start < end && v->start <= covered;
	     v = v->next)
		covered = v->end;
	return covered >= end;
}

/* Split v at addr (inside it): v keeps [start, addr), a new VMA after it takes the rest. */
static int vma_split(struct mm *mm, struct vma *v, uint64_t addr)
{
	if (mm->nr_vmas >= MM_MAX_VMAS)
		return -ENOMEM;
	struct vma *tail = vma_alloc();
	if (!tail)
		return -ENOMEM;
	*tail = *v;
	tail->start = addr;
	tail->file_offset += addr - v->start;
	if (tail->shared_pa)
		tail->shared_pa += addr - v->start;
	v->end = addr;
	v->next = tail;
	mm->nr_vmas++;
	return 0;
}

/* Can b be folded into a, which ends where b starts? Linux merges such neighbours, so a page
 * made read-only and back is one line of /proc/PID/maps again. */
static bool vma_mergeable(const struct vma *a, const struct vma *b)
{
	bool file_backed = a->file || a->kind == VMA_IMAGE; /* file_offset means something */

	return a->end == b->start && a->prot == b->prot && a->kind == b->kind &&
	       a->name == b->name &&
	       a->kind != VMA_HEAP && a->kind != VMA_STACK && a->file == b->file &&
	       (!file_backed || a->file_offset + (a->end - a->start) == b->file_offset) &&
	       (a->shared_pa ? a->shared_pa + (a->end - a->start) == b->shared_pa : !b->shared_pa);
}

static void vma_merge_around(struct mm *mm, uint64_t start, uint64_t end)
{
	for (struct vma *v = mm->vmas; v && v->start <= end; v = v->next) {
		while (v->next && v->end >= start && vma_mergeable(v, v->next)) {
			struct vma *n = v->next;
			v->end = n->end;
			v->next = n->next;
			vma_release(n);
			mm->nr_vmas--;
		}
	}
}

/* Put the image's shared frames back under [v->start, end) of v, freeing the private copies
 * made there: vma_make_private's way back when a frame or table runs out half-way. Re-mapping
 * an existing leaf allocates nothing, so this cannot fail. */
static void vma_unprivate(struct mm *mm, const struct vma *v, uint64_t end)
{
	struct pt_walk_result w;

	for (uint64_t va = v->start; va < end; va += PAGE_SIZE) {
		pt_walk(mm->root, (uintptr_t)va, &w);
		pt_map(mm->root, (uintptr_t)va, v->shared_pa + (va - v->start), PAGE_SIZE,
		       v->prot | PT_USER, PT_MAP_REPLACE);
		arch_tlb_flush_page((uintptr_t)va);
		if (w.mapped) {
			pmm_free_page(w.pa);
			mm->frames--;
		}
	}
}

/* A VMA that maps the image's shared frames (kernel memory, never the process's to write) is
 * to become writable with prot: every page gets a private copy first (Linux's copy-on-write,
 * done at once), and only then does the VMA stop pointing at the shared frames. On -ENOMEM
 * nothing has changed. */
static int vma_make_private(struct mm *mm, struct vma *v, unsigned prot)
{
	for (uint64_t va = v->start; va < v->end; va += PAGE_SIZE) {
		phys_addr_t pa = pmm_alloc_page();
		int err = pa ? 0 : -ENOMEM;
		if (pa) {
			memcpy(__va(pa), __va(v->shared_pa + (va - v->start)), PAGE_SIZE);
			err = pt_map(mm->root, (uintptr_t)va, pa, PAGE_SIZE, prot | PT_USER,
				     PT_MAP_REPLACE);
		}
		if (err) {
			if (pa)
				pmm_free_page(pa);
			vma_unprivate(mm, v, va);
			return err;
		}
		arch_tlb_flush_page((uintptr_t)va);
		mm->frames++;
	}
	v->shared_pa = 0;
	v->prot = prot;
	return 0;
}

/* One leaf's new permissions (ctx: the pt_prot bits): a frame still shared copy-on-write
 * (mm_fork) stays read-only, so that the next write copies it. */
static int protect_leaf(const struct pt_leaf *l, void *ctx)
{
	unsigned prot = *(const unsigned *)ctx;

	if ((prot & PT_W) && pmm_page_refs(l->info.pa) > 1)
		prot &= ~PT_W;
	pt_leaf_store(l, arch_pte_make_leaf(l->level, l->info.pa, prot));
	pt_leaf_flush(l);
	return 0;
}

/* Give v (wholly inside the range) its new permissions, in the VMA and in every leaf. With no
 * access left (PROT_NONE) the pages stay, as on Linux, where programs (garbage collectors,
 * JITs) count on getting the same bytes back from a later mprotect: the leaves only lose the
 * user's access (kernel-only, read-only, never executable), so every user access faults while
 * the frame is kept. Linux itself clears the entry's valid bit and keeps the frame in software
 * bits instead; these tables have no software-only entries, hence a valid kernel-only leaf. The
 * kernel never reads such a page for the user: copy_from_user checks the VMA first (EFAULT). */
static int vma_change_prot(struct mm *mm, struct vma *v, unsigned prot)
{
	if (v->shared_pa && (prot & PT_W))
		return vma_make_private(mm, v, prot);
	v->prot = prot;
	unsigned leaf_prot = prot ? prot | PT_USER : 0;
	const struct pt_visit_ops ops = { .leaf = protect_leaf };
	return pt_visit(mm->root, v->start, v->end - 1, &ops, &leaf_prot);
}

#define PROT_GROWSDOWN 0x01000000
#define PROT_GROWSUP 0x02000000

int do_mprotect(struct mm *mm, uint64_t start, uint64_t len, unsigned long prot)
{
	uint64_t end;

	if (!page_aligned(start))
		return -EINVAL;
	if (prot & ~(unsigned long)(PROT_READ | PROT_WRITE | PROT_EXEC | PROT_GROWSDOWN | PROT_GROWSUP))
		return -EINVAL;
	if ((prot & PROT_GROWSDOWN) && (prot & PROT_GROWSUP))
		return -EINVAL;
	if (len == 0)
		return 0;
	end = start + page_up(len);
	if (end <= start || end > mm->geo.task_size) /* page_up wrapped, or past the end */
		return -ENOMEM;
	if (!vma_range_mapped(mm, start, end)) /* Linux: a hole anywhere is -ENOMEM */
		return -ENOMEM;

	struct vma *v = vma_after(mm, start);
	if (v->start < start) {
		int err = vma_split(mm, v, start);
		if (err)
			return err;
		v = v->next;
	}
	unsigned pt = prot_to_pt(prot);
	while (v && v->start < end) {
		if (v->end > end) {
			int err = vma_split(mm, v, end);
			if (err)
				return err;
		}
		int err = vma_change_prot(mm, v, pt);
		if (err)
			return err;
		v = v->next;
	}
	vma_merge_around(mm, start, end);
	return 0;
}

/* MADV_DONTNEED: the private anonymous pages of [start, end) go, so the next touch finds a zero
 * page, as on Linux. File copies and the image's shared frames stay: refilling them from the
 * file is what Linux would do, and keeping them reads the same bytes until written. */
void vma_drop_anon_pages(struct mm *mm, uint64_t start, uint64_t end)
{
	for (struct vma *v = mm->vmas; v && v->start < end; v = v->next)
		if (v->end > start && !v->file && !v->shared_pa && v->kind != VMA_IMAGE)
			unmap_pages(mm, v, start, end);
}

