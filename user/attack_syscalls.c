/* attack: kernel pointers and bad ranges passed to system calls (write, mmap, munmap, brk, the
 * file calls): each call must fail as Linux's does, and nothing may leak. Every result is
 * printed the way strace shows it. */
#include "attack.h"

/* The top page a task of this ABI could name, for wrapping ranges. */
static uintptr_t top_page(void)
{
	return (uintptr_t)0 - PAGE;
}

int sys_write_case(const struct attack *a)
{
	uintptr_t kaddr = a->addr;
	static char buf[16] = "0123456789abcdef";

	show("write(1, kernel, 64)", __syscall(SYS_write, 1, (long)kaddr, 64, 0, 0, 0));
	show("write(2, kernel, 1)", __syscall(SYS_write, 2, (long)kaddr, 1, 0, 0, 0));
	show("write(1, kernel, 0)", __syscall(SYS_write, 1, (long)kaddr, 0, 0, 0, 0));
	show("write(1, NULL, 16)", __syscall(SYS_write, 1, 0, 16, 0, 0, 0));
	show("write(1, buf, -1)", __syscall(SYS_write, 1, (long)buf, -1L, 0, 0, 0));
	show("write(1, top page, 2 pages)",
	     __syscall(SYS_write, 1, (long)top_page(), (long)(2 * PAGE), 0, 0, 0));
	show("write(9, buf, 16)", __syscall(SYS_write, 9, (long)buf, 16, 0, 0, 0));
	show("write(1, buf, 0)", __syscall(SYS_write, 1, (long)buf, 0, 0, 0, 0));
	return 0;
}

int sys_mmap_case(const struct attack *a)
{
	uintptr_t kaddr = a->addr;
	const long rw = PROT_READ | PROT_WRITE, anon = MAP_PRIVATE | MAP_ANONYMOUS;
	uintptr_t kpage = kaddr & ~(uintptr_t)(PAGE - 1);

	show("mmap(kernel, 1 page, MAP_FIXED)", sys_mmap(kpage, PAGE, rw, anon | MAP_FIXED));
	show("mmap(kernel, 1 page, MAP_FIXED, PROT_EXEC)",
	     sys_mmap(kpage, PAGE, rw | PROT_EXEC, anon | MAP_FIXED));
	long hinted = sys_mmap(kpage, PAGE, rw, anon);
	printf("attack: mmap(kernel hint, 1 page) = %s\n",
	       is_err(hinted) ? err_name(-hinted)
	       : (uintptr_t)hinted < kpage ? "a user address (hint ignored)" : "THE HINT");
	show("mmap(top page, 2 pages, MAP_FIXED) wrapping",
	     sys_mmap(top_page(), 2 * PAGE, rw, anon | MAP_FIXED));
	show("mmap(misaligned, MAP_FIXED)", sys_mmap(16 * PAGE + 1, PAGE, rw, anon | MAP_FIXED));
	show("mmap(NULL, 0)", sys_mmap(0, 0, rw, anon));
	show("mmap(NULL, huge)", sys_mmap(0, (unsigned long)0 - PAGE, rw, anon));
	show("mmap(NULL, -1)", sys_mmap(0, (unsigned long)-1, rw, anon));
	show("mmap(NULL, 1 page, no MAP_ANONYMOUS)", sys_mmap(0, PAGE, rw, MAP_PRIVATE));
	show("mmap(NULL, 1 page, neither shared nor private)", sys_mmap(0, PAGE, rw, MAP_ANONYMOUS));
	return 0;
}

int sys_munmap_case(const struct attack *a)
{
	uintptr_t kaddr = a->addr;
	uintptr_t kpage = kaddr & ~(uintptr_t)(PAGE - 1);
	long m = sys_mmap(0, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS);

	show("munmap(kernel, 1 page)", __syscall(SYS_munmap, (long)kpage, (long)PAGE, 0, 0, 0, 0));
	show("munmap(top page, 2 pages) wrapping",
	     __syscall(SYS_munmap, (long)top_page(), (long)(2 * PAGE), 0, 0, 0, 0));
	show("munmap(page + 1, 1 page)", __syscall(SYS_munmap, m + 1, (long)PAGE, 0, 0, 0, 0));
	show("munmap(page, 0)", __syscall(SYS_munmap, m, 0, 0, 0, 0, 0));
	show("munmap(page, huge)", __syscall(SYS_munmap, m, -(long)PAGE, 0, 0, 0, 0));
	show("munmap(page, 1 page)", __syscall(SYS_munmap, m, (long)PAGE, 0, 0, 0, 0));
	show("munmap(page, 1 page) again", __syscall(SYS_munmap, m, (long)PAGE, 0, 0, 0, 0));
	return 0;
}

static void show_brk(const char *call, unsigned long r, unsigned long cur)
{
	printf("attack: %s = %s\n", call, r == cur ? "the current break (refused)" : "MOVED");
}

int sys_brk_case(const struct attack *a)
{
	uintptr_t kaddr = a->addr;
	unsigned long cur = sys_brk(0);

	show_brk("brk(kernel)", sys_brk(kaddr), cur);
	show_brk("brk(top page)", sys_brk(top_page()), cur);
	show_brk("brk(-1)", sys_brk((unsigned long)-1), cur);
	show_brk("brk(PAGE)", sys_brk(PAGE), cur);
	unsigned long grown = sys_brk(cur + PAGE);
	printf("attack: brk(+1 page) = %s\n", grown == cur + PAGE ? "grown" : "REFUSED");
	show_brk("brk(kernel) after growing", sys_brk(kaddr), grown);
	return 0;
}

/* A name of 100 bytes with no NUL before the unmapped page that follows them: shorter than
 * PATH_MAX, so the answer must be EFAULT, not ENAMETOOLONG. */
static const char *unterminated_name(void)
{
	char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	munmap(p + PAGE, PAGE);
	memset(p, 'a', PAGE);
	p[PAGE - 100] = '/';
	return p + PAGE - 100;
}

int sys_file_case(const struct attack *a)
{
	uintptr_t kaddr = a->addr;
	static char buf[64], long_name[5000];
	const char *unterminated = unterminated_name();

	show("openat(kernel)", sys_open((const void *)kaddr, O_RDONLY));
	show("openat(NULL)", sys_open(NULL, O_RDONLY));
	show("openat(unterminated at an unmapped page)", sys_open(unterminated, O_RDONLY));
	memset(long_name, 'a', sizeof(long_name) - 1);
	long_name[0] = '/';
	show("openat(5000-byte name)", sys_open(long_name, O_RDONLY));
#ifdef SYS_open
	show("open(kernel)", __syscall(SYS_open, (long)kaddr, O_RDONLY, 0, 0, 0, 0));
#else
	printf("attack: open: aarch64 has openat only\n");
#endif
	show("openat(\"/no/such/file\")", sys_open("/no/such/file", O_RDONLY));
	show("openat(\"/proc/sys/vm\", O_WRONLY)", sys_open("/proc/sys/vm", O_WRONLY));
	show("openat(\"" RND_BITS_FILE "/\")", sys_open(RND_BITS_FILE "/", O_RDONLY));
	memset(long_name, 'a', 200);
	memcpy(long_name, "/proc/sys/", 10);
	long_name[200] = '\0';
	show("openat(200-byte name under /proc/sys)", sys_open(long_name, O_RDONLY));
	long fd = sys_open(RND_BITS_FILE, O_RDONLY);
	show("openat(\"" RND_BITS_FILE "\")", fd);
	show("read(fd, kernel, 16)", sys_read(fd, kaddr, 16));
	show("read(fd, NULL, 16)", sys_read(fd, 0, 16));
	show("read(fd, top page, 2 pages)", sys_read(fd, top_page(), 2 * PAGE));
	show("read(fd, text, 16)", sys_read(fd, (uintptr_t)&main, 16));
	show("write(fd, buf, 1) on O_RDONLY", __syscall(SYS_write, fd, (long)buf, 1, 0, 0, 0));
	long n = sys_read(fd, (uintptr_t)buf, sizeof(buf) - 1);
	show("read(fd, buf, 63)", n);
	show("close(fd)", sys_close(fd));
	show("read(fd) after close", sys_read(fd, (uintptr_t)buf, 16));
	show("close(fd) again", sys_close(fd));
	show("read(99, buf, 16)", sys_read(99, (uintptr_t)buf, 16));
	show("close(-1)", sys_close(-1));
	return 0;
}

