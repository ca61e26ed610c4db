/* sysfuzz [-f FLAGS] [-k K] [-t FROM] SEED N: N random system calls, the same ones for the same
 * SEED, then one summary line (`sysfuzz: ok ...` and exit 0, or `sysfuzz: FAIL ...` and exit 1).
 *
 * Numbers are drawn across and beyond the ABI's table; arguments from classes that have broken
 * kernels before: NULL, the kernel half, unmapped and read-only memory (its own text), a buffer
 * that runs off the end of a mapped page, unaligned pointers, huge and negative lengths, bad
 * descriptors and paths. Bursts of mmap/munmap/brk with MAP_FIXED ("storms") go into a window it
 * reserved. A call is skipped (and counted) when it could write into, unmap or remap what the
 * fuzzer itself lives in (image, stack, its canaried scratch buffer, a straddle page pair): the
 * "keep" ranges, unless Linux must refuse it for its range alone (past any task size, or
 * wrapping). Calls that end the process (exit, exit_group, kill, ...) are never made.
 *
 * Checks: after each call, what its result may be (getpid/getuid values, ENOSYS beyond every
 * table, a new mapping outside the keep ranges and zero-filled, no byte read into read-only
 * memory); every K calls (default 64), the pid and uid, a fresh anonymous page reads zero, read()
 * into its own text fails with EFAULT and the read-only image is unchanged (checksum), the
 * canaries around its buffers, and as a non-root user that /proc/sys/vm/mmap_rnd_bits cannot be
 * opened. As root it may write sysctls at random: it puts back the values it found at the end.
 *
 * -f FLAGS  x86: set these EFLAGS bits at syscall entry on one call in eight (comma list of ac,
 *           df, tf, nt; default ac,df; tf and nt end the process with SIGTRAP/SIGSEGV on a correct
 *           kernel, so they are opt-in); `-f none` turns them off.
 * -k K      run the periodic checks every K calls.
 * -t FROM   trace: print every call from number FROM on, before it is made (to find the call
 *           that killed a run).
 * -e        the end game: after the summary, unmap its own image, map anonymous memory over
 *           it, or unmap its stack (by the seed), so that it dies at once; the kernel must
 *           report the fault, kill it and give every frame back (the image's shared frames are
 *           the kernel's own and must stay where they are).
 *
 * One call in sixteen is made with a bad stack pointer (NULL, unaligned, the kernel half,
 * non-canonical, a PROT_NONE page, the end of the address space): user/arch/<abi>/sysfuzz_entry.S.
 *
 * Now and then (one call in 1,000) it also fills its address space with one-page mappings until
 * mmap says ENOMEM (the VMA limit), so that the calls up to the next periodic check meet a full
 * VMA table (splits that cannot be made, brk that cannot grow); the check gives them back. */
#include <user.h>
#include <sysnr.h>

#define PAGE USER_PAGE_SIZE
#define WINDOW_PAGES 32
#define MAPS_MAX 24
#define SCRATCH_SIZE (5 * 4096)
#define CANARY 0x5afe5afeu
#define CANARY_WORDS 16
#define FDS_TOP 16	 /* kernel/fd.c: descriptors 3..15 */
/* What one read could write at most: more than any file here holds, the programs of an initrd
 * (busybox: 2 MiB) and /proc/PID/maps included. */
#define READ_MAX (16ul << 20)
#define FAILS_SHOWN 8

#define AT_FDCWD (-100)
#define O_RDONLY 0
#define O_WRONLY 1
#define O_RDWR 2

/* How a call's result is checked and which of its arguments could hurt the fuzzer. */
enum kind {
	K_OTHER,   /* anything else: ENOSYS beyond every table */
	K_READ,    /* (fd, buf, count): writes into buf */
	K_WRITE,   /* (fd, buf, count) */
	K_OPEN,    /* (path, flags, mode) */
	K_OPENAT,  /* (dirfd, path, flags, mode) */
	K_CLOSE,   /* (fd) */
	K_GETPID,
	K_GETUID,
	K_BRK,     /* (addr) */
	K_MUNMAP,  /* (addr, len) */
	K_MMAP,    /* (addr, len, prot, flags, fd, off) */
	K_MAPCHG,  /* mprotect/madvise/mremap (addr, len, ...): not here today, guarded as munmap */
	K_DUP,     /* dup, dup2, dup3 (oldfd, newfd, flags) */
	K_FCNTL,   /* fcntl, fcntl64 (fd, cmd, arg) */
};

struct sysent {
	long nr;
	enum kind kind;
};

/* Linux's numbers. The first group is what kernel/syscall.c serves; the memory calls after it
 * are not served today but are guarded in case they appear. NEVER: calls that end, stop or
 * replace the process on Linux (exit, exit_group, kill, tkill, tgkill, sigreturn, rt_sigreturn,
 * reboot, pause, sigsuspend, rt_sigsuspend, nanosleep, fork, vfork, clone, clone3, execve,
 * execveat, wait4; arm's breakpoint): never made, whatever this kernel does with them today;
 * nor pipe and pipe2: a read of an empty pipe whose write end the reader holds waits forever;
 * nor poll, ppoll, select, _newselect, pselect6, rt_sigtimedwait and their time64 forms: with
 * no descriptor or signal to wait for and no (or a random) timeout they wait like pause. */
#if defined(__aarch64__)
static const struct sysent calls[] = {
	{ 63, K_READ }, { 64, K_WRITE }, { 56, K_OPENAT }, { 57, K_CLOSE }, { 172, K_GETPID },
	{ 174, K_GETUID }, { 214, K_BRK }, { 215, K_MUNMAP }, { 222, K_MMAP },
	{ 226, K_MAPCHG }, { 233, K_MAPCHG }, { 216, K_MAPCHG }, { 23, K_DUP }, { 24, K_DUP },
	{ 25, K_FCNTL },
};
static const long never[] = { 93, 94, 129, 130, 131, 139, 142, 133, 101, 220, 435, 221, 281, 260,
			      59, 72, 73, 137 };
#define TABLE_SIZE 460
#elif defined(__arm__)
static const struct sysent calls[] = {
	{ 3, K_READ }, { 4, K_WRITE }, { 5, K_OPEN }, { 322, K_OPENAT }, { 6, K_CLOSE },
	{ 20, K_GETPID }, { 199, K_GETUID }, { 45, K_BRK }, { 91, K_MUNMAP }, { 192, K_MMAP },
	{ 125, K_MAPCHG }, { 220, K_MAPCHG }, { 163, K_MAPCHG }, { 41, K_DUP }, { 63, K_DUP },
	{ 358, K_DUP }, { 55, K_FCNTL }, { 221, K_FCNTL },
};
static const long never[] = { 1, 248, 37, 238, 268, 119, 173, 88, 29, 72, 179, 162, 2, 190,
			      120, 435, 11, 387, 114, 0xf0001, 42, 359, 142, 168, 335, 336, 413,
			      414, 177, 421 };
#define TABLE_SIZE 460
#elif defined(__x86_64__)
static const struct sysent calls[] = {
	{ 0, K_READ }, { 1, K_WRITE }, { 2, K_OPEN }, { 257, K_OPENAT }, { 3, K_CLOSE },
	{ 39, K_GETPID }, { 102, K_GETUID }, { 12, K_BRK }, { 11, K_MUNMAP }, { 9, K_MMAP },
	{ 10, K_MAPCHG }, { 28, K_MAPCHG }, { 25, K_MAPCHG }, { 32, K_DUP }, { 33, K_DUP },
	{ 292, K_DUP }, { 72, K_FCNTL },
};
static const long never[] = { 60, 231, 62, 200, 234, 15, 169, 34, 130, 35, 57, 58, 56, 435, 59,
			      322, 61, 22, 293, 7, 23, 270, 271, 128 };
#define TABLE_SIZE 460
#endif
#if defined(__i386__) || defined(__x86_64__)
/* i386's table: the native one of i386 and ia32, and what int $0x80 reaches from x86_64. */
static const struct sysent calls_i386[] = {
	{ 3, K_READ }, { 4, K_WRITE }, { 5, K_OPEN }, { 295, K_OPENAT }, { 6, K_CLOSE },
	{ 20, K_GETPID }, { 199, K_GETUID }, { 45, K_BRK }, { 91, K_MUNMAP }, { 192, K_MMAP },
	{ 125, K_MAPCHG }, { 219, K_MAPCHG }, { 163, K_MAPCHG }, { 41, K_DUP }, { 63, K_DUP },
	{ 330, K_DUP }, { 55, K_FCNTL }, { 221, K_FCNTL },
};
static const long never_i386[] = { 1, 252, 37, 238, 270, 119, 173, 88, 29, 72, 179, 162, 2,
				   190, 120, 435, 11, 358, 114, 7, 42, 331, 82, 142, 168, 308,
				   309, 413, 414, 177, 421 };
#endif
#if defined(__i386__)
#define calls calls_i386
#define never never_i386
#define TABLE_SIZE 460
#endif

#define X86_AC (1u << 18)
#define X86_NT (1u << 14)
#define X86_DF (1u << 10)
#define X86_TF (1u << 8)

#if defined(__i386__) || defined(__x86_64__)
long __syscall_flags(unsigned long set, long nr, long a, long b, long c, long d, long e, long f);
#endif
#if defined(__x86_64__)
long __syscall_int80(long nr, long a, long b, long c, long d, long e, long f);
#endif
/* user/arch/<abi>/sysfuzz_entry.S: the call made with the stack pointer set to sp. */
long __syscall_sp(unsigned long sp, long nr, long a, long b, long c, long d, long e, long f);

enum entry { VIA_SYSCALL, VIA_FLAGS, VIA_INT80, VIA_BAD_SP };

struct call {
	unsigned long nr, a[6];
	enum kind kind;
	enum entry via;
	unsigned long eflags;
	unsigned long sp;  /* VIA_BAD_SP: the stack pointer at the call */
	bool must_refuse; /* the range alone makes Linux refuse it (allowed over keep ranges) */
	bool into_rodata; /* a read() whose buffer is in the read-only image */
};

/* [lo, last], inclusive so that a range may end at the top of the address space. */
struct range {
	unsigned long lo, last;
};

/* Bounds of the image (user/lib/user.ld.in). */
extern char __image_start[], __rodata_end[], __image_end[];

static struct {
	uint32_t before[CANARY_WORDS];
	char buf[SCRATCH_SIZE];
	uint32_t after[CANARY_WORDS];
} scratch;

static uint64_t rng_state;
static struct range keep[3];	 /* image, stack, straddle pair */
static struct range window;
static unsigned long straddle;	 /* the end of a RW page followed by a PROT_NONE one */
static struct {
	unsigned long addr, len;
} maps[MAPS_MAX];
static unsigned maps_next;
static int fds[FDS_TOP], nfds;
static unsigned long brk_start;
static uint32_t image_sum;
static int pid0;
static unsigned uid0;
static bool compat;
static unsigned long task_max; /* the largest task size of any preset of this ABI */
static unsigned long eflags_enabled = X86_AC | X86_DF;
static unsigned long trace_from = ~0UL;

static unsigned long pressure[300]; /* one-page mappings that fill the VMA table */
static unsigned npressure;
static unsigned long npressure_bursts;

static unsigned long ncalls, nskipped, nchecks, nfails;
static unsigned long counts[135]; /* [0] success, [1..133] errno, [134] anything else */
static uint32_t digest = 2166136261u;
static char first_fail[200];

/* --- randomness: splitmix64 from SEED ------------------------------------------------------ */

static uint64_t rnd64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform enough in [0, n) for n well below 2^32. */
static unsigned below(unsigned n)
{
	return (unsigned)(rnd64() >> 32) % n;
}

static bool one_in(unsigned n)
{
	return below(n) == 0;
}

static unsigned long rnd_word(void)
{
	return (unsigned long)rnd64();
}

/* --- failures ------------------------------------------------------------------------------ */

static void fail(unsigned long at, const char *what, const struct call *c, long r)
{
	char line[200];

	if (c)
		snprintf(line, sizeof(line), "call %lu nr %ld (%lx %lx %lx %lx %lx %lx)%s = %ld: %s",
			 at, (long)c->nr, c->a[0], c->a[1], c->a[2], c->a[3], c->a[4], c->a[5],
			 c->via == VIA_INT80 ? " int80" : c->via == VIA_FLAGS ? " flags" :
			 c->via == VIA_BAD_SP ? " bad-sp" : "", r, what);
	else
		snprintf(line, sizeof(line), "after call %lu: %s", at, what);
	if (nfails++ == 0)
		strlcpy(first_fail, line, sizeof(first_fail));
	if (nfails <= FAILS_SHOWN)
		printf("sysfuzz: %s\n", line);
}

static bool is_error(long r)
{
	return (unsigned long)r >= -4095UL;
}

/* --- what must not be touched -------------------------------------------------------------- */

static unsigned long page_down(unsigned long x)
{
	return x & ~(PAGE - 1);
}

static bool overlaps(struct range a, struct range b)
{
	return a.lo <= b.last && b.lo <= a.last;
}

static bool inside(struct range a, struct range b)
{
	return a.lo >= b.lo && a.last <= b.last;
}

static bool hits_keep(struct range r)
{
	for (unsigned i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		if (overlaps(r, keep[i]))
			return true;
	return false;
}

/* [start, start + len) in the word width, ending at the top if it wraps; NULL-size: empty. */
static bool span(unsigned long start, unsigned long len, struct range *r)
{
	if (len == 0)
		return false;
	r->lo = start;
	r->last = start + len - 1 < start ? ~0UL : start + len - 1;
	return true;
}

/* The pages [start, start + len) touches; to the top if the end wraps. */
static bool page_span(unsigned long start, unsigned long len, struct range *r)
{
	unsigned long end = start + len;

	if (len == 0)
		return false;
	r->lo = page_down(start);
	r->last = end < start || end + PAGE - 1 < end ? ~0UL : page_down(end + PAGE - 1) - 1;
	return true;
}

/* Linux refuses this range whatever the preset: it wraps, or ends past every task size. */
static bool range_refused(unsigned long start, unsigned long len)
{
	unsigned long end = start + len;

	return end < start || end > task_max || len > task_max;
}

/* --- argument classes ---------------------------------------------------------------------- */

static unsigned long kernel_addr(void)
{
#if defined(__aarch64__)
	static const unsigned long bases[] = {
		0xffff000000000000ul, 0xffff800000000000ul, 0xfffffc0000000000ul,
		0xffffff8000000000ul, 0xfffffff000000000ul, 0xffff000000200000ul,
		0x0001000000000000ul, 0x8000000000000000ul,
	};
#elif defined(__x86_64__)
	static const unsigned long bases[] = {
		0xffff800000000000ul, 0xffffffff80000000ul, 0xffffffff81000000ul,
		0x0000800000000000ul, 0x00007ffffffff000ul, 0x8000000000000000ul,
	};
#else
	/* The kernel half of arm's three splits and i386, and the top of the compat ABIs. */
	static const unsigned long bases[] = {
		0xc0000000ul, 0x80000000ul, 0xbf000000ul, 0xc0200000ul, 0xffff0000ul, 0xfffff000ul,
		0xffffe000ul,
	};
#endif
	unsigned long base = bases[below(sizeof(bases) / sizeof(bases[0]))];
	unsigned long room;

	if (compat && base < 0xffff0000ul)
		base = 0xfffff000ul;
	room = ~0UL - base; /* an offset must not wrap to a user address */
	return base + (one_in(2) ? 0 : below(room < (1u << 24) ? (unsigned)room + 1 : 1u << 24));
}

static unsigned long any_user_addr(void)
{
	unsigned long a = rnd_word() % task_max;

	return one_in(2) ? page_down(a) : a;
}

static unsigned long mapped_addr(void)
{
	unsigned i = below(MAPS_MAX);

	switch (below(4)) {
	case 0: return (unsigned long)scratch.buf + below(SCRATCH_SIZE);
	case 1: return window.lo + below(WINDOW_PAGES) * PAGE + (one_in(2) ? 0 : below(PAGE));
	case 2: return maps[i].addr ? maps[i].addr + below(PAGE) : window.lo;
	default: return sys_brk(0) - below(64);
	}
}

/* A pointer from one of the classes. */
static unsigned long ptr_arg(void)
{
	switch (below(10)) {
	case 0: return 0;
	case 1: return 1 + below(PAGE);				/* the NULL page */
	case 2: return kernel_addr();
	case 3: return any_user_addr();				/* most likely unmapped */
	case 4: return (unsigned long)__image_start +		/* read-only: its own text */
		       below((unsigned)(__rodata_end - __image_start));
	case 5: return straddle - 1 - below(64);		/* runs into PROT_NONE */
	case 6: return mapped_addr() | (1 + below(7));		/* unaligned */
	case 7: return task_max - below(2 * PAGE);		/* the last pages, and beyond */
	default: return mapped_addr();
	}
}

static unsigned long len_arg(void)
{
	static const unsigned long odd[] = {
		0, 1, PAGE - 1, PAGE, PAGE + 1, 0x7fffffff, 0x80000000ul, 0xffffffff, ~0UL,
		~0UL - 4094, (unsigned long)-PAGE, (unsigned long)1 << (sizeof(long) * 8 - 1),
	};

	switch (below(6)) {
	case 0: return below(64);
	case 1: return below(4 * PAGE);
	case 2: return below(1u << 20);
	case 3: return odd[below(sizeof(odd) / sizeof(odd[0]))];
	case 4: return task_max - below(PAGE) * (one_in(2) ? 1 : PAGE);
	default: return rnd_word();
	}
}

static unsigned long fd_arg(void)
{
	static const long odd[] = { 0, 1, 2, -1, AT_FDCWD, 16, 17, 0x7fffffff, -2147483647 - 1, 1024 };

	if (nfds && one_in(2))
		return (unsigned long)fds[below((unsigned)nfds)];
	if (one_in(2))
		return (unsigned long)odd[below(sizeof(odd) / sizeof(odd[0]))];
	return one_in(2) ? below(20) : rnd_word();
}

static unsigned long int_arg(void)
{
	switch (below(5)) {
	case 0: return below(8);
	case 1: return 1ul << below(sizeof(long) * 8);
	case 2: return (unsigned long)-(long)below(8);
	case 3: return rnd_word() & 0xffffffff;
	default: return rnd_word();
	}
}

static unsigned long any_arg(void)
{
	switch (below(4)) {
	case 0: return ptr_arg();
	case 1: return len_arg();
	case 2: return fd_arg();
	default: return int_arg();
	}
}

static const char *const paths[] = {
	"/proc/sys/vm/mmap_rnd_bits", "/proc/sys/vm/mmap_rnd_compat_bits",
	"/proc/sys/kernel/randomize_va_space", "/proc/sys/vm/legacy_va_layout", "/proc/sys/vm",
	"/proc/sys/", "/proc", "/", "", "/bin", "/bin/sysfuzz", "//proc//sys/./vm/mmap_rnd_bits",
	"/proc/sys/vm/mmap_rnd_bits/", "/proc/sys/vm/../vm/mmap_rnd_bits",
	"proc/sys/vm/mmap_rnd_bits", "/nonexistent", "/proc/sys/vm/mmap_rnd_bitsX", ".", "..",
};

/* A path: a real one, one of PATH_MAX and more, one that runs into the PROT_NONE page without
 * a NUL, or any pointer. */
static unsigned long path_arg(void)
{
	switch (below(6)) {
	case 0: case 1: case 2:
		return (unsigned long)paths[below(sizeof(paths) / sizeof(paths[0]))];
	case 3: {
		unsigned n = 60 + below(SCRATCH_SIZE - 61);
		memset(scratch.buf, one_in(2) ? '/' : 'a', n);
		scratch.buf[n] = '\0';
		return (unsigned long)scratch.buf;
	}
	case 4: {
		unsigned n = 1 + below(100);
		memset((char *)straddle - n, 'p', n);
		return straddle - n;
	}
	default:
		return ptr_arg();
	}
}

static unsigned long prot_arg(void)
{
	return one_in(8) ? rnd_word() : below(8);
}

static unsigned long map_flags_arg(void)
{
	static const unsigned long common[] = {
		MAP_PRIVATE | MAP_ANONYMOUS, MAP_SHARED | MAP_ANONYMOUS,
		MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, MAP_ANONYMOUS, MAP_PRIVATE,
		MAP_PRIVATE | MAP_SHARED | MAP_ANONYMOUS, MAP_PRIVATE | MAP_ANONYMOUS | 0x100000,
	};

	if (one_in(6))
		return rnd_word();
	return common[below(sizeof(common) / sizeof(common[0]))];
}

/* An address inside the storm window, page-aligned, and a length that stays inside it. */
static void window_span(unsigned long *addr, unsigned long *len)
{
	unsigned first = below(WINDOW_PAGES);

	*addr = window.lo + first * PAGE;
	*len = (1 + below(WINDOW_PAGES - first)) * PAGE - (one_in(4) ? below(PAGE) : 0);
}

/* --- one call ------------------------------------------------------------------------------ */

static bool never_made(unsigned long nr, const long *list, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if ((uint32_t)nr == (uint32_t)list[i])
			return true;
	return false;
}

static enum kind kind_of(unsigned long nr, const struct sysent *table, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (nr == (unsigned long)table[i].nr)
			return table[i].kind;
	return K_OTHER;
}

static unsigned long random_nr(const struct sysent *table, unsigned n)
{
	static const unsigned long odd[] = {
		~0UL, ~0UL - 1, 0x7fffffff, 0x80000000ul, 0xffff, 0x10000, 1024, 0xf0000, 0xf0005,
		0xf07ff, 0x40000000, 0x40000001,
	};

	switch (below(20)) {
	case 0: case 1: case 2: case 3: case 4: case 5: case 6: case 7: case 8: case 9: case 10:
	case 11: case 12:
		return (unsigned long)table[below(n)].nr;
	case 13: return below(TABLE_SIZE);
	case 14: return TABLE_SIZE + below(600);
	case 15: return 0xf0000 + below(8); /* arm's private calls; ENOSYS elsewhere */
	case 16: return 0x40000000 + below(TABLE_SIZE); /* x86_64's x32 bit */
	case 17: return rnd_word() & 0xffffffff;
	case 18: return rnd_word();
	default: return odd[below(sizeof(odd) / sizeof(odd[0]))];
	}
}

/* A call the fuzzer does not model may write through any pointer argument, as Linux's would:
 * a struct (uname, clock_gettime, rt_sigaction's old action) or as many bytes as the next
 * argument says (getrandom, getcwd, getdents64, readlink's buffer). An argument that could
 * reach what the fuzzer keeps points at the scratch buffer instead, which the canaries
 * guard, and a length after it is cut to fit there. */
#define OUT_STRUCT_MAX 512 /* the largest struct a call writes back (struct utsname: 390) */
static void keep_out_of_reach(unsigned long *a)
{
	struct range r;

	for (int i = 0; i < 6; i++) {
		unsigned long len = i < 5 && a[i + 1] > OUT_STRUCT_MAX ? a[i + 1] : OUT_STRUCT_MAX;
		if (!span(a[i], len < READ_MAX ? len : READ_MAX, &r) || !hits_keep(r))
			continue;
		a[i] = (unsigned long)scratch.buf;
		if (i < 5 && a[i + 1] > SCRATCH_SIZE)
			a[i + 1] = below(SCRATCH_SIZE);
	}
}

static void make_args(struct call *c)
{
	unsigned long *a = c->a;

	for (int i = 0; i < 6; i++)
		a[i] = any_arg();
	switch (c->kind) {
	case K_READ:
	case K_WRITE:
		a[0] = fd_arg();
		a[1] = ptr_arg();
		a[2] = len_arg();
		break;
	case K_OPEN:
		a[0] = path_arg();
		a[1] = one_in(4) ? int_arg() : below(3);
		break;
	case K_OPENAT:
		a[0] = fd_arg();
		a[1] = path_arg();
		a[2] = one_in(4) ? int_arg() : below(3);
		break;
	case K_CLOSE:
		a[0] = fd_arg();
		break;
	case K_DUP:
		a[0] = fd_arg();
		a[1] = fd_arg();
		a[2] = one_in(2) ? 0 : int_arg();
		break;
	case K_FCNTL:
		a[0] = fd_arg();
		a[1] = one_in(4) ? int_arg() : one_in(8) ? 1030 : below(12); /* F_DUPFD_CLOEXEC */
		break;
	case K_BRK:
		a[0] = one_in(4) ? ptr_arg() : sys_brk(0) + ((long)below(64) - 32) * (long)PAGE;
		break;
	case K_MUNMAP:
	case K_MAPCHG:
	case K_MMAP:
		if (one_in(2)) {
			window_span(&a[0], &a[1]);
		} else {
			a[0] = one_in(3) ? 0 : ptr_arg();
			a[1] = len_arg();
		}
		if (c->kind == K_MMAP) {
			a[2] = prot_arg();
			a[3] = map_flags_arg();
			a[4] = one_in(2) ? (unsigned long)-1 : fd_arg();
			a[5] = one_in(2) ? 0 : int_arg();
		} else {
			a[2] = prot_arg();
		}
		break;
	case K_OTHER:
		keep_out_of_reach(a);
		break;
	default:
		break;
	}
}

/* Nothing may reach the console: a write to fd 0, 1 or 2 (one open file of the console, for
 * reading and writing) gets no bytes or a buffer that cannot be read in any task of this ABI
 * (the NULL page, the PROT_NONE page, past every task size). */
static void keep_console_quiet(struct call *c)
{
	if (c->kind != K_WRITE || (uint32_t)c->a[0] > 2)
		return;
	switch (c->via == VIA_INT80 ? below(2) : below(4)) {
	case 0: c->a[2] = 0; break;
	case 1: c->a[1] = below(PAGE); break;
	case 2: c->a[1] = straddle + below(PAGE); break;
	default: c->a[1] = task_max + below(PAGE); break;
	}
}

/* The console stays on 0-2 and nowhere else: they are never closed or replaced (the summary line
 * must reach the console), and never duplicated or fcntl'd (a copy of 0 or 1 at 3 would let a
 * random write print). Another descriptor takes their place. */
static unsigned long not_stdio(unsigned long fd, unsigned lowest)
{
	return (uint32_t)fd >= lowest && (uint32_t)fd <= 2 ? 3 + below(FDS_TOP - 3) : fd;
}

static void keep_stdio(struct call *c)
{
	switch (c->kind) {
	case K_CLOSE:
		c->a[0] = not_stdio(c->a[0], 0);
		break;
	case K_DUP:
		c->a[0] = not_stdio(c->a[0], 0);
		c->a[1] = not_stdio(c->a[1], 0);
		break;
	case K_FCNTL:
		c->a[0] = not_stdio(c->a[0], 0);
		break;
	default:
		break;
	}
}

/* The call could write into, unmap or remap what the fuzzer lives in. */
static bool endangers(struct call *c, unsigned long a0, unsigned long a1, unsigned long a2,
		      unsigned long a3)
{
	struct range r;

	switch (c->kind) {
	case K_READ:
		if (!span(a1, a2 < READ_MAX ? a2 : READ_MAX, &r))
			return false;
		if (inside(r, (struct range){ (unsigned long)scratch.buf,
					      (unsigned long)scratch.buf + SCRATCH_SIZE - 1 }))
			return false;
		if (inside(r, (struct range){ (unsigned long)__image_start,
					      (unsigned long)__rodata_end - 1 })) {
			c->into_rodata = true; /* must fail; checked below */
			return false;
		}
		return hits_keep(r);
	case K_MMAP:
		if (!(a3 & MAP_FIXED))
			return false;
		/* fall through */
	case K_MUNMAP:
	case K_MAPCHG:
		if (!page_span(a0, a1, &r) || !hits_keep(r))
			return false;
		if (range_refused(a0, a1) || (a0 & (PAGE - 1))) {
			c->must_refuse = true;
			return false;
		}
		return true;
	default:
		return false;
	}
}

static bool guarded(struct call *c)
{
	return endangers(c, c->a[0], c->a[1], c->a[2], c->a[3]);
}

static void next_call(struct call *c)
{
	const struct sysent *table = calls;
	unsigned n = sizeof(calls) / sizeof(calls[0]);
	const long *nv = never;
	unsigned nnv = sizeof(never) / sizeof(never[0]);

	memset(c, 0, sizeof(*c));
#if defined(__x86_64__)
	if (one_in(16)) {
		c->via = VIA_INT80;
		table = calls_i386;
		n = sizeof(calls_i386) / sizeof(calls_i386[0]);
		nv = never_i386;
		nnv = sizeof(never_i386) / sizeof(never_i386[0]);
	}
#endif
#if defined(__i386__) || defined(__x86_64__)
	if (c->via == VIA_SYSCALL && eflags_enabled && one_in(8)) {
		c->via = VIA_FLAGS;
		do
			c->eflags = eflags_enabled & rnd_word();
		while (!c->eflags);
	}
#endif
	/* The stack pointer at entry: NULL, unaligned, the kernel half, non-canonical, the
	 * PROT_NONE page, the end of the address space. */
	if (c->via == VIA_SYSCALL && one_in(16)) {
		static const unsigned long odd[] = { 0, 1, 8, (unsigned long)1 << (sizeof(long) * 8 - 1),
						     ~0UL, ~0UL - 15 };
		c->via = VIA_BAD_SP;
		switch (below(4)) {
		case 0: c->sp = odd[below(sizeof(odd) / sizeof(odd[0]))]; break;
		case 1: c->sp = kernel_addr(); break;
		case 2: c->sp = straddle + PAGE / 2; break;
		default: c->sp = task_max - below(64); break;
		}
	}
	/* A number with high bits whose low half names a call: the kernel may cut it as Linux does
	 * (x86_64), so it would be that call unguarded. Drawn again. */
	do
		c->nr = random_nr(table, n);
	while (never_made(c->nr, nv, nnv) ||
	       ((uint32_t)c->nr != c->nr && kind_of((uint32_t)c->nr, table, n) != K_OTHER));
	c->kind = kind_of(c->nr, table, n);
	make_args(c);
	/* int $0x80 from 64-bit code takes the low halves of the registers, as Linux does. */
	if (c->via == VIA_INT80)
		for (int i = 0; i < 6; i++)
			c->a[i] = (uint32_t)c->a[i];
	keep_console_quiet(c);
	keep_stdio(c);
}

static long make(const struct call *c)
{
	const long *a = (const long *)c->a;

	if (c->via == VIA_BAD_SP)
		return __syscall_sp(c->sp, (long)c->nr, a[0], a[1], a[2], a[3], a[4], a[5]);
#if defined(__i386__) || defined(__x86_64__)
	if (c->via == VIA_FLAGS)
		return __syscall_flags(c->eflags, (long)c->nr, a[0], a[1], a[2], a[3], a[4], a[5]);
#endif
#if defined(__x86_64__)
	if (c->via == VIA_INT80)
		return __syscall_int80((long)c->nr, a[0], a[1], a[2], a[3], a[4], a[5]);
#endif
	return __syscall((long)c->nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

static void count(const struct call *c, long r)
{
	unsigned e = !is_error(r) ? 0 : -r <= 133 ? (unsigned)-r : 134;

	counts[e]++;
	digest = (digest ^ (uint32_t)c->nr) * 16777619u;
	digest = (digest ^ e) * 16777619u;
}

/* Every byte of [addr, addr + len) reads zero. */
static bool zero_filled(unsigned long addr, unsigned long len)
{
	const volatile unsigned long *p = (const unsigned long *)addr;

	for (unsigned long i = 0; i < len / sizeof(long); i++)
		if (p[i])
			return false;
	return true;
}

static void remember_mapping(unsigned long addr, unsigned long len)
{
	struct range r;

	if (span(addr, len, &r) && inside(r, window))
		return; /* the window is one of its own; nothing to give back */
	if (maps[maps_next].addr)
		munmap((void *)maps[maps_next].addr, maps[maps_next].len);
	maps[maps_next].addr = addr;
	maps[maps_next].len = len;
	maps_next = (maps_next + 1) % MAPS_MAX;
}

static void remember_fd(long fd)
{
	if (nfds < FDS_TOP)
		fds[nfds++] = (int)fd;
}

/* What the result may be, as far as it can be told from here. */
static void check_result(unsigned long at, const struct call *c, long r)
{
	bool err = is_error(r);
	unsigned long len = c->a[1];

	if (c->must_refuse && !err)
		fail(at, "a range Linux refuses was accepted", c, r);
	switch (c->kind) {
	case K_GETPID:
		if (r != pid0)
			fail(at, "getpid changed", c, r);
		break;
	case K_GETUID:
		if ((unsigned)r != uid0)
			fail(at, "getuid changed", c, r);
		break;
	case K_READ:
		if (c->into_rodata && r > 0)
			fail(at, "read() wrote into read-only memory", c, r);
		/* fall through */
	case K_WRITE:
		if (!err && (r < 0 || (c->via != VIA_INT80 && (unsigned long)r > c->a[2])))
			fail(at, "more bytes than asked for", c, r);
		break;
	case K_OPEN:
	case K_OPENAT:
		if (!err && (r < 3 || r >= FDS_TOP))
			fail(at, "a descriptor out of range", c, r);
		else if (!err)
			remember_fd(r);
		break;
	case K_CLOSE:
		if (r != 0 && r != -EBADF)
			fail(at, "close: neither 0 nor EBADF", c, r);
		break;
	case K_DUP:
		if (!err && (r < 3 || r >= FDS_TOP))
			fail(at, "a descriptor out of range", c, r);
		else if (!err)
			remember_fd(r);
		break;
	case K_MMAP: {
		struct range m;
		unsigned long size = (len + PAGE - 1) & ~(PAGE - 1);
		if (err)
			break;
		if ((r & (PAGE - 1)) || !span((unsigned long)r, size, &m) || hits_keep(m)) {
			fail(at, "mmap returned memory the process already uses", c, r);
			break;
		}
		if (c->via == VIA_INT80) { /* where it went is the kernel's business; give it back */
			munmap((void *)r, size);
			break;
		}
		if ((c->a[3] & MAP_FIXED) && (unsigned long)r != c->a[0])
			fail(at, "MAP_FIXED moved", c, r);
		/* (a file mapping holds the file's bytes) */
		if ((c->a[2] & PROT_READ) && (c->a[3] & MAP_ANONYMOUS) &&
		    (!zero_filled((unsigned long)r, size < PAGE ? size : PAGE) ||
		     *(volatile unsigned long *)((unsigned long)r + size - sizeof(long))))
			fail(at, "fresh anonymous memory is not zero", c, r);
		remember_mapping((unsigned long)r, size);
		break;
	}
	case K_OTHER:
		/* Past every table (and arm's private range) nothing exists. */
		if ((uint32_t)c->nr == c->nr && c->nr >= 1024 && (c->nr & ~0x7fful) != 0xf0000 &&
		    r != -ENOSYS)
			fail(at, "a number beyond the table did not give ENOSYS", c, r);
		break;
	default:
		break;
	}
}

/* --- the periodic checks ------------------------------------------------------------------- */

static uint32_t image_checksum(void)
{
	uint32_t sum = 0;

	for (const volatile uint8_t *p = (const uint8_t *)__image_start; p < (uint8_t *)__rodata_end; p++)
		sum = (sum << 5) + (sum >> 27) + *p;
	return sum;
}

static long sys_open_ro(const char *path, unsigned long flags)
{
	for (unsigned i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (calls[i].kind == K_OPENAT)
			return __syscall(calls[i].nr, AT_FDCWD, (long)path, (long)flags, 0, 0, 0);
	return -ENOSYS;
}

static long sys_nr(enum kind k)
{
	for (unsigned i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (calls[i].kind == k)
			return calls[i].nr;
	return -1;
}

static void close_all(void)
{
	for (int fd = 3; fd < FDS_TOP; fd++)
		__syscall(sys_nr(K_CLOSE), fd, 0, 0, 0, 0, 0);
	nfds = 0;
}

/* Fill the VMA table with one-page mappings until mmap refuses. */
static void pressure_start(void)
{
	npressure_bursts++;
	while (npressure < sizeof(pressure) / sizeof(pressure[0])) {
		void *p = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			break;
		pressure[npressure++] = (unsigned long)p;
	}
}

static void pressure_end(void)
{
	while (npressure)
		munmap((void *)pressure[--npressure], PAGE);
}

static void periodic_check(unsigned long at)
{
	pressure_end();
	nchecks++;
	if (getpid() != pid0)
		fail(at, "getpid changed", NULL, 0);
	if (getuid() != uid0)
		fail(at, "getuid changed", NULL, 0);
	for (int i = 0; i < CANARY_WORDS; i++)
		if (scratch.before[i] != CANARY || scratch.after[i] != CANARY)
			fail(at, "a canary around the scratch buffer changed", NULL, 0);

	void *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		fail(at, "mmap of one page failed", NULL, 0);
	} else {
		if (!zero_filled((unsigned long)p, PAGE))
			fail(at, "a fresh anonymous page is not zero", NULL, 0);
		memset(p, 0xa5, PAGE);
		munmap(p, PAGE);
	}

	/* A file every user may read; read() into the text must fail and change nothing. */
	long fd = sys_open_ro("/proc/sys/kernel/randomize_va_space", O_RDONLY);
	if (fd < 0) {
		fail(at, "open of randomize_va_space failed", NULL, fd);
	} else {
		long r = __syscall(sys_nr(K_READ), fd, (long)__image_start + 16, 4, 0, 0, 0);
		if (r != -EFAULT)
			fail(at, "read() into its own text did not give EFAULT", NULL, r);
	}
	close_all();
	if (image_checksum() != image_sum)
		fail(at, "the read-only image changed", NULL, 0);

	if (uid0 != 0) {
		long r = sys_open_ro("/proc/sys/vm/mmap_rnd_bits", O_WRONLY);
		if (r != -EACCES)
			fail(at, "a non-root user could open mmap_rnd_bits for writing", NULL, r);
		if (r >= 0)
			close_all();
	}
}

/* --- set-up and the end -------------------------------------------------------------------- */

static const char *const knobs[] = {
	"/proc/sys/vm/mmap_rnd_bits", "/proc/sys/vm/mmap_rnd_compat_bits",
	"/proc/sys/kernel/randomize_va_space", "/proc/sys/vm/legacy_va_layout",
};
static char knob_text[4][32];

static void knobs_io(bool put_back)
{
	for (unsigned i = 0; i < 4; i++) {
		long fd = sys_open_ro(knobs[i], put_back ? O_WRONLY : O_RDONLY);
		if (fd < 0)
			continue;
		if (put_back && knob_text[i][0])
			__syscall(sys_nr(K_WRITE), fd, (long)knob_text[i], (long)strlen(knob_text[i]), 0,
				  0, 0);
		else if (!put_back)
			__syscall(sys_nr(K_READ), fd, (long)knob_text[i], sizeof(knob_text[i]) - 1, 0,
				  0, 0);
		__syscall(sys_nr(K_CLOSE), fd, 0, 0, 0, 0, 0);
	}
}

static bool set_up(int argc, char **argv)
{
	/* The kernel puts the argument strings at the very top of the stack (kernel/exec.c), the
	 * last one highest; the stack VMA is the 128 KiB below that top. */
	const char *last = argv[argc - 1];
	unsigned long stack_top = (unsigned long)last + strlen(last) + 1;
	unsigned long top_page = page_down(stack_top + PAGE - 1);

	compat = strcmp(USER_ABI_NAME, "aarch32") == 0 || strcmp(USER_ABI_NAME, "ia32") == 0;
#if defined(__aarch64__)
	task_max = 1ul << 48;
#elif defined(__x86_64__)
	task_max = (1ul << 47) - 4096;
#elif defined(__arm__)
	task_max = compat ? 0xfffff000ul : 0xbf000000ul;
#else
	task_max = compat ? 0xffffe000ul : 0xc0000000ul;
#endif
	pid0 = getpid();
	uid0 = getuid();
	for (int i = 0; i < CANARY_WORDS; i++)
		scratch.before[i] = scratch.after[i] = CANARY;
	keep[0] = (struct range){ (unsigned long)__image_start,
				  ((unsigned long)__image_end + PAGE - 1) / PAGE * PAGE - 1 };
	keep[1] = (struct range){ top_page - (128u << 10) - PAGE, top_page - 1 };

	char *w = mmap(NULL, WINDOW_PAGES * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *s = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w == MAP_FAILED || s == MAP_FAILED ||
	    mmap(s + PAGE, PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) !=
		    s + PAGE) {
		printf("sysfuzz: FAIL: cannot map its window\n");
		return false;
	}
	window = (struct range){ (unsigned long)w, (unsigned long)w + WINDOW_PAGES * PAGE - 1 };
	straddle = (unsigned long)s + PAGE;
	keep[2] = (struct range){ (unsigned long)s, (unsigned long)s + 2 * PAGE - 1 };
	brk_start = sys_brk(0);
	image_sum = image_checksum();
	if (uid0 == 0)
		knobs_io(false);
	return true;
}

static void summary(unsigned long seed)
{
	char line[512];
	size_t n = 0;

	n += (size_t)snprintf(line + n, sizeof(line) - n,
			      "sysfuzz: %s: seed %lu, %lu calls (%s, uid %u), %lu skipped, %lu checks, "
			      "%lu full VMA tables;", nfails ? "FAIL" : "ok", seed, ncalls,
			      USER_ABI_NAME, uid0, nskipped, nchecks, npressure_bursts);
	n += (size_t)snprintf(line + n, sizeof(line) - n, " ok %lu", counts[0]);
	for (unsigned e = 1; e < 135 && n < sizeof(line); e++) {
		if (!counts[e])
			continue;
		const char *name = errno_name(e);
		if (name)
			n += (size_t)snprintf(line + n, sizeof(line) - n, " %s %lu", name, counts[e]);
		else
			n += (size_t)snprintf(line + n, sizeof(line) - n, " E%u %lu", e, counts[e]);
	}
	if (n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n, "; digest %08x", (unsigned)digest);
	if (nfails && n < sizeof(line))
		snprintf(line + n, sizeof(line) - n, "; %lu failures, first: %s", nfails, first_fail);
	printf("%s\n", line);
}

static bool parse_flags(const char *s)
{
	eflags_enabled = 0;
	while (*s) {
		const char *comma = strchr(s, ',');
		size_t n = comma ? (size_t)(comma - s) : strlen(s);
		if (n == 2 && strncmp(s, "ac", 2) == 0)
			eflags_enabled |= X86_AC;
		else if (n == 2 && strncmp(s, "df", 2) == 0)
			eflags_enabled |= X86_DF;
		else if (n == 2 && strncmp(s, "tf", 2) == 0)
			eflags_enabled |= X86_TF;
		else if (n == 2 && strncmp(s, "nt", 2) == 0)
			eflags_enabled |= X86_NT;
		else if (!(n == 4 && strncmp(s, "none", 4) == 0))
			return false;
		s += n;
		if (*s == ',')
			s++;
	}
	return true;
}

static __noreturn void usage(void)
{
	printf("usage: sysfuzz [-e] [-f ac,df,tf,nt|none] [-k K] [-t FROM] SEED N\n");
	exit(2);
}

/* Its own image unmapped or replaced under it (the return from the call fetches from a page that
 * is gone or not executable), or its stack unmapped (the next push or pop faults): the process
 * dies there. */
static __noreturn void end_game(void)
{
	unsigned long lo = keep[0].lo, len = keep[0].last + 1 - keep[0].lo;
	static const char *const how[] = { "munmap of its image", "MAP_FIXED over its image",
					   "munmap of its stack" };
	unsigned pick = below(3);
	char here;
	/* The page sp is in and the one below: inside the stack VMA, which may end at the task
	 * size. */
	unsigned long sp_page = page_down((unsigned long)&here);

	switch (pick) {
	case 0:
		__syscall(sys_nr(K_MUNMAP), (long)lo, (long)len, 0, 0, 0, 0);
		break;
	case 1:
		__syscall(sys_nr(K_MMAP), (long)lo, (long)len, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		break;
	default:
		__syscall(sys_nr(K_MUNMAP), (long)(sp_page - PAGE), (long)(2 * PAGE), 0, 0, 0, 0);
		break;
	}
	printf("sysfuzz: FAIL: survived the %s\n", how[pick]);
	exit(1);
}

int main(int argc, char **argv)
{
	unsigned long every = 64;
	uint64_t seed, n, v;
	bool end = false;
	int i;

	for (i = 1; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (strcmp(argv[i], "-e") == 0) {
			end = true;
			i--;
			continue;
		}
		if (strcmp(argv[i], "-f") == 0 && parse_flags(argv[i + 1]))
			continue;
		if (strcmp(argv[i], "-k") == 0 && parse_u64_full(argv[i + 1], 10, &v) && v)
			every = (unsigned long)v;
		else if (strcmp(argv[i], "-t") == 0 && parse_u64_full(argv[i + 1], 10, &v))
			trace_from = (unsigned long)v;
		else
			usage();
	}
	if (argc - i != 2 || !parse_u64_full(argv[i], 10, &seed) ||
	    !parse_u64_full(argv[i + 1], 10, &n))
		usage();
	rng_state = seed;
	if (!set_up(argc, argv))
		return 1;

	for (unsigned long at = 0; at < n; at++) {
		struct call c;
		if (one_in(1000))
			pressure_start();
		next_call(&c);
		if (guarded(&c)) {
			nskipped++;
			continue;
		}
		if (at >= trace_from)
			printf("sysfuzz: #%lu nr %ld (%lx %lx %lx %lx %lx %lx)%s\n", at, (long)c.nr,
			       c.a[0], c.a[1], c.a[2], c.a[3], c.a[4], c.a[5],
			       c.via == VIA_INT80 ? " int80" : c.via == VIA_FLAGS ? " flags" :
			       c.via == VIA_BAD_SP ? " bad-sp" : "");
		long r = make(&c);
		ncalls++;
		count(&c, r);
		check_result(at, &c, r);
		if (c.into_rodata && image_checksum() != image_sum)
			fail(at, "read() changed the read-only image", &c, r);
		if ((at + 1) % every == 0)
			periodic_check(at);
	}
	periodic_check(n);
	close_all();
	for (unsigned k = 0; k < MAPS_MAX; k++)
		if (maps[k].addr)
			munmap((void *)maps[k].addr, maps[k].len);
	if (uid0 == 0)
		knobs_io(true);
	summary((unsigned long)seed);
	if (end && !nfails)
		end_game();
	return nfails ? 1 : 0;
}
