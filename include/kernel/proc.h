/* Processes: exec an embedded program into a fresh address space, run it to completion (the
 * shell waits), and optionally keep its address space for inspection (kernel/proc.c). */
#ifndef RNDBITS_PROC_H
#define RNDBITS_PROC_H

#include <kernel/exec.h>
#include <kernel/fd.h>
#include <mm/mm.h>
#include <kernel/syscall.h>
#include <lib/types.h>

#define PROC_NAME_MAX 16

struct process {
	int pid;
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

/* The layout half of exec alone, for a task of prog's kind (no tables, no image): what
 * `aslr sample --layout-only` draws from. brk_base is where the image ended. */
void exec_layout_only(bool compat, bool randomize, uint64_t brk_base, struct run_result *res);

#endif
