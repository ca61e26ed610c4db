/* fork and wait4, in an object of their own: the library is an archive, so only the programs
 * that fork link them. */
#include <user.h>
#include <sysnr.h>

#define SIGCHLD 17

/* The 64-bit Arm ABI has no fork: there it is clone with only the exit signal, as the C
 * library does. */
int fork(void)
{
#ifdef __NR_fork
	return (int)__syscall_ret(__syscall(__NR_fork, 0, 0, 0, 0, 0, 0));
#else
	return (int)__syscall_ret(__syscall(__NR_clone, SIGCHLD, 0, 0, 0, 0, 0));
#endif
}

int wait4(int pid, int *status, int options, void *rusage)
{
	return (int)__syscall_ret(__syscall(__NR_wait4, pid, (long)status, options, (long)rusage,
					    0, 0));
}
