/* System calls: one handler per call, shared by every ABI. Each ABI's numbers are Linux's, in
 * its asm/unistd*.h; a table per ABI (arch/<isa>/syscall_table*.c, filled from the one list in
 * include/kernel/syscall_list.h) maps them to the handlers, and kernel/syscall.c dispatches. */
#ifndef RNDBITS_SYSCALL_H
#define RNDBITS_SYSCALL_H

#include <lib/types.h>

struct process;
struct trap_frame;

/* What a handler gets: the calling process, its ABI, and its six argument registers (a 32-bit
 * task's zero-extended to 64 bits). It returns the result or -errno. */
struct syscall_args {
	struct process *p;
	bool compat;     /* a 32-bit task on a 64-bit kernel */
	uint64_t a[6];
	struct trap_frame *frame; /* the caller's saved registers (sigreturn restores them) */
};

typedef long (*syscall_fn)(const struct syscall_args *);

/* One slot of an ABI's table: the call's name (for the "not implemented" line) and its
 * handler; a NULL handler is a call the kernel knows by name but does not serve (-ENOSYS). */
struct syscall_entry {
	const char *name;
	syscall_fn fn;
};

/* An ABI: its table indexed by number, and (ARM) the private calls from private_base. */
struct syscall_table {
	const char *abi;                      /* "aarch64", "eabi", "i386", "x86_64" */
	const struct syscall_entry *entries;
	unsigned long size;
	const struct syscall_entry *private_entries;
	unsigned long private_base, private_size;
	const char *uts_machine;              /* uname's machine on a kernel of this native ABI */
	unsigned clone_child_tid_arg;         /* clone's child_tid argument: 0 means the 5th (4),
					       * x86_64 sets 3 (its tls and child_tid swap) */
};

/* The table of the calling task's ABI: the native one, or (compat) the 32-bit one. Every arch
 * implements it beside its tables. */
const struct syscall_table *arch_syscall_table(bool compat);

/* Per-process system-call state (struct process's `sys`), zeroed when the process starts
 * (sys_state_init). */
#define SYS_NSIG 64
#define SYS_RLIMITS 16
#define SYS_SEEN_WORDS 9 /* 512 numbers, arm's 8 private ones, one bit for all others */
struct sys_sigaction {
	uint64_t handler, flags, restorer, mask;
};
/* A pending signal's siginfo (kernel/signal.c): who sent it, or the fault. */
struct sys_siginfo {
	int code, pid;
	unsigned uid;
	bool fault;
	uint64_t addr, syndrome;
	unsigned trapno;
};
struct sys_rlimit {
	uint64_t cur, max;
};
struct sys_state {
	uint64_t enosys_seen[SYS_SEEN_WORDS];  /* numbers already reported not implemented */
	uint64_t clear_child_tid;               /* set_tid_address */
	uint64_t robust_list, robust_len;       /* set_robust_list */
	uint64_t sigmask;                       /* rt_sigprocmask */
	struct sys_sigaction act[SYS_NSIG];     /* rt_sigaction, index signal - 1 */
	uint64_t ss_sp, ss_size;                /* sigaltstack */
	int ss_flags;
	uint64_t sigpending;                    /* signals sent, not yet taken (bit sig - 1) */
	struct sys_siginfo siginfo[SYS_NSIG];   /* what each pending signal's siginfo says */
	uint64_t saved_sigmask;                 /* rt_sigsuspend's mask to put back */
	bool restore_sigmask;                   /* ... once a handler's frame holds it */
	long restart_ret;                       /* the -ERESTART* the last call returned, or 0 */
	bool sigreturned;                       /* its result is a restored register: no restart */
	bool rlimit_set[SYS_RLIMITS];           /* setrlimit: rlim[] holds the value */
	struct sys_rlimit rlim[SYS_RLIMITS];
	int pdeath_signal;                      /* prctl(PR_SET_PDEATHSIG) */
	bool not_dumpable;                      /* prctl(PR_SET_DUMPABLE, 0) */
};

/* The non-file calls (kernel/sys_*.c). */
long sys_exit(const struct syscall_args *);
long sys_exit_group(const struct syscall_args *);
long sys_getpid(const struct syscall_args *);
long sys_getppid(const struct syscall_args *);
long sys_gettid(const struct syscall_args *);
long sys_getuid(const struct syscall_args *);   /* also geteuid, and the *32 variants */
long sys_getgid(const struct syscall_args *);   /* also getegid, and the *32 variants */
long sys_uname(const struct syscall_args *);
long sys_set_tid_address(const struct syscall_args *);
long sys_set_robust_list(const struct syscall_args *);
long sys_rseq(const struct syscall_args *);
long sys_prlimit64(const struct syscall_args *);
long sys_getrlimit(const struct syscall_args *); /* getrlimit and ugetrlimit */
long sys_setrlimit(const struct syscall_args *);
long sys_getrandom(const struct syscall_args *);
long sys_sysinfo(const struct syscall_args *);
long sys_kill(const struct syscall_args *);
long sys_tgkill(const struct syscall_args *);
long sys_tkill(const struct syscall_args *);
long sys_fork(const struct syscall_args *);
long sys_vfork(const struct syscall_args *);
long sys_clone(const struct syscall_args *);
long sys_execve(const struct syscall_args *);
long sys_wait4(const struct syscall_args *);
long sys_waitpid(const struct syscall_args *);
long sys_waitid(const struct syscall_args *);
long sys_setpgid(const struct syscall_args *);
long sys_getpgid(const struct syscall_args *);
long sys_getpgrp(const struct syscall_args *);
long sys_getsid(const struct syscall_args *);
long sys_setsid(const struct syscall_args *);
long sys_pause(const struct syscall_args *);
long sys_sched_yield(const struct syscall_args *);
long sys_sched_getaffinity(const struct syscall_args *);
long sys_prctl(const struct syscall_args *);
/* Nanoseconds since boot on the free-running counter every clock counts from (kernel/sys_time.c):
 * timeouts measure on it, as the user's clock_gettime does. */
uint64_t time_now_ns(void);
/* A timespec at uaddr (the task's width, or 64-bit fields with time64) in nanoseconds: -EFAULT,
 * or -EINVAL unless 0 <= tv_nsec < 1e9 and tv_sec >= 0. */
long get_timespec_ns(const struct syscall_args *a, uint64_t uaddr, bool time64, uint64_t *ns);
/* The jiffy by which time_now_ns() has passed deadline_ns (a tick late at most): a sleep's
 * deadline. */
uint64_t time_jiffy_after(uint64_t deadline_ns);
long sys_clock_gettime(const struct syscall_args *);   /* the task's own timespec */
long sys_clock_gettime64(const struct syscall_args *); /* 64-bit timespec on 32-bit ABIs */
long sys_clock_getres(const struct syscall_args *);
long sys_clock_getres64(const struct syscall_args *);
long sys_gettimeofday(const struct syscall_args *);
long sys_time(const struct syscall_args *);
long sys_nanosleep(const struct syscall_args *);
long sys_clock_nanosleep(const struct syscall_args *);
long sys_clock_nanosleep64(const struct syscall_args *);
long sys_futex(const struct syscall_args *);
long sys_futex64(const struct syscall_args *);
long sys_rt_sigaction(const struct syscall_args *);
long sys_rt_sigprocmask(const struct syscall_args *);
long sys_sigaltstack(const struct syscall_args *);
long sys_rt_sigreturn(const struct syscall_args *);
long sys_sigreturn(const struct syscall_args *);   /* i386, ARM EABI and their compat */
long sys_rt_sigpending(const struct syscall_args *);
long sys_rt_sigsuspend(const struct syscall_args *);
long sys_rt_sigtimedwait(const struct syscall_args *);
long sys_rt_sigtimedwait_time64(const struct syscall_args *);
long sys_brk(const struct syscall_args *);
long sys_mmap(const struct syscall_args *);     /* offset in bytes */
long sys_mmap2(const struct syscall_args *);    /* offset in 4096-byte units */
long sys_munmap(const struct syscall_args *);
long sys_mprotect(const struct syscall_args *);
long sys_madvise(const struct syscall_args *);

/* The thread-pointer calls, per ISA (arch/<isa>/tls.c). */
long sys_arch_prctl(const struct syscall_args *);    /* x86_64 */
long sys_set_thread_area(const struct syscall_args *); /* i386 and ia32 */
long sys_get_thread_area(const struct syscall_args *);
long sys_arm_set_tls(const struct syscall_args *);   /* ARM EABI private 0xf0005 */
long sys_arm_get_tls(const struct syscall_args *);
/* Clear thread-pointer state a previous process left in tables the kernel shares (x86's GDT
 * TLS slots); called when a process starts. Registers are zeroed at user entry. */
void arch_tls_reset(void);

/* A new process's system-call state: nothing recorded, no ENOSYS reported yet, and no thread
 * pointer left in the kernel's shared tables by the previous one (arch_tls_reset). Called by
 * process_run before the program's first instruction. */
void sys_state_init(struct process *p);

/* The word size of the calling task's ABI (4 or 8): where Linux's structs hold a long. */
static inline unsigned sys_word_size(const struct syscall_args *a)
{
	return a->compat || sizeof(long) == 4 ? 4 : 8;
}

/* The file calls (kernel/fs_syscalls.c): Linux's semantics and errors over the file namespace.
 * The stat family writes the calling ABI's own struct layout (asm/stat.h). */
long sys_read(const struct syscall_args *);
long sys_write(const struct syscall_args *);
long sys_readv(const struct syscall_args *);
long sys_writev(const struct syscall_args *);
long sys_open(const struct syscall_args *);
long sys_openat(const struct syscall_args *);
long sys_close(const struct syscall_args *);
long sys_sendfile(const struct syscall_args *);   /* off_t offset: 32 bits on 32-bit ABIs */
long sys_sendfile64(const struct syscall_args *); /* loff_t offset */
long sys_lseek(const struct syscall_args *);
long sys_llseek(const struct syscall_args *);     /* _llseek of the 32-bit ABIs */
long sys_newfstat(const struct syscall_args *);   /* fstat of the 64-bit ABIs */
long sys_newstat(const struct syscall_args *);    /* stat (x86_64) */
long sys_newlstat(const struct syscall_args *);   /* lstat (x86_64) */
long sys_newfstatat(const struct syscall_args *); /* newfstatat / fstatat (64-bit ABIs) */
long sys_fstat64(const struct syscall_args *);    /* 32-bit ABIs */
long sys_stat64(const struct syscall_args *);
long sys_lstat64(const struct syscall_args *);
long sys_fstatat64(const struct syscall_args *);
long sys_statx(const struct syscall_args *);
long sys_ioctl(const struct syscall_args *);
long sys_fcntl(const struct syscall_args *);      /* fcntl and fcntl64 */
long sys_dup(const struct syscall_args *);
long sys_dup2(const struct syscall_args *);
long sys_dup3(const struct syscall_args *);
long sys_pipe(const struct syscall_args *);       /* pipe and pipe2: kernel/pipe.c */
long sys_pipe2(const struct syscall_args *);
long sys_getdents64(const struct syscall_args *);
long sys_getcwd(const struct syscall_args *);
long sys_chdir(const struct syscall_args *);
long sys_readlink(const struct syscall_args *);
long sys_readlinkat(const struct syscall_args *);
long sys_access(const struct syscall_args *);
long sys_faccessat(const struct syscall_args *);  /* faccessat and faccessat2 */

/* Waiting for descriptors (kernel/poll.c). select is x86_64's and the 32-bit ABIs'
 * _newselect; i386's select (82) is the old one, its arguments in a block in memory. */
long sys_poll(const struct syscall_args *);
long sys_ppoll(const struct syscall_args *);         /* the task's timespec */
long sys_ppoll_time64(const struct syscall_args *);  /* 64-bit timespec on 32-bit ABIs */
long sys_select(const struct syscall_args *);
long sys_old_select(const struct syscall_args *);
long sys_pselect6(const struct syscall_args *);
long sys_pselect6_time64(const struct syscall_args *);

/* The archive file open on descriptor fd of p, for an mmap of it with prot and flags, or NULL
 * with *err set to Linux's errno for mmap: -EBADF (not open), -EINVAL (no mapping type),
 * -EACCES (not open for reading, or a shared writable mapping of a file not open for writing),
 * -ENODEV (a file without mmap: the console, /dev/null, a pipe, a directory, /proc). */
struct fs_file;
const struct fs_file *fd_mmap_file(struct process *p, long fd, unsigned long prot,
				   unsigned long flags, long *err);

#endif
