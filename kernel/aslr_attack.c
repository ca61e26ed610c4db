/* `aslr attack` and `aslr tradeoff`: what a number of bits buys against a brute-force attacker,
 * and what it costs in address space. Both run real processes: the attack execs the victim until
 * its guess hits (--exec), or runs a fork server whose children crash on every wrong guess while
 * the layout they inherit stays put (--fork); the trade-off runs `alloc` in the worst-case
 * layout. */
#include <arch/cpu.h>
#include <arch/memory.h>
#include <kernel/aslr.h>
#include <kernel/console.h>
#include <kernel/kernel.h>
#include <mm/layout.h>
#include <lib/fmt.h>
#include <lib/parse.h>
#include <lib/string.h>
#include <lib/units.h>
#include <lib/vafields.h>
#include <arch/mmu.h>
#include <kernel/proc.h>
#include <kernel/random.h>
#include <kernel/sysctl.h>

#define TRIALS_MAX 100000

static void format_duration(char *buf, size_t n, uint64_t tenths_of_s)
{
	units_duration(buf, n, tenths_of_s);
}

/* The knob an attack or trade-off step works on: native or compat bits. */
static const struct sysctl_entry *bits_knob(bool compat)
{
	return sysctl_find(compat ? "vm.mmap_rnd_compat_bits" : "vm.mmap_rnd_bits");
}

struct attack_opts {
	bool compat;
	bool exec, fork;    /* --exec (the default), --fork; both: one after the other */
	int bits;           /* -1: the knob's current value */
	uint64_t trials, respawn_s;
};

/* A number in lo..hi; outside it, an error that says the range (-2), not a usage line. */
static int parse_u64_arg(const char *opt, const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
	if (!parse_u64_full(s, 10, out))
		return -1;
	if (*out >= lo && *out <= hi)
		return 0;
	printk("aslr: %s %s is outside %llu..%llu\n", opt, s, (unsigned long long)lo,
	       (unsigned long long)hi);
	return -2;
}

static int parse_attack_args(int argc, char **argv, struct attack_opts *o)
{
	uint64_t v;
	int r = 0;

	o->bits = -1;
	o->trials = 100;
	o->respawn_s = 5;
	for (int i = 2; i < argc && !r; i++) {
		if (strcmp(argv[i], "-32") == 0) {
			o->compat = true;
		} else if (strcmp(argv[i], "--exec") == 0) {
			o->exec = true;
		} else if (strcmp(argv[i], "--fork") == 0) {
			o->fork = true;
		} else if (strcmp(argv[i], "--bits") == 0 && i + 1 < argc) {
			/* Its range depends on -32, which may come later: checked by the caller. */
			r = parse_u64_full(argv[++i], 10, &v) && v <= 64 ? 0 : -1;
			o->bits = (int)v;
		} else if (strcmp(argv[i], "--trials") == 0 && i + 1 < argc) {
			r = parse_u64_arg("--trials", argv[++i], 0, TRIALS_MAX, &o->trials);
		} else if (strcmp(argv[i], "--respawn-s") == 0 && i + 1 < argc) {
			r = parse_u64_arg("--respawn-s", argv[++i], 1, 86400, &o->respawn_s);
		} else {
			r = -1;
		}
	}
	return r;
}

/* Sort helper for the median: insertion into a small fixed array is enough for the sizes we
 * keep; beyond that the median is taken from the first TRIALS_KEPT trials. Each attack reads
 * only the entries it has written itself (the first MIN(done, TRIALS_KEPT)), so the array
 * need not start zeroed. */
#define TRIALS_KEPT 4096
static uint64_t kept_tries[TRIALS_KEPT] __section(".noclear");

static uint64_t median_of(uint64_t *a, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j > 0 && a[j - 1] > a[j]; j--) {
			uint64_t t = a[j]; a[j] = a[j - 1]; a[j - 1] = t;
		}
	return n ? a[n / 2] : 0;
}

/* What one attack measured: trials that succeeded, their tries, and the processes it took. */
struct attack_stats {
	uint64_t done, total, max_tries;
	uint64_t runs;       /* execs of the victim, or children of the fork servers */
	uint64_t servers;    /* --fork: execs of the fork server (one per trial) */
	uint64_t cycles;
	bool interrupted, broken;
};

/* What the attacker knows before the first try: the knob, the range and the layout's shape. */
struct attack_plan {
	const struct attack_opts *o;
	const struct sysctl_entry *knob;
	unsigned bits;
	uint64_t possible;   /* mmap_base values: max_rnd_pages + 1 */
	struct mmap_range range;
	unsigned run_flags;  /* RUN_QUIET_FAULTS, RUN_COMPAT */
};

static void attack_progress(const char *what, const struct attack_stats *s, uint64_t trials,
			    uint64_t t0)
{
	uint64_t dt = arch_cycles() - t0, hz = arch_cycles_hz();
	uint64_t rate = dt ? s->runs * hz / dt : 0;

	printk("\r  trial %llu/%llu, %llu %s, %llu %s/s\x1b[K", (unsigned long long)s->done,
	       (unsigned long long)trials, (unsigned long long)s->runs, what,
	       (unsigned long long)rate, what);
}

static void record_success(struct attack_stats *s, uint64_t tries)
{
	if (s->done < TRIALS_KEPT)
		kept_tries[s->done] = tries;
	s->done++;
	s->total += tries;
	s->max_tries = MAX(s->max_tries, tries);
}

static void print_attack_report(const struct attack_plan *pl, bool fork_mode,
				const struct attack_stats *s)
{
	char t_fixed[32], t_enum[32], t_meas[32];
	const struct attack_opts *o = pl->o;
	uint64_t done = s->done, possible = pl->possible;
	uint64_t mean_x100 = done ? s->total * 100 / done : 0;
	uint64_t fixed = possible, enumerating = possible / 2;
	unsigned n = (unsigned)MIN(done, (uint64_t)TRIALS_KEPT);
	uint64_t median = median_of(kept_tries, n);
	uint64_t rate = s->cycles ? s->runs * arch_cycles_hz() / s->cycles : 0;

	if (s->interrupted)
		printk("aslr: interrupted after %llu of %llu trials (%llu %s)\n",
		       (unsigned long long)done, (unsigned long long)o->trials,
		       (unsigned long long)s->runs, fork_mode ? "forks" : "execs");
	if (fork_mode)
		printk("  forks          %llu (%llu/s), from %llu fork servers\n",
		       (unsigned long long)s->runs, (unsigned long long)rate,
		       (unsigned long long)s->servers);
	else
		printk("  execs          %llu (%llu/s)\n", (unsigned long long)s->runs,
		       (unsigned long long)rate);
	format_duration(t_fixed, sizeof(t_fixed), fixed * o->respawn_s * 10);
	format_duration(t_enum, sizeof(t_enum), enumerating * o->respawn_s * 10);
	format_duration(t_meas, sizeof(t_meas), mean_x100 * o->respawn_s / 10);
	printk("  successes      %llu trials\n", (unsigned long long)done);
	if (done)
		printk("  tries/success  mean %llu.%02llu, median %llu, max %llu\n",
	       (unsigned long long)(mean_x100 / 100), (unsigned long long)(mean_x100 % 100),
	       (unsigned long long)median, (unsigned long long)s->max_tries);
	printk("  theory         %llu possible offsets: mean %llu tries for a fixed guess, %llu for an "
	       "attacker enumerating a layout that stays put\n",
	       (unsigned long long)possible, (unsigned long long)fixed,
	       (unsigned long long)enumerating);
	printk("  at %llu s per respawn: %s%s%sfixed guess %s, enumerating %s\n",
	       (unsigned long long)o->respawn_s, done ? "measured " : "", done ? t_meas : "",
	       done ? ", " : "", t_fixed, t_enum);
	printk("aslr-attack: mode=%s bits=%u trials=%llu mean=%llu.%02llu median=%llu max=%llu "
	       "theory_fixed=%llu theory_enum=%llu respawn_s=%llu\n",
	       fork_mode ? "fork" : "exec", pl->bits, (unsigned long long)done,
	       (unsigned long long)(mean_x100 / 100), (unsigned long long)(mean_x100 % 100),
	       (unsigned long long)median, (unsigned long long)s->max_tries,
	       (unsigned long long)fixed, (unsigned long long)enumerating,
	       (unsigned long long)o->respawn_s);
}

/* --exec: the victim respawns with a fresh layout after every miss, so the attacker's best is
 * one fixed guess (a page in the middle of the range): 2^bits tries on average. */
static void attack_exec(const struct attack_plan *pl, const struct fs_file *victim,
			struct attack_stats *s)
{
	struct run_result res;
	uint64_t guess = mmap_base_at(&pl->range, pl->possible / 2) - PAGE_SIZE;
	char guess_text[24];
	snprintf(guess_text, sizeof(guess_text), "%llx", (unsigned long long)guess);
	char *vargv[] = { (char *)"victim", guess_text, NULL };
	uint64_t cap = pl->possible * 64; /* a trial that long means something is broken */
	uint64_t t0 = arch_cycles(), next_report = t0 + arch_cycles_hz() / 2;
	bool shown = false;

	printk("aslr attack: %s=%u, victim\'s secret at its first mmap, fixed guess %#llx, %llu trials\n",
	       pl->knob->name, pl->bits, (unsigned long long)guess,
	       (unsigned long long)pl->o->trials);
	while (s->done < pl->o->trials && !s->interrupted && !s->broken) {
		uint64_t tries = 0;
		for (;;) {
			process_run(victim, 2, vargv, pl->run_flags, &res);
			tries++;
			s->runs++;
			if (res.status == 0)
				break;
			/* A miss: the guess is unmapped (SIGSEGV), or another mapping that reads
			 * something else (status 1: the [vvar]/[vdso] pages under mmap_base). */
			bool missed = res.status == 128 + 11 || res.status == 1;
			if (!missed || tries >= cap) {
				printk("\r\x1b[Kaslr: victim ended with status %d after %llu tries; stopping\n",
				       res.status, (unsigned long long)tries);
				s->broken = true;
				break;
			}
			if ((s->runs & 63) == 0) {
				if (console_interrupt_pending()) {
					s->interrupted = true;
					break;
				}
				if (arch_cycles() >= next_report) {
					attack_progress("execs", s, pl->o->trials, t0);
					shown = true;
					next_report = arch_cycles() + arch_cycles_hz() / 4;
				}
			}
		}
		if (res.status != 0)
			break;
		record_success(s, tries);
	}
	if (shown)
		printk("\r\x1b[K");
	s->cycles = arch_cycles() - t0;
}

/* The distance from mmap_base down to the victim's first mmap: the special mappings exec puts
 * right under the base ([vvar], [vdso], [sigpage]) and the page itself. The same for every exec
 * of one ABI, so the attacker learns it once, from a run of its own copy of the program. */
static bool secret_below_base(const struct attack_plan *pl, const struct fs_file *victim,
			      uint64_t *below)
{
	struct run_result res;
	char *vargv[] = { (char *)"victim", (char *)"0", NULL };

	process_run(victim, 2, vargv, pl->run_flags, &res);
	if (res.status < 0)
		return false;
	*below = res.special_below_base + PAGE_SIZE;
	return true;
}

/* One server's life: it enumerates the candidates from a random start; the tries its children
 * took, or 0 (the reason printed). Its one output line is captured, not shown. */
static uint64_t fork_trial(const struct attack_plan *pl, const struct fs_file *server,
			   uint64_t top, struct attack_stats *s)
{
	static char out[128];
	char a_top[24], a_step[24], a_n[24], a_start[24];
	struct run_result res;
	uint64_t children = 0;

	/* A start independent of where the secret is: any order that tries each page once has
	 * mean (possible + 1) / 2 tries, and a random start keeps it so even for a biased layout. */
	snprintf(a_top, sizeof(a_top), "%llx", (unsigned long long)top);
	snprintf(a_step, sizeof(a_step), "%llx", (unsigned long long)PAGE_SIZE);
	snprintf(a_n, sizeof(a_n), "%llu", (unsigned long long)pl->possible);
	snprintf(a_start, sizeof(a_start), "%llu",
		 (unsigned long long)(get_random_u64() % pl->possible));
	char *sargv[] = { (char *)"forkserver", a_top, a_step, a_n, a_start, NULL };
	console_capture_begin(out, sizeof(out) - 1);
	process_run(server, 5, sargv, pl->run_flags, &res);
	long n = console_capture_end();
	s->servers++;
	if (n >= 0) {
		out[n] = '\0';
		const char *p = strstr(out, "hit after ");
		if (p)
			parse_u64(p + 10, NULL, 10, &children);
	}
	if (res.status != 0 || !children) {
		printk("\r\x1b[Kaslr: fork server ended with status %d: %s", res.status,
		       n > 0 ? out : "(no output)\n");
		s->broken = true;
		return 0;
	}
	s->runs += children;
	return children;
}

/* --fork: the victim is a fork server; its children share its layout, so every miss rules a
 * page out and the attacker enumerates: 2^(bits-1) tries on average. */
static void attack_fork(const struct attack_plan *pl, const struct fs_file *server,
			const struct fs_file *victim, struct attack_stats *s)
{
	uint64_t below;

	if (!secret_below_base(pl, victim, &below)) {
		printk("aslr: the victim does not run\n");
		s->broken = true;
		return;
	}
	uint64_t top = mmap_base_at(&pl->range, 0) - below;
	uint64_t t0 = arch_cycles(), next_report = t0 + arch_cycles_hz() / 2;
	bool shown = false;

	printk("aslr attack --fork: %s=%u, fork server's secret at its first mmap, each child tries "
	       "one of %llu pages from %#llx down (each once, from a random start), %llu trials\n",
	       pl->knob->name, pl->bits, (unsigned long long)pl->possible,
	       (unsigned long long)top, (unsigned long long)pl->o->trials);
	while (s->done < pl->o->trials && !s->broken) {
		if (console_interrupt_pending()) {
			s->interrupted = true;
			break;
		}
		uint64_t tries = fork_trial(pl, server, top, s);
		if (!tries)
			break;
		record_success(s, tries);
		if (arch_cycles() >= next_report) {
			attack_progress("forks", s, pl->o->trials, t0);
			shown = true;
			next_report = arch_cycles() + arch_cycles_hz() / 4;
		}
	}
	if (shown)
		printk("\r\x1b[K");
	s->cycles = arch_cycles() - t0;
}

int aslr_attack(int argc, char **argv)
{
	struct attack_opts o = { 0 };

	int perr = parse_attack_args(argc, argv, &o);
	if (perr) {
		if (perr == -1)
			printk("usage: aslr attack [-32] [--exec] [--fork] [--bits B] [--trials T] "
			       "[--respawn-s S]\n");
		return 2;
	}
	if (!o.fork && !o.exec)
		o.exec = true;
	if (o.compat && !aslr_has_compat()) {
		printk("aslr: -32: %s has no 32-bit compat path\n", CONFIG_PRESET);
		return 2;
	}
	const struct sysctl_entry *knob = bits_knob(o.compat);
	int saved = *knob->data;
	if (o.bits >= 0 && (o.bits < knob->min || o.bits > knob->max)) {
		aslr_bits_range_error("--bits", o.bits, o.compat);
		return 2;
	}
	const struct fs_file *victim = bin_lookup("victim", o.compat);
	const struct fs_file *server = bin_lookup("forkserver", o.compat);
	if (!victim || (o.fork && !server)) {
		printk("aslr: no %s%s program in /bin\n", o.compat ? "32-bit " : "",
		       victim ? "forkserver" : "victim");
		return 1;
	}
	/* --bits sets the knob for the attack (a write); without it the report shows its value. */
	if (o.bits >= 0 ? aslr_set_knob(knob, o.bits) != 0 : !aslr_may_read_knob(knob))
		return 1;

	struct attack_plan pl = { .o = &o, .knob = knob, .bits = (unsigned)*knob->data,
				  .run_flags = RUN_QUIET_FAULTS | (o.compat ? RUN_COMPAT : 0) };
	struct task_geometry g;
	task_geometry(o.compat, &g);
	mmap_range(&g, RLIMIT_STACK_DEFAULT, randomize_va_space != 0, legacy_va_layout != 0,
		   pl.bits, &pl.range);
	pl.possible = pl.range.max_rnd_pages + 1;

	struct attack_stats ex = { 0 }, fk = { 0 };
	if (o.exec) {
		attack_exec(&pl, victim, &ex);
		print_attack_report(&pl, false, &ex);
	}
	if (o.fork && !ex.interrupted && !ex.broken) {
		attack_fork(&pl, server, victim, &fk);
		print_attack_report(&pl, true, &fk);
	}
	if (o.exec && o.fork && ex.done && fk.done) {
		uint64_t me = ex.total * 100 / ex.done, mf = fk.total * 100 / fk.done;
		printk("side by side: --exec mean %llu.%02llu tries (theory %llu), --fork mean "
		       "%llu.%02llu tries (theory %llu)\n",
		       (unsigned long long)(me / 100), (unsigned long long)(me % 100),
		       (unsigned long long)pl.possible, (unsigned long long)(mf / 100),
		       (unsigned long long)(mf % 100), (unsigned long long)(pl.possible / 2));
	}
	*knob->data = saved;
	bool interrupted = ex.interrupted || fk.interrupted, broken = ex.broken || fk.broken;
	return interrupted ? 130 : broken ? 1 : 0;
}

int aslr_tradeoff(int argc, char **argv)
{
	bool compat = argc > 2 && strcmp(argv[2], "-32") == 0;

	if (argc > 2 + compat) {
		printk("usage: aslr tradeoff [-32]\n");
		return 2;
	}
	if (compat && !aslr_has_compat()) {
		printk("aslr: -32: %s has no 32-bit compat path\n", CONFIG_PRESET);
		return 2;
	}
	const struct fs_file *alloc = bin_lookup("alloc", compat);
	if (!alloc) {
		printk("aslr: no %salloc program in /bin\n", compat ? "32-bit " : "");
		return 1;
	}
	const struct sysctl_entry *knob = bits_knob(compat);
	int saved = *knob->data;
	char *aargv[] = { (char *)"alloc", NULL };
	static char out[160];
	int status = 0;

	/* Each row sets the knob: the user must be allowed to write it. */
	if (aslr_set_knob(knob, saved))
		return 1;

	printk("aslr tradeoff: %s, worst-case layout (largest offsets) per value of %s\n",
	       compat ? "compat (32-bit)" : "native", knob->name);
	printk("bits  mmap_base range                      largest mapping (computed)     measured by alloc   "
	       "match  tables  brute force @5s (fixed / enumerating)\n");
	for (int bits = knob->min; bits <= knob->max; bits++) {
		struct run_result res;
		uint64_t measured = 0;
		if (console_interrupt_pending()) { /* each row is printed as it is measured */
			printk("aslr: interrupted at %d bits\n", bits);
			status = 130;
			break;
		}
		*knob->data = bits; /* the write permission was checked above */
		console_capture_begin(out, sizeof(out) - 1);
		process_run(alloc, 1, aargv, (compat ? RUN_COMPAT : 0) | RUN_WORST_CASE, &res);
		long n = console_capture_end();
		if (n >= 0) {
			out[n] = '\0';
			const char *p = strstr(out, "mapping ");
			if (p)
				parse_u64(p + 8, NULL, 0, &measured);
		}
		if (res.status != 0 || !measured) {
			printk("%4d  alloc failed (status %d)\n", bits, res.status);
			status = 1;
			continue;
		}
		uint64_t lowest = mmap_base_at(&res.range, res.range.max_rnd_pages);
		uint64_t possible = res.range.max_rnd_pages + 1;
		char t_fixed[UNITS_MAX], t_enum[UNITS_MAX], size[UNITS_MAX], tmem[UNITS_MAX];
		format_duration(t_fixed, sizeof(t_fixed), possible * 5 * 10);
		format_duration(t_enum, sizeof(t_enum), possible / 2 * 5 * 10);
		units_bytes(size, sizeof(size), res.largest_gap);
		/* The tables a process needs for one page at each of its objects, in this layout:
		 * the further mmap lies from the stack, the fewer upper-level tables they share. */
		const struct exec_record *x = &res.exec;
		uint64_t at[] = { x->text, x->brk, x->first_mmap, x->stack_top - PAGE_SIZE }, tbytes;
		unsigned tables = va_tables_needed(arch_pt_geometry(), at, ARRAY_SIZE(at), &tbytes);
		units_bytes(tmem, sizeof(tmem), tbytes);
		printk("%4d  %#14llx..%#-14llx  %#16llx (%9s)  %#16llx  %-5s  %2u %-9s  %s / %s\n", bits,
		       (unsigned long long)lowest, (unsigned long long)res.range.base,
		       (unsigned long long)res.largest_gap, size, (unsigned long long)measured,
		       measured == res.largest_gap ? "yes" : "NO", tables, tmem, t_fixed, t_enum);
		printk("aslr-tradeoff: bits=%d base_lo=%#llx base_hi=%#llx largest_computed=%llu "
		       "largest_measured=%llu tries_fixed=%llu tables=%u table_bytes=%llu\n", bits,
		       (unsigned long long)lowest, (unsigned long long)res.range.base,
		       (unsigned long long)res.largest_gap, (unsigned long long)measured,
		       (unsigned long long)possible, tables, (unsigned long long)tbytes);
		if (measured != res.largest_gap)
			status = 1;
	}
	*knob->data = saved;
	return status;
}
