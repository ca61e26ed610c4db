/* The Linux system-call ABI as a static program sees it: each call rndbits serves beyond the
 * file calls, with its result or errno, in the order glibc's start-up and a small program make
 * them (tests/serial/sys-abi.txt). Modes:
 *   abi            the calls and their results (nothing that varies between runs)
 *   abi mprotect   maps two pages, makes the first read-only, reads it, then writes it: the
 *                  process dies of SIGSEGV (status 139); `run -k` keeps it for `pt walk`
 *   abi tls        sets the thread pointer the ABI's way and reads it back the CPU's way
 *   abi enosys     an unknown call three times: one console line, -ENOSYS each time
 *   abi mmapfile PATH   private mappings of a file: its bytes, a private write, the errors
 *   abi rodata     makes its read-only data writable and writes it: its own copy changes, the
 *                  image (shared by every run) does not, so a second run reads the original */
#include <user.h>
#include <sysnr.h>
#include <lib/string.h>

#define SIGUSR1 10
#define SIGKILL 9
#define SIG_BLOCK 0
#define SIG_SETMASK 2
#define RLIMIT_STACK 3
#define CLOCK_MONOTONIC 1
#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_PRIVATE_FLAG 128
#define EAGAIN 11
#define ETIMEDOUT 110
#define ESRCH 3

#define SYSCALL0(nr) __syscall((nr), 0, 0, 0, 0, 0, 0)
#define SYSCALL1(nr, a) __syscall((nr), (long)(a), 0, 0, 0, 0, 0)
#define SYSCALL2(nr, a, b) __syscall((nr), (long)(a), (long)(b), 0, 0, 0, 0)
#define SYSCALL3(nr, a, b, c) __syscall((nr), (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define SYSCALL4(nr, a, b, c, d) __syscall((nr), (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)

static const char *error_name(int err)
{
	switch (err) {
	case ESRCH: return "ESRCH";
	case EAGAIN: return "EAGAIN";
	case ETIMEDOUT: return "ETIMEDOUT";
	default: return errno_name(err);
	}
}

/* A result the way strace shows it: the value, or -1 and the errno's name. */
static void show(const char *what, long r)
{
	if (r < 0 && r > -4096) {
		const char *n = error_name((int)-r);
		if (n)
			printf("%s = -1 %s\n", what, n);
		else
			printf("%s = -1 E%ld\n", what, -r);
	} else {
		printf("%s = %ld\n", what, r);
	}
}

static void ids(void)
{
	long pid = SYSCALL0(__NR_getpid);

	printf("gettid == getpid: %s\n", SYSCALL0(__NR_gettid) == pid ? "yes" : "no");
	show("getppid()", SYSCALL0(__NR_getppid));
#ifdef __NR_getuid32 /* the 32-bit ABIs' full-width ids; 64-bit ones have only these */
	printf("getuid32 geteuid32 getgid32 getegid32: %ld %ld %ld %ld\n", SYSCALL0(__NR_getuid32),
	       SYSCALL0(__NR_geteuid32), SYSCALL0(__NR_getgid32), SYSCALL0(__NR_getegid32));
#else
	printf("getuid32 geteuid32 getgid32 getegid32: %ld %ld %ld %ld\n", SYSCALL0(__NR_getuid),
	       SYSCALL0(__NR_geteuid), SYSCALL0(__NR_getgid), SYSCALL0(__NR_getegid));
#endif
	show("getuid()", SYSCALL0(__NR_getuid));
	show("geteuid()", SYSCALL0(__NR_geteuid));
	show("getgid()", SYSCALL0(__NR_getgid));
	show("getegid()", SYSCALL0(__NR_getegid));
	int tid_word;
	printf("set_tid_address == getpid: %s\n",
	       SYSCALL1(__NR_set_tid_address, &tid_word) == pid ? "yes" : "no");
	long head[3] = { 0 };
	show("set_robust_list(head, 3 longs)", SYSCALL2(__NR_set_robust_list, head, sizeof(head)));
	show("set_robust_list(head, 1)", SYSCALL2(__NR_set_robust_list, head, 1));
	show("rseq(NULL, 0, 0, 0)", SYSCALL4(__NR_rseq, 0, 0, 0, 0));
	char name[16];
	show("prctl(PR_SET_NAME, \"abi\")", SYSCALL2(__NR_prctl, 15, "abi"));
	show("prctl(PR_GET_NAME, name)", SYSCALL2(__NR_prctl, 16, name));
	printf("name: %s\n", name);
	show("prctl(PR_GET_DUMPABLE)", SYSCALL1(__NR_prctl, 3));
	show("prctl(999)", SYSCALL1(__NR_prctl, 999));
}

struct utsname {
	char sysname[65], nodename[65], release[65], version[65], machine[65], domainname[65];
};

static void uname_call(void)
{
	static struct utsname u;

	show("uname(&u)", SYSCALL1(__NR_uname, &u));
	printf("uname: %s %s %s %s | %s\n", u.sysname, u.nodename, u.release, u.machine,
	       u.version);
	show("uname(NULL)", SYSCALL1(__NR_uname, 0));
}

/* prlimit64 takes 64-bit limits on every ABI; getrlimit/ugetrlimit the ABI's longs. */
static void limits(void)
{
	unsigned long long r64[2];
	unsigned long r[2];
#ifdef __NR_ugetrlimit
	const long getrlimit_nr = __NR_ugetrlimit;
#else
	const long getrlimit_nr = __NR_getrlimit;
#endif

	show("prlimit64(0, RLIMIT_STACK, NULL, &old)",
	     SYSCALL4(__NR_prlimit64, 0, RLIMIT_STACK, 0, r64));
	printf("RLIMIT_STACK: cur %llu max %s\n", r64[0], r64[1] == ~0ull ? "infinity" : "finite");
	r[0] = 4ul << 20;
	r[1] = ~0ul;
	show("setrlimit(RLIMIT_STACK, 4 MiB)", SYSCALL2(__NR_setrlimit, RLIMIT_STACK, r));
	show("getrlimit(RLIMIT_STACK)", SYSCALL2(getrlimit_nr, RLIMIT_STACK, r));
	printf("RLIMIT_STACK: cur %lu\n", r[0]);
	show("getrlimit(99)", SYSCALL2(getrlimit_nr, 99, r));
	show("prlimit64(other pid)", SYSCALL4(__NR_prlimit64, 99999, RLIMIT_STACK, 0, r64));
}

static void randomness(void)
{
	unsigned char buf[16];

	show("getrandom(buf, 16, 0)", SYSCALL3(__NR_getrandom, buf, sizeof(buf), 0));
	show("getrandom(buf, 16, 0x40)", SYSCALL3(__NR_getrandom, buf, sizeof(buf), 0x40));
	show("getrandom(NULL, 16, 0)", SYSCALL3(__NR_getrandom, 0, 16, 0));
}

/* struct timespec in the ABI's longs (the *_time64 calls on 32-bit ABIs take 64-bit ones). */
struct timespec_l {
	long sec, nsec;
};

static unsigned long long ns_of(const struct timespec_l *t)
{
	return (unsigned long long)t->sec * 1000000000ull + (unsigned long long)t->nsec;
}

static void time_calls(void)
{
	struct timespec_l t0, t1, req = { 0, 50 * 1000 * 1000 }, bad = { 0, 1000000000 };
	long tv[2];

	show("clock_gettime(MONOTONIC)", SYSCALL2(__NR_clock_gettime, CLOCK_MONOTONIC, &t0));
	show("nanosleep(50 ms)", SYSCALL2(__NR_nanosleep, &req, 0));
	SYSCALL2(__NR_clock_gettime, CLOCK_MONOTONIC, &t1);
	printf("slept at least 50 ms: %s\n", ns_of(&t1) - ns_of(&t0) >= 50000000ull ? "yes" : "no");
	show("nanosleep(tv_nsec 1e9)", SYSCALL2(__NR_nanosleep, &bad, 0));
	show("clock_gettime(99)", SYSCALL2(__NR_clock_gettime, 99, &t0));
	show("clock_getres(MONOTONIC)", SYSCALL2(__NR_clock_getres, CLOCK_MONOTONIC, &t0));
	show("gettimeofday(&tv, NULL)", SYSCALL2(__NR_gettimeofday, tv, 0));
	/* The 32-bit ABIs' 64-bit-time call (the 64-bit ABIs' clock_gettime is already that). */
	long long t64[2];
#ifdef __NR_clock_gettime64
	show("clock_gettime64(MONOTONIC)", SYSCALL2(__NR_clock_gettime64, CLOCK_MONOTONIC, t64));
#else
	show("clock_gettime64(MONOTONIC)", SYSCALL2(__NR_clock_gettime, CLOCK_MONOTONIC, t64));
#endif
	printf("clock_gettime64 agrees: %s\n",
	       (unsigned long long)t64[0] * 1000000000ull + (unsigned long long)t64[1] >= ns_of(&t1) ?
	       "yes" : "no");
}

struct ksigaction {
	unsigned long handler, flags, restorer;
	unsigned long long mask;
};

static void handler(int sig)
{
	(void)sig;
}

static void signals(void)
{
	struct ksigaction act = { (unsigned long)handler, 0, 0, 1ull << (SIGUSR1 - 1) }, old;
	unsigned long long set = 1ull << (SIGUSR1 - 1), oset;
	unsigned long ss[3] = { 0 };

	show("rt_sigaction(SIGUSR1, &act, NULL, 8)",
	     SYSCALL4(__NR_rt_sigaction, SIGUSR1, &act, 0, 8));
	memset(&old, 0, sizeof(old));
	show("rt_sigaction(SIGUSR1, NULL, &old, 8)",
	     SYSCALL4(__NR_rt_sigaction, SIGUSR1, 0, &old, 8));
	printf("old handler is ours: %s, mask %#llx\n",
	       old.handler == (unsigned long)handler ? "yes" : "no", old.mask);
	show("rt_sigaction(SIGKILL, &act, NULL, 8)",
	     SYSCALL4(__NR_rt_sigaction, SIGKILL, &act, 0, 8));
	show("rt_sigaction(SIGUSR1, NULL, &old, 4)",
	     SYSCALL4(__NR_rt_sigaction, SIGUSR1, 0, &old, 4));
	show("rt_sigprocmask(SIG_BLOCK, {USR1}, NULL, 8)",
	     SYSCALL4(__NR_rt_sigprocmask, SIG_BLOCK, &set, 0, 8));
	show("rt_sigprocmask(SIG_SETMASK, NULL, &old, 8)",
	     SYSCALL4(__NR_rt_sigprocmask, SIG_SETMASK, 0, &oset, 8));
	printf("blocked: %#llx\n", oset);
	show("rt_sigprocmask(7, {USR1}, NULL, 8)", SYSCALL4(__NR_rt_sigprocmask, 7, &set, 0, 8));
	show("sigaltstack(NULL, &old)", SYSCALL2(__NR_sigaltstack, 0, ss));
	printf("altstack flags: %lu (SS_DISABLE is 2)\n", ss[1]);
	show("kill(getpid(), 0)", SYSCALL2(__NR_kill, SYSCALL0(__NR_getpid), 0));
	show("kill(99999, 0)", SYSCALL2(__NR_kill, 99999, 0));
}

static void futexes(void)
{
	static int word = 1;
	struct timespec_l ten_ms = { 0, 10 * 1000 * 1000 };
#ifdef __NR_futex
	const long nr = __NR_futex;
#else
	const long nr = __NR_futex_time64;
#endif

	show("futex(&w, WAKE, 1)", SYSCALL3(nr, &word, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1));
	show("futex(&w, WAIT, 0) [w is 1]",
	     SYSCALL4(nr, &word, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 0, 0));
	show("futex(&w, WAIT, 1, 10 ms)",
	     SYSCALL4(nr, &word, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 1, &ten_ms));
}

static void memory(void)
{
	long page = USER_PAGE_SIZE;
	char *m = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	m[0] = m[page] = m[2 * page] = 'x';
	show("mprotect(middle page, PROT_READ)", SYSCALL3(__NR_mprotect, m + page, page, PROT_READ));
	printf("read the read-only page: %c\n", *(volatile char *)(m + page));
	show("mprotect(unaligned)", SYSCALL3(__NR_mprotect, m + 1, page, PROT_READ));
	show("mprotect(bad prot)", SYSCALL3(__NR_mprotect, m, page, 0x100));
	show("mprotect(len 0)", SYSCALL3(__NR_mprotect, m, 0, PROT_READ));
	show("mprotect(back to RW)", SYSCALL3(__NR_mprotect, m + page, page, PROT_READ | PROT_WRITE));
	m[page] = 'y';
	printf("wrote it again: %c\n", m[page]);
	munmap(m + 2 * page, page);
	show("mprotect(over a hole)", SYSCALL3(__NR_mprotect, m, 3 * page, PROT_READ));
	show("madvise(m, 1 page, MADV_DONTNEED)", SYSCALL3(__NR_madvise, m, page, 4));
	printf("after MADV_DONTNEED the page reads: %d\n", *(volatile char *)m);
	show("madvise(over a hole)", SYSCALL3(__NR_madvise, m, 3 * page, 0));
	show("madvise(m, 1 page, 999)", SYSCALL3(__NR_madvise, m, page, 999));
	munmap(m, 2 * page);

	unsigned long mask[4] = { 0 };
	show("sched_getaffinity(0, sizeof mask, mask)",
	     SYSCALL3(__NR_sched_getaffinity, 0, sizeof(mask), mask));
	printf("cpu mask: %#lx\n", mask[0]);
	show("sched_yield()", SYSCALL0(__NR_sched_yield));
}

/* Make the first of two pages read-only, read it, write it: SIGSEGV. */
static int mprotect_death(void)
{
	long page = USER_PAGE_SIZE;
	char *m = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	m[0] = 'a';
	m[page] = 'b';
	long r = SYSCALL3(__NR_mprotect, m, page, PROT_READ);
	printf("mprotect(%p, 1 page, PROT_READ) = %ld\n", (void *)m, r);
	printf("read %c, now writing it\n", *(volatile char *)m);
	*(volatile char *)m = 'c';
	printf("the write went through: wrong\n");
	return 1;
}

/* --- thread pointers -------------------------------------------------------------------- */

/* Each ISA prints the same four lines: the thread pointer a new process finds (0), how it is
 * set, whether the CPU reads it back after a system call (the kernel must not clobber it),
 * and whether the kernel gives it back. */
static long tls_block[4];

static void tls_report(unsigned long at_start, const char *how, long r, bool cpu_sees,
		       const char *kernel_sees)
{
	printf("tls: thread pointer at start: %#lx\n", at_start);
	show(how, r);
	printf("tls: the CPU reads it back after a system call: %s\n", cpu_sees ? "yes" : "no");
	printf("tls: the kernel gives it back: %s\n", kernel_sees);
}

#if defined(__x86_64__)
#define ARCH_SET_FS 0x1002
#define ARCH_GET_FS 0x1003
static void tls(void)
{
	unsigned long fs = 1, via_fs, back = 0;

	SYSCALL2(__NR_arch_prctl, ARCH_GET_FS, &fs);
	tls_block[0] = (long)tls_block; /* the TCB points at itself, as glibc's does */
	long r = SYSCALL2(__NR_arch_prctl, ARCH_SET_FS, tls_block);
	SYSCALL0(__NR_getpid);
	__asm__ volatile("mov %%fs:0, %0" : "=r"(via_fs));
	SYSCALL2(__NR_arch_prctl, ARCH_GET_FS, &back);
	tls_report(fs, "tls: arch_prctl(ARCH_SET_FS, tcb)", r, via_fs == (unsigned long)tls_block,
		   back == (unsigned long)tls_block ? "yes" : "no");
	show("tls: arch_prctl(ARCH_SET_FS, kernel address)",
	     SYSCALL2(__NR_arch_prctl, ARCH_SET_FS, 0xffff800000000000ul));
}
#elif defined(__i386__)
struct user_desc {
	unsigned entry_number, base_addr, limit, flags;
};
static void tls(void)
{
	/* seg_32bit, limit_in_pages, useable: glibc's descriptor */
	struct user_desc d = { ~0u, (unsigned)tls_block, 0xfffff, 1u | 1u << 4 | 1u << 6 };
	unsigned long via_gs, at_start = 0;

	for (unsigned i = 0; i < 16; i++) { /* whatever TLS slots exist: all empty */
		struct user_desc q = { i, 0, 0, 0 };
		if (SYSCALL1(__NR_get_thread_area, &q) == 0)
			at_start |= q.base_addr;
	}
	tls_block[0] = (long)tls_block;
	long r = SYSCALL1(__NR_set_thread_area, &d);
	unsigned sel = d.entry_number * 8 + 3;
	__asm__ volatile("movw %w0, %%gs" : : "r"(sel));
	SYSCALL0(__NR_getpid); /* the kernel's entry and exit must keep the user's %gs */
	__asm__ volatile("movl %%gs:0, %0" : "=r"(via_gs));
	struct user_desc back = { d.entry_number, 0, 0, 0 };
	SYSCALL1(__NR_get_thread_area, &back);
	tls_report(at_start, "tls: set_thread_area({entry -1, tcb})", r,
		   via_gs == (unsigned long)tls_block,
		   back.base_addr == (unsigned)tls_block ? "yes" : "no");
	struct user_desc bad = { 3, 0, 0, 0 };
	show("tls: set_thread_area({entry 3})", SYSCALL1(__NR_set_thread_area, &bad));
}
#elif defined(__arm__)
static void tls(void)
{
	unsigned long tp0, tp;

	__asm__ volatile("mrc p15, 0, %0, c13, c0, 3" : "=r"(tp0));
	long r = SYSCALL1(__ARM_NR_set_tls, tls_block);
	SYSCALL0(__NR_getpid);
	__asm__ volatile("mrc p15, 0, %0, c13, c0, 3" : "=r"(tp));
	tls_report(tp0, "tls: set_tls(tcb)", r, tp == (unsigned long)tls_block,
		   SYSCALL0(__ARM_NR_get_tls) == (long)tls_block ? "yes" : "no");
}
#elif defined(__aarch64__)
static void tls(void)
{
	unsigned long tp0, tp;

	__asm__ volatile("mrs %0, tpidr_el0" : "=r"(tp0));
	__asm__ volatile("msr tpidr_el0, %0" : : "r"(tls_block));
	SYSCALL0(__NR_getpid);
	__asm__ volatile("mrs %0, tpidr_el0" : "=r"(tp));
	tls_report(tp0, "tls: msr tpidr_el0 (no system call)", 0, tp == (unsigned long)tls_block,
		   "no call on this ABI");
}
#endif

static const char motto[] = "read-only data";

static int rodata(void)
{
	long page = USER_PAGE_SIZE;
	volatile char *m = (volatile char *)motto;
	unsigned long at = (unsigned long)motto & ~(unsigned long)(page - 1);

	printf("rodata before: %s\n", (const char *)m);
	show("mprotect(rodata page, RW)", SYSCALL3(__NR_mprotect, at, page, PROT_READ | PROT_WRITE));
	m[0] = 'R';
	printf("rodata after: %s\n", (const char *)m);
	return 0;
}

#define AT_FDCWD (-100)

static int mmap_file(const char *path)
{
	long page = USER_PAGE_SIZE;
	long fd = SYSCALL4(__NR_openat, AT_FDCWD, path, 0, 0);
	unsigned char *m, *m2, *m3;

	if (fd < 0) {
		show("openat(path)", fd);
		return 1;
	}
	m = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE, (int)fd, 0);
	if (m == MAP_FAILED) {
		printf("mmap(2 pages, RW, MAP_PRIVATE, fd, 0) = -1 %s\n", error_name(errno));
		return 1;
	}
	printf("mmap(fd, 0): starts with ELF magic: %s\n",
	       m[0] == 0x7f && m[1] == 'E' && m[2] == 'L' && m[3] == 'F' ? "yes" : "no");
	m[1] = 'X'; /* a private copy: the file stays as it is */
	m2 = mmap(NULL, page, PROT_READ, MAP_PRIVATE, (int)fd, 0);
	printf("a second mapping still sees ELF: %s\n", m2 != MAP_FAILED && m2[1] == 'E' ? "yes" : "no");
	m3 = mmap(NULL, page, PROT_READ, MAP_PRIVATE, (int)fd, page);
	printf("mmap(fd, 1 page in) matches the first mapping's second page: %s\n",
	       m3 != MAP_FAILED && memcmp(m3, m + page, (size_t)page) == 0 ? "yes" : "no");
	show("mmap(fd, unaligned offset)",
	     (long)mmap(NULL, page, PROT_READ, MAP_PRIVATE, (int)fd, 512) == -1 ? -(long)errno : 0);
	show("mmap(fd, RW, MAP_SHARED)",
	     (long)mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, (int)fd, 0) == -1 ?
	     -(long)errno : 0);
	/* MAP_SHARED_VALIDATE refuses a flag it does not know (MAP_SHARED would ignore it). */
	show("mmap(fd, MAP_SHARED_VALIDATE | 0x80000000)",
	     (long)mmap(NULL, page, PROT_READ, MAP_SHARED_VALIDATE | 0x80000000, (int)fd, 0) == -1 ?
	     -(long)errno : 0);
	show("mmap(fd, MAP_PRIVATE | 0x4)",
	     (long)mmap(NULL, page, PROT_READ, MAP_PRIVATE | 0x4, (int)fd, 0) == -1 ?
	     -(long)errno : 0);
	show("mmap(fd 99)", (long)mmap(NULL, page, PROT_READ, MAP_PRIVATE, 99, 0) == -1 ?
	     -(long)errno : 0);
	return 0;
}

static void enosys(void)
{
	for (int i = 0; i < 3; i++)
		show("syscall(499)", SYSCALL0(499));
	show("capget(NULL, NULL)", SYSCALL2(__NR_capget, 0, 0));
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "mprotect") == 0)
		return mprotect_death();
	if (argc > 1 && strcmp(argv[1], "tls") == 0) {
		tls();
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "rodata") == 0)
		return rodata();
	if (argc > 2 && strcmp(argv[1], "mmapfile") == 0)
		return mmap_file(argv[2]);
	if (argc > 1 && strcmp(argv[1], "enosys") == 0) {
		enosys();
		return 0;
	}
	printf("abi: %s\n", USER_ABI_NAME);
	ids();
	uname_call();
	limits();
	randomness();
	time_calls();
	signals();
	futexes();
	memory();
	return 0;
}
