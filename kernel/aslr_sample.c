/* `aslr sample`: N real execs of probe (or N draws of the layout alone), and what a platform
 * engineer and the peers' entropy tests would conclude from them. Every figure is computed from
 * the samples taken here; the configured range is printed beside them, never instead of them. */
#include <arch/cpu.h>
#include <arch/memory.h>
#include <kernel/console.h>
#include <kernel/kernel.h>
#include <mm/layout.h>
#include <lib/fmt.h>
#include <lib/parse.h>
#include <lib/stats.h>
#include <lib/string.h>
#include <lib/units.h>
#include <mm/pmm.h>
#include <kernel/proc.h>
#include <kernel/aslr.h>
#include <kernel/sysctl.h>

#define SAMPLE_MAX 65536
#define BUCKETS 64

enum region { REGION_MMAP, REGION_STACK, REGION_BRK };
static const char *const region_names[] = { "mmap", "stack", "brk" };

struct sample_opts {
	unsigned n;
	bool compat, layout_only, objects, csv, region_given;
	enum region region;
	int prog_argc;     /* --prog NAME ARGS...: the rest of the line */
	char **prog_argv;
};

/* The value probe printed after "key=" on its line, or false. */
static bool probe_field(const char *line, const char *key, uint64_t *out)
{
	const char *p = line;
	size_t klen = strlen(key);

	while ((p = strchr(p, ' ')) != NULL) {
		p++;
		if (strncmp(p, key, klen) == 0 && p[klen] == '=')
			return parse_u64(p + klen + 1, NULL, 0, out);
	}
	return false;
}

struct one_sample {
	uint64_t value;    /* what the process (or the layout) showed */
	uint64_t rnd;      /* the random offset behind it, in pages (for the chi-square) */
	uint64_t range;    /* how many offsets were possible */
	bool mismatch;     /* probe's mmap is not where the kernel's record says the first mmap goes */
};

/* One exec of probe, its output captured and parsed. Returns false if it did not run. */
static bool sample_exec(const struct sample_opts *o, const struct fs_file *probe,
			struct one_sample *s, struct run_result *res)
{
	static char out[256];
	char *argv[] = { (char *)"probe", NULL };
	uint64_t v;

	console_capture_begin(out, sizeof(out) - 1);
	process_run(probe, 1, argv, o->compat ? RUN_COMPAT : 0, res);
	long n = console_capture_end();
	if (res->status != 0 || n < 0)
		return false;
	out[n] = '\0';
	const char *key = region_names[o->region];
	if (!probe_field(out, key, &v))
		return false;
	s->value = v;
	/* Where the allocator says the first mmap goes: below the special mappings exec put
	 * under mmap_base, or above them in the legacy layout. */
	s->mismatch = o->region == REGION_MMAP && v != res->exec.first_mmap;
	return true;
}

/* The random offset behind a run's region, and how many offsets were possible. */
static void offset_of(const struct sample_opts *o, const struct run_result *res,
		      struct one_sample *s)
{
	struct task_geometry g;

	task_geometry(o->compat, &g);
	switch (o->region) {
	case REGION_MMAP:
		s->range = res->range.max_rnd_pages + 1;
		s->rnd = res->range.topdown ? (res->range.base - res->mmap_base) >> PAGE_SHIFT
					    : (res->mmap_base - res->range.base) >> PAGE_SHIFT;
		break;
	case REGION_STACK:
		s->range = g.stack_rnd_mask + 1;
		s->rnd = (ALIGN_UP(g.stack_top, (uint64_t)PAGE_SIZE) - res->stack_top) >> PAGE_SHIFT;
		break;
	case REGION_BRK:
		s->range = (uint64_t)brk_rnd_range(o->compat) >> PAGE_SHIFT;
		s->rnd = (res->start_brk - res->brk_base) >> PAGE_SHIFT;
		break;
	}
}

static unsigned ceil_log2(uint64_t v)
{
	unsigned b = 0;

	while (b < 64 && (1ULL << b) < v)
		b++;
	return b;
}

static void print_centi(const char *label, unsigned centi, const char *note)
{
	printk("  %-14s %u.%02u  %s\n", label, centi / 100, centi % 100, note);
}

static void print_histogram(const unsigned *buckets)
{
	unsigned rows[16] = { 0 }, top = 1;

	for (unsigned i = 0; i < BUCKETS; i++)
		rows[i / 4] += buckets[i];
	for (unsigned r = 0; r < 16; r++)
		top = MAX(top, rows[r]);
	printk("  histogram of the offsets (16 bins of the configured range):\n");
	for (unsigned r = 0; r < 16; r++) {
		char bar[52];
		unsigned len = (unsigned)((uint64_t)rows[r] * 50 / top);
		memset(bar, '#', len);
		bar[len] = '\0';
		printk("  %2u/16 %7u %s\n", r + 1, rows[r], bar);
	}
}

struct sample_stats {
	unsigned n, distinct, mismatches, pax_bits;
	uint64_t min, max, range;
	uint64_t lowest, highest; /* mmap region: the lowest and highest possible value */
	unsigned buckets[BUCKETS];
};

static void summarize(const struct sample_opts *o, struct sample_stats *st, uint64_t *values)
{
	unsigned bits = mmap_rnd_bits_for(o->compat);
	uint64_t span = st->max - st->min;
	unsigned aslrtest = span ? ceil_log2(span) - (unsigned)PAGE_SHIFT : 0;
	unsigned set_count[64] = { 0 };

	for (unsigned i = 0; i < st->n; i++)
		for (unsigned b = 0; b < 64; b++)
			set_count[b] += (values[i] >> b) & 1;
	st->pax_bits = 0;
	for (unsigned b = 0; b < 64; b++)
		if (set_count[b] * 100ULL >= st->n * 35ULL && set_count[b] * 100ULL <= st->n * 65ULL)
			st->pax_bits++;
	sort_u64(values, st->n);
	st->distinct = st->n ? 1 : 0;
	for (unsigned i = 1; i < st->n; i++)
		st->distinct += values[i] != values[i - 1];

	uint64_t span_pages = span >> PAGE_SHIFT;
	uint64_t coverage = st->range > 1 ? span_pages * 10000 / (st->range - 1) : 10000;
	uint64_t x = chi2_milli(st->buckets, BUCKETS, st->n);
	unsigned p = chi2_p_ppm(x, BUCKETS - 1);
	unsigned cts = log2_centi(st->distinct);
	unsigned effective = log2_centi(st->range);

	printk("  samples        %u%s\n", st->n, o->layout_only ? " (layout only, no exec)" : " execs of probe");
	printk("  configured     %u bits -> %llu possible offsets (%u.%02u bits effective)\n", bits,
	       (unsigned long long)st->range, effective / 100, effective % 100);
	if (o->region == REGION_MMAP)
		printk("  possible       %#llx .. %#llx (the first mmap, %s)\n",
		       (unsigned long long)st->lowest, (unsigned long long)st->highest,
		       legacy_va_layout ? "bottom-up from TASK_UNMAPPED_BASE + offset"
					: "top-down below STACK_TOP - gap - offset");
	printk("  min            %#llx\n", (unsigned long long)st->min);
	printk("  max            %#llx\n", (unsigned long long)st->max);
	char span_text[UNITS_MAX];
	units_bytes(span_text, sizeof(span_text), span);
	printk("  span_pages     %llu of %llu (%llu.%02llu%%), %s\n", (unsigned long long)span_pages,
	       (unsigned long long)(st->range - 1), (unsigned long long)(coverage / 100),
	       (unsigned long long)(coverage % 100), span_text);
	printk("  distinct       %u\n", st->distinct);
	if (o->region == REGION_MMAP && !o->layout_only)
		printk("  mismatches     %u (probe's mmap not where the kernel's record puts the first mmap)\n",
		       st->mismatches);
	print_centi("cts_bits", cts, "(Android CTS: log2 of distinct values)");
	printk("  aslrtest_bits  %u     (Android aslr_test: ceil(log2(max - min)) - log2(page size))\n", aslrtest);
	printk("  pax_bits       %u     (paxtest: bits set in 35%%..65%% of samples)\n", st->pax_bits);
	printk("  chi2           %llu.%03llu over %u buckets, p=%u.%06u\n",
	       (unsigned long long)(x / 1000), (unsigned long long)(x % 1000), BUCKETS,
	       p / 1000000, p % 1000000);
	print_histogram(st->buckets);
	/* The chi-square's own 64 buckets, for plots (tools/plot.py). */
	printk("aslr-buckets: n=%u counts=", BUCKETS);
	for (unsigned i = 0; i < BUCKETS; i++)
		printk("%s%u", i ? "," : "", st->buckets[i]);
	printk("\n");
	printk("aslr-sample: n=%u region=%s abi=%s bits=%u span_pages=%llu range_pages=%llu "
	       "coverage=%llu.%02llu distinct=%u mismatches=%u cts_bits=%u.%02u aslrtest_bits=%u "
	       "pax_bits=%u chi2_p=%u.%06u top=%#llx\n",
	       st->n, region_names[o->region], o->compat ? "compat" : "native", bits,
	       (unsigned long long)span_pages, (unsigned long long)st->range,
	       (unsigned long long)(coverage / 100), (unsigned long long)(coverage % 100),
	       st->distinct, st->mismatches, cts / 100, cts % 100, aslrtest, st->pax_bits,
	       p / 1000000, p % 1000000, (unsigned long long)st->highest);
}

/* One updating line: count, rate, time left. */
static void progress(unsigned done, unsigned total, uint64_t t0)
{
	uint64_t hz = arch_cycles_hz(), dt = arch_cycles() - t0;
	uint64_t rate = dt ? (uint64_t)done * hz / dt : 0;
	uint64_t left_ms = rate ? (uint64_t)(total - done) * 1000 / rate : 0;

	printk("\r  %u/%u, %llu/s, %llu.%llu s left\x1b[K", done, total, (unsigned long long)rate,
	       (unsigned long long)(left_ms / 1000), (unsigned long long)(left_ms % 1000 / 100));
}

static int parse_sample_args(int argc, char **argv, struct sample_opts *o)
{
	uint64_t n = 0;

	o->region = REGION_MMAP;
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "-32") == 0) {
			o->compat = true;
		} else if (strcmp(argv[i], "--layout-only") == 0) {
			o->layout_only = true;
		} else if (strcmp(argv[i], "--objects") == 0) {
			o->objects = true;
		} else if (strcmp(argv[i], "--csv") == 0) {
			o->csv = true;
		} else if (strcmp(argv[i], "--prog") == 0 && i + 1 < argc) {
			o->objects = true;
			o->prog_argc = argc - i - 1;
			o->prog_argv = argv + i + 1;
			break;
		} else if (strcmp(argv[i], "--region") == 0 && i + 1 < argc) {
			o->region_given = true;
			i++;
			unsigned r;
			for (r = 0; r < ARRAY_SIZE(region_names); r++)
				if (strcmp(argv[i], region_names[r]) == 0)
					break;
			if (r == ARRAY_SIZE(region_names))
				return -1;
			o->region = (enum region)r;
		} else if (!n && parse_u64_full(argv[i], 10, &n)) {
			if (n < 2 || n > SAMPLE_MAX) {
				printk("aslr: sample count %llu is outside 2..%u\n", (unsigned long long)n,
				       SAMPLE_MAX);
				return -2;
			}
			o->n = (unsigned)n;
		} else {
			return -1;
		}
	}
	/* The per-object report is of real execs; --csv is its raw samples. */
	if (o->objects && (o->layout_only || o->region_given))
		return -1;
	if (o->csv && !o->objects)
		return -1;
	return o->n ? 0 : -1;
}

int aslr_sample(int argc, char **argv)
{
	struct sample_opts o = { 0 };
	struct sample_stats st;
	struct run_result res;
	struct one_sample s;

	int perr = parse_sample_args(argc, argv, &o);
	if (perr == -2)
		return 2;
	if (perr) {
		printk("usage: aslr sample N [-32] [--layout-only] [--region mmap|stack|brk]  (2 <= N <= %u)\n"
		       "       aslr sample N [-32] [--csv] --objects | --prog NAME [ARGS...]\n",
		       SAMPLE_MAX);
		return 2;
	}
	if (o.compat && !aslr_has_compat()) {
		printk("aslr: -32: %s has no 32-bit compat path\n", CONFIG_PRESET);
		return 2;
	}
	/* The report is about the knob's value (its header and the configured range show it). */
	if (!aslr_may_read_knob(sysctl_find(o.compat ? "vm.mmap_rnd_compat_bits" : "vm.mmap_rnd_bits")))
		return 1;
	if (o.objects) {
		static char *probe_argv[] = { (char *)"probe", (char *)"-q", NULL };
		return o.prog_argc ? aslr_sample_objects(o.n, o.compat, o.csv, o.prog_argc, o.prog_argv)
				   : aslr_sample_objects(o.n, o.compat, o.csv, 2, probe_argv);
	}
	const struct fs_file *probe = bin_lookup("probe", o.compat);
	if (!probe) {
		printk("aslr: no %sprobe program in /bin\n", o.compat ? "32-bit " : "");
		return 1;
	}
	unsigned order = 0;
	while (((uint64_t)PAGE_SIZE << order) < (uint64_t)o.n * sizeof(uint64_t))
		order++;
	phys_addr_t pa = pmm_alloc_pages(order);
	if (!pa) {
		printk("aslr: not enough memory for %u samples\n", o.n);
		return 1;
	}
	uint64_t *values = __va(pa);
	memset(&st, 0, sizeof(st));
	printk("aslr sample: region %s, %s, vm.mmap_rnd%s_bits=%u\n", region_names[o.region],
	       o.compat ? "compat (32-bit)" : "native", o.compat ? "_compat" : "",
	       mmap_rnd_bits_for(o.compat));

	/* Layout-only draws need where the image ends (for brk) and where the first mmap lies
	 * from mmap_base (below it top-down, past what exec mapped there; at it bottom-up): take
	 * both from one real exec's record. */
	uint64_t brk_base = 0;
	int64_t first_delta = 0;
	if (o.layout_only) {
		if (!sample_exec(&o, probe, &s, &res)) {
			printk("aslr: probe failed to run\n");
			pmm_free_pages(pa, order);
			return 1;
		}
		brk_base = res.brk_base;
		first_delta = (int64_t)(res.exec.first_mmap - res.mmap_base);
	}
	bool randomize = randomize_va_space != 0;
	uint64_t t0 = arch_cycles(), next_report = t0 + arch_cycles_hz() / 2;
	bool shown = false, interrupted = false;
	for (unsigned i = 0; i < o.n; i++) {
		if (o.layout_only) {
			exec_layout_only(o.compat, randomize, brk_base, &res);
			s.value = o.region == REGION_MMAP ? res.mmap_base + (uint64_t)first_delta :
				  o.region == REGION_STACK ? res.stack_top : res.start_brk;
			s.mismatch = false;
		} else if (!sample_exec(&o, probe, &s, &res)) {
			printk("\r\x1b[Kaslr: probe failed (status %d) at sample %u\n", res.status, i);
			break;
		} else {
			first_delta = (int64_t)(res.exec.first_mmap - res.mmap_base);
		}
		offset_of(&o, &res, &s);
		st.range = s.range;
		/* The first mmap's extremes: mmap_base's (the top-down base falls, the bottom-up
		 * one rises, with the offset) moved as the kernel's record says. */
		uint64_t at0 = mmap_base_at(&res.range, 0) + (uint64_t)first_delta;
		uint64_t atmax = mmap_base_at(&res.range, res.range.max_rnd_pages) + (uint64_t)first_delta;
		st.highest = MAX(at0, atmax);
		st.lowest = MIN(at0, atmax);
		values[st.n++] = s.value;
		st.mismatches += s.mismatch;
		st.buckets[s.range ? s.rnd * BUCKETS / s.range : 0]++;
		st.min = st.n == 1 ? s.value : MIN(st.min, s.value);
		st.max = MAX(st.max, s.value);
		if ((i & 63) == 63) {
			if (console_interrupt_pending()) {
				interrupted = true;
				break;
			}
			if (arch_cycles() >= next_report) {
				progress(i + 1, o.n, t0);
				shown = true;
				next_report = arch_cycles() + arch_cycles_hz() / 4;
			}
		}
	}
	uint64_t dt = arch_cycles() - t0;
	if (shown)
		printk("\r\x1b[K");
	if (interrupted)
		printk("aslr: interrupted after %u of %u samples\n", st.n, o.n);
	uint64_t rate = dt ? (uint64_t)st.n * arch_cycles_hz() / dt : 0;
	printk("  rate           %llu samples/s\n", (unsigned long long)rate);
	if (st.n >= 2)
		summarize(&o, &st, values);
	pmm_free_pages(pa, order);
	return interrupted ? 130 : 0;
}
