/* `aslr sample N --prog NAME ARGS...` (or `--objects`, for probe): N execs of any program, and
 * for every object of its layout, as the kernel recorded it at each exec (struct exec_record),
 * the statistics of the peers side by side: Android CTS (log2 of distinct values), aslr_test
 * (log2 of the span in pages), paxtest (bits set in 35..65% of samples), chi-square and Shannon
 * entropy over 64 bins (ASLRA), which bits ever change and how often they are 1, and the
 * birthday test (execs until two share a value: AsahiLinux's check, issue #323 there). */
#include <arch/cpu.h>
#include <arch/memory.h>
#include <kernel/aslr.h>
#include <kernel/console.h>
#include <kernel/exec.h>
#include <kernel/kernel.h>
#include <mm/layout.h>
#include <lib/fmt.h>
#include <lib/stats.h>
#include <lib/string.h>
#include <lib/units.h>
#include <mm/pmm.h>
#include <kernel/proc.h>
#include <kernel/sysctl.h>

enum object { OBJ_TEXT, OBJ_DATA, OBJ_BRK, OBJ_STACK, OBJ_SP, OBJ_MMAP, OBJ_VDSO, NR_OBJECTS };
static const char *const object_names[NR_OBJECTS] = {
	"text", "data", "brk", "stack", "sp", "mmap", "vdso",
};
#define BINS 64

static uint64_t object_value(const struct exec_record *x, enum object o)
{
	switch (o) {
	case OBJ_TEXT: return x->text;
	case OBJ_DATA: return x->data;
	case OBJ_BRK: return x->brk;
	case OBJ_STACK: return x->stack_top;
	case OBJ_SP: return x->sp;
	case OBJ_MMAP: return x->first_mmap;
	case OBJ_VDSO: return x->vdso;
	default: return 0;
	}
}

/* The birthday test's set: open addressing, a generation per slot so that starting a new run
 * costs nothing. */
struct seen_set {
	uint64_t *keys;
	uint32_t *gen;
	uint32_t mask, current;
};

/* Add v; true if it was there already. */
static bool seen_add(struct seen_set *s, uint64_t v)
{
	uint32_t i = (uint32_t)((v * 0x9e3779b97f4a7c15ULL) >> 40) & s->mask;

	for (;; i = (i + 1) & s->mask) {
		if (s->gen[i] != s->current) {
			s->gen[i] = s->current;
			s->keys[i] = v;
			return false;
		}
		if (s->keys[i] == v)
			return true;
	}
}

static unsigned floor_log2(uint64_t v)
{
	unsigned b = 0;

	while (v >> (b + 1))
		b++;
	return b;
}

static uint64_t isqrt(uint64_t v)
{
	uint64_t r = 0;

	for (int b = 31; b >= 0; b--) {
		uint64_t t = r | (1ULL << b);
		if (t * t <= v)
			r = t;
	}
	return r;
}

struct object_stats {
	uint64_t min, max, flips, granule, values; /* values: how many possible (span / granule + 1) */
	unsigned distinct, pax_bits, flip_bits, ones[64];
	unsigned bins[BINS], nbins;
	unsigned entropy_milli, chi2_p_ppm;
	unsigned runs, median_run;
	uint64_t run_sum;
};

/* The birthday test: how many execs until two share a value. Cutting the samples into
 * disjoint runs gives only n / sqrt(D) runs (7 for 2,000 samples at 16 bits), whose median
 * wanders by a third; instead each run draws the samples in a fresh random order (Fisher-Yates,
 * one draw per step) until one repeats. The samples are independent, so every order is as good
 * a history as the real one, and the orders together use every repeat the samples hold. A run
 * that finds no repeat (the samples are all distinct) counts none. */
#define BIRTHDAY_ORDERS 201
static void birthday(const uint64_t *v, unsigned n, struct seen_set *set, uint64_t *a,
		     struct object_stats *st)
{
	static uint64_t runs[BIRTHDAY_ORDERS];

	st->runs = 0;
	st->run_sum = 0;
	memcpy(a, v, n * sizeof(*a));
	for (unsigned r = 0; r < BIRTHDAY_ORDERS; r++) {
		set->current++;
		for (unsigned k = 0; k < n; k++) {
			unsigned j = k + (unsigned)random_below(n - k);
			uint64_t t = a[k];
			a[k] = a[j];
			a[j] = t;
			if (seen_add(set, a[k])) {
				runs[st->runs++] = k + 1;
				st->run_sum += k + 1;
				break;
			}
		}
	}
	sort_u64(runs, st->runs);
	st->median_run = st->runs ? (unsigned)runs[st->runs / 2] : 0;
}

static void analyse(uint64_t *v, unsigned n, struct seen_set *set, uint64_t *scratch,
		    struct object_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->min = st->max = v[0];
	for (unsigned i = 0; i < n; i++) {
		st->min = MIN(st->min, v[i]);
		st->max = MAX(st->max, v[i]);
		st->flips |= v[i] ^ v[0];
		for (unsigned b = 0; b < 64; b++)
			st->ones[b] += (v[i] >> b) & 1;
	}
	for (unsigned b = 0; b < 64; b++) {
		st->flip_bits += (st->flips >> b) & 1;
		if (st->ones[b] * 100ULL >= n * 35ULL && st->ones[b] * 100ULL <= n * 65ULL)
			st->pax_bits++;
	}
	/* The values a sample can take: multiples of the lowest changing bit across the span. */
	st->granule = st->flips ? st->flips & -st->flips : 1;
	st->values = (st->max - st->min) / st->granule + 1;
	st->nbins = st->values < BINS ? (unsigned)st->values : BINS;
	for (unsigned i = 0; i < n; i++) {
		uint64_t idx = (v[i] - st->min) / st->granule;
		unsigned bin = st->values <= (1ULL << 57) ? (unsigned)(idx * st->nbins / st->values)
							   : (unsigned)(idx / (st->values / BINS + 1));
		st->bins[bin]++;
	}
	st->entropy_milli = entropy_milli(st->bins, st->nbins, n);
	st->chi2_p_ppm = st->nbins > 1 ? chi2_p_ppm(chi2_milli(st->bins, st->nbins, n), st->nbins - 1)
				       : 0;
	/* Distinct values: on a sorted copy (the samples stay in exec order for --csv). */
	memcpy(scratch, v, n * sizeof(*v));
	sort_u64(scratch, n);
	st->distinct = 1;
	for (unsigned i = 1; i < n; i++)
		st->distinct += scratch[i] != scratch[i - 1];
	if (st->distinct < n)
		birthday(v, n, set, scratch, st);
}

/* Which bits ever change, and how often each is 1 (0..9 tenths; '.' constant). */
static void print_flips(const char *name, const struct object_stats *st, unsigned n)
{
	char row[72];
	size_t len = 0;

	if (!st->flips) {
		printk("  %-6s no bit changes\n", name);
		return;
	}
	unsigned hi = floor_log2(st->flips), lo = floor_log2(st->granule);
	for (int b = (int)hi; b >= (int)lo; b--)
		row[len++] = (st->flips >> b) & 1 ? (char)('0' + MIN(9u, st->ones[b] * 10 / n)) : '.';
	row[len] = '\0';
	printk("  %-6s bits %2u..%-2u %s\n", name, hi, lo, row);
}

/* sqrt(D * k / 10^6) without overflowing for any D < 2^64. */
static uint64_t isqrt_scaled(uint64_t d, uint64_t k)
{
	return isqrt(d > (1ULL << 44) ? d / 1000000 * k : d * k / 1000000);
}

/* The birthday prediction for D equally likely values: the first repeat's median
 * sqrt(2 ln 2 D) and mean sqrt(pi/2 D). */
#define K_MEDIAN 1386294ULL
#define K_MEAN 1570796ULL

static void print_object(const char *name, const struct object_stats *st, unsigned n)
{
	char span[UNITS_MAX];
	unsigned cts = log2_centi(st->distinct);
	uint64_t span_bytes = st->max - st->min;
	unsigned aslrtest = span_bytes >> PAGE_SHIFT ? floor_log2(span_bytes >> PAGE_SHIFT) +
				((span_bytes >> PAGE_SHIFT) & ((span_bytes >> PAGE_SHIFT) - 1) ? 1 : 0) : 0;
	uint64_t pred_mean = isqrt_scaled(st->values, K_MEAN);
	uint64_t pred_median = isqrt_scaled(st->values, K_MEDIAN);
	char p[16] = "-";

	if (st->nbins > 1)
		snprintf(p, sizeof(p), "%u.%06u", st->chi2_p_ppm / 1000000, st->chi2_p_ppm % 1000000);
	units_bytes(span, sizeof(span), span_bytes);
	printk("  %-6s %#18llx %#18llx %10s %8u %3u.%02u %5u %5u  %-8s  %u.%03u\n", name,
	       (unsigned long long)st->min, (unsigned long long)st->max, span, st->distinct,
	       cts / 100, cts % 100, aslrtest, st->pax_bits, p, st->entropy_milli / 1000,
	       st->entropy_milli % 1000);
	printk("aslr-object: name=%s n=%u min=%#llx max=%#llx span=%llu distinct=%u cts_bits=%u.%02u "
	       "aslrtest_bits=%u pax_bits=%u chi2_p=%s bins=%u entropy=%u.%03u flip_bits=%u "
	       "flips=%#llx birthday_runs=%u birthday_median=%u birthday_mean=%llu.%02llu "
	       "values=%llu predicted_median=%llu predicted_mean=%llu\n",
	       name, n, (unsigned long long)st->min, (unsigned long long)st->max,
	       (unsigned long long)span_bytes, st->distinct, cts / 100, cts % 100, aslrtest,
	       st->pax_bits, p, st->nbins,
	       st->entropy_milli / 1000, st->entropy_milli % 1000, st->flip_bits,
	       (unsigned long long)st->flips, st->runs, st->median_run,
	       (unsigned long long)(st->runs ? st->run_sum / st->runs : 0),
	       (unsigned long long)(st->runs ? st->run_sum * 100 / st->runs % 100 : 0),
	       (unsigned long long)st->values, (unsigned long long)pred_median,
	       (unsigned long long)pred_mean);
}

static struct object_stats stats[NR_OBJECTS];

/* The three tables: statistics, changing bits, birthday test. v holds n samples per object, the
 * first done of them taken. */
static void report(uint64_t *v, unsigned n, unsigned done, struct seen_set *set, uint64_t *scratch)
{
	bool present[NR_OBJECTS];

	printk("  object                min                max       span distinct    cts "
	       "aslr_test  pax  chi2 p    H(64 bins)\n");
	for (unsigned o = 0; o < NR_OBJECTS; o++) {
		uint64_t *ov = v + (size_t)o * n;
		present[o] = ov[0] != 0;
		if (!present[o]) {
			printk("  %-6s %18s\n", object_names[o], "-");
			printk("aslr-object: name=%s absent\n", object_names[o]);
			continue;
		}
		analyse(ov, done, set, scratch, &stats[o]);
		print_object(object_names[o], &stats[o], done);
	}
	printk("  bits that change, and how often each is 1 (0-9 tenths, '.' never changes):\n");
	for (unsigned o = 0; o < NR_OBJECTS; o++)
		if (present[o])
			print_flips(object_names[o], &stats[o], done);
	printk("  birthday test: execs until two share a value; predicted for D equally likely "
	       "values: median sqrt(2 ln2 D), mean sqrt(pi/2 D)\n");
	for (unsigned o = 0; o < NR_OBJECTS; o++) {
		const struct object_stats *st = &stats[o];
		if (!present[o])
			continue;
		if (!st->flips)
			printk("  %-6s the same in every exec\n", object_names[o]);
		else if (st->runs)
			printk("  %-6s %u random orders, median %u; D=%llu: median %llu, mean %llu\n",
			       object_names[o], st->runs, st->median_run,
			       (unsigned long long)st->values,
			       (unsigned long long)isqrt_scaled(st->values, K_MEDIAN),
			       (unsigned long long)isqrt_scaled(st->values, K_MEAN));
		else
			printk("  %-6s no repeat in %u execs; D=%llu: median %llu, mean %llu\n",
			       object_names[o], done, (unsigned long long)st->values,
			       (unsigned long long)isqrt_scaled(st->values, K_MEDIAN),
			       (unsigned long long)isqrt_scaled(st->values, K_MEAN));
	}
}

static unsigned order_for(uint64_t bytes)
{
	unsigned order = 0;

	while (((uint64_t)PAGE_SIZE << order) < bytes)
		order++;
	return order;
}

int aslr_sample_objects(unsigned n, bool compat, bool csv, int pargc, char **pargv)
{
	const struct fs_file *prog;
	int err = exec_lookup(pargv[0], compat, &prog);

	if (err) {
		printk("aslr: %s: %s\n", pargv[0], strerror(-err));
		return 1;
	}
	/* The samples, object by object, in exec order; then the scratch for sorting and the
	 * birthday set. */
	unsigned table = 1;
	while (table < 2 * n)
		table <<= 1;
	uint64_t bytes = (uint64_t)NR_OBJECTS * n * 8 + (uint64_t)n * 8 + (uint64_t)table * 12;
	unsigned order = order_for(bytes);
	phys_addr_t pa = pmm_alloc_pages(order);
	if (!pa) {
		printk("aslr: not enough memory for %u samples\n", n);
		return 1;
	}
	uint64_t *v = __va(pa);
	uint64_t *scratch = v + (size_t)NR_OBJECTS * n;
	struct seen_set set = { scratch + n, (uint32_t *)(scratch + n + table), table - 1, 0 };
	memset(set.gen, 0, table * sizeof(uint32_t));

	static char discard[512];
	struct run_result res;
	unsigned done = 0, failed = 0;
	int last_status = 0;
	bool interrupted = false;
	unsigned flags = compat ? RUN_COMPAT : 0;

	printk("aslr sample: %u execs of", n);
	for (int i = 0; i < pargc; i++)
		printk(" %s", pargv[i]);
	printk(" (%s), vm.mmap_rnd%s_bits=%u, randomize_va_space=%d, legacy_va_layout=%d\n",
	       compat ? "compat" : "native", compat ? "_compat" : "", mmap_rnd_bits_for(compat),
	       randomize_va_space, legacy_va_layout);
	if (csv) {
		printk("exec");
		for (unsigned o = 0; o < NR_OBJECTS; o++)
			printk(",%s", object_names[o]);
		printk("\n");
	}
	uint64_t t0 = arch_cycles();
	for (; done < n; done++) {
		console_capture_begin(discard, sizeof(discard));
		process_run(prog, pargc, pargv, flags, &res);
		console_capture_end();
		if (res.status < 0) {
			printk("aslr: %s: exec failed: %s\n", pargv[0], strerror(-res.status));
			break;
		}
		if (res.status != 0) {
			failed++;
			last_status = res.status;
		}
		for (unsigned o = 0; o < NR_OBJECTS; o++)
			v[(size_t)o * n + done] = object_value(&res.exec, (enum object)o);
		if (csv) {
			printk("%u", done);
			for (unsigned o = 0; o < NR_OBJECTS; o++) {
				uint64_t x = v[(size_t)o * n + done];
				if (x)
					printk(",%#llx", (unsigned long long)x);
				else
					printk(",-");
			}
			printk("\n");
		}
		if ((done & 63) == 63 && console_interrupt_pending()) {
			interrupted = true;
			done++;
			break;
		}
	}
	uint64_t dt = arch_cycles() - t0;
	if (interrupted)
		printk("aslr: interrupted after %u of %u execs\n", done, n);
	printk("  execs          %u (%llu/s)%s", done,
	       (unsigned long long)(dt ? (uint64_t)done * arch_cycles_hz() / dt : 0),
	       failed ? "" : "\n");
	if (failed)
		printk(", %u ended with a non-zero status (last %d)\n", failed, last_status);
	if (done >= 2)
		report(v, n, done, &set, scratch);
	pmm_free_pages(pa, order);
	return interrupted ? 130 : 0;
}
