/* mm/layout.c for one preset (compiled once per preset with its config.h and arch headers):
 * Linux's mmap_base arithmetic against the worked examples measured on Linux, the gap clamp and
 * its guards, the no-wrap rule, and arch_mmap_rnd() at every width the preset allows. */
#include "lib_under_test.h"
#include <arch/memory.h>
#include <asm/layout.h>
#include <mm/layout.h>
#include <kernel/random.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static struct chacha_rng rng;

uint64_t get_random_u64(void)
{
	return chacha_rng_u64(&rng);
}

static void seed(unsigned s)
{
	uint8_t b[4] = { (uint8_t)s, (uint8_t)(s >> 8), 0x5a, 0xa5 };
	chacha_rng_init(&rng, b, sizeof(b));
}

struct example {
	const char *preset;
	bool compat;
	bool randomize;
	uint64_t top;
};

/* DESIGN.md's worked examples (Linux 6.1 under QEMU, rlimit 8 MiB), and the arm splits by the
 * same formula. */
static const struct example examples[] = {
	{ "arm64-4k-va48", false, true, 0xffffbf701000ULL },
	{ "arm64-4k-va48", false, false, 0xfffff8000000ULL },
	{ "arm64-4k-va48", true, true, 0xf7ff0000ULL },
	{ "x86_64", false, true, 0x7ffbff700000ULL },
	{ "x86_64", true, true, 0xf7ffe000ULL },
	{ "arm-vmsplit-3g", false, true, 0xb7000000ULL },
	{ "arm-vmsplit-2g", false, true, 0x77000000ULL },
	{ "arm-vmsplit-1g", false, true, 0x37000000ULL },
	{ "x86", false, true, 0xb8000000ULL },
};

static void test_worked_examples(void **state)
{
	int checked = 0;

	for (size_t i = 0; i < sizeof(examples) / sizeof(examples[0]); i++) {
		const struct example *e = &examples[i];
		struct task_geometry g;
		struct mmap_range r;
		if (strcmp(e->preset, CONFIG_PRESET) != 0)
			continue;
		task_geometry(e->compat, &g);
		mmap_range(&g, RLIMIT_STACK_DEFAULT, e->randomize, false, 8, &r);
		assert_true(r.topdown);
		if (r.base != e->top)
			fail_msg("%s compat=%d randomize=%d: top %#llx, want %#llx", e->preset,
				 e->compat, e->randomize, (unsigned long long)r.base,
				 (unsigned long long)e->top);
		assert_int_equal(mmap_base_at(&r, 0), e->top);
		checked++;
	}
	(void)checked; /* presets without a worked example are covered by the invariants */
}

/* For every width: the full 2^bits - 1 pages of offset are available, except where the room
 * above TASK_UNMAPPED_BASE is smaller (only 64K pages + compat among the presets). */
static void check_ranges(bool compat, int min, int max)
{
	struct task_geometry g;
	task_geometry(compat, &g);
	for (int bits = min; bits <= max; bits++) {
		struct mmap_range r;
		mmap_range(&g, RLIMIT_STACK_DEFAULT, true, false, (unsigned)bits, &r);
		uint64_t full = (1ULL << bits) - 1;
		uint64_t lowest = mmap_base_at(&r, r.max_rnd_pages);
		assert_true(lowest >= g.unmapped_base);
		assert_true(lowest <= r.base);
		assert_int_equal(r.base % PAGE_SIZE, 0);
		if (r.max_rnd_pages != full) {
			assert_true(r.max_rnd_pages < full);
			assert_int_equal(PAGE_SHIFT, 16); /* only 64K pages run out of room */
			assert_true(compat);
		}
		/* Bottom-up: from TASK_UNMAPPED_BASE upwards, never into the stack gap. */
		mmap_range(&g, RLIMIT_STACK_DEFAULT, true, true, (unsigned)bits, &r);
		assert_false(r.topdown);
		assert_int_equal(r.base, g.unmapped_base);
		assert_true(mmap_base_at(&r, r.max_rnd_pages) <= g.stack_top - r.gap);
	}
}

static void test_ranges(void **state)
{
	check_ranges(false, CONFIG_ARCH_MMAP_RND_BITS_MIN, CONFIG_ARCH_MMAP_RND_BITS_MAX);
#ifdef CONFIG_COMPAT
	check_ranges(true, CONFIG_ARCH_MMAP_RND_COMPAT_BITS_MIN, CONFIG_ARCH_MMAP_RND_COMPAT_BITS_MAX);
#endif
}

/* The 64K/compat corner: 2^16 pages of 64 KiB would be the whole 4 GiB; Linux's arithmetic
 * would wrap mmap_base. Here the room is 47104 pages, 15.52 bits, drawn uniformly. */
static void test_64k_compat_room(void **state)
{
#if defined(CONFIG_COMPAT) && CONFIG_PAGE_SHIFT == 16 && defined(CONFIG_ISA_ARM64)
	struct task_geometry g;
	struct mmap_range r;
	task_geometry(true, &g);
	assert_int_equal(g.unmapped_base, 0x40000000);
	mmap_range(&g, RLIMIT_STACK_DEFAULT, true, false, 16, &r);
	assert_int_equal(r.base, 0xf7ff0000ULL);
	assert_int_equal(r.max_rnd_pages, 47103);
	assert_int_equal(log2_centi(r.max_rnd_pages + 1), 1552);
	mmap_rnd_compat_bits = 16;
	randomize_va_space = 2;
	seed(7);
	uint64_t lo = UINT64_MAX, hi = 0;
	for (int i = 0; i < 20000; i++) {
		uint64_t p = mmap_draw_rnd_pages(&r, true);
		assert_true(p <= r.max_rnd_pages);
		lo = p < lo ? p : lo;
		hi = p > hi ? p : hi;
	}
	assert_true(lo < 50 && hi > r.max_rnd_pages - 50);
	mmap_rnd_compat_bits = CONFIG_ARCH_MMAP_RND_COMPAT_BITS;
#else
	skip();
#endif
}

/* mmap_rnd at every width: below 2^bits pages, page aligned, each of the bits seen set
 * and clear, nothing above. */
static void check_widths(bool compat, int *knob, int min, int max)
{
	int saved = *knob;
	randomize_va_space = 2;
	for (int bits = min; bits <= max; bits++) {
		*knob = bits;
		seed((unsigned)bits);
		uint64_t seen_set = 0, seen_clear = 0;
		uint64_t mask = ((1ULL << bits) - 1) << PAGE_SHIFT;
		for (int i = 0; i < 2048; i++) {
			uint64_t v = arch_mmap_rnd(compat);
			assert_int_equal(v & (PAGE_SIZE - 1), 0);
			assert_int_equal(v & ~mask, 0);
			seen_set |= v;
			seen_clear |= ~v;
		}
		if ((seen_set & mask) != mask || (seen_clear & mask) != mask)
			fail_msg("bits=%d: some bit never varied (set %#llx clear %#llx)", bits,
				 (unsigned long long)seen_set, (unsigned long long)seen_clear);
	}
	randomize_va_space = 0;
	assert_int_equal(arch_mmap_rnd(compat), 0);
	randomize_va_space = 2;
	*knob = saved;
}

static void test_arch_mmap_rnd_widths(void **state)
{
	check_widths(false, &mmap_rnd_bits, CONFIG_ARCH_MMAP_RND_BITS_MIN,
		     CONFIG_ARCH_MMAP_RND_BITS_MAX);
#ifdef CONFIG_COMPAT
	check_widths(true, &mmap_rnd_compat_bits, CONFIG_ARCH_MMAP_RND_COMPAT_BITS_MIN,
		     CONFIG_ARCH_MMAP_RND_COMPAT_BITS_MAX);
#endif
}

/* The clamp's guards: MIN_GAP only applies where it is below MAX_GAP, and an rlimit near
 * RLIM_INFINITY must not overflow gap + pad. */
static void test_gap_guards(void **state)
{
	struct task_geometry g = {
		.task_size = 96ULL << 20, .stack_top = 96ULL << 20, .stack_rnd_mask = 0x7ff,
		.unmapped_base = 32ULL << 20, .guard_gap = 256ULL << PAGE_SHIFT,
	};
	struct mmap_range r;

	/* MAX_GAP = 80 MiB < MIN_GAP: a small gap stays small instead of becoming 128 MiB. */
	mmap_range(&g, 1ULL << 20, false, false, 8, &r);
	assert_int_equal(r.gap, (1ULL << 20) + g.guard_gap);
	/* A gap above MAX_GAP is cut down to it. */
	mmap_range(&g, 90ULL << 20, false, false, 8, &r);
	assert_int_equal(r.gap, 96ULL / 6 * 5 << 20);

	task_geometry(false, &g);
	mmap_range(&g, RLIM_INFINITY, true, false, 8, &r);
	assert_int_equal(r.gap, g.stack_top / 6 * 5); /* no overflow: clamped to MAX_GAP */
	assert_int_equal(r.topdown, !MMAP_LEGACY_IF_UNLIMITED_STACK);
	mmap_range(&g, RLIM_INFINITY - 4096, true, false, 8, &r);
	assert_int_equal(r.gap, g.stack_top / 6 * 5);
}

/* setup_arg_pages: arch_align_stack's lowering moves the VMA's end down a page once it and the
 * 16-byte alignment reach a whole page (x86's 8 KiB: 0, 1 or 2 pages; arm64's under a page: 0,
 * or 1 in the last 15 bytes); the VMA is the strings' pages plus 128 KiB: 132 KiB with 4K. */
static void test_stack_vma(void **state)
{
	const uint64_t top = 0x7ffffffff000ULL & ~((uint64_t)PAGE_SIZE - 1);

	assert_int_equal(stack_vma_end(top, 0, 16), top);
	assert_int_equal(stack_vma_end(top, 1, 16), top);
	assert_int_equal(stack_vma_end(top, PAGE_SIZE - 16, 16), top);
	assert_int_equal(stack_vma_end(top, PAGE_SIZE - 15, 16), top - PAGE_SIZE);
	assert_int_equal(stack_vma_end(top, PAGE_SIZE, 16), top - PAGE_SIZE);
	assert_int_equal(stack_vma_end(top, 2 * PAGE_SIZE - 16, 16), top - PAGE_SIZE);
	assert_int_equal(stack_vma_end(top, 2 * PAGE_SIZE - 1, 16), top - 2 * PAGE_SIZE);
	assert_int_equal(stack_vma_end(top, PAGE_SIZE - 1, 1), top);
	assert_int_equal(stack_vma_end(top, 0, 1), top);
	assert_int_equal(top - stack_vma_start(top, 0x40), PAGE_SIZE + (128 << 10));
	assert_int_equal(top - stack_vma_start(top, PAGE_SIZE), PAGE_SIZE + (128 << 10));
	assert_int_equal(top - stack_vma_start(top, PAGE_SIZE + 1), 2 * PAGE_SIZE + (128 << 10));
	if (PAGE_SIZE == 4096)
		assert_int_equal(top - stack_vma_start(top, 0x40), 132 << 10);
}

/* load_elf_binary's brk: a static PIE at ELF_ET_DYN_BASE (page aligned) with or without
 * randomization, anything else right after its image, or a page later when brk is randomized
 * (the 6.1.y "Leave a gap between .bss and brk" backport). */
static void test_elf_brk_base(void **state)
{
	const uint64_t end = 0x4b0000; /* a 64K multiple: page aligned on every preset */

	assert_int_equal(elf_brk_base(end, false, 0x555555554aaaULL, false), end);
	assert_int_equal(elf_brk_base(end - 1, false, 0x555555554aaaULL, false), end);
	assert_int_equal(elf_brk_base(end, false, 0x555555554aaaULL, true), end + PAGE_SIZE);
	assert_int_equal(elf_brk_base(0x7ffff7fff000ULL, true, 0x555555554aaaULL, false),
			 (0x555555554aaaULL + PAGE_SIZE - 1) & ~((uint64_t)PAGE_SIZE - 1));
	assert_int_equal(elf_brk_base(0x7ffff7fff000ULL, true, 0x555555554aaaULL, true),
			 elf_brk_base(0, true, 0x555555554aaaULL, false));
}

static void test_log2_centi(void **state)
{
	assert_int_equal(log2_centi(1), 0);
	assert_int_equal(log2_centi(2), 100);
	assert_int_equal(log2_centi(3), 158);
	assert_int_equal(log2_centi(1000), 997);
	assert_int_equal(log2_centi(47104), 1552);
	assert_int_equal(log2_centi(1ULL << 33), 3300);
	assert_int_equal(log2_centi(UINT64_MAX), 6400);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_worked_examples),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_64k_compat_room),
		cmocka_unit_test(test_arch_mmap_rnd_widths),
		cmocka_unit_test(test_gap_guards),
		cmocka_unit_test(test_log2_centi),
		cmocka_unit_test(test_stack_vma),
		cmocka_unit_test(test_elf_brk_base),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
