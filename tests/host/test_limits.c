/* The mmap_rnd limits of every preset, as cmake/limits.cmake writes them into each preset's
 * config.h, against the table in DESIGN.md section 3 (copied here literally: the spec).
 * Also checks arm64's rule max = VA_BITS - PAGE_SHIFT - 3 and that the defaults are the
 * minimum, and that CMakePresets.json has exactly the twelve presets of the table. */
#include "preset_limits.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#define PRESET(id) extern const struct preset_limits preset_limits_##id;
#include "preset_list.h"
#undef PRESET

static const struct preset_limits *const generated[] = {
#define PRESET(id) &preset_limits_##id,
#include "preset_list.h"
#undef PRESET
};

/* DESIGN.md section 3: preset, page size, mmap_rnd_bits min..max, compat min..max (0 = none). */
static const struct {
	const char *preset;
	unsigned page_kib;
	int min, max, cmin, cmax;
} design[] = {
	{ "arm-vmsplit-3g", 4, 8, 16, 0, 0 },
	{ "arm-vmsplit-2g", 4, 8, 15, 0, 0 },
	{ "arm-vmsplit-1g", 4, 8, 14, 0, 0 },
	{ "arm64-4k-va39", 4, 18, 24, 11, 16 },
	{ "arm64-4k-va48", 4, 18, 33, 11, 16 },
	{ "arm64-16k-va36", 16, 16, 19, 9, 16 },
	{ "arm64-16k-va47", 16, 16, 30, 9, 16 },
	{ "arm64-16k-va48", 16, 16, 31, 9, 16 },
	{ "arm64-64k-va42", 64, 14, 23, 7, 16 },
	{ "arm64-64k-va48", 64, 14, 29, 7, 16 },
	{ "x86", 4, 8, 16, 0, 0 },
	{ "x86_64", 4, 28, 32, 8, 16 },
};

static const struct preset_limits *find_generated(const char *name)
{
	for (size_t i = 0; i < sizeof(generated) / sizeof(generated[0]); i++)
		if (!strcmp(generated[i]->preset, name))
			return generated[i];
	return NULL;
}

static void test_same_presets(void **state)
{
	assert_int_equal(sizeof(generated) / sizeof(generated[0]), sizeof(design) / sizeof(design[0]));
	for (size_t i = 0; i < sizeof(design) / sizeof(design[0]); i++)
		if (!find_generated(design[i].preset))
			fail_msg("DESIGN.md preset %s is not in CMakePresets.json", design[i].preset);
}

static void test_limits_match_design(void **state)
{
	for (size_t i = 0; i < sizeof(design) / sizeof(design[0]); i++) {
		const struct preset_limits *g = find_generated(design[i].preset);

		assert_non_null(g);
		printf("%-16s page %2uK  bits %2d..%2d (default %2d)", g->preset,
		       1u << (g->page_shift - 10), g->rnd_min, g->rnd_max, g->rnd_default);
		if (g->compat)
			printf("  compat %2d..%2d (default %2d)", g->compat_min, g->compat_max,
			       g->compat_default);
		printf("\n");
		assert_int_equal(1u << (g->page_shift - 10), design[i].page_kib);
		assert_int_equal(g->rnd_min, design[i].min);
		assert_int_equal(g->rnd_max, design[i].max);
		assert_int_equal(g->rnd_default, design[i].min);
		assert_int_equal(g->compat, design[i].cmax != 0);
		if (g->compat) {
			assert_int_equal(g->compat_min, design[i].cmin);
			assert_int_equal(g->compat_max, design[i].cmax);
			assert_int_equal(g->compat_default, design[i].cmin);
		}
	}
}

static void test_arm64_rule(void **state)
{
	for (size_t i = 0; i < sizeof(generated) / sizeof(generated[0]); i++) {
		const struct preset_limits *g = generated[i];

		if (strcmp(g->isa, "arm64"))
			continue;
		assert_int_equal(g->bits, 64);
		assert_int_equal(g->rnd_max, g->va_bits - g->page_shift - 3);
	}
}

/* The split presets carry the PAGE_OFFSET their name says. */
static void test_page_offsets(void **state)
{
	assert_int_equal(find_generated("arm-vmsplit-3g")->page_offset, 0xC0000000ULL);
	assert_int_equal(find_generated("arm-vmsplit-2g")->page_offset, 0x80000000ULL);
	assert_int_equal(find_generated("arm-vmsplit-1g")->page_offset, 0x40000000ULL);
	assert_int_equal(find_generated("x86")->page_offset, 0xC0000000ULL);
	assert_int_equal(find_generated("x86")->bits, 32);
	assert_int_equal(find_generated("x86_64")->bits, 64);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_presets),
		cmocka_unit_test(test_limits_match_design),
		cmocka_unit_test(test_arm64_rule),
		cmocka_unit_test(test_page_offsets),
	};

	return cmocka_run_group_tests_name("limits", tests, NULL, NULL);
}
