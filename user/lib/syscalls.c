/* The C-library-style wrappers around the raw system call (user/arch/<abi>/syscall.S). The raw
 * call returns -errno in [-4095, -1]; the wrappers turn that into -1 (or MAP_FAILED) and errno. */
#include <user.h>
#include <sysnr.h>

int errno;

long write(int fd, const void *buf, size_t count)
{
	return __syscall_ret(__syscall(SYS_write, fd, (long)buf, (long)count, 0, 0, 0));
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
	ret = __syscall_ret(ret);
	return ret == -1 ? MAP_FAILED : (void *)ret;
}

int munmap(void *addr, size_t length)
{
	return (int)__syscall_ret(__syscall(SYS_munmap, (long)addr, (long)length, 0, 0, 0, 0));
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
