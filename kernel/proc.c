/* Processes: `run`, `ps`, `kill`, `maps`, and what happens when user code faults. One process
 * runs at a time and the shell waits for it; one exited process may be kept for inspection. */
#include <arch/cpu.h>
#include <arch/memory.h>
#include <arch/mmu.h>
#include <arch/trap.h>
#include <kernel/aslr.h>
#include <kernel/console.h>
#include <kernel/cred.h>
#include <kernel/kernel.h>
#include <mm/layout.h>
#include <lib/errno.h>
#include <lib/fmt.h>
#include <lib/string.h>
#include <mm/mm.h>
#include <mm/pgtable.h>
#include <kernel/proc.h>
#include <kernel/signal.h>
#include <kernel/sched.h>
#include <kernel/syscall.h>
#include <kernel/shell.h>
#include <kernel/trap.h>
#include <kernel/vdso.h>

#define SIGINT 2
#define SIGILL 4
#define SIGTRAP 5
#define SIGBUS 7
#define SIGKILL 9
#define SIGSEGV 11

static struct process running, kept;
static struct process *current;
/* Linux's default pid_max; numbering wraps past it to 300, above the pids daemons take first. */
#define PID_MAX 32768
#define PID_WRAP_TO 300
static int next_pid = 1;

struct process *current_process(void)
{
	return current;
}

struct process *kept_process(int pid)
{
	return kept.in_use && (pid == 0 || pid == kept.pid) ? &kept : NULL;
}

bool may_inspect_process(const struct process *p, unsigned uid)
{
	return uid == UID_ROOT || uid == p->uid;
}

static void drop_kept(void)
{
	if (!kept.in_use)
		return;
	pt_compare_remember(&kept); /* `pt walk --compare` holds the next kept one against it */
	mm_destroy(&kept.mm);
	kept.in_use = false;
}

/* Every process gets the same ASID. One process runs at a time, and arch_switch_user_root
 * drops a process's TLB entries when it leaves (a flush by ASID), so distinct ASIDs would buy
 * nothing; and an ASID change costs QEMU a flush of its whole TLB (arm, arm64). 0 stays the
 * kernel's. */
static unsigned asid_for(int pid)
{
	(void)pid;
	return 1;
}

void process_run(const struct fs_file *prog, int argc, char **argv, unsigned flags,
		 struct run_result *res)
{
	struct process *p = &running;
	bool randomize = randomize_va_space != 0 && !(flags & RUN_NO_RANDOMIZE);

	memset(res, 0, sizeof(*res));
	if (flags & RUN_KEEP)
		drop_kept();
	p->pid = res->pid = next_pid;
	next_pid = next_pid >= PID_MAX - 1 ? PID_WRAP_TO : next_pid + 1;
	p->uid = current_uid();
	fd_table_init(&p->files);
	strlcpy(p->name, prog->name, sizeof(p->name));
	p->exe = prog;
	sys_state_init(p);
	p->quiet_faults = flags & RUN_QUIET_FAULTS;
	p->foreground = flags & RUN_FOREGROUND;
	/* The ELF decides the ABI, as on Linux (RUN_COMPAT only chose /bin32 to find it in). */
	int abi = exec_image_abi(prog);
	if (abi < 0) {
		res->status = abi;
		return;
	}
	int err = mm_init(&p->mm, abi == 1, asid_for(p->pid));
	if (!err)
		err = exec_image(&p->mm, prog, argc, argv, randomize, flags & RUN_WORST_CASE);
	res->mmap_base = p->mm.mmap_base;
	res->special_below_base = special_mappings_below(&p->mm, p->mm.mmap_base);
	res->stack_top = p->mm.stack_top;
	res->start_stack = p->mm.start_stack;
	res->start_brk = p->mm.start_brk;
	res->brk_base = p->mm.brk_base;
	res->load_bias = p->mm.load_bias;
	res->range = p->mm.range;
	if (err) {
		mm_destroy(&p->mm);
		res->status = err;
		return;
	}
	exec_record_take(&p->mm, &res->exec);
	p->in_use = true;
	current = p;
	arch_switch_user_root(p->mm.root, p->mm.asid);
	p->status = (int)arch_user_run((uintptr_t)p->mm.entry, (uintptr_t)p->mm.start_stack,
				       p->mm.compat);
	arch_switch_user_root(0, 0);
	fd_table_release(&p->files); /* exit closes every descriptor, also a kept process's */
	current = NULL;
	res->status = p->status;
	res->largest_gap = largest_unmapped_area(&p->mm);
	res->exec.table_frames = pt_table_frames(p->mm.root, p->mm.geo.task_size);
	if (flags & RUN_KEEP) {
		kept = *p;
	} else {
		mm_destroy(&p->mm);
	}
	p->in_use = false;
}

/* Until the scheduler of issue 17 lands: one process runs at a time, so ending it is leaving
 * user mode with the shell's status (exit code, or 128 + the signal). */
__noreturn void process_exit(int wait_status)
{
	int sig = wait_status & 0x7f;

	arch_user_exit(sig ? 128 + sig : (wait_status >> 8) & 0xff);
}

/* The ^C is what a terminal echoes for the interrupt character; the shell then reports the
 * status like any other death by signal. A program a long command runs (bench, aslr attack)
 * ends by itself: the command sees the Ctrl-C when it polls, and stops. */
void user_console_input(void)
{
	if (!current)
		panic("console input for a user task with no current process");
	if (!current->foreground) {
		console_receive();
		return;
	}
	if (console_interrupt_pending()) {
		printk("^C\n");
		arch_user_exit(128 + SIGINT);
	}
}

static void report_status(const char *name, int status)
{
	if (status == -ENOEXEC)
		printk("exec: %s: Exec format error\n", name);
	else if (status < 0)
		printk("exec: %s: %s\n", name, strerror(-status));
	else if (status > 128)
		printk("run: %s: killed by %s (status %d)\n", name, signal_name(status - 128), status);
	else if (status)
		printk("run: %s: exit status %d\n", name, status);
}

static void run_usage(void)
{
	printk("usage: run [-R] [-32] [-k] PROG|PATH [ARGS...]\n");
}

static int cmd_run(int argc, char **argv)
{
	unsigned flags = RUN_FOREGROUND;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "-R") == 0)
			flags |= RUN_NO_RANDOMIZE;
		else if (strcmp(argv[i], "-32") == 0)
			flags |= RUN_COMPAT;
		else if (strcmp(argv[i], "-k") == 0)
			flags |= RUN_KEEP;
		else {
			printk("run: invalid option '%s'\n", argv[i]);
			run_usage();
			return 2;
		}
	}
	if (i == argc) {
		run_usage();
		return 2;
	}
#ifndef CONFIG_COMPAT
	if (flags & RUN_COMPAT) {
		printk("run: -32: %s has no 32-bit compat path\n", CONFIG_PRESET);
		return 2;
	}
#endif
	const struct fs_file *prog;
	int err = exec_lookup(argv[i], flags & RUN_COMPAT, &prog);
	if (err) {
		/* A shell's statuses: 127 for a command not found, 126 for one it cannot run. */
		printk("run: %s: %s\n", argv[i], strerror(-err));
		return err == -ENOENT ? 127 : 126;
	}
	/* One process can be kept: replacing another user's would be killing it. */
	struct process *k = kept_process(0);
	if ((flags & RUN_KEEP) && k && !may_inspect_process(k, current_uid())) {
		printk("run: -k: cannot replace kept process %d: Operation not permitted\n", k->pid);
		return 1;
	}
	struct run_result res;
	process_run(prog, argc - i, argv + i, flags, &res);
	report_status(prog->name, res.status);
	return res.status < 0 ? 126 : res.status;
}
SHELL_COMMAND(run, "run", "run [-R] [-32] [-k] PROG [ARGS]  exec /bin/PROG or a path (-R no ASLR, -32 /bin32, -k keep)",
	      cmd_run);

static int parse_pid(int argc, char **argv, int *pid)
{
	*pid = 0;
	if (argc < 2)
		return 0;
	int v = 0;
	for (const char *s = argv[1]; *s; s++) {
		if (*s < '0' || *s > '9' || v > 100000000)
			return -1;
		v = v * 10 + (*s - '0');
	}
	*pid = v;
	return 0;
}

static int cmd_ps(int argc, char **argv)
{
	printk("  PID STAT   FRAMES COMMAND\n");
	if (kept.in_use)
		printk("%5d Z    %8lu %s (exited %d, kept)\n", kept.pid, kept.mm.frames, kept.name,
		       kept.status);
	return 0;
}
SHELL_COMMAND(ps, "ps", "ps                   list processes (the one kept by run -k)", cmd_ps);

static int cmd_kill(int argc, char **argv)
{
	int pid;

	if (argc != 2 || parse_pid(argc, argv, &pid) || pid == 0) {
		printk("usage: kill PID\n");
		return 2;
	}
	struct process *p = kept_process(pid);
	if (!p) {
		printk("kill: (%d) - No such process\n", pid);
		return 1;
	}
	if (!may_inspect_process(p, current_uid())) {
		printk("kill: (%d) - Operation not permitted\n", pid);
		return 1;
	}
	drop_kept();
	return 0;
}
SHELL_COMMAND(kill, "kill", "kill PID             free a kept process's address space", cmd_kill);
