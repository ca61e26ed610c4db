/* attack CASE [ARG]: one attack on the kernel's isolation per run, so that a transcript can
 * check exactly how each one ends (tests/serial/attack*.txt, docs/security.md). The cases:
 *
 *   read ADDR, write ADDR, jump ADDR   touch / call a kernel address        -> killed
 *   write-text                         write its own text                   -> killed
 *   exec-stack|exec-heap|exec-mmap|exec-data  call a RET placed in data     -> killed (NX)
 *   map-stack                          MAP_FIXED over its whole used stack  -> allowed, then dies
 *   sys-write ADDR, sys-mmap ADDR, sys-munmap ADDR, sys-brk ADDR, sys-file ADDR
 *                                      kernel pointers and bad ranges passed to system calls:
 *                                      each call's result is printed as Linux would give it
 *   sysctl-read, sysctl-write VALUE, sysctl-nobody   /proc/sys/vm/mmap_rnd_bits by syscalls
 *   fds                                open until EMFILE, then close everything
 *   fds-leave VALUE                    open mmap_rnd_bits for writing (fd 3, written with VALUE)
 *                                      and reading (fd 4), and exit with both open
 *   fds-inherited                      write, read and close fds 3 and 4 it never opened
 *   oom                                mmap and touch until the frames run out  -> killed
 *   brk-oom                            grow the heap with brk and touch it      -> killed
 *   vmas                               one-page mmaps until the VMA limit (ENOMEM), unmap all
 *
 * ADDR is BASE[+OFF]: BASE hex (0x optional) or top-N, 2^W - 2^N in the ABI's word width W; OFF
 * hex (arm64's PAGE_OFFSET is top-VA_BITS, its kernel text top-VA_BITS+0x200000; arm's is
 * PAGE_OFFSET+0x200000). */
#include <user.h>
#include <sysnr.h>

/* File system calls (user/lib has only the memory and process ones); Linux's numbers. */
#if defined(__aarch64__)
#define SYS_read_ 63
#define SYS_openat_ 56
#define SYS_close_ 57
#elif defined(__arm__)
#define SYS_read_ 3
#define SYS_open_ 5
#define SYS_close_ 6
#define SYS_openat_ 322
#elif defined(__x86_64__)
#define SYS_read_ 0
#define SYS_open_ 2
#define SYS_close_ 3
#define SYS_openat_ 257
#elif defined(__i386__)
#define SYS_read_ 3
#define SYS_open_ 5
#define SYS_close_ 6
#define SYS_openat_ 295
#endif
#ifdef SYS_mmap2
#define SYS_mmap_ SYS_mmap2
#else
#define SYS_mmap_ SYS_mmap
#endif

#define AT_FDCWD (-100)
#define O_RDONLY 0
#define O_WRONLY 1
#define O_RDWR 2

#if defined(__x86_64__) || defined(__i386__)
#define RET_INSN 0xccccccc3u /* ret, then int3 padding */
#elif defined(__aarch64__)
#define RET_INSN 0xd65f03c0u /* ret */
#elif defined(__arm__)
#define RET_INSN 0xe12fff1eu /* bx lr */
#endif

#define PAGE USER_PAGE_SIZE
#define RND_BITS_FILE "/proc/sys/vm/mmap_rnd_bits"

static volatile uint32_t data_insn[4] = { RET_INSN, RET_INSN, RET_INSN, RET_INSN };
/* Set once an exec attack calls into data: `exec-*` re-entering main must return at once. */
static volatile bool exec_in_progress;

static __noreturn void usage(void)
{
	printf("usage: attack read|write|jump ADDR | write-text | exec-stack|exec-heap|exec-mmap|"
	       "exec-data | map-stack | sys-write|sys-mmap|sys-munmap|sys-brk|sys-file ADDR | "
	       "sysctl-read | sysctl-write VALUE | sysctl-nobody | fds | fds-leave VALUE | fds-inherited | "
	       "oom | brk-oom | vmas\n");
	exit(2);
}

static const char *err_name(long e)
{
	switch (e) {
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EBADF: return "EBADF";
	case ENOMEM: return "ENOMEM";
	case EACCES: return "EACCES";
	case EFAULT: return "EFAULT";
	case EEXIST: return "EEXIST";
	case EISDIR: return "EISDIR";
	case ENOTDIR: return "ENOTDIR";
	case EINVAL: return "EINVAL";
	case EMFILE: return "EMFILE";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case ENOSYS: return "ENOSYS";
	default: return "E?";
	}
}

static bool is_err(long r)
{
	return (unsigned long)r >= -4095UL;
}

/* "= 3" or "= -EFAULT": the raw result the way strace shows it. */
static void show(const char *call, long r)
{
	if (is_err(r))
		printf("attack: %s = -%s\n", call, err_name(-r));
	else
		printf("attack: %s = %ld\n", call, r);
}

/* ADDR: BASE[+OFF], BASE hex (0x optional) or top-N (2^W - 2^N in the word width W), OFF hex. */
static uintptr_t parse_addr(const char *s)
{
	char base[32];
	const char *plus = strchr(s, '+');
	size_t n = plus ? (size_t)(plus - s) : strlen(s);
	uint64_t v, off = 0;

	if (n == 0 || n >= sizeof(base))
		usage();
	memcpy(base, s, n);
	base[n] = '\0';
	if (plus && !parse_u64_full(plus + 1, 16, &off))
		usage();
	if (strncmp(base, "top-", 4) == 0) {
		if (!parse_u64_full(base + 4, 10, &v) || v == 0 || v >= 8 * sizeof(uintptr_t))
			usage();
		v = (uintptr_t)(0 - ((uintptr_t)1 << v));
	} else if (!parse_u64_full(base, 16, &v) || v > UINTPTR_MAX) {
		usage();
	}
	if (v + off < v || v + off > UINTPTR_MAX)
		usage();
	return (uintptr_t)(v + off);
}

/* --- direct accesses: the process must die --------------------------------------------- */

static void call_address(uintptr_t addr)
{
	exec_in_progress = true;
	((void (*)(void))addr)();
	exec_in_progress = false;
#if defined(__i386__)
	printf("attack: survived: i386 paging without PAE has no NX bit to refuse execution\n");
#else
	printf("attack: survived\n");
#endif
	exit(1);
}

static int attack_access(const char *mode, uintptr_t addr)
{
	printf("attack: %s 0x%lx\n", mode, (unsigned long)addr);
	if (strcmp(mode, "read") == 0)
		printf("attack: read 0x%02x\n", *(volatile unsigned char *)addr);
	else if (strcmp(mode, "write") == 0)
		*(volatile unsigned char *)addr = 0x5a;
	else
		call_address(addr);
	printf("attack: survived\n");
	return 1;
}

static uintptr_t heap_insn(void)
{
	void *p = sbrk((long)PAGE);

	if (p == (void *)-1) {
		printf("attack: sbrk: %s\n", strerror(errno));
		exit(1);
	}
	*(volatile uint32_t *)p = RET_INSN;
	return (uintptr_t)p;
}

static uintptr_t mmap_insn(void)
{
	void *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		printf("attack: mmap: %s\n", strerror(errno));
		exit(1);
	}
	*(volatile uint32_t *)p = RET_INSN;
	return (uintptr_t)p;
}

static int attack_exec(const char *what, volatile uint32_t *stack_insn)
{
	uintptr_t addr;

	if (strcmp(what, "stack") == 0)
		addr = (uintptr_t)stack_insn;
	else if (strcmp(what, "heap") == 0)
		addr = heap_insn();
	else if (strcmp(what, "mmap") == 0)
		addr = mmap_insn();
	else if (strcmp(what, "data") == 0)
		addr = (uintptr_t)data_insn;
	else
		usage();
	printf("attack: exec %s at 0x%lx\n", what, (unsigned long)addr);
	call_address(addr);
	return 1;
}

static int attack_write_text(void)
{
	printf("attack: write text at 0x%lx\n", (unsigned long)(uintptr_t)&main);
	*(volatile unsigned char *)(uintptr_t)&main = 0;
	printf("attack: survived\n");
	return 1;
}

/* MAP_FIXED over every page of the stack in use, from a little below the current frame up to
 * the top (the page holding argv's strings). Linux allows it; every saved return address is
 * then zero, so the process crashes when it next returns. Only the kernel's survival matters. */
static int attack_map_stack(char **argv, int argc)
{
	volatile char here;
	const char *last = argv[argc - 1];
	uintptr_t top = ((uintptr_t)last + strlen(last) + 1 + PAGE - 1) & ~(uintptr_t)(PAGE - 1);
	uintptr_t bottom = ((uintptr_t)&here & ~(uintptr_t)(PAGE - 1)) - 2 * PAGE;

	printf("attack: map-stack 0x%lx-0x%lx\n", (unsigned long)bottom, (unsigned long)top);
	long r = __syscall(SYS_mmap_, (long)bottom, (long)(top - bottom), PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	/* Where the wrapper's own return address was on the stack (x86), not reached. */
	printf("attack: mmap(stack, MAP_FIXED) = 0x%lx\n", (unsigned long)r);
	return 0;
}

/* --- system calls with bad pointers: each must fail like Linux, nothing may leak ------- */

static long sys_mmap(uintptr_t addr, unsigned long len, long prot, long flags)
{
	return __syscall(SYS_mmap_, (long)addr, (long)len, prot, flags, -1, 0);
}

/* The top page a task of this ABI could name, for wrapping ranges. */
static uintptr_t top_page(void)
{
	return (uintptr_t)0 - PAGE;
}

static int sys_write_case(uintptr_t kaddr)
{
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

static int sys_mmap_case(uintptr_t kaddr)
{
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

static int sys_munmap_case(uintptr_t kaddr)
{
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

static int sys_brk_case(uintptr_t kaddr)
{
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

static long sys_open(const void *path, long flags)
{
	return __syscall(SYS_openat_, AT_FDCWD, (long)path, flags, 0, 0, 0);
}

static long sys_read(long fd, uintptr_t buf, unsigned long n)
{
	return __syscall(SYS_read_, fd, (long)buf, (long)n, 0, 0, 0);
}

static long sys_close(long fd)
{
	return __syscall(SYS_close_, fd, 0, 0, 0, 0, 0);
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

static int sys_file_case(uintptr_t kaddr)
{
	static char buf[64], long_name[5000];
	const char *unterminated = unterminated_name();

	show("openat(kernel)", sys_open((const void *)kaddr, O_RDONLY));
	show("openat(NULL)", sys_open(NULL, O_RDONLY));
	show("openat(unterminated at an unmapped page)", sys_open(unterminated, O_RDONLY));
	memset(long_name, 'a', sizeof(long_name) - 1);
	long_name[0] = '/';
	show("openat(5000-byte name)", sys_open(long_name, O_RDONLY));
#ifdef SYS_open_
	show("open(kernel)", __syscall(SYS_open_, (long)kaddr, O_RDONLY, 0, 0, 0, 0));
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

/* --- /proc/sys/vm/mmap_rnd_bits through system calls ----------------------------------- */

static int sysctl_read_case(void)
{
	char buf[32];
	long fd = sys_open(RND_BITS_FILE, O_RDONLY);

	show("openat(\"" RND_BITS_FILE "\", O_RDONLY)", fd);
	if (is_err(fd))
		return 1;
	long n = sys_read(fd, (uintptr_t)buf, sizeof(buf) - 1);
	show("read", n);
	if (!is_err(n)) {
		buf[n] = '\0';
		printf("attack: mmap_rnd_bits = %s", buf);
	}
	show("read at the end", sys_read(fd, (uintptr_t)buf, sizeof(buf) - 1));
	sys_close(fd);
	return 0;
}

static int sysctl_write_case(const char *value)
{
	char text[32];
	long fd = sys_open(RND_BITS_FILE, O_WRONLY);

	show("openat(\"" RND_BITS_FILE "\", O_WRONLY)", fd);
	if (is_err(fd))
		return 1;
	int n = snprintf(text, sizeof(text), "%s\n", value);
	long r = __syscall(SYS_write, fd, (long)text, n, 0, 0, 0);
	show("write", r);
	show("write again (past the start: ignored)", __syscall(SYS_write, fd, (long)text, n, 0, 0, 0));
	show("read on O_WRONLY", sys_read(fd, (uintptr_t)text, sizeof(text)));
	sys_close(fd);
	return is_err(r) ? 1 : 0;
}

/* As uid 65534: the 0600 knob can be neither opened for writing nor for reading; the 0644 ones
 * can be read but not written. */
static int sysctl_nobody_case(void)
{
	printf("attack: uid %u\n", getuid());
	show("openat(\"" RND_BITS_FILE "\", O_WRONLY)", sys_open(RND_BITS_FILE, O_WRONLY));
	show("openat(\"" RND_BITS_FILE "\", O_RDWR)", sys_open(RND_BITS_FILE, O_RDWR));
	show("openat(\"" RND_BITS_FILE "\", O_RDONLY)", sys_open(RND_BITS_FILE, O_RDONLY));
	show("openat(\"//proc/./sys/vm//mmap_rnd_bits\", O_WRONLY)",
	     sys_open("//proc/./sys/vm//mmap_rnd_bits", O_WRONLY));
#ifdef SYS_open_
	show("open(\"" RND_BITS_FILE "\", O_WRONLY)",
	     __syscall(SYS_open_, (long)RND_BITS_FILE, O_WRONLY, 0, 0, 0, 0));
#else
	printf("attack: open: aarch64 has openat only\n");
#endif
	show("openat(\"/proc/sys/kernel/randomize_va_space\", O_WRONLY)",
	     sys_open("/proc/sys/kernel/randomize_va_space", O_WRONLY));
	long fd = sys_open("/proc/sys/kernel/randomize_va_space", O_RDONLY);
	show("openat(\"/proc/sys/kernel/randomize_va_space\", O_RDONLY)", fd);
	show("write(fd, \"0\\n\", 2) on O_RDONLY", __syscall(SYS_write, fd, (long)"0\n", 2, 0, 0, 0));
	sys_close(fd);
	return 0;
}

static int fds_case(void)
{
	long fd, first = -1, last = -1;
	int opened = 0;

	while (!is_err(fd = sys_open(RND_BITS_FILE, O_RDONLY))) {
		if (first < 0)
			first = fd;
		last = fd;
		opened++;
	}
	printf("attack: opened %d files (fd %ld to %ld), then -%s\n", opened, first, last,
	       err_name(-fd));
	int closed = 0;
	for (long i = first; i <= last; i++)
		closed += sys_close(i) == 0;
	printf("attack: closed %d\n", closed);
	show("openat after closing", sys_open(RND_BITS_FILE, O_RDONLY));
	return 0;
}

/* Exit with two files open, the writable one already written (its position is past the start):
 * the kernel closes them at exit, and a later process with the same pid must not get them. */
static int fds_leave_case(const char *value)
{
	char text[32];
	int n = snprintf(text, sizeof(text), "%s\n", value);

	printf("attack: pid %d\n", getpid());
	long w = sys_open(RND_BITS_FILE, O_WRONLY);
	show("openat(\"" RND_BITS_FILE "\", O_WRONLY)", w);
	show("write", __syscall(SYS_write, w, (long)text, n, 0, 0, 0));
	show("openat(\"" RND_BITS_FILE "\", O_RDONLY)", sys_open(RND_BITS_FILE, O_RDONLY));
	return 0;
}

/* A fresh process has only 0, 1 and 2: fds 3 and 4 are EBADF whatever ran before it. */
static int fds_inherited_case(void)
{
	char buf[16];

	printf("attack: pid %d uid %u\n", getpid(), getuid());
	show("write(3, \"8\\n\", 2)", __syscall(SYS_write, 3, (long)"8\n", 2, 0, 0, 0));
	show("read(4, buf, 15)", sys_read(4, (uintptr_t)buf, sizeof(buf) - 1));
	show("close(3)", sys_close(3));
	show("close(4)", sys_close(4));
	return 0;
}

/* --- resource exhaustion --------------------------------------------------------------- */

/* Touch every page of fresh mappings until the kernel has no frame left for the next one: the
 * process is then killed ("out of memory"); if the address space runs out first, say so. */
static int oom_case(void)
{
	const unsigned long chunk = 4UL << 20;
	unsigned long pages = 0;

	printf("attack: touching mmap pages until memory runs out\n");
	for (;;) {
		volatile char *p = mmap(NULL, chunk, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			printf("attack: mmap: %s after %lu pages\n", strerror(errno), pages);
			return 1;
		}
		for (unsigned long off = 0; off < chunk; off += PAGE, pages++)
			p[off] = 1;
	}
}

static int brk_oom_case(void)
{
	unsigned long pages = 0;

	printf("attack: growing the heap until memory runs out\n");
	for (;;) {
		volatile char *p = sbrk((long)PAGE);
		if (p == (void *)-1) {
			printf("attack: brk: %s after %lu pages\n", strerror(errno), pages);
			return 1;
		}
		*p = 1;
		pages++;
	}
}

/* One-page mappings, alternating protections so that no kernel could merge them, until mmap
 * says ENOMEM (the per-process VMA limit); then all are unmapped again. */
static int vmas_case(void)
{
	static uintptr_t maps[4096];
	unsigned n = 0;
	long r = 0;

	while (n < 4096) {
		r = sys_mmap(0, PAGE, n & 1 ? PROT_READ : PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS);
		if (is_err(r))
			break;
		maps[n++] = (uintptr_t)r;
	}
	printf("attack: %u mappings, then -%s\n", n, is_err(r) ? err_name(-r) : "none");
	unsigned freed = 0;
	for (unsigned i = 0; i < n; i++)
		freed += munmap((void *)maps[i], PAGE) == 0;
	printf("attack: unmapped %u\n", freed);
	long again = sys_mmap(0, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS);
	printf("attack: mmap after unmapping: %s\n", is_err(again) ? err_name(-again) : "ok");
	return 0;
}

int main(int argc, char **argv)
{
	volatile uint32_t stack_insn[4] = { RET_INSN, RET_INSN, RET_INSN, RET_INSN };

	if (exec_in_progress) /* `exec` of main's own text came back here */
		return 0;
	if (argc < 2)
		usage();
	const char *c = argv[1];
	const char *arg = argc > 2 ? argv[2] : NULL;

	if (!strcmp(c, "read") || !strcmp(c, "write") || !strcmp(c, "jump"))
		return arg ? attack_access(c, parse_addr(arg)) : (usage(), 2);
	if (!strncmp(c, "exec-", 5))
		return attack_exec(c + 5, stack_insn);
	if (!strcmp(c, "write-text"))
		return attack_write_text();
	if (!strcmp(c, "map-stack"))
		return attack_map_stack(argv, argc);
	if (!strncmp(c, "sys-", 4)) {
		if (!arg)
			usage();
		uintptr_t k = parse_addr(arg);
		if (!strcmp(c, "sys-write"))
			return sys_write_case(k);
		if (!strcmp(c, "sys-mmap"))
			return sys_mmap_case(k);
		if (!strcmp(c, "sys-munmap"))
			return sys_munmap_case(k);
		if (!strcmp(c, "sys-brk"))
			return sys_brk_case(k);
		if (!strcmp(c, "sys-file"))
			return sys_file_case(k);
		usage();
	}
	if (!strcmp(c, "sysctl-read"))
		return sysctl_read_case();
	if (!strcmp(c, "sysctl-write"))
		return arg ? sysctl_write_case(arg) : (usage(), 2);
	if (!strcmp(c, "sysctl-nobody"))
		return sysctl_nobody_case();
	if (!strcmp(c, "fds"))
		return fds_case();
	if (!strcmp(c, "fds-leave"))
		return arg ? fds_leave_case(arg) : (usage(), 2);
	if (!strcmp(c, "fds-inherited"))
		return fds_inherited_case();
	if (!strcmp(c, "oom"))
		return oom_case();
	if (!strcmp(c, "brk-oom"))
		return brk_oom_case();
	if (!strcmp(c, "vmas"))
		return vmas_case();
	usage();
}
