/* `bench`: how fast the kernel does what it is run for, timed with the guest's own counter
 * (arch_cycles at arch_cycles_hz), so that the figures do not include the harness or the UART.
 * tools/bench.py reads the machine lines ("bench-exec: ...", "bench-layout: ...") into
 * docs/benchmarks.md. */
#include <arch/cpu.h>
#include <kernel/bench.h>
#include <kernel/console.h>
#include <kernel/kernel.h>
#include <mm/layout.h>
#include <lib/parse.h>
#include <lib/string.h>
#include <mm/pmm.h>
#include <kernel/proc.h>
#include <kernel/shell.h>

#define BENCH_EXEC_MAX 1000000u
#define BENCH_LAYOUT_MAX 100000000u
#define CHECK_EVERY 64 /* iterations between looks at the UART for Ctrl-C (an MMIO read) */

struct bench_opts {
	unsigned n;
	bool compat;
	const char *prog;
};

static void usage(void)
{
	printk("usage: bench exec N [-32] [PROG]   time N runs of PROG (default hello)\n"
	       "       bench layout N [-32]        time N layout-only draws (aslr sample --layout-only)\n"
	       "       bench boot                  the counter at kernel_main and at the ready line\n"
	       "       bench fork N [-32]          time N fork+exit+wait, a fork's frames\n"
	       "       bench ctrl-c [N] [-32] [syscall]  Ctrl-C to spin's exit, N times you type it\n");
}

static int parse_opts(int argc, char **argv, unsigned max, struct bench_opts *o)
{
	uint64_t n;

	o->compat = false;
	o->prog = "hello";
	if (argc < 3 || !parse_u64_full(argv[2], 10, &n) || n < 1 || n > max) {
		if (argc >= 3)
			printk("bench: N must be 1..%u\n", max);
		usage();
		return -1;
	}
	o->n = (unsigned)n;
	for (int i = 3; i < argc; i++) {
		if (strcmp(argv[i], "-32") == 0) {
			if (!CONFIG_COMPAT_ENABLED) {
				printk("bench: -32: %s has no 32-bit compat path\n", CONFIG_PRESET);
				return -1;
			}
			o->compat = true;
		} else if (argv[i][0] != '-' && i == argc - 1) {
			o->prog = argv[i];
		} else {
			usage();
			return -1;
		}
	}
	return 0;
}

/* Whole seconds and milliseconds of a cycle count, without floating point. */
static void print_duration(const char *what, uint64_t cycles, uint64_t hz)
{
	uint64_t ms = hz ? cycles * 1000 / hz : 0;

	printk("%s %llu.%03llu s\n", what, (unsigned long long)(ms / 1000),
	       (unsigned long long)(ms % 1000));
}

static uint64_t frames_used(void)
{
	struct pmm_stats st;

	pmm_get_stats(&st);
	return st.used;
}

/* One run with its output captured and dropped: the UART would otherwise dominate. */
static int run_quietly(const struct fs_file *prog, bool compat, struct run_result *res)
{
	static char out[512];
	char *argv[] = { (char *)prog->name, NULL };

	console_capture_begin(out, sizeof(out));
	process_run(prog, 1, argv, (compat ? RUN_COMPAT : 0) | RUN_QUIET_FAULTS, res);
	console_capture_end();
	return res->status;
}

static int bench_exec(const struct bench_opts *o)
{
	const struct fs_file *prog = bin_lookup(o->prog, o->compat);
	struct run_result res;
	unsigned done = 0;
	bool interrupted = false;

	if (!prog) {
		printk("bench: %s: No such file or directory\n", o->prog);
		return 127;
	}
	uint64_t before = frames_used();
	pmm_reset_peak();
	uint64_t t0 = arch_cycles();
	while (done < o->n) {
		if (run_quietly(prog, o->compat, &res) != 0) {
			printk("bench: %s failed (status %d) at run %u\n", o->prog, res.status, done);
			break;
		}
		done++;
		if (done % CHECK_EVERY == 0 && console_interrupt_pending()) {
			interrupted = true;
			break;
		}
	}
	uint64_t dt = arch_cycles() - t0, hz = arch_cycles_hz();
	struct pmm_stats st;
	pmm_get_stats(&st);
	uint64_t rate = dt ? (uint64_t)done * hz / dt : 0;
	uint64_t per = done ? dt / done : 0;

	if (interrupted)
		printk("bench: interrupted after %u of %u runs\n", done, o->n);
	printk("bench exec: %u runs of %s (%s)\n", done, o->prog, o->compat ? "compat" : "native");
	print_duration("  time     ", dt, hz);
	printk("  rate      %llu execs/s\n", (unsigned long long)rate);
	printk("  per exec  %llu cycles of a %llu Hz counter\n", (unsigned long long)per,
	       (unsigned long long)hz);
	printk("  frames    %llu used before, %llu at the peak, %llu after\n",
	       (unsigned long long)before, (unsigned long long)st.peak_used,
	       (unsigned long long)st.used);
	printk("bench-exec: n=%u prog=%s abi=%s cycles=%llu hz=%llu rate=%llu cycles_per_exec=%llu "
	       "frames_before=%llu frames_peak=%llu frames_after=%llu\n",
	       done, o->prog, o->compat ? "compat" : "native", (unsigned long long)dt,
	       (unsigned long long)hz, (unsigned long long)rate, (unsigned long long)per,
	       (unsigned long long)before, (unsigned long long)st.peak_used,
	       (unsigned long long)st.used);
	return interrupted ? 130 : done == o->n ? 0 : 1;
}

static int bench_layout(const struct bench_opts *o)
{
	const struct fs_file *prog = bin_lookup(o->prog, o->compat);
	struct run_result res;
	unsigned done = 0;
	bool interrupted = false;

	/* brk starts where the image ends: take that from one real exec, as aslr sample does. */
	if (!prog || run_quietly(prog, o->compat, &res) != 0) {
		printk("bench: %s failed to run\n", o->prog);
		return 1;
	}
	uint64_t brk_base = res.brk_base;
	bool randomize = randomize_va_space != 0;
	uint64_t t0 = arch_cycles();
	while (done < o->n) {
		exec_layout_only(o->compat, randomize, brk_base, &res);
		done++;
		if (done % (CHECK_EVERY * 64) == 0 && console_interrupt_pending()) {
			interrupted = true;
			break;
		}
	}
	uint64_t dt = arch_cycles() - t0, hz = arch_cycles_hz();
	uint64_t rate = dt ? (uint64_t)done * hz / dt : 0;

	if (interrupted)
		printk("bench: interrupted after %u of %u draws\n", done, o->n);
	printk("bench layout: %u layout-only draws (%s)\n", done, o->compat ? "compat" : "native");
	print_duration("  time     ", dt, hz);
	printk("  rate      %llu draws/s\n", (unsigned long long)rate);
	printk("bench-layout: n=%u abi=%s cycles=%llu hz=%llu rate=%llu\n", done,
	       o->compat ? "compat" : "native", (unsigned long long)dt, (unsigned long long)hz,
	       (unsigned long long)rate);
	return interrupted ? 130 : 0;
}

static uint64_t cycles_to_us(uint64_t cycles, uint64_t hz)
{
	return cycles / hz * 1000000 + cycles % hz * 1000000 / hz;
}

/* The counter starts with the machine (on QEMU: at machine start, before the firmware on x86),
 * so these are the boot's own cost as the guest sees it, without QEMU's start-up. */
static int bench_boot(void)
{
	const struct boot_times *t = kernel_boot_times();
	uint64_t hz = arch_cycles_hz();

	printk("bench boot: kernel_main at %llu us, ready at %llu us, counter at %llu Hz\n",
	       (unsigned long long)cycles_to_us(t->main_cycles, hz),
	       (unsigned long long)cycles_to_us(t->ready_cycles, hz), (unsigned long long)hz);
	printk("bench-boot: main_cycles=%llu ready_cycles=%llu hz=%llu\n",
	       (unsigned long long)t->main_cycles, (unsigned long long)t->ready_cycles,
	       (unsigned long long)hz);
	return 0;
}

static int cmd_bench(int argc, char **argv)
{
	struct bench_opts o;

	if (argc >= 2 && strcmp(argv[1], "exec") == 0) {
		if (parse_opts(argc, argv, BENCH_EXEC_MAX, &o))
			return 2;
		return bench_exec(&o);
	}
	if (argc >= 2 && strcmp(argv[1], "layout") == 0) {
		if (parse_opts(argc, argv, BENCH_LAYOUT_MAX, &o))
			return 2;
		return bench_layout(&o);
	}
	if (argc == 2 && strcmp(argv[1], "boot") == 0)
		return bench_boot();
	if (argc >= 2 && strcmp(argv[1], "fork") == 0)
		return bench_fork(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "ctrl-c") == 0)
		return bench_ctrlc(argc, argv);
	usage();
	return 2;
}
SHELL_COMMAND(bench, "bench", "bench exec|layout|fork N [-32] [PROG] | boot | ctrl-c  time runs, draws, the boot or Ctrl-C with the guest's counter",
	      cmd_bench);
