/* System calls: one handler per call, shared by every ABI; the tables that number them per
 * ABI (Linux's numbers) live in kernel/syscall.c. */
#ifndef RNDBITS_SYSCALL_H
#define RNDBITS_SYSCALL_H

#include <types.h>

struct process;

/* What a handler gets: the calling process, its ABI, and its six argument registers (a 32-bit
 * task's zero-extended to 64 bits). It returns the result or -errno. */
struct syscall_args {
	struct process *p;
	bool compat;     /* a 32-bit task on a 64-bit kernel */
	uint64_t a[6];
};

typedef long (*syscall_fn)(const struct syscall_args *);

/* The file calls (kernel/fs_syscalls.c): Linux's semantics and errors over the file namespace.
 * The stat family writes the calling ABI's own struct layout (asm/stat.h). */
long sys_read(const struct syscall_args *);
long sys_write(const struct syscall_args *);
long sys_readv(const struct syscall_args *);
long sys_writev(const struct syscall_args *);
long sys_open(const struct syscall_args *);
long sys_openat(const struct syscall_args *);
long sys_close(const struct syscall_args *);
long sys_lseek(const struct syscall_args *);
long sys_llseek(const struct syscall_args *);     /* _llseek of the 32-bit ABIs */
long sys_newfstat(const struct syscall_args *);   /* fstat of the 64-bit ABIs */
long sys_newstat(const struct syscall_args *);    /* stat (x86_64) */
long sys_newlstat(const struct syscall_args *);   /* lstat (x86_64) */
long sys_newfstatat(const struct syscall_args *); /* newfstatat / fstatat (64-bit ABIs) */
long sys_fstat64(const struct syscall_args *);    /* 32-bit ABIs */
long sys_stat64(const struct syscall_args *);
long sys_lstat64(const struct syscall_args *);
long sys_fstatat64(const struct syscall_args *);
long sys_statx(const struct syscall_args *);
long sys_ioctl(const struct syscall_args *);
long sys_fcntl(const struct syscall_args *);      /* fcntl and fcntl64 */
long sys_getdents64(const struct syscall_args *);
long sys_getcwd(const struct syscall_args *);
long sys_chdir(const struct syscall_args *);
long sys_readlink(const struct syscall_args *);
long sys_readlinkat(const struct syscall_args *);
long sys_access(const struct syscall_args *);
long sys_faccessat(const struct syscall_args *);  /* faccessat and faccessat2 */

/* The regular file open on descriptor fd of p (for mmap of a file), or NULL with *err set to
 * Linux's errno for mmap: -EBADF (not open), -EACCES (not a regular file, or not readable). */
struct fs_file;
const struct fs_file *fd_mmap_file(struct process *p, long fd, long *err);

#endif
