/* `bench ctrl-c [N] [-32] [syscall]` (issue 17): how long Ctrl-C takes to stop a foreground
 * program, in the guest's own time. N times, it runs user/spin in the foreground (as `run spin`
 * does) and waits for the person, or the transcript, to type Ctrl-C. Each interval starts at
 * the counter console_receive read when it took the ^C out of the UART, the first thing the
 * console's receive interrupt handler does (console_interrupt_cycles), and ends at the counter
 * read here once process_run has returned: the process got SIGINT, took the default action on
 * its way back to user mode, exited, and the shell was woken and has reaped it. So it covers the
 * whole kill and reap, and none of the time the byte waited in the UART before the interrupt was
 * taken (the guest cannot see that).
 *
 * Under QEMU's translator without -icount the counter follows the host's clock: the interval
 * includes translating code that has not run before (the first round's exit path) and any time
 * the host did not run QEMU at all. Hence several rounds and their median beside each one.
 * Machine line: "bench-ctrl-c: ...". */
#include <arch/cpu.h>
#include <kernel/bench.h>
#include <kernel/console.h>
#include <kernel/exec.h>
#include <kernel/kernel.h>
#include <kernel/proc.h>
#include <kernel/signal.h>
#include <lib/parse.h>
#include <lib/string.h>

#define ROUNDS_MAX 99

static void usage(void)
{
	printk("usage: bench ctrl-c [N] [-32] [syscall]   N (1..%d, default 1) times: spin in the\n"
	       "       foreground until you type Ctrl-C, then the time from its receive interrupt\n"
	       "       to spin reaped\n", ROUNDS_MAX);
}

static uint64_t cycles_to_us(uint64_t cycles, uint64_t hz)
{
	return cycles / hz * 1000000 + cycles % hz * 1000000 / hz;
}

static void print_ms(const char *before, uint64_t us, const char *after)
{
	printk("%s%llu.%03llu ms%s", before, (unsigned long long)(us / 1000),
	       (unsigned long long)(us % 1000), after);
}

/* One round: spin until Ctrl-C; its interval in microseconds, or -1 (said why). */
static int64_t one_round(const struct fs_file *prog, bool compat, bool syscalls, uint64_t hz)
{
	char *argv[] = { (char *)"spin", (char *)"syscall", NULL };
	uint64_t start = arch_cycles();
	struct run_result res;

	process_run(prog, syscalls ? 2 : 1, argv, RUN_FOREGROUND | (compat ? RUN_COMPAT : 0), &res);
	uint64_t reaped = arch_cycles(), taken = console_interrupt_cycles();
	/* The ^C must be one the kernel took while spin was the foreground job. */
	if (res.status != 128 + SIGINT || taken < start || taken > reaped) {
		printk("bench ctrl-c: spin ended with status %d without a Ctrl-C to measure\n",
		       res.status);
		return -1;
	}
	uint64_t us = cycles_to_us(reaped - taken, hz);
	print_ms("SIGINT: console interrupt to exit ", us, " (guest counter)\n");
	return (int64_t)us;
}

static void sort_u64(uint64_t *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint64_t t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

int bench_ctrlc(int argc, char **argv)
{
	bool compat = false, syscalls = false;
	unsigned n = 1;
	uint64_t v;

	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "-32") == 0 && CONFIG_COMPAT_ENABLED) {
			compat = true;
		} else if (strcmp(argv[i], "-32") == 0) {
			printk("bench: -32: %s has no 32-bit compat path\n", CONFIG_PRESET);
			return 2;
		} else if (strcmp(argv[i], "syscall") == 0) {
			syscalls = true;
		} else if (i == 2 && parse_u64_full(argv[i], 10, &v) && v >= 1 && v <= ROUNDS_MAX) {
			n = (unsigned)v;
		} else {
			usage();
			return 2;
		}
	}
	const struct fs_file *prog = bin_lookup("spin", compat);
	if (!prog) {
		printk("bench: spin: No such file or directory\n");
		return 127;
	}
	uint64_t hz = arch_cycles_hz(); /* x86 calibrates on the first call: not inside a round */
	uint64_t us[ROUNDS_MAX];
	for (unsigned i = 0; i < n; i++) {
		int64_t r = one_round(prog, compat, syscalls, hz);
		if (r < 0)
			return 1;
		us[i] = (uint64_t)r;
	}
	sort_u64(us, n);
	uint64_t median = n % 2 ? us[n / 2] : (us[n / 2 - 1] + us[n / 2]) / 2;
	const char *abi = compat ? "compat" : "native", *loop = syscalls ? "syscall" : "user";
	printk("bench ctrl-c: %u round%s, %s spin %s: ", n, n == 1 ? "" : "s", abi,
	       syscalls ? "calling getpid" : "without system calls");
	print_ms("min ", us[0], ", ");
	print_ms("median ", median, ", ");
	print_ms("max ", us[n - 1], "\n");
	printk("  each from the counter when the receive interrupt took the ^C out of the UART\n"
	       "  to the counter once the shell had reaped spin; %llu Hz\n", (unsigned long long)hz);
	printk("bench-ctrl-c: n=%u abi=%s loop=%s hz=%llu min_us=%llu median_us=%llu max_us=%llu\n",
	       n, abi, loop, (unsigned long long)hz, (unsigned long long)us[0],
	       (unsigned long long)median, (unsigned long long)us[n - 1]);
	return 0;
}
