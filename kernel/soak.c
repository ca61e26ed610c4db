/* `soak [-32] N [PROG [ARGS...]]`: N exec/exit cycles of PROG (default `probe -q`) back to back,
 * then the figures `make soak` (tools/soak.py) checks: cycles, failures, elapsed time, and the
 * free-frame count before and after, which must be equal.
 *
 * The kernel has no heap, only fixed pools (frames, the VMA pool of mm/vma.c, the process's fd
 * table of kernel/fd.c, ASIDs): a leak in any of them either shows in the frame count or
 * exhausts its pool long before 100,000 cycles, and then an exec fails, which counts as a
 * failure here. */
#include <arch/cpu.h>
#include <kernel/console.h>
#include <kernel/exec.h>
#include <kernel/kernel.h>
#include <lib/parse.h>
#include <lib/string.h>
#include <mm/pmm.h>
#include <kernel/proc.h>
#include <kernel/shell.h>

#define SOAK_MAX_ARGS 8

static int soak_usage(void)
{
	printk("usage: soak [-32] N [PROG [ARGS...]]   (default PROG: probe -q)\n");
	return 2;
}

static uint64_t free_frames(void)
{
	struct pmm_stats st;

	pmm_get_stats(&st);
	return st.free;
}

/* Elapsed time as "S.mmm s" without floating point. */
static void print_elapsed(uint64_t cycles, uint64_t done)
{
	uint64_t hz = arch_cycles_hz();
	uint64_t ms = hz ? cycles * 1000 / hz : 0;

	printk("soak: elapsed %llu.%03llu s (%llu cycles/s)\n", (unsigned long long)(ms / 1000),
	       (unsigned long long)(ms % 1000),
	       (unsigned long long)(ms ? done * 1000 / ms : 0));
}

static int cmd_soak(int argc, char **argv)
{
	unsigned flags = 0;
	int i = 1;
	uint64_t n;

	if (i < argc && strcmp(argv[i], "-32") == 0) {
		if (!CONFIG_COMPAT_ENABLED) {
			printk("soak: -32: %s has no 32-bit compat path\n", CONFIG_PRESET);
			return 2;
		}
		flags |= RUN_COMPAT;
		i++;
	}
	if (i >= argc || !parse_u64_full(argv[i], 10, &n) || n == 0)
		return soak_usage();
	i++;
	char *dflt[] = { (char *)"probe", (char *)"-q", NULL };
	char **pargv = i < argc ? argv + i : dflt;
	int pargc = i < argc ? argc - i : 2;
	if (pargc > SOAK_MAX_ARGS)
		return soak_usage();
	const struct fs_file *prog = bin_lookup(pargv[0], flags & RUN_COMPAT);
	if (!prog) {
		printk("soak: %s: No such file or directory\n", pargv[0]);
		return 127;
	}

	uint64_t free_start = free_frames(), done = 0, failed = 0;
	int first_bad = 0;
	struct run_result res;
	uint64_t t0 = arch_cycles();
	while (done < n) {
		process_run(prog, pargc, pargv, flags, &res);
		done++;
		if (res.status != 0) {
			if (!failed++)
				first_bad = res.status;
		}
		if ((done & 255) == 0 && console_interrupt_pending()) {
			printk("soak: interrupted\n");
			break;
		}
	}
	uint64_t dt = arch_cycles() - t0, free_end = free_frames();

	printk("soak: %llu cycles of %s%s, %llu failed", (unsigned long long)done, pargv[0],
	       flags & RUN_COMPAT ? " (compat)" : "", (unsigned long long)failed);
	if (failed)
		printk(" (first status %d)", first_bad);
	printk("\n");
	print_elapsed(dt, done);
	printk("soak: free frames %llu at start, %llu at end\n", (unsigned long long)free_start,
	       (unsigned long long)free_end);
	bool ok = done == n && !failed && free_start == free_end;
	printk("soak: %s\n", ok ? "ok" : "FAILED");
	return ok ? 0 : 1;
}
SHELL_COMMAND(soak, "soak", "soak [-32] N [PROG [ARGS]]  N exec/exit cycles; frames before and after",
	      cmd_soak);
