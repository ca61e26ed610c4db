/* The C-library-style wrappers around the raw system call (user/arch/<abi>/syscall.S). The raw
 * call returns -errno in [-4095, -1]; the wrappers turn that into -1 (or MAP_FAILED) and errno. */
#include <user.h>
#include <sysnr.h>

#define SIGCHLD 17

int errno;

/* Linux's rule for telling an error from a result: -4095..-1. A page-aligned mmap result can
 * never fall in that range, even at the very top of a 32-bit address space. */
static bool is_error(long ret)
{
	return (unsigned long)ret >= -4095UL;
}

static long set_errno(long ret)
{
	if (is_error(ret)) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}

long write(int fd, const void *buf, size_t count)
{
	return set_errno(__syscall(SYS_write, fd, (long)buf, (long)count, 0, 0, 0));
}

__noreturn void exit_group(int status)
{
	for (;;)
		__syscall(SYS_exit_group, status, 0, 0, 0, 0, 0);
}

__noreturn void sys_exit(int status)
{
	for (;;)
		__syscall(SYS_exit, status, 0, 0, 0, 0, 0);
}

/* Nothing is buffered across calls (printf writes before it returns), so there is nothing to
 * flush: exit is exit_group, as glibc's _exit is. */
__noreturn void exit(int status)
{
	exit_group(status);
}

void *mmap(void *addr, size_t length, int prot, int flags, int fd, long off)
{
	long ret;

#ifdef SYS_mmap2
	/* The 32-bit ABIs take the offset in 4096-byte units whatever the page size. */
	if (off & 4095) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	ret = __syscall(SYS_mmap2, (long)addr, (long)length, prot, flags, fd,
			(long)((unsigned long)off >> 12));
#else
	ret = __syscall(SYS_mmap, (long)addr, (long)length, prot, flags, fd, off);
#endif
	if (is_error(ret)) {
		errno = (int)-ret;
		return MAP_FAILED;
	}
	return (void *)ret;
}

int munmap(void *addr, size_t length)
{
	return (int)set_errno(__syscall(SYS_munmap, (long)addr, (long)length, 0, 0, 0, 0));
}

unsigned long sys_brk(unsigned long addr)
{
	return (unsigned long)__syscall(SYS_brk, (long)addr, 0, 0, 0, 0, 0);
}

int getpid(void)
{
	return (int)__syscall(SYS_getpid, 0, 0, 0, 0, 0, 0);
}

unsigned int getuid(void)
{
	return (unsigned int)__syscall(SYS_getuid, 0, 0, 0, 0, 0, 0);
}

/* The 64-bit Arm ABI has no fork: there it is clone with only the exit signal, as the C
 * library does. */
int fork(void)
{
#ifdef __NR_fork
	return (int)set_errno(__syscall(__NR_fork, 0, 0, 0, 0, 0, 0));
#else
	return (int)set_errno(__syscall(__NR_clone, SIGCHLD, 0, 0, 0, 0, 0));
#endif
}

int wait4(int pid, int *status, int options, void *rusage)
{
	return (int)set_errno(__syscall(__NR_wait4, pid, (long)status, options, (long)rusage, 0, 0));
}
