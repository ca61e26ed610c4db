/* The process calls: exit, identity, uname, the thread-list and robust-futex registrations,
 * resource limits, getrandom, sysinfo, the scheduler's trivia (fork, exec, wait and kill are in
 * kernel/sys_fork.c). Every process is its own only thread: its tid is its pid. */
#include <arch/cpu.h>
#include <arch/memory.h>
#include <arch/trap.h>
#include <kernel/cred.h>
#include <kernel/kernel.h>
#include <lib/errno.h>
#include <lib/fmt.h>
#include <lib/string.h>
#include <mm/layout.h>
#include <mm/mm.h>
#include <mm/pmm.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/random.h>
#include <kernel/syscall.h>
#include <kernel/utsname.h>

#define NSIG 64

/* One thread per process: exit ends the process as exit_group does. */
long sys_exit(const struct syscall_args *a)
{
	process_exit((int)(a->a[0] & 0xff) << 8);
}

long sys_exit_group(const struct syscall_args *a)
{
	process_exit((int)(a->a[0] & 0xff) << 8);
}

long sys_getpid(const struct syscall_args *a)
{
	return a->p->pid;
}

long sys_gettid(const struct syscall_args *a)
{
	return a->p->pid;
}

/* init (the shell) is 1: the parent of what `run` starts and of every orphan. */
long sys_getppid(const struct syscall_args *a)
{
	return a->p->parent ? a->p->parent->pid : 0;
}

/* One uid per process (the shell's user at exec), real = effective; gid = uid (root 0,
 * nobody 65534 with group nogroup 65534, as Debian). */
long sys_getuid(const struct syscall_args *a)
{
	return a->p->uid;
}

long sys_getgid(const struct syscall_args *a)
{
	return a->p->uid;
}

/* uname: the ABI's name where programs test it (sysname "Linux", release 6.1.0, the Linux
 * whose behaviour rndbits follows, as WSL1 answers "Linux" with a release naming itself), and
 * rndbits with the preset in the fields people read: nodename, release suffix, version. */
#define UTS_LEN 65
struct new_utsname {
	char sysname[UTS_LEN], nodename[UTS_LEN], release[UTS_LEN], version[UTS_LEN],
		machine[UTS_LEN], domainname[UTS_LEN];
};

long sys_uname(const struct syscall_args *a)
{
	struct new_utsname u;

	memset(&u, 0, sizeof(u));
	strlcpy(u.sysname, "Linux", UTS_LEN);
	strlcpy(u.nodename, "rndbits", UTS_LEN);
	strlcpy(u.release, UTS_RELEASE, UTS_LEN);
	snprintf(u.version, UTS_LEN, UTS_VERSION_BUILD " rndbits %s page=%lu", CONFIG_PRESET,
		 (unsigned long)PAGE_SIZE);
	strlcpy(u.machine, arch_syscall_table(false)->uts_machine, UTS_LEN);
	strlcpy(u.domainname, "(none)", UTS_LEN);
	return copy_to_user(&a->p->mm, a->a[0], &u, sizeof(u)) ? -EFAULT : 0;
}

/* Recorded only: with one thread nothing ever clears the tid or walks the list. */
long sys_set_tid_address(const struct syscall_args *a)
{
	a->p->sys.clear_child_tid = a->a[0];
	return a->p->pid;
}

long sys_set_robust_list(const struct syscall_args *a)
{
	/* struct robust_list_head: three pointers of the task's width. */
	if (a->a[1] != 3 * sys_word_size(a))
		return -EINVAL;
	a->p->sys.robust_list = a->a[0];
	a->p->sys.robust_len = a->a[1];
	return 0;
}

/* Linux built without CONFIG_RSEQ answers -ENOSYS, and every libc takes that as "no rseq"
 * and goes on: no console line, glibc calls it in every program's start-up. */
long sys_rseq(const struct syscall_args *a)
{
	(void)a;
	return -ENOSYS;
}

/* --- resource limits -------------------------------------------------------------------- */

#define RLIMIT_STACK 3
#define RLIMIT_NOFILE 7
#define RLIM_NLIMITS 16
#define RLIM64_INFINITY (~0ull)
#define STACK_LIMIT (8ull << 20) /* RLIMIT_STACK_DEFAULT of the layout code: 8 MiB */
#define NOFILE_LIMIT 16          /* kernel/fd.c: descriptors 0..15 */

static struct sys_rlimit rlimit_of(const struct process *p, unsigned res)
{
	if (p->sys.rlimit_set[res])
		return p->sys.rlim[res];
	if (res == RLIMIT_STACK)
		return (struct sys_rlimit){ STACK_LIMIT, RLIM64_INFINITY };
	if (res == RLIMIT_NOFILE)
		return (struct sys_rlimit){ NOFILE_LIMIT, NOFILE_LIMIT };
	return (struct sys_rlimit){ RLIM64_INFINITY, RLIM64_INFINITY };
}

/* Write a limit in the task's struct rlimit: two unsigned longs, infinity as all ones
 * (a 32-bit task's getrlimit clamps to its own RLIM_INFINITY). */
static long put_rlimit(const struct syscall_args *a, uint64_t uaddr, struct sys_rlimit r)
{
	if (sys_word_size(a) == 8) {
		uint64_t v[2] = { r.cur, r.max };
		return copy_to_user(&a->p->mm, uaddr, v, sizeof(v)) ? -EFAULT : 0;
	}
	uint32_t v[2] = { r.cur > 0xffffffffu ? 0xffffffffu : (uint32_t)r.cur,
			  r.max > 0xffffffffu ? 0xffffffffu : (uint32_t)r.max };
	return copy_to_user(&a->p->mm, uaddr, v, sizeof(v)) ? -EFAULT : 0;
}

static long get_rlimit_arg(const struct syscall_args *a, uint64_t uaddr, struct sys_rlimit *r)
{
	if (sys_word_size(a) == 8) {
		uint64_t v[2];
		if (copy_from_user(&a->p->mm, v, uaddr, sizeof(v)))
			return -EFAULT;
		*r = (struct sys_rlimit){ v[0], v[1] };
	} else {
		uint32_t v[2];
		if (copy_from_user(&a->p->mm, v, uaddr, sizeof(v)))
			return -EFAULT;
		*r = (struct sys_rlimit){ v[0] == 0xffffffffu ? RLIM64_INFINITY : v[0],
					  v[1] == 0xffffffffu ? RLIM64_INFINITY : v[1] };
	}
	return 0;
}

/* Linux's rules: cur <= max, and only root raises max. The value is recorded and reported;
 * the kernel enforces none of them beyond what it already limits. */
static long set_rlimit(struct process *p, unsigned res, struct sys_rlimit r)
{
	struct sys_rlimit old = rlimit_of(p, res);

	if (r.cur > r.max)
		return -EINVAL;
	if (r.max > old.max && p->uid != 0)
		return -EPERM;
	if (res == RLIMIT_NOFILE && r.max > NOFILE_LIMIT)
		return -EPERM; /* Linux: above fs.nr_open */
	p->sys.rlim[res] = r;
	p->sys.rlimit_set[res] = true;
	return 0;
}

long sys_getrlimit(const struct syscall_args *a)
{
	unsigned res = (unsigned)a->a[0];

	if (res >= RLIM_NLIMITS)
		return -EINVAL;
	return put_rlimit(a, a->a[1], rlimit_of(a->p, res));
}

long sys_setrlimit(const struct syscall_args *a)
{
	unsigned res = (unsigned)a->a[0];
	struct sys_rlimit r;

	if (res >= RLIM_NLIMITS)
		return -EINVAL;
	long err = get_rlimit_arg(a, a->a[1], &r);
	return err ? err : set_rlimit(a->p, res, r);
}

/* prlimit64(pid, resource, new, old): struct rlimit64 (two u64) on every ABI; pid 0 or our
 * own, others -ESRCH. */
long sys_prlimit64(const struct syscall_args *a)
{
	struct process *p = a->p;
	int pid = (int)(uint32_t)a->a[0];
	unsigned res = (unsigned)a->a[1];
	uint64_t newp = a->a[2], oldp = a->a[3];
	struct sys_rlimit old, nw;

	if (pid != 0 && pid != p->pid)
		return -ESRCH;
	if (res >= RLIM_NLIMITS)
		return -EINVAL;
	old = rlimit_of(p, res);
	if (newp) {
		uint64_t v[2];
		if (copy_from_user(&p->mm, v, newp, sizeof(v)))
			return -EFAULT;
		nw = (struct sys_rlimit){ v[0], v[1] };
		long err = set_rlimit(p, res, nw);
		if (err)
			return err;
	}
	if (oldp) {
		uint64_t v[2] = { old.cur, old.max };
		if (copy_to_user(&p->mm, oldp, v, sizeof(v)))
			return -EFAULT;
	}
	return 0;
}

/* --- randomness, sysinfo, signals to oneself, scheduling ---------------------------------- */

#define GRND_NONBLOCK 0x1
#define GRND_RANDOM 0x2
#define GRND_INSECURE 0x4

/* The kernel's CSPRNG is keyed from boot, so never blocks; flags as Linux checks them. */
long sys_getrandom(const struct syscall_args *a)
{
	uint64_t buf = a->a[0], len = a->a[1];
	unsigned flags = (unsigned)a->a[2];
	uint64_t done = 0;

	if (flags & ~(unsigned)(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE) ||
	    (flags & (GRND_INSECURE | GRND_RANDOM)) == (GRND_INSECURE | GRND_RANDOM))
		return -EINVAL;
	if (len > 0x7fffffff)
		len = 0x7fffffff; /* MAX_RW_COUNT, roughly: a short read as Linux gives */
	while (done < len) {
		uint64_t r = get_random_u64();
		size_t n = (size_t)MIN((uint64_t)sizeof(r), len - done);
		if (copy_to_user(&a->p->mm, buf + done, &r, n))
			return done ? (long)done : -EFAULT;
		done += n;
	}
	return (long)done;
}

/* struct sysinfo in the task's width: longs, then procs (u16), totalhigh, freehigh, mem_unit. */
struct sysinfo64 {
	int64_t uptime;
	uint64_t loads[3], totalram, freeram, sharedram, bufferram, totalswap, freeswap;
	uint16_t procs, pad;
	uint64_t totalhigh, freehigh;
	uint32_t mem_unit;
};
struct sysinfo32 {
	int32_t uptime;
	uint32_t loads[3], totalram, freeram, sharedram, bufferram, totalswap, freeswap;
	uint16_t procs, pad;
	uint32_t totalhigh, freehigh, mem_unit;
	char f[8];
};

long sys_sysinfo(const struct syscall_args *a)
{
	struct pmm_stats st;
	uint64_t uptime = arch_cycles() / arch_cycles_hz();

	pmm_get_stats(&st);
	if (sys_word_size(a) == 8) {
		struct sysinfo64 si = { .uptime = (int64_t)uptime, .totalram = st.total,
					.freeram = st.free, .procs = (uint16_t)process_count(), .mem_unit = PAGE_SIZE };
		return copy_to_user(&a->p->mm, a->a[0], &si, sizeof(si)) ? -EFAULT : 0;
	}
	struct sysinfo32 si = { .uptime = (int32_t)uptime, .totalram = (uint32_t)st.total,
				.freeram = (uint32_t)st.free, .procs = (uint16_t)process_count(), .mem_unit = PAGE_SIZE };
	return copy_to_user(&a->p->mm, a->a[0], &si, sizeof(si)) ? -EFAULT : 0;
}

long sys_sched_yield(const struct syscall_args *a)
{
	(void)a;
	schedule();
	return 0;
}

/* One CPU: the mask has bit 0; returns the bytes written (Linux: the kernel's cpumask size,
 * here one long), -EINVAL if the user's buffer is smaller or not a multiple of a long. */
long sys_sched_getaffinity(const struct syscall_args *a)
{
	int pid = (int)(uint32_t)a->a[0];
	uint64_t len = a->a[1], mask = 1;
	unsigned w = sys_word_size(a);

	if (pid != 0 && pid != a->p->pid)
		return -ESRCH;
	if (len < w || (len & (w - 1)))
		return -EINVAL;
	return copy_to_user(&a->p->mm, a->a[2], &mask, w) ? -EFAULT : (long)w;
}

/* prctl: the options a static program's start-up and busybox use; Linux's -EINVAL for the
 * rest. The name is the process's comm (16 bytes with the NUL), what `ps` and the kernel's
 * lines show. */
#define PR_SET_PDEATHSIG 1
#define PR_GET_PDEATHSIG 2
#define PR_GET_DUMPABLE 3
#define PR_SET_DUMPABLE 4
#define PR_SET_NAME 15
#define PR_GET_NAME 16

long sys_prctl(const struct syscall_args *a)
{
	struct process *p = a->p;
	char name[PROC_NAME_MAX];
	uint64_t arg2 = a->a[1];
	int sig;

	switch ((int)(uint32_t)a->a[0]) {
	case PR_SET_PDEATHSIG:
		if (arg2 > NSIG)
			return -EINVAL;
		p->sys.pdeath_signal = (int)arg2;
		return 0;
	case PR_GET_PDEATHSIG:
		sig = p->sys.pdeath_signal;
		return copy_to_user(&p->mm, arg2, &sig, sizeof(sig)) ? -EFAULT : 0;
	case PR_GET_DUMPABLE:
		return p->sys.not_dumpable ? 0 : 1;
	case PR_SET_DUMPABLE:
		if (arg2 > 1)
			return -EINVAL;
		p->sys.not_dumpable = arg2 == 0;
		return 0;
	case PR_SET_NAME:
		/* Up to 15 bytes of a string that may end anywhere in those 16. */
		for (size_t i = 0; i < sizeof(name); i++) {
			if (copy_from_user(&p->mm, &name[i], arg2 + i, 1))
				return -EFAULT;
			if (!name[i])
				break;
		}
		name[sizeof(name) - 1] = 0;
		strlcpy(p->name, name, sizeof(p->name));
		return 0;
	case PR_GET_NAME:
		memset(name, 0, sizeof(name));
		strlcpy(name, p->name, sizeof(name));
		return copy_to_user(&p->mm, arg2, name, sizeof(name)) ? -EFAULT : 0;
	default:
		return -EINVAL;
	}
}
