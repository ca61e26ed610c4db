/* The memory calls over mm/vma.c: brk, mmap (anonymous, or a private copy of an archive file),
 * munmap, mprotect, madvise. */
#include <arch/memory.h>
#include <kernel/kernel.h>
#include <lib/errno.h>
#include <mm/mm.h>
#include <kernel/proc.h>
#include <kernel/syscall.h>

long sys_brk(const struct syscall_args *a)
{
	return (long)do_brk(&a->p->mm, a->a[0]);
}

/* mmap with the file offset in bytes: fd is Linux's `unsigned long fd` cut to an int. */
static long mmap_common(const struct syscall_args *a, uint64_t off)
{
	struct process *p = a->p;
	uint64_t addr = a->a[0], len = a->a[1];
	unsigned long prot = (unsigned long)a->a[2], flags = (unsigned long)a->a[3];
	long fd = (long)(int32_t)(uint32_t)a->a[4], err;

	if ((flags & MAP_ANONYMOUS) || len == 0)
		return (long)do_mmap(&p->mm, addr, len, prot, flags);
	const struct fs_file *file = fd_mmap_file(p, fd, prot, flags, &err);
	if (!file)
		return err;
	return (long)do_mmap_file(&p->mm, addr, len, prot, flags, file, off);
}

long sys_mmap(const struct syscall_args *a)
{
	return mmap_common(a, a->a[5]);
}

/* mmap2: the offset counts 4096-byte units whatever the page size (Linux's, on every
 * 32-bit ABI here); do_mmap_file refuses one that is not page aligned. */
long sys_mmap2(const struct syscall_args *a)
{
	return mmap_common(a, a->a[5] * 4096);
}

long sys_munmap(const struct syscall_args *a)
{
	return do_munmap(&a->p->mm, a->a[0], a->a[1]);
}

long sys_mprotect(const struct syscall_args *a)
{
	return do_mprotect(&a->p->mm, a->a[0], a->a[1], (unsigned long)a->a[2]);
}

/* Advice changes nothing here (no swap, no readahead) except MADV_DONTNEED, whose zero pages
 * programs rely on. Linux's checks: a known advice, start page aligned, the range not
 * wrapping, every page of it mapped (-ENOMEM). */
#define MADV_DONTNEED 4
#define MADV_HWPOISON 100
#define MADV_SOFT_OFFLINE 101
long sys_madvise(const struct syscall_args *a)
{
	uint64_t start = a->a[0], len = a->a[1];
	unsigned advice = (unsigned)a->a[2];

	uint64_t end = (start + len + PAGE_SIZE - 1) & ~(uint64_t)(PAGE_SIZE - 1);

	if (advice > 25 && advice != MADV_HWPOISON && advice != MADV_SOFT_OFFLINE)
		return -EINVAL;
	if (start & (PAGE_SIZE - 1))
		return -EINVAL;
	if (end < start || (len && end == start))
		return -EINVAL;
	if (end == start)
		return 0;
	if (!vma_range_mapped(&a->p->mm, start, end))
		return -ENOMEM;
	if (advice == MADV_DONTNEED)
		vma_drop_anon_pages(&a->p->mm, start, end);
	return 0;
}
