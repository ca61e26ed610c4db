/* The process-life calls (issue 17): fork (and clone / vfork as fork), execve, wait4, waitid,
 * kill / tkill / tgkill, the process-group calls, pause. Linux 6.1's numbers, flags, errors and
 * status encodings. */
#include <arch/mmu.h>
#include <arch/task.h>
#include <asm/trap_frame.h> /* struct trap_frame: a new task's first registers */
#include <arch/trap.h>
#include <kernel/aslr.h>
#include <kernel/cred.h>
#include <kernel/kernel.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <arch/signal.h>
#include <kernel/syscall.h>
#include <lib/errno.h>
#include <lib/string.h>
#include <mm/mm.h>


/* --- fork --------------------------------------------------------------------------------- */

#define CSIGNAL 0xff
#define CLONE_VM 0x00000100
#define CLONE_VFORK 0x00004000
#define CLONE_PARENT_SETTID 0x00100000
#define CLONE_CHILD_CLEARTID 0x00200000
#define CLONE_CHILD_SETTID 0x01000000

/* A copy of the running process: its address space copy-on-write (mm_fork), its descriptors,
 * signal actions and mask (pending ones cleared), and its registers with the call returning 0
 * in the child. The child's pid, or -EAGAIN (NPROC processes), -ENOMEM. */
static long do_fork(struct process *p, uint64_t child_tid, bool set_child_tid)
{
	struct process *c = proc_alloc();

	if (!c)
		return -EAGAIN;
	int pid = c->pid;
	c->uid = p->uid;
	c->parent = p;
	c->pgid = p->pgid;
	c->sid = p->sid;
	memcpy(c->name, p->name, sizeof(c->name));
	c->exe = p->exe;
	c->sys = p->sys; /* actions, mask, limits; pending signals are the parent's alone */
	c->sys.sigpending = 0;
	c->sys.restore_sigmask = false;
	c->quiet_faults = p->quiet_faults;
	c->no_randomize = p->no_randomize;
	int err = mm_fork(&c->mm, &p->mm);
	if (err) {
		proc_free(c);
		return err;
	}
	fd_table_fork(&c->files, &p->files); /* cannot fail */
	struct trap_frame frame = *arch_task_user_frame(&p->task);
	arch_frame_set_fork_child(&frame);
	err = arch_task_create_user(&c->task, &frame, true);
	if (err) {
		mm_destroy(&c->mm);
		fd_table_release(&c->files);
		proc_free(c);
		return err;
	}
	if (set_child_tid) {
		int32_t tid = pid;
		copy_to_user(&c->mm, child_tid, &tid, sizeof(tid));
	}
	c->in_use = true;
	c->state = PROC_RUNNABLE;
	return pid;
}

long sys_fork(const struct syscall_args *a)
{
	return do_fork(a->p, 0, false);
}

/* vfork may be fork (the child only execs or exits; sharing the memory was an optimization). */
long sys_vfork(const struct syscall_args *a)
{
	return do_fork(a->p, 0, false);
}

/* clone as fork: the exit signal SIGCHLD, and what libcs' fork and vfork add (glibc's fork
 * passes CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID, vfork CLONE_VM | CLONE_VFORK). Threads and
 * the rest: -EINVAL. The argument order differs per ABI; the child's tid pointer is the 5th
 * argument on arm64 and ARM's EABI, the 4th on x86_64, the 5th on i386 (tls before it). */
long sys_clone(const struct syscall_args *a)
{
	uint64_t flags = a->a[0];
	uint64_t known = CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | CLONE_PARENT_SETTID;

	if ((flags & CSIGNAL) != SIGCHLD || (flags & ~(uint64_t)CSIGNAL & ~known &
					      ~(uint64_t)(CLONE_VM | CLONE_VFORK)) ||
	    ((flags & CLONE_VM) && !(flags & CLONE_VFORK)))
		return -EINVAL;
	if (a->a[1]) /* a new stack: a thread, or vfork's helper stack (posix_spawn) */
		return -EINVAL;
	const struct syscall_table *t = arch_syscall_table(a->compat);
	uint64_t child_tid = a->a[t->clone_child_tid_arg ? t->clone_child_tid_arg : 4];
	long pid = do_fork(a->p, child_tid, flags & CLONE_CHILD_SETTID);
	if (pid > 0 && (flags & CLONE_CHILD_CLEARTID))
		process_find((int)pid)->sys.clear_child_tid = child_tid;
	if (pid > 0 && (flags & CLONE_PARENT_SETTID)) {
		int32_t tid = (int32_t)pid;
		copy_to_user(&a->p->mm, a->a[2], &tid, sizeof(tid));
	}
	return pid;
}

/* --- execve ------------------------------------------------------------------------------- */

#define EXEC_MAX_ARGS 256       /* argv + envp pointers */
#define EXEC_STRINGS_MAX 32768  /* bytes of their strings */

/* The strings execve copies in; static: one call at a time, and it never sleeps. */
static char exec_strings[EXEC_STRINGS_MAX];
static char *exec_ptrs[EXEC_MAX_ARGS + 2];
static char exec_path[FS_PATH_MAX];

/* A NUL-terminated user string into buf: its length, or -EFAULT, or too_long. */
static long get_user_string(struct mm *mm, uint64_t u, char *buf, size_t size, long too_long)
{
	for (size_t i = 0; i < size; i++) {
		if (copy_from_user(mm, &buf[i], u + i, 1))
			return -EFAULT;
		if (!buf[i])
			return (long)i;
	}
	return too_long;
}

/* A user vector of string pointers (argv or envp; NULL: none) into exec_ptrs from *n, the
 * strings into exec_strings from *used; NULL-terminated there. */
static long get_user_vector(const struct syscall_args *a, uint64_t uvec, unsigned *n,
			    size_t *used)
{
	unsigned w = sys_word_size(a);

	for (unsigned i = 0; uvec; i++) {
		uint64_t ptr = 0;
		if (copy_from_user(&a->p->mm, &ptr, uvec + (uint64_t)i * w, w))
			return -EFAULT;
		if (!ptr)
			break;
		if (*n >= EXEC_MAX_ARGS)
			return -E2BIG;
		long len = get_user_string(&a->p->mm, ptr, exec_strings + *used,
					   sizeof(exec_strings) - *used, -E2BIG);
		if (len < 0)
			return len;
		exec_ptrs[(*n)++] = exec_strings + *used;
		*used += (size_t)len + 1;
	}
	exec_ptrs[(*n)++] = NULL;
	return 0;
}

/* Handlers a program installed point into the image it leaves: back to SIG_DFL (an ignored
 * signal stays ignored, the mask and pending signals stay). */
static void reset_handlers(struct process *p)
{
	for (unsigned i = 0; i < SYS_NSIG; i++)
		if (p->sys.act[i].handler > 1)
			p->sys.act[i] = (struct sys_sigaction){ 0 };
	p->sys.ss_sp = p->sys.ss_size = 0;
	p->sys.ss_flags = 0;
	p->sys.clear_child_tid = p->sys.robust_list = p->sys.robust_len = 0;
}

long sys_execve(const struct syscall_args *a)
{
	struct process *p = a->p;
	unsigned n = 0;
	size_t used = 0;
	long err = get_user_string(&p->mm, a->a[0], exec_path, sizeof(exec_path), -ENAMETOOLONG);

	if (err < 0)
		return err;
	if ((err = get_user_vector(a, a->a[1], &n, &used)))
		return err;
	unsigned envp_at = n;
	if ((err = get_user_vector(a, a->a[2], &n, &used)))
		return err;
	const struct fs_file *prog;
	if ((err = exec_lookup(exec_path, p->mm.compat, &prog)))
		return err;
	int abi = exec_image_abi(prog);
	if (abi < 0)
		return abi;
	/* The new image is built beside the old one, which stays until it has succeeded. */
	struct mm mm;
	bool randomize = randomize_va_space != 0 && !p->no_randomize;
	char *argv0[] = { (char *)prog->name, NULL };
	char **argv = envp_at > 1 ? exec_ptrs : argv0;
	int argc = envp_at > 1 ? (int)envp_at - 1 : 1;
	err = mm_init(&mm, abi == 1, p->mm.asid);
	if (!err)
		err = exec_image_env(&mm, prog, argc, argv, (const char *const *)&exec_ptrs[envp_at],
				     randomize, false);
	if (err) {
		mm_destroy(&mm);
		return err;
	}
	arch_switch_user_root(0, 0);
	mm_destroy(&p->mm);
	p->mm = mm;
	arch_switch_user_root(p->mm.root, p->mm.asid);
	arch_frame_init_user(arch_task_user_frame(&p->task), (uintptr_t)mm.entry,
			     (uintptr_t)mm.start_stack, mm.compat);
	arch_task_reset_user_state(&p->task);
	fd_table_exec(&p->files); /* O_CLOEXEC descriptors close, the others stay */
	reset_handlers(p);
	strlcpy(p->name, prog->name, sizeof(p->name));
	p->exe = prog;
	return 0; /* x0 of the new image */
}

/* --- wait --------------------------------------------------------------------------------- */

#define WNOHANG 0x00000001
#define WUNTRACED 0x00000002
#define WEXITED 0x00000004
#define WCONTINUED 0x00000008
#define WNOWAIT 0x01000000
#define __WNOTHREAD 0x20000000
#define __WALL 0x40000000
#define __WCLONE 0x80000000u
#define P_ALL 0
#define P_PID 1
#define P_PGID 2

/* Does child c match wait4's pid (-1 any, 0 the caller's group, < -1 group -pid, > 0 pid)? */
static bool wait_matches(const struct process *p, const struct process *c, int pid)
{
	if (pid > 0)
		return c->pid == pid;
	if (pid == -1)
		return true;
	return c->pgid == (pid == 0 ? p->pgid : -pid);
}

/* A zombie child matching pid, or NULL; -ECHILD in *err if no child matches at all. */
static struct process *find_zombie(struct process *p, int pid, long *err)
{
	*err = -ECHILD;
	for (unsigned i = 1; i < NPROC; i++) {
		struct process *c = proc_slot(i);
		if (c->state == PROC_FREE || c->parent != p || !wait_matches(p, c, pid))
			continue;
		*err = 0;
		if (c->state == PROC_ZOMBIE)
			return c;
	}
	return NULL;
}

/* Sleep until a matching child is a zombie (its exit wakes the parent): it, or NULL with
 * -ECHILD, or 0 for WNOHANG, or -ERESTARTSYS for a signal (Linux's do_wait: a handler with
 * SA_RESTART restarts the call, one without makes it -EINTR). The children are looked at
 * before the signals, so an exit that comes with its SIGCHLD is taken, not interrupted by it. */
static struct process *wait_zombie(struct process *p, int pid, unsigned options, long *err)
{
	for (;;) {
		struct process *c = find_zombie(p, pid, err);
		if (c || *err)
			return c;
		if (options & WNOHANG)
			return NULL;
		if (signal_pending(p)) {
			*err = -ERESTARTSYS;
			return NULL;
		}
		sched_sleep_interruptible(p, 0);
	}
}

/* struct rusage: two timevals and fourteen longs, of the task's word size; all zero. */
static long put_zero_rusage(const struct syscall_args *a, uint64_t u)
{
	uint64_t zero[18] = { 0 };

	return u && copy_to_user(&a->p->mm, u, zero, 18 * sys_word_size(a)) ? -EFAULT : 0;
}

long sys_wait4(const struct syscall_args *a)
{
	int pid = (int)(uint32_t)a->a[0];
	unsigned options = (unsigned)a->a[2];
	long err;

	if (options & ~(unsigned)(WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | __WALL | __WCLONE))
		return -EINVAL;
	if (pid == INT32_MIN)
		return -ESRCH;
	struct process *c = wait_zombie(a->p, pid, options, &err);
	if (!c)
		return err;
	int32_t status = c->wait_status;
	if (a->a[1] && copy_to_user(&a->p->mm, a->a[1], &status, sizeof(status)))
		return -EFAULT;
	if ((err = put_zero_rusage(a, a->a[3])))
		return err;
	int cpid = c->pid;
	proc_reap(c);
	return cpid;
}

long sys_waitpid(const struct syscall_args *a)
{
	struct syscall_args w = *a;

	w.a[3] = 0;
	return sys_wait4(&w);
}

#define CLD_EXITED 1
#define CLD_KILLED 2
#define CLD_DUMPED 3

/* waitid's siginfo for an exited child (none: all zero): si_signo, si_errno, si_code, then at
 * the union (offset 16 on 64-bit ABIs, 12 on 32-bit) si_pid, si_uid, si_status. */
static long put_waitid_info(const struct syscall_args *a, uint64_t u, const struct process *c)
{
	int32_t info[8] = { 0 };
	unsigned at = sys_word_size(a) == 8 ? 4 : 3;

	if (!u)
		return 0;
	if (c) {
		int ws = c->wait_status, sig = ws & 0x7f;
		info[0] = SIGCHLD;
		info[2] = !sig ? CLD_EXITED : (ws & 0x80) ? CLD_DUMPED : CLD_KILLED;
		info[at] = c->pid;
		info[at + 1] = (int32_t)c->uid;
		info[at + 2] = sig ? sig : (ws >> 8) & 0xff;
	}
	return copy_to_user(&a->p->mm, u, info, sizeof(info)) ? -EFAULT : 0;
}

long sys_waitid(const struct syscall_args *a)
{
	unsigned type = (unsigned)a->a[0], options = (unsigned)a->a[3];
	int id = (int)(uint32_t)a->a[1], pid;
	long err;

	if (options & ~(unsigned)(WNOHANG | WNOWAIT | WEXITED | WUNTRACED | WCONTINUED |
				  __WNOTHREAD | __WALL | __WCLONE) ||
	    !(options & (WEXITED | WUNTRACED | WCONTINUED)))
		return -EINVAL;
	if (type == P_ALL)
		pid = -1;
	else if (type == P_PID && id > 0)
		pid = id;
	else if (type == P_PGID && id >= 0)
		pid = id ? -id : 0;
	else
		return -EINVAL;
	if (!(options & WEXITED)) /* stopped and continued children: none here */
		pid = 0, options |= WNOHANG;
	struct process *c = wait_zombie(a->p, pid, options, &err);
	if (!c && err)
		return err;
	if ((err = put_waitid_info(a, a->a[2], c)) || (err = put_zero_rusage(a, a->a[4])))
		return err;
	if (c && !(options & WNOWAIT))
		proc_reap(c);
	return 0;
}

/* --- kill --------------------------------------------------------------------------------- */

/* May p signal q? Root, or the same user (Linux also lets the real uids match the saved one). */
static bool may_signal(const struct process *p, const struct process *q)
{
	return p->uid == UID_ROOT || p->uid == q->uid;
}

/* Send sig to q after the checks, with the sender in siginfo (code SI_USER for kill, SI_TKILL
 * for tkill/tgkill): 0, -EPERM. init ignores every signal it has no handler for. */
static long send_checked(struct process *p, struct process *q, int sig, int code)
{
	if (!may_signal(p, q))
		return -EPERM;
	if (sig && !q->kernel && q->state != PROC_ZOMBIE) {
		struct signal_info info = { .signo = sig, .code = code, .pid = p->pid,
					    .uid = p->uid };
		signal_send_info(q, &info);
	}
	return 0;
}

long sys_kill(const struct syscall_args *a)
{
	struct process *p = a->p;
	int pid = (int)(uint32_t)a->a[0];
	unsigned long sig = a->a[1];

	if (sig > SYS_NSIG)
		return -EINVAL;
	if (pid == INT32_MIN)
		return -ESRCH;
	if (pid > 0) {
		for (unsigned i = 0; i < NPROC; i++)
			if (proc_slot(i)->state != PROC_FREE && proc_slot(i)->pid == pid)
				return send_checked(p, proc_slot(i), (int)sig, SI_USER);
		return -ESRCH;
	}
	/* A group (0: the caller's), or -1: everyone but init and the caller. */
	int pgid = pid == 0 ? p->pgid : -pid;
	bool found = false, sent = false;
	long err = -ESRCH;
	for (unsigned i = 0; i < NPROC; i++) {
		struct process *q = proc_slot(i);
		if (q->state == PROC_FREE || q->state == PROC_ZOMBIE)
			continue;
		if (pid == -1 ? (q->pid == 1 || q == p) : q->pgid != pgid)
			continue;
		found = true;
		if (!send_checked(p, q, (int)sig, SI_USER))
			sent = true;
	}
	if (found)
		err = sent ? 0 : -EPERM;
	return err;
}

static long kill_thread(struct process *p, int tgid, int tid, unsigned long sig)
{
	if (tid <= 0 || tgid == 0 || tgid < -1)
		return -EINVAL;
	if (sig > SYS_NSIG)
		return -EINVAL;
	struct process *q = process_find(tid);
	if (!q || (tgid > 0 && tgid != tid))
		return -ESRCH;
	return send_checked(p, q, (int)sig, SI_TKILL);
}

long sys_tkill(const struct syscall_args *a)
{
	return kill_thread(a->p, -1, (int)(uint32_t)a->a[0], a->a[1]);
}

long sys_tgkill(const struct syscall_args *a)
{
	int tgid = (int)(uint32_t)a->a[0];

	if (tgid <= 0)
		return -EINVAL;
	return kill_thread(a->p, tgid, (int)(uint32_t)a->a[1], a->a[2]);
}

/* --- process groups and sessions ---------------------------------------------------------- */

long sys_setpgid(const struct syscall_args *a)
{
	struct process *p = a->p;
	int pid = (int)(uint32_t)a->a[0], pgid = (int)(uint32_t)a->a[1];

	if (pgid < 0)
		return -EINVAL;
	struct process *q = pid == 0 || pid == p->pid ? p : process_find(pid);
	if (!q || (q != p && q->parent != p))
		return -ESRCH;
	if (q->sid != p->sid)
		return -EPERM;
	if (q->sid == q->pid) /* a session leader */
		return -EPERM;
	if (pgid == 0)
		pgid = q->pid;
	if (pgid != q->pid) {
		bool exists = false;
		for (unsigned i = 0; i < NPROC; i++)
			exists |= proc_slot(i)->state != PROC_FREE && proc_slot(i)->pgid == pgid &&
				  proc_slot(i)->sid == p->sid;
		if (!exists)
			return -EPERM;
	}
	q->pgid = pgid;
	return 0;
}

long sys_getpgid(const struct syscall_args *a)
{
	int pid = (int)(uint32_t)a->a[0];
	struct process *q = pid == 0 ? a->p : process_find(pid);

	return q ? q->pgid : -ESRCH;
}

long sys_getpgrp(const struct syscall_args *a)
{
	return a->p->pgid;
}

long sys_getsid(const struct syscall_args *a)
{
	int pid = (int)(uint32_t)a->a[0];
	struct process *q = pid == 0 ? a->p : process_find(pid);

	return q ? q->sid : -ESRCH;
}

/* A new session and group led by the caller; a group leader may not (its group would span
 * two sessions). */
long sys_setsid(const struct syscall_args *a)
{
	struct process *p = a->p;

	for (unsigned i = 0; i < NPROC; i++)
		if (proc_slot(i)->state != PROC_FREE && proc_slot(i)->pgid == p->pid)
			return -EPERM;
	p->pgid = p->sid = p->pid;
	return p->sid;
}

/* --- pause -------------------------------------------------------------------------------- */

/* Until a signal: -ERESTARTNOHAND, -EINTR once a handler runs, the pause goes on when none
 * does (Linux's sys_pause). */
long sys_pause(const struct syscall_args *a)
{
	while (!sched_sleep_interruptible(a->p, 0))
		;
	return -ERESTARTNOHAND;
}
