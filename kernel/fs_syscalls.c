/* The file system calls (include/syscall.h) over kernel/fd.c and the file namespace.
 * INTERIM for issue 15: read, write, open, openat and close work; the calls marked below
 * return -ENOSYS until the initramfs work implements them. */
#include <console.h>
#include <fd.h>
#include <kernel.h>
#include <lib/errno.h>
#include <mm.h>
#include <proc.h>
#include <syscall.h>

#define WRITE_CHUNK 256

/* A file descriptor argument: Linux declares it `unsigned int fd` (openat's directory `int
 * dfd`), so only the low 32 bits of the register count, for 64-bit tasks too. */
static long fd_arg(const struct syscall_args *a, unsigned i)
{
	return (long)(uint32_t)a->a[i];
}

static long dirfd_arg(const struct syscall_args *a, unsigned i)
{
	return (long)(int32_t)(uint32_t)a->a[i];
}

/* write(2) to the console (fds 1 and 2) or an open file. Like Linux's access_ok, a range that
 * wraps or reaches past TASK_SIZE is -EFAULT before a single byte is copied. */
long sys_write(const struct syscall_args *a)
{
	struct process *p = a->p;
	struct mm *mm = &p->mm;
	long fd = fd_arg(a, 0);
	uint64_t buf = a->a[1], count = a->a[2], done = 0;
	char chunk[WRITE_CHUNK];

	if (fd != 1 && fd != 2)
		return fd_write(mm, &p->files, fd, buf, count);
	if (buf + count < buf || buf + count > mm->geo.task_size)
		return -EFAULT;
	while (done < count) {
		size_t n = (size_t)MIN((uint64_t)sizeof(chunk), count - done);
		if (copy_from_user(mm, chunk, buf + done, n))
			return done ? (long)done : -EFAULT;
		console_write(chunk, n);
		done += n;
	}
	return (long)done;
}

long sys_read(const struct syscall_args *a)
{
	return fd_read(&a->p->mm, &a->p->files, fd_arg(a, 0), a->a[1], a->a[2]);
}

long sys_open(const struct syscall_args *a)
{
	return fd_open(&a->p->mm, &a->p->files, AT_FDCWD, a->a[0], (unsigned long)a->a[1]);
}

long sys_openat(const struct syscall_args *a)
{
	return fd_open(&a->p->mm, &a->p->files, dirfd_arg(a, 0), a->a[1], (unsigned long)a->a[2]);
}

long sys_close(const struct syscall_args *a)
{
	return fd_close(&a->p->files, fd_arg(a, 0));
}

const struct fs_file *fd_mmap_file(struct process *p, long fd, long *err)
{
	(void)p, (void)fd;
	*err = -EBADF;
	return NULL;
}

/* INTERIM: not yet implemented. */
#define NOT_YET(name)                                   \
	long name(const struct syscall_args *a)         \
	{                                               \
		(void)a;                                \
		return -ENOSYS;                         \
	}
NOT_YET(sys_readv)
NOT_YET(sys_writev)
NOT_YET(sys_lseek)
NOT_YET(sys_llseek)
NOT_YET(sys_newfstat)
NOT_YET(sys_newstat)
NOT_YET(sys_newlstat)
NOT_YET(sys_newfstatat)
NOT_YET(sys_fstat64)
NOT_YET(sys_stat64)
NOT_YET(sys_lstat64)
NOT_YET(sys_fstatat64)
NOT_YET(sys_statx)
NOT_YET(sys_ioctl)
NOT_YET(sys_fcntl)
NOT_YET(sys_getdents64)
NOT_YET(sys_getcwd)
NOT_YET(sys_chdir)
NOT_YET(sys_readlink)
NOT_YET(sys_readlinkat)
NOT_YET(sys_access)
NOT_YET(sys_faccessat)
