/* Processes: the table (init, pid 1, is the shell), process_run, exit and reaping, and the
 * shell's `run` (waiting for the foreground job, or `&`), `ps` and `kill`. One exited process
 * may be kept for inspection (`run -k`). */
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
#include <mm/pmm.h>
#include <mm/pgtable.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/sysctl.h>
#include <arch/task.h>
#include <asm/trap_frame.h> /* struct trap_frame: a new task's first registers */
#include <kernel/syscall.h>
#include <kernel/shell.h>
#include <kernel/trap.h>
#include <kernel/vdso.h>


struct process *proc_table[NPROC];
const struct process proc_free_slot; /* state 0: PROC_FREE */
static struct process init_process;
struct process *current_proc;
static struct process kept;
/* Pids as Linux numbers them (kernel/pid.c): up to kernel.pid_max - 1, then again from
 * RESERVED_PIDS, above the pids daemons take first. The knob has Linux's default and range:
 * RESERVED_PIDS + 1 .. PID_MAX_LIMIT (32768 on 32-bit kernels, 4 Mi on 64-bit ones). */
#define PID_MAX_DEFAULT 32768
#define RESERVED_PIDS 300
#define PID_MAX_LIMIT (sizeof(long) > 4 ? 4 * 1024 * 1024 : PID_MAX_DEFAULT)
static int pid_max = PID_MAX_DEFAULT;
SYSCTL_INT_MINMAX(pid_max, "kernel.pid_max", &pid_max, 0644, RESERVED_PIDS + 1, PID_MAX_LIMIT,
		  PID_MAX_DEFAULT);
static int next_pid = 2; /* 1 is init, the shell */
/* The process group Ctrl-C interrupts: the job `run` waits for (0: none, the shell reads). */
static int foreground_pgid;

struct process *current_process(void)
{
	return current_proc == init_proc ? NULL : current_proc;
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

/* Every process gets the same ASID. arch_switch_user_root drops a process's TLB entries when
 * it leaves (a flush by ASID), so distinct ASIDs would buy nothing; and an ASID change costs
 * QEMU a flush of its whole TLB (arm, arm64). 0 stays the kernel's. */
static unsigned asid_for(int pid)
{
	(void)pid;
	return 1;
}

void proc_init(void)
{
	struct process *p = &init_process;

	proc_table[0] = p; /* a static: zero but for what follows */
	p->pid = p->pgid = p->sid = 1;
	p->kernel = true;
	p->in_use = true;
	p->state = PROC_RUNNABLE;
	strlcpy(p->name, "init", sizeof(p->name));
	arch_task_adopt_boot(&p->task);
	current_proc = p;
	console_set_idle(sched_idle); /* the shell's wait for a key runs background jobs */
}

/* The tick starts with the first process: until then the shell alone runs, and its boot
 * translates no timer code (the boot budget, docs/benchmarks.md). */
static void start_tick_once(void)
{
	static bool started;

	if (!started) {
		started = true;
		arch_timer_start(HZ);
	}
}

static bool pid_taken(int pid)
{
	if (kept.in_use && kept.pid == pid)
		return true;
	for (unsigned i = 0; i < NPROC; i++)
		if (proc_slot(i)->state != PROC_FREE &&
		    (proc_slot(i)->pid == pid || proc_slot(i)->pgid == pid || proc_slot(i)->sid == pid))
			return true;
	return false;
}

/* The next free pid from the cursor, as Linux's idr_alloc_cyclic: a cursor at or past pid_max
 * (lowered since) starts again at RESERVED_PIDS. 0 when none is free (a pid_max that leaves
 * fewer pids above RESERVED_PIDS than there are processes). */
static int alloc_pid(void)
{
	for (int tries = 0; tries < pid_max; tries++) {
		if (next_pid >= pid_max)
			next_pid = RESERVED_PIDS;
		int pid = next_pid++;
		if (!pid_taken(pid))
			return pid;
	}
	return 0;
}

/* A struct process is some KiB (its descriptor table above all): the table holds pointers to
 * frames taken when a process starts and given back when it is reaped, not NPROC of them in
 * the image. */
static unsigned process_order(void)
{
	unsigned order = 0;

	while ((PAGE_SIZE << order) < sizeof(struct process))
		order++;
	return order;
}

/* A free slot with a new pid, zeroed but for the pid; NULL when NPROC are in use (-EAGAIN). */
struct process *proc_alloc(void)
{
	for (unsigned i = 1; i < NPROC; i++) {
		if (proc_table[i])
			continue;
		/* Only the struct is zeroed, not the rest of its frames (most of a 64 KiB page). */
		phys_addr_t pa = pmm_alloc_pages_uninit(process_order());
		if (!pa)
			return NULL;
		struct process *p = __va(pa);
		memset(p, 0, sizeof(*p));
		p->pid = alloc_pid();
		if (!p->pid) {
			pmm_free_pages(pa, process_order());
			return NULL;
		}
		start_tick_once();
		p->slot = i;
		proc_table[i] = p;
		return p;
	}
	return NULL;
}

void proc_free(struct process *p)
{
	arch_task_destroy(&p->task);
	proc_table[p->slot] = NULL;
	pmm_free_pages(__pa(p), process_order());
}

unsigned process_count(void)
{
	unsigned n = 0;

	for (unsigned i = 0; i < NPROC; i++)
		n += proc_table[i] != NULL;
	return n;
}

struct process *process_find(int pid)
{
	for (unsigned i = 0; i < NPROC; i++) {
		struct process *p = proc_slot(i);
		if (p->state != PROC_FREE && p->state != PROC_ZOMBIE && p->pid == pid)
			return p;
	}
	return NULL;
}

/* The shell's status for a wait status: the exit code, or 128 + the signal. */
static int shell_status(int wait_status)
{
	int sig = wait_status & 0x7f;

	return sig ? 128 + sig : (wait_status >> 8) & 0xff;
}

/* Take a zombie child's slot back; the kept address space (run -k) goes to `kept`. */
void proc_reap(struct process *p)
{
	if (p->keep) {
		drop_kept();
		kept = *p;
		kept.in_use = true;
		kept.state = PROC_ZOMBIE;
		kept.task = (struct arch_task){ 0 };
	}
	proc_free(p);
}

void proc_reap_orphans(void)
{
	for (unsigned i = 1; i < NPROC; i++) {
		struct process *p = proc_slot(i);
		if (p->state == PROC_ZOMBIE && p->parent == init_proc && !p->record_exit)
			proc_reap(p);
	}
}

void process_run(const struct fs_file *prog, int argc, char **argv, unsigned flags,
		 struct run_result *res)
{
	bool randomize = randomize_va_space != 0 && !(flags & RUN_NO_RANDOMIZE);

	memset(res, 0, sizeof(*res));
	proc_reap_orphans();
	/* run -k replaces the kept process: its frames come back before the new one needs any. */
	if (flags & RUN_KEEP)
		drop_kept();
	struct process *p = proc_alloc();
	if (!p) {
		res->status = -EAGAIN;
		return;
	}
	res->pid = p->pid;
	p->uid = current_uid();
	p->parent = init_proc;
	p->pgid = p->pid; /* its own job, as a job-control shell makes it */
	p->sid = init_proc->sid;
	strlcpy(p->name, prog->name, sizeof(p->name));
	p->exe = prog;
	sys_state_init(p);
	p->quiet_faults = flags & RUN_QUIET_FAULTS;
	p->foreground = (flags & RUN_FOREGROUND) && !(flags & RUN_BACKGROUND);
	p->no_randomize = flags & RUN_NO_RANDOMIZE;
	/* The ELF decides the ABI, as on Linux (RUN_COMPAT only chose /bin32 to find it in). */
	int abi = exec_image_abi(prog);
	if (abi < 0) {
		res->status = abi;
		proc_free(p);
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
	struct trap_frame frame;
	if (!err) {
		exec_record_take(&p->mm, &res->exec);
		arch_frame_init_user(&frame, (uintptr_t)p->mm.entry, (uintptr_t)p->mm.start_stack,
				     p->mm.compat);
		err = arch_task_create_user(&p->task, &frame, false);
	}
	if (err) {
		mm_destroy(&p->mm);
		res->status = err;
		proc_free(p);
		return;
	}
	fd_table_init(&p->files); /* the console on 0-2 */
	p->in_use = true;
	p->keep = flags & RUN_KEEP;
	p->record_exit = !(flags & RUN_BACKGROUND);
	p->state = PROC_RUNNABLE;
	if (flags & RUN_BACKGROUND) {
		/* The job starts now, up to its first sleep (a few slices at most: a job that
		 * computes keeps running in the background), so that what the prompt shows next
		 * does not depend on when the tick came. */
		for (int slices = 0; slices < 4 && p->state == PROC_RUNNABLE; slices++)
			schedule();
		return;
	}
	if (p->foreground) {
		foreground_pgid = p->pgid;
		/* A Ctrl-C the shell's idle wait took in with the command line is the job's. */
		proc_console_interrupt();
	}
	while (p->state != PROC_ZOMBIE) {
		sched_sleep(init_proc); /* a child's exit wakes its parent */
		proc_reap_orphans();
	}
	if (foreground_pgid == p->pgid)
		foreground_pgid = 0;
	res->status = p->status;
	res->largest_gap = p->exit_largest_gap;
	proc_reap(p);
}

/* Leave the address space: the user root off the CPU first, then its frames (unless kept). */
static void release_mm(struct process *p, bool keep)
{
	arch_switch_user_root(0, 0);
	if (!keep)
		mm_destroy(&p->mm);
}

__noreturn void process_exit(int wait_status)
{
	struct process *p = current_proc;

	if (p == init_proc)
		panic("init (the shell) exiting");
	fd_table_release(&p->files); /* exit closes every descriptor, also a kept process's */
	if (p->record_exit)
		p->exit_largest_gap = largest_unmapped_area(&p->mm);
	release_mm(p, p->keep);
	p->wait_status = wait_status;
	p->status = shell_status(wait_status);
	bool zombie_orphans = false;
	for (unsigned i = 1; i < NPROC; i++) {
		struct process *c = proc_slot(i);
		if (c->state != PROC_FREE && c->parent == p) {
			c->parent = init_proc;
			zombie_orphans |= c->state == PROC_ZOMBIE;
		}
	}
	if (zombie_orphans)
		sched_wakeup(init_proc);
	p->state = PROC_ZOMBIE;
	signal_send(p->parent, SIGCHLD);
	sched_wakeup(p->parent);
	schedule();
	panic("pid %d ran after its exit", p->pid);
}

/* The ^C is what a terminal echoes for the interrupt character; the job's processes then die
 * of SIGINT (or run their handler) and the shell reports the status like any other. Without a
 * foreground job the Ctrl-C stays for whoever polls (the shell's line reader, a long command
 * such as bench or aslr attack: the programs they run are not the foreground). */
void proc_console_interrupt(void)
{
	console_receive();
	if (!foreground_pgid || !console_interrupt_pending())
		return;
	printk("^C\n");
	for (unsigned i = 1; i < NPROC; i++) {
		struct process *p = proc_slot(i);
		if (p->state != PROC_FREE && p->state != PROC_ZOMBIE && p->pgid == foreground_pgid)
			signal_send(p, SIGINT);
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
	printk("usage: run [-R] [-32] [-k] PROG|PATH [ARGS...] [&]\n");
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
	/* A last word "&" runs the job in the background, as sh does. */
	if (argc > i && strcmp(argv[argc - 1], "&") == 0) {
		flags |= RUN_BACKGROUND;
		argc--;
	}
	if (i == argc) {
		run_usage();
		return 2;
	}
	if (!CONFIG_COMPAT_ENABLED && (flags & RUN_COMPAT)) {
		printk("run: -32: %s has no 32-bit compat path\n", CONFIG_PRESET);
		return 2;
	}
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
	if ((flags & RUN_BACKGROUND) && res.status == 0) {
		printk("[1] %d\n", res.pid);
		return 0;
	}
	report_status(prog->name, res.status);
	return res.status < 0 ? 126 : res.status;
}
SHELL_COMMAND(run, "run", "run [-R] [-32] [-k] PROG [ARGS] [&]  exec /bin/PROG or a path and wait (-R no ASLR, -32 /bin32, -k keep, & background)",
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

static char state_letter(const struct process *p)
{
	if (p->state == PROC_ZOMBIE)
		return 'Z';
	if (p == current_proc || p->state == PROC_RUNNABLE)
		return 'R';
	return 'S';
}

static const char *abi_name(const struct process *p)
{
	if (p->kernel)
		return "kernel";
	return arch_syscall_table(p->mm.compat)->abi;
}

static int cmd_ps(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printk("  PID  PPID STAT   FRAMES NAME             ABI\n");
	for (unsigned i = 0; i < NPROC; i++) {
		const struct process *p = proc_slot(i);
		if (p->state == PROC_FREE)
			continue;
		printk("%5d %5d %c    %8lu %-16s %s\n", p->pid, p->parent ? p->parent->pid : 0,
		       state_letter(p), p->kernel ? 0ul : (unsigned long)p->mm.frames, p->name,
		       abi_name(p));
	}
	if (kept.in_use)
		printk("%5d %5s Z    %8lu %-16s %s (exited %d, kept)\n", kept.pid, "-",
		       (unsigned long)kept.mm.frames, kept.name, abi_name(&kept), kept.status);
	return 0;
}
SHELL_COMMAND(ps, "ps", "ps                   list processes: PID PPID STAT FRAMES NAME ABI (and run -k's)", cmd_ps);

static void kill_usage(void)
{
	printk("usage: kill [-SIG|-s SIG] PID\n");
}

/* A signal by number or name, with or without "SIG": 0 if unknown. */
static int parse_signal(const char *s)
{
	int v = 0;

	if (*s >= '0' && *s <= '9') {
		for (; *s; s++) {
			if (*s < '0' || *s > '9' || v > 64)
				return 0;
			v = v * 10 + (*s - '0');
		}
		return v <= 64 ? v : 0;
	}
	if (strncmp(s, "SIG", 3) == 0)
		s += 3;
	for (int sig = 1; sig <= 31; sig++)
		if (strcmp(signal_name(sig), "signal") != 0 && strcmp(signal_name(sig) + 3, s) == 0)
			return sig;
	return 0;
}

static int cmd_kill(int argc, char **argv)
{
	int pid, sig = SIGTERM, i = 1;

	if (argc > 2 && strcmp(argv[1], "-s") == 0) {
		sig = parse_signal(argv[2]);
		i = 3;
	} else if (argc > 2 && argv[1][0] == '-') {
		sig = parse_signal(argv[1] + 1);
		i = 2;
	}
	if (!sig || argc != i + 1 || parse_pid(2, argv + i - 1, &pid) || pid == 0) {
		kill_usage();
		return 2;
	}
	struct process *p = process_find(pid);
	if (!p && kept_process(pid)) {
		/* The kept exited process: what is left of it is its address space. */
		if (!may_inspect_process(kept_process(pid), current_uid())) {
			printk("kill: (%d) - Operation not permitted\n", pid);
			return 1;
		}
		drop_kept();
		return 0;
	}
	if (!p || p->kernel) {
		printk("kill: (%d) - No such process\n", pid);
		return 1;
	}
	if (!may_inspect_process(p, current_uid())) {
		printk("kill: (%d) - Operation not permitted\n", pid);
		return 1;
	}
	signal_send(p, sig);
	/* Let the target act on it now (die, or run its handler), so that the next prompt's ps
	 * shows the outcome, not a race with the tick. */
	schedule();
	return 0;
}
SHELL_COMMAND(kill, "kill", "kill [-SIG|-s SIG] PID  send a signal (TERM); a kept process: free its address space", cmd_kill);
