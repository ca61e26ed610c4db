/* newlib on Linux (ARM EABI): the start-up code and the system-call stubs newlib's libc calls,
 * so that arm-none-eabi-gcc builds a static program that runs under any Linux ABI kernel
 * (rndbits' ARM presets, Linux, qemu-arm):
 *
 *   arm-none-eabi-gcc -march=armv7-a -O2 --specs=user/newlib/linux.specs prog.c user/newlib/syscalls.c
 *
 * linux.specs is newlib's nosys.specs (libnosys's failing stubs for what is not here) without
 * newlib's crt0, which sets its stack to a fixed address: _start below takes the stack, argc,
 * argv and envp that the kernel's exec built, as Linux's ELF loader lays them out. It also links
 * the image as Linux's armhf toolchain does, from 0x10000 with segments congruent modulo 64 KiB
 * (arm-none-eabi's default, 0x8000 with file offsets 4 KiB apart, cannot be mapped by a kernel
 * with 16K or 64K pages: an arm64 one running it as a compat task). System calls
 * are EABI: number in r7, `svc #0`, arguments in r0-r5, -errno back in r0. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/stat.h>

/* Linux's ARM EABI numbers (arch/arm/tools/syscall.tbl). */
#define NR_exit 1
#define NR_read 3
#define NR_write 4
#define NR_close 6
#define NR_lseek 19
#define NR_getpid 20
#define NR_kill 37
#define NR_brk 45
#define NR_ioctl 54
#define NR_fstat64 197
#define NR_exit_group 248
#define TCGETS 0x5401

static long syscall3(long nr, long a, long b, long c)
{
	register long r0 __asm__("r0") = a;
	register long r1 __asm__("r1") = b;
	register long r2 __asm__("r2") = c;
	register long r7 __asm__("r7") = nr;

	__asm__ volatile("svc #0" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r7) : "memory");
	return r0;
}

/* A call's result as newlib wants it: -1 with errno set for Linux's -4095..-1. */
static long result(long r)
{
	if ((unsigned long)r > -4096UL) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

int _write(int fd, const void *buf, size_t n)
{
	return (int)result(syscall3(NR_write, fd, (long)buf, (long)n));
}

int _read(int fd, void *buf, size_t n)
{
	return (int)result(syscall3(NR_read, fd, (long)buf, (long)n));
}

int _close(int fd)
{
	return (int)result(syscall3(NR_close, fd, 0, 0));
}

int _lseek(int fd, int offset, int whence)
{
	return (int)result(syscall3(NR_lseek, fd, offset, whence));
}

int _getpid(void)
{
	return (int)syscall3(NR_getpid, 0, 0, 0);
}

int _kill(int pid, int sig)
{
	return (int)result(syscall3(NR_kill, pid, sig, 0));
}

void _exit(int status)
{
	for (;;)
		syscall3(NR_exit_group, status, 0, 0);
}

/* A terminal answers TCGETS (struct termios: 60 bytes on ARM); anything else is ENOTTY. newlib
 * line-buffers stdout when this says 1. */
int _isatty(int fd)
{
	long termios[16];

	return result(syscall3(NR_ioctl, fd, TCGETS, (long)termios)) == 0;
}

/* Linux's struct stat64 of ARM EABI (64-bit members 8-byte aligned): only the fields newlib
 * reads are copied into its own struct stat. */
struct linux_stat64 {
	unsigned long long st_dev;
	unsigned char pad0[4];
	unsigned long st_ino32;
	unsigned int st_mode;
	unsigned int st_nlink;
	unsigned long st_uid, st_gid;
	unsigned long long st_rdev;
	unsigned char pad3[4];
	long long st_size;
	unsigned long st_blksize;
	unsigned long long st_blocks;
	unsigned long times[6];
	unsigned long long st_ino;
};

int _fstat(int fd, struct stat *st)
{
	struct linux_stat64 ls;

	if (result(syscall3(NR_fstat64, fd, (long)&ls, 0)) != 0)
		return -1;
	*st = (struct stat){ 0 };
	st->st_mode = ls.st_mode;
	st->st_nlink = ls.st_nlink;
	st->st_size = (off_t)ls.st_size;
	st->st_blksize = (long)ls.st_blksize;
	st->st_blocks = (long)ls.st_blocks;
	return 0;
}

/* malloc's memory: Linux's brk(0) says where the break is, brk(end) moves it and returns the
 * break it got (the old one when it refuses). */
void *_sbrk(ptrdiff_t incr)
{
	static char *brk_end;
	char *old, *want;

	if (!brk_end)
		brk_end = (char *)syscall3(NR_brk, 0, 0, 0);
	old = brk_end;
	want = old + incr;
	if ((char *)syscall3(NR_brk, (long)want, 0, 0) != want) {
		errno = ENOMEM;
		return (void *)-1;
	}
	brk_end = want;
	return old;
}

extern char **environ;
extern int main(int argc, char **argv, char **envp);
extern void __libc_init_array(void);
extern void __libc_fini_array(void);
void __newlib_linux_start(long *sp) __attribute__((noreturn, used));

/* The stack exec built: argc, argv[] and NULL, envp[] and NULL (then auxv, unused here). */
void __newlib_linux_start(long *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);
	char **envp = argv + argc + 1;

	environ = envp;
	atexit(__libc_fini_array);
	__libc_init_array();
	exit(main(argc, argv, envp));
}

/* The entry point, in ARM state: no frame to return to (fp and lr 0), the kernel's stack
 * pointer handed over, then an 8-byte aligned stack as the AAPCS wants for the C code. */
__asm__(".text\n"
	".arm\n"
	".global _start\n"
	".type _start, %function\n"
	"_start:\n"
	"	mov fp, #0\n"
	"	mov lr, #0\n"
	"	mov r0, sp\n"
	"	bic r1, r0, #7\n"
	"	mov sp, r1\n"
	"	bl __newlib_linux_start\n"
	".size _start, . - _start\n");
