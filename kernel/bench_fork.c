/* `bench fork N [-32]` (issue 17): what a fork costs. user/forkbench writes every page of a 1 MiB
 * heap, then forks N children that exit at once, waiting for each; the kernel times the whole
 * run with the guest's counter and subtracts a run with N = 0 (the exec and the heap alone).
 * Then the frames a fork's address space takes before anyone writes: `forkbench hold` writes
 * its heap and sleeps, the kernel forks its address space (mm_fork, as fork does) and counts
 * the frames that took and how many are page tables; copy-on-write should leave no data page
 * among them. (Measured from user space, the parent's and child's first stack writes after
 * fork would break sharing and count.) Beside them a fork takes the child's kernel stack and
 * process slot, as every process does. Machine line: "bench-fork: ...". */
#include <arch/cpu.h>
#include <kernel/bench.h>
#include <kernel/console.h>
#include <kernel/exec.h>
#include <kernel/kernel.h>
#include <kernel/proc.h>
#include <lib/fmt.h>
#include <lib/parse.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <lib/string.h>
#include <mm/mm.h>
#include <mm/pgtable.h>
#include <mm/pmm.h>

#define BENCH_FORK_MAX 1000000u

/* One run of forkbench with argument arg, its output kept in out; the counter's cycles. */
static uint64_t run_forkbench(const struct fs_file *prog, bool compat, const char *arg,
			      char *out, size_t size, struct run_result *res)
{
	char *argv[] = { (char *)"forkbench", (char *)arg, NULL };

	console_capture_begin(out, size - 1);
	uint64_t t0 = arch_cycles();
	process_run(prog, 2, argv, (compat ? RUN_COMPAT : 0) | RUN_QUIET_FAULTS, res);
	uint64_t dt = arch_cycles() - t0;
	long n = console_capture_end();
	out[n > 0 ? n : 0] = '\0';
	return dt;
}

static uint64_t frames_in_use(void)
{
	struct pmm_stats st;

	pmm_get_stats(&st);
	return st.used;
}

/* The frames an mm_fork of a held forkbench takes, and how many are tables (root included);
 * -1 if it could not be measured. */
static int fork_frames(const struct fs_file *prog, bool compat, uint64_t *frames,
		       uint64_t *tables)
{
	char *argv[] = { (char *)"forkbench", (char *)"hold", NULL };
	struct run_result res;

	process_run(prog, 2, argv, (compat ? RUN_COMPAT : 0) | RUN_BACKGROUND, &res);
	if (res.status < 0)
		return -1;
	int pid = res.pid, err = -1;
	struct process *p;
	/* It sleeps once its heap is written: the shell's idle wait lets it run until then. */
	while ((p = process_find(pid)) && p->state == PROC_RUNNABLE)
		sched_idle();
	if (p && p->state == PROC_SLEEPING) {
		/* The root's frames: an empty address space's (one on most, four on ARM). */
		struct mm child;
		uint64_t before = frames_in_use(), root_frames = 0;
		err = mm_init(&child, p->mm.compat, p->mm.asid);
		if (!err) {
			root_frames = frames_in_use() - before;
			mm_destroy(&child);
			before = frames_in_use();
			err = mm_fork(&child, &p->mm);
		}
		if (!err) {
			*frames = frames_in_use() - before;
			*tables = pt_table_frames(child.root, child.geo.task_size) + root_frames;
			mm_destroy(&child);
		}
	}
	if (p) {
		signal_send(p, SIGKILL);
		while ((p = process_find(pid)) && p->state != PROC_ZOMBIE)
			sched_idle();
	}
	proc_reap_orphans();
	return err ? -1 : 0;
}

int bench_fork(int argc, char **argv)
{
	static char out[256];
	uint64_t n = 0;
	bool compat = argc == 4 && strcmp(argv[3], "-32") == 0;

	if (argc < 3 || argc > 4 || (argc == 4 && !compat) || !parse_u64_full(argv[2], 10, &n) ||
	    n < 1 || n > BENCH_FORK_MAX) {
		printk("usage: bench fork N [-32]   N (1..%u) fork+exit+wait of a process with a 1 MiB "
		       "touched heap\n", BENCH_FORK_MAX);
		return 2;
	}
	const struct fs_file *prog = bin_lookup("forkbench", compat);
	if (!prog) {
		printk("bench: no %sforkbench program in /bin\n", compat ? "32-bit " : "");
		return 1;
	}
	char n_text[24];
	struct run_result res;
	uint64_t hz = arch_cycles_hz(), before = frames_in_use();
	snprintf(n_text, sizeof(n_text), "%llu", (unsigned long long)n);
	uint64_t base = run_forkbench(prog, compat, "0", out, sizeof(out), &res);
	int status = res.status;
	uint64_t total = run_forkbench(prog, compat, n_text, out, sizeof(out), &res);
	status = status ? status : res.status;
	uint64_t after = frames_in_use();
	if (status) {
		printk("bench: forkbench failed (status %d): %s\n", status, out);
		return 1;
	}
	uint64_t forks = total > base ? total - base : 1;
	uint64_t rate = (uint64_t)n * hz / forks;

	uint64_t cost = 0, tables = 0;
	if (fork_frames(prog, compat, &cost, &tables)) {
		printk("bench: the held forkbench could not be forked\n");
		return 1;
	}
	printk("bench fork: %llu fork+exit+wait of forkbench, a 1 MiB touched heap (%s)\n",
	       (unsigned long long)n, compat ? "compat" : "native");
	printk("  time       %llu us (the exec and the heap's %llu us left out)\n",
	       (unsigned long long)(forks * 1000000 / hz), (unsigned long long)(base * 1000000 / hz));
	printk("  rate       %llu forks/s\n", (unsigned long long)rate);
	printk("  fork cost  %llu frames for the address space before any write: %llu page tables "
	       "(root included), %llu data pages; and a kernel stack and process slot\n",
	       (unsigned long long)cost, (unsigned long long)tables,
	       (unsigned long long)(cost - MIN(cost, tables)));
	printk("  frames     %llu used before, %llu after\n", (unsigned long long)before,
	       (unsigned long long)after);
	printk("bench-fork: n=%llu abi=%s cycles=%llu base_cycles=%llu hz=%llu rate=%llu "
	       "fork_frames=%llu table_frames=%llu frames_before=%llu frames_after=%llu\n",
	       (unsigned long long)n, compat ? "compat" : "native", (unsigned long long)forks,
	       (unsigned long long)base, (unsigned long long)hz, (unsigned long long)rate,
	       (unsigned long long)cost, (unsigned long long)tables, (unsigned long long)before,
	       (unsigned long long)after);
	return 0;
}
