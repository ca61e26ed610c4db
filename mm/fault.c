/* Demand paging and user-memory access. The kernel reaches user pages only through their frames'
 * linear-map addresses, so a bad user pointer can cost the process an -EFAULT, never the kernel
 * an exception (and PAN/SMAP-style protections stay irrelevant). */
#include <arch/memory.h>
#include <arch/mmu.h>
#include <arch/trap.h>
#include <kernel/cred.h>
#include <mm/fault.h>
#include <kernel/fs.h>
#include <kernel/kernel.h>
#include <lib/errno.h>
#include <lib/fmt.h>
#include <lib/string.h>
#include <mm/mm.h>
#include <mm/pgtable.h>
#include <mm/pmm.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <arch/signal.h>
#include <kernel/utsname.h>

#define SIGKILL 9

static int count_leaf(const struct pt_leaf *l, void *ctx)
{
	*(uint64_t *)ctx += l->size;
	return 0;
}

static unsigned long kib(uint64_t bytes)
{
	return (unsigned long)(bytes >> 10);
}

__noreturn void out_of_memory(void)
{
	struct process *p = current_process();
	struct mm *mm = &p->mm;
	uint64_t total_vm = 0, mapped = 0, anon = (uint64_t)mm->frames * PAGE_SIZE;

	for (const struct vma *v = mm->vmas; v; v = v->next)
		total_vm += v->end - v->start;
	const struct pt_visit_ops ops = { .leaf = count_leaf };

	pt_visit(mm->root, 0, mm->geo.task_size - 1, &ops, &mapped);
	/* Linux's fields: the image's shared frames are its file pages; nothing is shmem. */
	printk("Out of memory: Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB, "
	       "file-rss:%lukB, shmem-rss:0kB, UID:%u pgtables:%lukB oom_score_adj:0\n",
	       p->pid, p->name, kib(total_vm), kib(anon), kib(mapped - anon), current_uid(),
	       kib((uint64_t)pt_table_frames(mm->root, mm->geo.task_size) * PAGE_SIZE));
	process_exit(SIGKILL);
}

/* A page could not be had: the process running in mm dies (Linux's OOM killer picks the
 * largest process, and here that is the one running); with none (exec), the caller fails. */
static void out_of_memory_in(struct mm *mm)
{
	struct process *p = current_process();

	if (p && &p->mm == mm)
		out_of_memory();
}

static bool vma_allows(const struct vma *v, enum fault_access access)
{
	switch (access) {
	case FAULT_WRITE: return v->prot & PT_W;
	case FAULT_EXEC: return v->prot & PT_X;
	default: return v->prot & PT_R;
	}
}

int mm_map_new_page(struct mm *mm, uint64_t va, unsigned prot, phys_addr_t *pa_out)
{
	phys_addr_t pa = pmm_alloc_page();

	if (!pa)
		return -ENOMEM;
	int err = pt_map(mm->root, (uintptr_t)va, pa, PAGE_SIZE, prot | PT_USER, 0);
	if (err) {
		pmm_free_page(pa);
		return err;
	}
	mm->frames++;
	if (pa_out)
		*pa_out = pa;
	return 0;
}

/* Make page (in v) present: the image's shared frame, or a fresh zeroed one. */
static int fault_in(struct mm *mm, const struct vma *v, uint64_t page)
{
	if (v->shared_pa) /* an image page someone unmapped and touched again: map it back */
		return pt_map(mm->root, (uintptr_t)page, v->shared_pa + (page - v->start), PAGE_SIZE,
			      v->prot | PT_USER, 0);
	return mm_map_new_page(mm, page, v->prot, NULL);
}

/* The VMA that allows this access at addr, or NULL with *err set. */
static struct vma *vma_for_access(struct mm *mm, uint64_t addr, enum fault_access access, int *err)
{
	struct vma *v = addr < mm->geo.task_size ? vma_find(mm, addr) : NULL;

	*err = !v ? -EFAULT : !vma_allows(v, access) ? -EACCES : 0;
	return *err ? NULL : v;
}

/* A write to a page mm_fork left read-only in a writable private VMA (copy-on-write): the
 * page's last owner just takes the frame back writable; otherwise the page gets a copy of its
 * own and drops its reference to the shared frame, which the other owners keep. -ENOMEM when
 * no frame is left for the copy. */
static int break_cow(struct mm *mm, const struct vma *v, uint64_t page, phys_addr_t shared)
{
	phys_addr_t pa = shared;

	if (pmm_page_refs(shared) > 1) {
		pa = pmm_alloc_pages_uninit(0); /* the copy writes every byte */
		if (!pa)
			return -ENOMEM;
		memcpy(__va(pa), __va(shared), PAGE_SIZE);
	}
	/* Replacing a present leaf allocates nothing, so this cannot fail; it flushes the old
	 * translation. */
	pt_map(mm->root, (uintptr_t)page, pa, PAGE_SIZE, v->prot | PT_USER, PT_MAP_REPLACE);
	if (pa != shared)
		pmm_page_put(shared);
	return 0;
}

/* Is this a write the leaf refuses although the VMA allows it? Only copy-on-write makes one:
 * every other leaf grants what its VMA does (pt check verifies it). */
static bool is_cow_write(enum fault_access access, const struct pt_walk_result *w)
{
	return access == FAULT_WRITE && w->mapped && !(w->prot & PT_W);
}

int handle_mm_fault(struct mm *mm, uint64_t addr, enum fault_access access)
{
	int err;
	struct vma *v = vma_for_access(mm, addr, access, &err);
	struct pt_walk_result w;

	if (!v)
		return err;
	uint64_t page = addr & ~((uint64_t)PAGE_SIZE - 1);
	pt_walk(mm->root, (uintptr_t)page, &w);
	if (is_cow_write(access, &w))
		return break_cow(mm, v, page, w.pa);
	if (w.mapped) {
		/* Present and allowed: a stale TLB entry raced us. */
		arch_tlb_flush_page((uintptr_t)page);
		return 0;
	}
	return fault_in(mm, v, page);
}

/* The linear-map address of user byte va, faulting its page in (and for a write, breaking its
 * copy-on-write sharing first: the kernel writes through the linear map, which no read-only
 * leaf stops); NULL with *err set if not accessible (-EFAULT, or -ENOMEM when no process
 * runs in mm to be killed). A page already present is otherwise used as it is (no fault, so no
 * TLB flush either): its leaf carries the VMA's permissions, which were just checked. */
static void *user_byte(struct mm *mm, uint64_t va, enum fault_access access, int *err)
{
	struct vma *v = vma_for_access(mm, va, access, err);
	struct pt_walk_result w;
	uint64_t page = va & ~((uint64_t)PAGE_SIZE - 1);

	if (!v) {
		*err = -EFAULT;
		return NULL;
	}
	pt_walk(mm->root, (uintptr_t)va, &w);
	if (!w.mapped || is_cow_write(access, &w)) {
		*err = w.mapped ? break_cow(mm, v, page, w.pa - (va - page)) : fault_in(mm, v, page);
		if (*err == -ENOMEM)
			out_of_memory_in(mm);
		if (*err) {
			if (*err != -ENOMEM)
				*err = -EFAULT;
			return NULL;
		}
		pt_walk(mm->root, (uintptr_t)va, &w);
	}
	*err = w.mapped ? 0 : -EFAULT;
	return w.mapped ? __va(w.pa) : NULL;
}

/* Copy in page-sized pieces: each piece lies in one page, so one translation serves it. */
static int copy_user(struct mm *mm, uint64_t uaddr, void *kbuf, size_t len, bool to_user)
{
	uint8_t *k = kbuf;

	if (uaddr + len < uaddr || uaddr + len > mm->geo.task_size)
		return -EFAULT;
	while (len) {
		size_t in_page = PAGE_SIZE - (uaddr & (PAGE_SIZE - 1));
		size_t n = MIN(len, in_page);
		int err;
		void *u = user_byte(mm, uaddr, to_user ? FAULT_WRITE : FAULT_READ, &err);
		if (!u)
			return err;
		if (to_user)
			memcpy(u, k, n);
		else
			memcpy(k, u, n);
		uaddr += n;
		k += n;
		len -= n;
	}
	return 0;
}

int copy_from_user(struct mm *mm, void *dst, uint64_t src, size_t len)
{
	return copy_user(mm, src, dst, len, false);
}

int copy_to_user(struct mm *mm, uint64_t dst, const void *src, size_t len)
{
	return copy_user(mm, dst, (void *)src, len, true);
}

/* ---- User faults that are not resolved: the signal and the console lines. ---- */

static const char *const access_names[] = {
	[ACCESS_READ] = "read", [ACCESS_WRITE] = "write", [ACCESS_EXEC] = "exec",
};

const char *trap_access_name(enum trap_access a)
{
	return a < ARRAY_SIZE(access_names) ? access_names[a] : "?";
}

void fault_vma_addr(const struct user_signal *us, uintptr_t ip, char *buf, size_t size)
{
	const struct vma *v = us->mm->vmas;

	while (v && v->end <= ip) /* find_vma: the first VMA that ends above ip */
		v = v->next;
	const struct fs_file *f = v ? vma_backing_file(us->proc, v) : NULL;
	buf[0] = '\0';
	if (f)
		snprintf(buf, size, " in %s[%llx+%llx]", f->name, (unsigned long long)v->start,
			 (unsigned long long)(v->end - v->start));
}

bool user_peek(struct mm *mm, uint64_t va, void *buf, size_t n, uint64_t limit)
{
	uint8_t *out = buf;

	if (va + n < va || va + n > limit || va + n > mm->geo.task_size)
		return false;
	while (n) {
		struct pt_walk_result w = { 0 }; /* zeroed for cppcheck's cross-function check */
		size_t in_page = PAGE_SIZE - (va & (PAGE_SIZE - 1));
		size_t len = MIN(n, in_page);

		pt_walk(mm->root, (uintptr_t)va, &w);
		if (!w.mapped || !(w.prot & PT_R))
			return false;
		memcpy(out, __va(w.pa), len);
		out += len;
		va += len;
		n -= len;
	}
	return true;
}

void fault_print_task_info(const struct user_signal *us, const char *hardware_name)
{
	/* One CPU; nothing taints the kernel; no kdump kernel is loaded. */
	printk("CPU: 0 PID: %d Comm: %.20s Not tainted %s %s\n", us->pid, us->comm,
	       UTS_RELEASE, UTS_VERSION_BUILD);
	if (hardware_name)
		printk("Hardware name: %s\n", hardware_name);
}

/* rndbits' own explanation, after Linux's lines: what was accessed and why it was refused. */
static const char *fault_reason(struct mm *mm, const struct trap_info *ti)
{
	if (ti->fault_addr >= mm->geo.task_size)
		return "kernel address";
	struct vma *v = vma_find(mm, ti->fault_addr);
	if (!v)
		return "not mapped";
	switch (ti->access) {
	case ACCESS_WRITE: return v->prot & PT_W ? "permission" : "read-only";
	case ACCESS_EXEC: return v->prot & PT_X ? "permission" : "not executable";
	default: return v->prot & PT_R ? "permission" : "no read permission";
	}
}

static enum fault_access fault_access_of(enum trap_access a)
{
	return a == ACCESS_WRITE ? FAULT_WRITE : a == ACCESS_EXEC ? FAULT_EXEC : FAULT_READ;
}

/* The signal a trap that is not a page fault sends, as Linux's handlers choose it. */
static int trap_signal(const struct trap_info *ti)
{
	switch (ti->kind) {
	case TRAP_UNDEFINED: return SIGILL;
	case TRAP_ALIGNMENT: return SIGBUS;
	case TRAP_BREAKPOINT: return SIGTRAP;
	case TRAP_ARITHMETIC: return SIGFPE;
	default: return SIGSEGV;
	}
}

/* siginfo's si_code and si_addr for the fault, as Linux's handlers fill them. */
static struct signal_info fault_siginfo(struct mm *mm, const struct trap_info *ti, int sig)
{
	struct signal_info info = { .signo = sig, .fault = true, .addr = ti->pc,
				    .syndrome = ti->syndrome, .trapno = ti->vector };

	switch (ti->kind) {
	case TRAP_PAGE_FAULT:
		info.addr = ti->fault_addr;
		info.code = vma_find(mm, ti->fault_addr) ? SEGV_ACCERR : SEGV_MAPERR;
		break;
	case TRAP_ALIGNMENT:
		info.addr = ti->has_fault_addr ? ti->fault_addr : ti->pc;
		info.code = BUS_ADRALN;
		break;
	case TRAP_UNDEFINED: info.code = ILL_ILLOPC; break;
	case TRAP_BREAKPOINT: info.code = TRAP_BRKPT; break;
	case TRAP_ARITHMETIC: info.code = FPE_INTDIV; break;
	default:
		info.code = SI_KERNEL;
		info.addr = 0;
	}
	return info;
}

static void explain(const struct process *p, struct mm *mm, const struct trap_info *ti)
{
	if (ti->kind == TRAP_PAGE_FAULT && ti->has_fault_addr)
		printk("[pid %d] %s: segfault at %llx ip %llx (%s, %s)\n", p->pid, p->name,
		       (unsigned long long)ti->fault_addr, (unsigned long long)ti->pc,
		       trap_access_name(ti->access), fault_reason(mm, ti));
	else
		printk("[pid %d] %s: %s ip %llx\n", p->pid, p->name, ti->name,
		       (unsigned long long)ti->pc);
}

void user_fault(struct trap_info *ti)
{
	struct process *p = current_process();

	if (!p) /* a user-mode trap with no process: cannot happen unless the arch lies */
		panic("user trap (%s) with no current process", ti->name);
	if (ti->kind == TRAP_PAGE_FAULT && ti->has_fault_addr) {
		int r = handle_mm_fault(&p->mm, ti->fault_addr, fault_access_of(ti->access));
		if (r == 0)
			return;
		if (r == -ENOMEM) /* no frame for a page the VMA allows: SIGKILL, as Linux */
			out_of_memory();
	}
	struct user_signal us = { .sig = trap_signal(ti), .ti = ti, .comm = p->name, .pid = p->pid,
				  .proc = p, .mm = &p->mm };
	/* An attack's expected misses (page faults) stay quiet; otherwise the whole report,
	 * Linux's lines first, when no handler takes the signal (Linux's unhandled_signal). */
	if (!signal_handled(us.sig) &&
	    !(p->quiet_faults && ti->kind == TRAP_PAGE_FAULT && ti->has_fault_addr)) {
		arch_show_unhandled_signal(&us);
		explain(p, &p->mm, ti);
	}
	struct signal_info info = fault_siginfo(&p->mm, ti, us.sig);
	signal_force_fault_info(&info); /* a handler runs, or the process ends with us.sig */
}
