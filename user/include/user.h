/* The tiny user library (user/lib, user/arch/<abi>): Linux system calls, printf to the console
 * through write(), and the freestanding lib/ code the kernel uses too (string, fmt, parse). */
#ifndef RNDBITS_USER_H
#define RNDBITS_USER_H

#include <lib/types.h>
#include <lib/errno.h>
#include <lib/fmt.h>
#include <lib/parse.h>
#include <lib/string.h>

#include <lib/mman.h>

#define MAP_FAILED ((void *)-1)

#define STDOUT_FILENO 1
#define STDERR_FILENO 2

/* The page size of the kernel these images are built for (native and compat alike). */
#define USER_PAGE_SIZE (1UL << USER_PAGE_SHIFT)

/* A return instruction as one 32-bit word, to plant in data, stack or heap: an exec there
 * that the page tables wrongly allow comes straight back instead of running garbage. */
#if defined(__x86_64__) || defined(__i386__)
#define RET_INSN 0xccccccc3u /* ret, then int3 padding */
#elif defined(__aarch64__)
#define RET_INSN 0xd65f03c0u /* ret */
#elif defined(__arm__)
#define RET_INSN 0xe12fff1eu /* bx lr */
#endif

/* Set by the wrappers below when they fail (they then return -1 or MAP_FAILED). */
extern int errno;
/* "EFAULT" for EFAULT (positive), for the errors these programs meet; NULL for others. */
const char *errno_name(int err);

/* The raw system call (user/arch/<abi>/syscall.S): returns -errno on failure, never sets errno. */
long __syscall(long nr, long a, long b, long c, long d, long e, long f);
/* A raw result as the wrappers return it (musl's name): Linux's rule tells an error from a
 * result by its range, -4095..-1, which becomes -1 with errno set. A page-aligned mmap result
 * can never fall in that range, even at the very top of a 32-bit address space. */
static inline long __syscall_ret(long ret)
{
	if ((unsigned long)ret >= -4095UL) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}

long write(int fd, const void *buf, size_t count);
/* Ends the whole process (exit_group), as the C library's _exit does. */
__noreturn void exit(int status);
__noreturn void exit_group(int status);
/* Ends the calling thread only (Linux's exit): for a single-threaded process the same. */
__noreturn void sys_exit(int status);
/* off must be a multiple of 4096 (the 32-bit ABIs pass it to mmap2 in 4096-byte units). */
void *mmap(void *addr, size_t length, int prot, int flags, int fd, long off);
int munmap(void *addr, size_t length);
/* Linux's raw brk: returns the new break, or the current one when addr is 0 or refused. */
unsigned long sys_brk(unsigned long addr);
/* The C library's forms: 0 / -1 with ENOMEM, and the old break (or (void *)-1). */
int brk(void *addr);
void *sbrk(long increment);
int getpid(void);
unsigned int getuid(void);
/* The child's pid in the parent, 0 in the child (a copy of the parent's address space). */
int fork(void);
/* Wait for the child pid (-1: any child) to end; its status as the C library's wait4 gives it
 * (exit code << 8, or the signal). rusage: NULL or a struct rusage. The pid, 0 with WNOHANG and
 * the child still running, or -1 (ECHILD: no such child). */
int wait4(int pid, int *status, int options, void *rusage);

/* C's strtoul, on lib/parse.c (white space, sign, base 0/2..36, ERANGE). */
unsigned long strtoul(const char *s, char **end, int base);

int printf(const char *fmt, ...) __printf(1, 2);
int dprintf(int fd, const char *fmt, ...) __printf(2, 3);
int puts(const char *s);

/* Provided by each program; crt0 calls it as main(argc, argv) and passes its result to exit. */
int main(int argc, char **argv);

#endif
