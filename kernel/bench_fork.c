/* `bench fork N [-32]` (issue 17): what a fork costs. user/forkbench writes every page of a 1 MiB
 * heap, then forks N children that exit at once, waiting for each; the kernel times the whole
 * run with the guest's counter and subtracts a run with N = 0 (the exec and the heap alone).
 * Then `forkbench cost` reports the frames one fork takes before anyone writes (copy-on-write:
 * the page tables, the child's kernel stack and process slot, no data page), and the kernel
 * adds how many of them are page tables, from the process's own tables at its exit (a fork
 * copies the parent's table tree). Machine line: "bench-fork: ...". */
#include <arch/cpu.h>
#include <kernel/bench.h>
#include <kernel/console.h>
#include <kernel/exec.h>
#include <kernel/kernel.h>
#include <kernel/proc.h>
#include <lib/fmt.h>
#include <lib/parse.h>
#include <lib/string.h>
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

	uint64_t cost = 0;
	run_forkbench(prog, compat, "cost", out, sizeof(out), &res);
	const char *p = strstr(out, "fork cost ");
	if (res.status || !p || !parse_u64(p + 10, NULL, 10, &cost)) {
		printk("bench: forkbench cost failed (status %d): %s\n", res.status, out);
		return 1;
	}
	uint64_t tables = res.exec.table_frames;

	printk("bench fork: %llu fork+exit+wait of forkbench, a 1 MiB touched heap (%s)\n",
	       (unsigned long long)n, compat ? "compat" : "native");
	printk("  time       %llu us (the exec and the heap's %llu us left out)\n",
	       (unsigned long long)(forks * 1000000 / hz), (unsigned long long)(base * 1000000 / hz));
	printk("  rate       %llu forks/s\n", (unsigned long long)rate);
	printk("  fork cost  %llu frames before any write: %llu page tables below the root, %llu for "
	       "the root, the kernel stack and the process\n", (unsigned long long)cost,
	       (unsigned long long)tables, (unsigned long long)(cost > tables ? cost - tables : 0));
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
