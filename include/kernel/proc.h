/* Processes (issue 17): a table of NPROC, the shell is init (pid 1, a kernel task), user
 * processes run concurrently (kernel/sched.c), fork, exec, exit and wait (kernel/proc.c). `run`
 * execs an embedded program as init's child and waits for it; one exited process's address
 * space may be kept for inspection. */
#ifndef RNDBITS_PROC_H
#define RNDBITS_PROC_H

#include <kernel/exec.h>
#include <kernel/fd.h>
#include <mm/mm.h>
#include <kernel/syscall.h>
#include <lib/types.h>
#include <arch/task.h>
#include <kernel/sched.h>

#define PROC_NAME_MAX 16

enum proc_state {
	PROC_FREE,      /* an empty slot */
	PROC_RUNNABLE,  /* running or ready to */
	PROC_SLEEPING,  /* sched_sleep*: waits for its channel, a deadline or (interruptible) a signal */
	PROC_ZOMBIE,    /* exited, waits for its parent's wait4 */
};

struct process {
	int pid;
	enum proc_state state;
	struct process *parent;  /* init (pid 1) for orphans; NULL for init */
	int pgid, sid;
	unsigned slot;           /* its index in proc_table */
	bool kernel;             /* init: no address space, never in user mode */
	struct arch_task task;   /* kernel stack, saved kernel/FP/TLS registers (asm/task.h) */
	const void *wait_chan;   /* sched_sleep's channel while PROC_SLEEPING */
	uint64_t wake_at;        /* jiffies deadline of the sleep, 0: none */
	bool interruptible;      /* the sleep ends for a signal */
	int wait_status;         /* Linux's: exit code << 8, or the signal (| 0x80 core) */
	bool keep;               /* RUN_KEEP: the address space outlives exit, for `run -k` */
	bool no_randomize;       /* RUN_NO_RANDOMIZE, inherited by fork and exec */
	bool record_exit;        /* process_run's: the exit values below are wanted */
	uint64_t exit_largest_gap;
	unsigned uid;      /* who ran it: the shell's user at exec */
	char name[PROC_NAME_MAX];
	const struct fs_file *exe; /* the file it was exec'd from (/proc/PID/exe) */
	struct mm mm;
	struct fd_table files; /* empty at exec, closed at exit */
	struct sys_state sys;  /* system-call state (include/kernel/syscall.h) */
	int status;        /* wait status: exit code, or 128 + signal */
	bool in_use;
	bool quiet_faults; /* RUN_QUIET_FAULTS */
	bool foreground;   /* RUN_FOREGROUND */
};

enum run_flags {
	RUN_NO_RANDOMIZE = 1u << 0, /* ADDR_NO_RANDOMIZE, like `setarch -R` */
	RUN_COMPAT = 1u << 1,       /* the 32-bit image on the compat path */
	RUN_KEEP = 1u << 2,         /* keep the address space after exit (`run -k`) */
	RUN_QUIET_FAULTS = 1u << 4, /* no segfault line (an attack's expected misses) */
	RUN_FOREGROUND = 1u << 5,   /* `run`'s program: Ctrl-C ends it (SIGINT); the programs
				     * a long command runs leave Ctrl-C to that command */
	RUN_BACKGROUND = 1u << 6,   /* `run ... &`: do not wait (res->pid is the job) */
	RUN_WORST_CASE = 1u << 3,   /* the largest random offsets instead of drawn ones, for the
				     * worst-case layout `aslr tradeoff` measures */
};

/* What a run left behind, for the shell and in-guest checks. */
struct run_result {
	int pid;
	int status;          /* -errno if exec failed, else the wait status */
	uint64_t mmap_base;
	uint64_t special_below_base; /* bytes of [vvar]/[vdso]/[sigpage] exec put right below it */
	uint64_t stack_top;  /* randomize_stack_top's value (page aligned) */
	uint64_t start_stack; /* the initial sp: below the page too (arch_align_stack) */
	uint64_t start_brk;
	uint64_t brk_base;   /* start_brk before its randomization */
	uint64_t load_bias;
	struct mmap_range range;
	uint64_t largest_gap;  /* largest hint-less mmap the exited process could still have got */
	struct exec_record exec; /* the layout right after exec (kernel/exec_record.c) */
};

/* Exec prog with argv (argv[0] is the program name) and run it to completion. */
void process_run(const struct fs_file *prog, int argc, char **argv, unsigned flags,
		 struct run_result *res);

/* The process table and the running task (init when the shell runs). */
extern struct process *proc_table[NPROC]; /* NULL: a free slot (processes are allocated) */
extern struct process *current_proc;
#define init_proc (proc_table[0])

/* Slot i's process, or a stand-in whose state is PROC_FREE, for loops over the table. */
extern const struct process proc_free_slot;
static inline struct process *proc_slot(unsigned i)
{
	return proc_table[i] ? proc_table[i] : (struct process *)&proc_free_slot;
}

/* Make the boot context init (pid 1). Called once before the shell; the tick starts with the
 * first user process. */
void proc_init(void);

/* A free slot with a new pid, zeroed but for it (the caller fills it and makes it
 * PROC_RUNNABLE, or leaves it PROC_FREE); NULL when NPROC are in use. */
struct process *proc_alloc(void);
/* Give a slot back: a process that never ran, or a reaped one. */
void proc_free(struct process *p);

/* Free a zombie's slot (its address space went at exit, or to `kept` for run -k). */
void proc_reap(struct process *p);

/* Processes in the table, init and zombies included (sysinfo's procs). */
unsigned process_count(void);

/* Reap init's zombie children nobody waits for (orphans, finished background jobs). */
void proc_reap_orphans(void);

/* The console's receive interrupt (or a poll): a Ctrl-C sends SIGINT to the foreground job. */
void proc_console_interrupt(void);

/* The running process (NULL in the shell), and the kept one for `maps`, `pt`, `ps`. */
struct process *current_process(void);
struct process *kept_process(int pid);

/* May user uid see and touch p (maps, kill, pt check)? Root may; others only their own
 * processes, as Linux's ptrace access check (PTRACE_MODE_READ) decides for /proc/PID/maps. */
bool may_inspect_process(const struct process *p, unsigned uid);

/* Build the address space of prog in mm: layout, ELF segments, stack with argv, brk. 0, or
 * -ENOEXEC for a malformed image, -ENOMEM. (kernel/exec.c) */
int exec_image(struct mm *mm, const struct fs_file *prog, int argc, char **argv,
	       bool randomize, bool worst_case);
/* The same with the environment envp (NULL-terminated; NULL: exec's default one), for execve. */
int exec_image_env(struct mm *mm, const struct fs_file *prog, int argc, char **argv,
		   const char *const *envp, bool randomize, bool worst_case);

/* The layout half of exec alone, for a task of prog's kind (no tables, no image): what
 * `aslr sample --layout-only` draws from. brk_base is where the image ended. */
void exec_layout_only(bool compat, bool randomize, uint64_t brk_base, struct run_result *res);

#endif
