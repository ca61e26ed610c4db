/* `selftest`: KUnit-style suites run inside the real kernel on every preset, reported in KTAP
 * version 1 (Documentation/dev-tools/ktap.rst in Linux) so that a parser on the host can read
 * them (tests/serial/selftest.txt). They check, on the running format and memory, what the host
 * unit tests check on the host where the code is pure (tests/host/test_sysctl.c, test_layout.c,
 * test_pte.c, test_pgtable.c, test_pmm.c), with the same expectations. Nothing runs at boot:
 * only when the command is typed. */
#include <arch/memory.h>
#include <arch/mmu.h>
#include <kernel/kernel.h>
#include <mm/layout.h>
#include <lib/errno.h>
#include <lib/string.h>
#include <mm/pgtable.h>
#include <mm/pmm.h>
#include <kernel/selftest.h>
#include <kernel/shell.h>
#include <kernel/sysctl.h>

/* A case runs to its end; each failed expectation is a diagnostic line (the first few of a
 * case, so a broken encoder does not flood the console) and fails the case. */
#define MAX_DIAGNOSTICS 3

static const char *current_case;
static unsigned current_failures;

bool selftest_expect(bool ok, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	if (ok)
		return true;
	if (current_failures++ < MAX_DIAGNOSTICS) {
		printk("    # %s: EXPECTATION FAILED at %s:%d: ", current_case, file, line);
		va_start(ap, fmt);
		vprintk(fmt, ap);
		va_end(ap);
		printk("\n");
	}
	return false;
}

#define EXPECT(cond, ...) selftest_expect((cond), "kernel/selftest.c", __LINE__, __VA_ARGS__)

/* --- sysctl: proc_dointvec_minmax's write rule (kernel/proc_dointvec.c). -------------------- */

struct parse_case {
	const char *text;
	long ret;        /* bytes consumed, or -EINVAL */
	int value;       /* when ret >= 0 */
};

static void check_parse_cases(const struct parse_case *cases, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		const struct parse_case *c = &cases[i];
		int value = -1;
		long ret = dointvec_minmax_parse(c->text, strlen(c->text), 18, 33, &value);

		EXPECT(ret == c->ret && (ret < 0 || value == c->value),
		       "\"%s\" in [18, 33]: returned %ld value %d, want %ld value %d", c->text, ret,
		       value, c->ret, c->value);
	}
}

static void test_parse_accepted(void)
{
	static const struct parse_case cases[] = {
		{ "24\n", 3, 24 }, { " 24", 3, 24 }, { "24 25", 3, 24 }, { "0x18", 4, 24 },
		{ "030", 3, 24 }, { "\r24", 3, 24 }, { "  24  \n", 7, 24 },
	};

	check_parse_cases(cases, ARRAY_SIZE(cases));
}

static void test_parse_refused(void)
{
	static const struct parse_case cases[] = {
		{ "24\r\n", -EINVAL, 0 }, { "08", -EINVAL, 0 }, { "+24", -EINVAL, 0 },
		{ "-24", -EINVAL, 0 },    { "24abc", -EINVAL, 0 }, { "\n", -EINVAL, 0 },
		{ "", -EINVAL, 0 },       { "17", -EINVAL, 0 },  { "34", -EINVAL, 0 },
		{ "99999999999999999999", -EINVAL, 0 },
	};

	check_parse_cases(cases, ARRAY_SIZE(cases));
}

static const struct selftest_case sysctl_cases[] = {
	{ "accepted", test_parse_accepted },
	{ "refused", test_parse_refused },
};

/* --- layout: the mmap_base arithmetic (mm/layout.c). ---------------------------------------- */

static void test_rnd_offset(void)
{
	EXPECT(mmap_rnd_offset(~0ULL, 8, 12) == 0xff000, "8 bits of 4K pages: %#llx",
	       (unsigned long long)mmap_rnd_offset(~0ULL, 8, 12));
	EXPECT(mmap_rnd_offset(~0ULL, 0, 12) == 0, "0 bits");
	EXPECT(mmap_rnd_offset(0x123456789ULL, 33, 16) == 0x1234567890000ULL,
	       "33 bits of 64K pages: %#llx", (unsigned long long)mmap_rnd_offset(0x123456789ULL, 33, 16));
}

static void test_log2_centi(void)
{
	static const struct { uint64_t n; unsigned want; } cases[] = {
		{ 1, 0 }, { 2, 100 }, { 3, 158 }, { 1000, 997 }, { 47104, 1552 },
		{ 1ULL << 33, 3300 }, { ~0ULL, 6400 },
	};

	for (unsigned i = 0; i < ARRAY_SIZE(cases); i++)
		EXPECT(log2_centi(cases[i].n) == cases[i].want, "log2_centi(%llu) = %u, want %u",
		       (unsigned long long)cases[i].n, log2_centi(cases[i].n), cases[i].want);
}

/* Every width the knob accepts keeps mmap_base between TASK_UNMAPPED_BASE and the stack gap,
 * page aligned, top-down and bottom-up. */
static void check_ranges(bool compat, int min, int max)
{
	struct task_geometry g;

	task_geometry(compat, &g);
	for (int bits = min; bits <= max; bits++) {
		struct mmap_range r;
		uint64_t lowest, highest;

		mmap_range(&g, RLIMIT_STACK_DEFAULT, true, false, (unsigned)bits, &r);
		lowest = mmap_base_at(&r, r.max_rnd_pages);
		EXPECT(r.topdown && lowest >= g.unmapped_base && lowest <= r.base &&
		       (r.base & (PAGE_SIZE - 1)) == 0 && r.max_rnd_pages <= (1ULL << bits) - 1,
		       "%s %d bits top-down: base %#llx lowest %#llx below %#llx",
		       compat ? "compat" : "native", bits, (unsigned long long)r.base,
		       (unsigned long long)lowest, (unsigned long long)g.unmapped_base);
		mmap_range(&g, RLIMIT_STACK_DEFAULT, true, true, (unsigned)bits, &r);
		highest = mmap_base_at(&r, r.max_rnd_pages);
		EXPECT(!r.topdown && r.base == g.unmapped_base && highest <= g.stack_top - r.gap,
		       "%s %d bits bottom-up: base %#llx highest %#llx above %#llx",
		       compat ? "compat" : "native", bits, (unsigned long long)r.base,
		       (unsigned long long)highest, (unsigned long long)(g.stack_top - r.gap));
	}
}

static void test_ranges(void)
{
	check_ranges(false, CONFIG_ARCH_MMAP_RND_BITS_MIN, CONFIG_ARCH_MMAP_RND_BITS_MAX);
	if (CONFIG_COMPAT_ENABLED)
		check_ranges(true, CONFIG_ARCH_MMAP_RND_COMPAT_BITS_MIN,
			     CONFIG_ARCH_MMAP_RND_COMPAT_BITS_MAX);
}

static const struct selftest_case layout_cases[] = {
	{ "rnd_offset", test_rnd_offset },
	{ "log2_centi", test_log2_centi },
	{ "ranges", test_ranges },
};

/* --- pte: the running format's encoders (arch/<isa>/pte.c). --------------------------------- */

/* What a leaf asked for with prot must grant: R always, what the format always grants (i386:
 * X), and X may be withheld from device memory (arm's policy). */
static bool leaf_prot_ok(unsigned prot, unsigned got)
{
	unsigned want = prot | PT_R | arch_pt_geometry()->always_granted;

	if (prot & PT_DEVICE)
		return (got & ~PT_X) == (want & ~PT_X);
	return got == want;
}

/* Output addresses every format holds at a level: 0, one alignment unit, two typical ones. */
static unsigned test_addresses(uint64_t align, phys_addr_t *out)
{
	out[0] = 0;
	out[1] = (phys_addr_t)align;
	out[2] = (phys_addr_t)((0x52345678ULL) & ~(align - 1));
	out[3] = (phys_addr_t)((0x87654321ULL) & ~(align - 1));
	return 4;
}

static void test_leaf_round_trip(void)
{
	const struct pt_geometry *g = arch_pt_geometry();
	phys_addr_t pas[4];

	for (unsigned l = 0; l < g->levels; l++) {
		uint64_t align = 1ULL << g->shift[l];
		unsigned npa;

		if (!arch_pte_leaf_allowed(l))
			continue;
		npa = test_addresses(align < PAGE_SIZE ? PAGE_SIZE : align, pas);
		for (unsigned i = 0; i < npa; i++)
			for (unsigned prot = 0; prot < 64; prot++) {
				struct pte_info info;
				pte_t pte;

				if (!(prot & (PT_R | PT_W | PT_X)))
					continue; /* a mapping that grants nothing is not a mapping */
				pte = arch_pte_make_leaf(l, pas[i], prot);
				arch_pte_decode(l, pte, &info);
				EXPECT(info.kind == (l == g->levels - 1 ? PTE_PAGE : PTE_BLOCK) &&
				       info.pa == pas[i] && leaf_prot_ok(prot, info.prot),
				       "level %u pa %#llx prot %#x: pte %#llx decodes as kind %d pa %#llx prot %#x",
				       l, (unsigned long long)pas[i], prot, (unsigned long long)pte,
				       info.kind, (unsigned long long)info.pa, info.prot);
			}
	}
}

static void test_table_round_trip(void)
{
	const struct pt_geometry *g = arch_pt_geometry();
	phys_addr_t pas[4];

	for (unsigned l = 0; l + 1 < g->levels; l++) {
		unsigned npa = test_addresses(g->table_bytes[l + 1], pas);

		for (unsigned i = 0; i < npa; i++) {
			struct pte_info info;
			pte_t pte = arch_pte_make_table(l, pas[i]);

			arch_pte_decode(l, pte, &info);
			EXPECT(info.kind == PTE_TABLE && info.pa == pas[i],
			       "level %u table at %#llx: pte %#llx decodes as kind %d pa %#llx", l,
			       (unsigned long long)pas[i], (unsigned long long)pte, info.kind,
			       (unsigned long long)info.pa);
		}
	}
}

static void test_invalid(void)
{
	const struct pt_geometry *g = arch_pt_geometry();

	for (unsigned l = 0; l < g->levels; l++) {
		struct pte_info info;

		arch_pte_decode(l, 0, &info);
		EXPECT(info.kind == PTE_INVALID, "level %u: a zero descriptor decodes as kind %d", l,
		       info.kind);
	}
}

static const struct selftest_case pte_cases[] = {
	{ "leaf_round_trip", test_leaf_round_trip },
	{ "table_round_trip", test_table_round_trip },
	{ "invalid", test_invalid },
};

/* --- pgtable: mm/pgtable.c on a scratch root of the running format, and the frame allocator.
 * The root is never switched to; what it maps is frames this test allocated. ------------------ */

static uint64_t free_frames(void)
{
	struct pmm_stats st;

	pmm_get_stats(&st);
	return st.free;
}

/* The end of what a root of this format translates (the scratch root has no kernel half). */
static uint64_t root_reach(void)
{
	const struct pt_geometry *g = arch_pt_geometry();

	return (uint64_t)g->entries[0] << g->shift[0];
}

static void expect_maps(phys_addr_t root, uintptr_t va, phys_addr_t pa, unsigned prot)
{
	const struct pt_geometry *g = arch_pt_geometry();
	struct pt_walk_result w = { 0 };

	pt_walk(root, va, &w);
	EXPECT(w.mapped && w.pa == pa && w.nr_steps == g->levels && leaf_prot_ok(prot, w.prot),
	       "walk of %#lx: mapped %d pa %#llx (want %#llx) steps %u (want %u) prot %#x",
	       (unsigned long)va, w.mapped, (unsigned long long)w.pa, (unsigned long long)pa,
	       w.nr_steps, g->levels, w.prot);
	for (unsigned s = 1; s < w.nr_steps; s++)
		EXPECT(w.steps[s].level == s && w.steps[s - 1].info.kind == PTE_TABLE &&
		       w.steps[s - 1].info.pa == w.steps[s].table_pa,
		       "walk of %#lx: step %u does not follow the table of step %u", (unsigned long)va, s,
		       s - 1);
}

/* The test's own unmap, one visit (the kernel's is the VMA layer's): every leaf in [va, va +
 * size) removed, their frames left alone, the tables left empty freed. Returns the leaves
 * removed. */
static int clear_leaf(const struct pt_leaf *l, void *ctx)
{
	pt_leaf_store(l, 0);
	pt_leaf_flush(l);
	(*(unsigned *)ctx)++;
	return 0;
}

static unsigned unmap_leaves(phys_addr_t root, uint64_t va, uint64_t size)
{
	const struct pt_visit_ops ops = { .leaf = clear_leaf, .flags = PT_VISIT_FREE_EMPTY };
	unsigned removed = 0;

	pt_visit(root, va, va + (size - 1), &ops, &removed);
	return removed;
}

/* Two pages on either side of a last-level table boundary: both walk to their frames through
 * every level, unmapping them leaves nothing mapped, and tearing the root down gives every
 * frame back. */
static void test_map_walk_unmap(void)
{
	const struct pt_geometry *g = arch_pt_geometry();
	const unsigned prot = PT_R | PT_W | PT_USER;
	uint64_t before = free_frames();
	uintptr_t va = (uintptr_t)((2ULL << g->shift[g->levels - 2]) - PAGE_SIZE);
	phys_addr_t root = pt_alloc_table(0);
	phys_addr_t frames[2] = { pmm_alloc_page(), pmm_alloc_page() };
	struct pt_walk_result w = { 0 };

	if (!EXPECT(root && frames[0] && frames[1], "out of memory"))
		goto out;
	for (unsigned i = 0; i < 2; i++) {
		int err = pt_map(root, va + i * PAGE_SIZE, frames[i], PAGE_SIZE, prot, 0);

		EXPECT(err == 0, "pt_map %#lx: %d", (unsigned long)(va + i * PAGE_SIZE), err);
	}
	EXPECT(pt_map(root, va, frames[1], PAGE_SIZE, prot, 0) == -EEXIST,
	       "mapping over a leaf is not -EEXIST");
	for (unsigned i = 0; i < 2; i++)
		expect_maps(root, va + i * PAGE_SIZE, frames[i], prot);
	EXPECT(unmap_leaves(root, va, 2 * PAGE_SIZE) == 2, "unmap did not remove 2 leaves");
	for (unsigned i = 0; i < 2; i++) {
		pt_walk(root, va + i * PAGE_SIZE, &w);
		EXPECT(!w.mapped, "%#lx still mapped after unmap", (unsigned long)(va + i * PAGE_SIZE));
	}
out:
	if (root) {
		unmap_leaves(root, 0, root_reach());
		pt_free_root(root);
	}
	for (unsigned i = 0; i < 2; i++)
		if (frames[i])
			pmm_free_page(frames[i]);
	EXPECT(free_frames() == before, "free frames %llu after, %llu before",
	       (unsigned long long)free_frames(), (unsigned long long)before);
}

/* Allocations of 1 to 8 frames are aligned to their size, zeroed, distinct, and freeing them
 * restores the free count exactly. */
static void test_frames(void)
{
	uint64_t before = free_frames();
	phys_addr_t pa[4];

	for (unsigned order = 0; order < 4; order++) {
		uint64_t size = (uint64_t)PAGE_SIZE << order;
		const uint8_t *p;

		pa[order] = pmm_alloc_pages(order);
		if (!EXPECT(pa[order] != 0, "order %u: out of memory", order))
			continue;
		p = __va(pa[order]);
		EXPECT((pa[order] & (size - 1)) == 0, "order %u at %#llx: not aligned", order,
		       (unsigned long long)pa[order]);
		EXPECT(p[0] == 0 && p[size - 1] == 0, "order %u at %#llx: not zeroed", order,
		       (unsigned long long)pa[order]);
		for (unsigned k = 0; k < order; k++)
			EXPECT(pa[k] != pa[order], "order %u and %u both at %#llx", k, order,
			       (unsigned long long)pa[order]);
	}
	EXPECT(free_frames() + 15 == before, "15 frames taken: free %llu, was %llu",
	       (unsigned long long)free_frames(), (unsigned long long)before);
	for (unsigned order = 0; order < 4; order++)
		if (pa[order])
			pmm_free_pages(pa[order], order);
	EXPECT(free_frames() == before, "free frames %llu after, %llu before",
	       (unsigned long long)free_frames(), (unsigned long long)before);
}

static const struct selftest_case pgtable_cases[] = {
	{ "map_walk_unmap", test_map_walk_unmap },
	{ "frames", test_frames },
};

/* --- The runner. ------------------------------------------------------------------------------ */

#define SUITE(n, c) { .name = (n), .cases = (c), .nr_cases = ARRAY_SIZE(c) }

static const struct selftest_suite suites[] = {
	SUITE("sysctl_parse", sysctl_cases),
	SUITE("layout", layout_cases),
	SUITE("pte", pte_cases),
	SUITE("pgtable", pgtable_cases),
	SUITE("fork", fork_cases), /* kernel/selftest_fork.c */
};

static const struct selftest_suite *find_suite(const char *name)
{
	for (unsigned i = 0; i < ARRAY_SIZE(suites); i++)
		if (strcmp(suites[i].name, name) == 0)
			return &suites[i];
	return NULL;
}

/* One suite as a KTAP subtest; returns how many of its cases failed. */
static unsigned run_suite(unsigned number, const struct selftest_suite *s)
{
	unsigned failed = 0;

	printk("    KTAP version 1\n    # Subtest: %s\n    1..%u\n", s->name, s->nr_cases);
	for (unsigned i = 0; i < s->nr_cases; i++) {
		current_case = s->cases[i].name;
		current_failures = 0;
		s->cases[i].run();
		if (current_failures > MAX_DIAGNOSTICS)
			printk("    # %s: %u more failed expectations\n", current_case,
			       current_failures - MAX_DIAGNOSTICS);
		printk("    %sok %u %s\n", current_failures ? "not " : "", i + 1, current_case);
		failed += current_failures != 0;
	}
	printk("%sok %u %s\n", failed ? "not " : "", number, s->name);
	return failed;
}

int selftest_run(int argc, char **argv)
{
	const struct selftest_suite *chosen[ARRAY_SIZE(suites)];
	unsigned n = 0, cases = 0, failed = 0;

	for (int i = 1; i < argc; i++) {
		const struct selftest_suite *s = find_suite(argv[i]);

		if (!s || n == ARRAY_SIZE(chosen)) {
			printk("selftest: %s: no such suite (suites:", argv[i]);
			for (unsigned k = 0; k < ARRAY_SIZE(suites); k++)
				printk(" %s", suites[k].name);
			printk(")\n");
			return 2;
		}
		chosen[n++] = s;
	}
	if (n == 0)
		for (; n < ARRAY_SIZE(suites); n++)
			chosen[n] = &suites[n];
	printk("KTAP version 1\n1..%u\n", n);
	for (unsigned i = 0; i < n; i++) {
		failed += run_suite(i + 1, chosen[i]);
		cases += chosen[i]->nr_cases;
	}
	printk("# selftest: pass:%u fail:%u total:%u\n", cases - failed, failed, cases);
	return failed ? 1 : 0;
}

SHELL_COMMAND(selftest, "selftest", "selftest [SUITE]...   in-kernel unit tests, KTAP output",
	      selftest_run);
