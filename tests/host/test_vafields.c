/* lib/vafields.c over each preset's real page-table geometry (its pte.c): the fields tile the
 * address from its top bit to bit 0, match the architecture's documented split, and the
 * touched/differ arithmetic marks exactly the fields the bits fall in. */
#include "lib_under_test.h"
#include <lib/vafields.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

/* The width the architecture documents for this preset's user addresses. */
static unsigned expected_width(void)
{
#if defined(CONFIG_ISA_ARM64)
	return CONFIG_VA_BITS;
#elif defined(CONFIG_64BIT)
	return 48;
#else
	return 32;
#endif
}

static void check_tiling(const struct va_field *f, unsigned n, unsigned width)
{
	assert_int_equal(f[0].hi, width - 1);
	for (unsigned i = 0; i + 1 < n; i++)
		assert_int_equal(f[i].lo, f[i + 1].hi + 1);
	assert_int_equal(f[n - 1].lo, 0);
	assert_int_equal(f[n - 1].level, VA_OFFSET);
	assert_int_equal(f[n - 1].hi, CONFIG_PAGE_SHIFT - 1);
}

static void test_tiling(void **state)
{
	const struct pt_geometry *geo = arch_pt_geometry();
	struct va_field f[VA_FIELDS_MAX];
	unsigned n = va_fields(geo, va_width(geo), f);

	assert_int_equal(va_width(geo), expected_width());
	assert_int_equal(n, geo->levels + 1);
	check_tiling(f, n, expected_width());
	for (unsigned i = 0; i + 1 < n; i++)
		assert_int_equal(f[i].level, (int)i);
	/* A 32-bit task on the same tables: the root's index is cut at bit 31 (or dropped). */
	n = va_fields(geo, 32, f);
	check_tiling(f, n, 32);
}

/* The split the architecture manuals give, written out for the default presets. */
static void test_known_splits(void **state)
{
	const struct pt_geometry *geo = arch_pt_geometry();
	struct va_field f[VA_FIELDS_MAX];
	unsigned n = va_fields(geo, va_width(geo), f);
	char text[128] = "";
	size_t len = 0;

	for (unsigned i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%u..%u", i ? " " : "",
					f[i].hi, f[i].lo);
	if (strcmp(CONFIG_PRESET, "arm64-4k-va48") == 0 || strcmp(CONFIG_PRESET, "x86_64") == 0)
		assert_string_equal(text, "47..39 38..30 29..21 20..12 11..0");
	else if (strcmp(CONFIG_PRESET, "arm64-4k-va39") == 0)
		assert_string_equal(text, "38..30 29..21 20..12 11..0");
	else if (strcmp(CONFIG_PRESET, "arm64-16k-va47") == 0)
		assert_string_equal(text, "46..36 35..25 24..14 13..0");
	else if (strcmp(CONFIG_PRESET, "arm64-16k-va48") == 0)
		assert_string_equal(text, "47..47 46..36 35..25 24..14 13..0");
	else if (strcmp(CONFIG_PRESET, "arm64-16k-va36") == 0)
		assert_string_equal(text, "35..25 24..14 13..0");
	else if (strcmp(CONFIG_PRESET, "arm64-64k-va42") == 0)
		assert_string_equal(text, "41..29 28..16 15..0");
	else if (strcmp(CONFIG_PRESET, "arm64-64k-va48") == 0)
		assert_string_equal(text, "47..42 41..29 28..16 15..0");
	else if (strcmp(CONFIG_ISA, "arm") == 0)
		assert_string_equal(text, "31..20 19..12 11..0");
	else if (strcmp(CONFIG_PRESET, "x86") == 0)
		assert_string_equal(text, "31..22 21..12 11..0");
	else
		fail_msg("no documented split for %s", CONFIG_PRESET);

	/* The line aslr info and pt walk --compare print; cut short safely in a small buffer. */
	char layout[128], small[10];
	va_fields_layout(f, n, layout, sizeof(layout));
	if (strcmp(CONFIG_PRESET, "arm64-4k-va48") == 0)
		assert_string_equal(layout, "47..39 L0 | 38..30 L1 | 29..21 L2 | 20..12 L3 | 11..0 offset");
	assert_true(strlen(layout) < sizeof(layout) - 1);
	va_fields_layout(f, n, small, sizeof(small));
	assert_int_equal(strncmp(small, layout, sizeof(small) - 1), 0);
}

static void test_touched_and_differ(void **state)
{
	const struct pt_geometry *geo = arch_pt_geometry();
	struct va_field f[VA_FIELDS_MAX];
	unsigned n = va_fields(geo, va_width(geo), f);
	char names[64];

	/* Bits inside the last level's index only: exactly that level. */
	unsigned last = n - 2;
	assert_int_equal(va_fields_touched(f, n, f[last].lo, f[last].hi), 1u << last);
	assert_int_equal(va_fields_touched(f, n, 5, 4), 0);
	/* One bit above the last index reaches the level above. */
	assert_int_equal(va_fields_touched(f, n, CONFIG_PAGE_SHIFT, f[last].hi + 1),
			 (1u << last) | (1u << (last - 1)));
	/* Every bit: every field. */
	assert_int_equal(va_fields_touched(f, n, 0, va_width(geo) - 1), (1u << n) - 1);
	va_fields_names(f, n, 1u << last | 1u << (n - 1), names, sizeof(names));
	char want[32];
	snprintf(want, sizeof(want), "L%u,offset", last);
	assert_string_equal(names, want);
	va_fields_names(f, n, 0, names, sizeof(names));
	assert_string_equal(names, "-");

	/* Two addresses one page apart differ in the last level (unless it wraps); the same
	 * address differs nowhere; the top bit differs in the root only. */
	uint64_t a = 1ULL << f[last].lo;
	assert_int_equal(va_fields_differ(f, n, a, 2 * a), 1u << last);
	assert_int_equal(va_fields_differ(f, n, a, a), 0);
	assert_int_equal(va_fields_differ(f, n, 0, 1ULL << f[0].hi), 1u);
	assert_int_equal(va_field_value(&f[last], 5 * a + 7), 5);

	assert_int_equal(va_bits_of_range(1), 0);
	assert_int_equal(va_bits_of_range(256), 8);
	assert_int_equal(va_bits_of_range(1ULL << 33), 33);
	assert_int_equal(va_bits_of_range(300), 9);
}

static void test_tables_needed(void **state)
{
	const struct pt_geometry *geo = arch_pt_geometry();
	uint64_t bytes, page = 1ULL << CONFIG_PAGE_SHIFT;

	/* One page: one table per level. Two pages side by side: the same. */
	uint64_t one[2] = { 16 * page, 17 * page };
	assert_int_equal(va_tables_needed(geo, one, 1, &bytes), geo->levels);
	assert_int_equal(va_tables_needed(geo, one, 2, &bytes), geo->levels);
	uint64_t sum = 0;
	for (unsigned l = 0; l < geo->levels; l++)
		sum += geo->table_bytes[l];
	assert_int_equal(bytes, sum);
	/* Two pages in different root entries: the root shared, every level below doubled. */
	uint64_t apart[2] = { 0, 1ULL << geo->shift[0] };
	assert_int_equal(va_tables_needed(geo, apart, 2, &bytes), 2 * geo->levels - 1);
	/* Apart by one last-level table's reach: only the last level doubles. */
	if (geo->levels >= 2) {
		uint64_t near[2] = { 0, 1ULL << geo->shift[geo->levels - 2] };
		assert_int_equal(va_tables_needed(geo, near, 2, &bytes), geo->levels + 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tiling),
		cmocka_unit_test(test_known_splits),
		cmocka_unit_test(test_touched_and_differ),
		cmocka_unit_test(test_tables_needed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
