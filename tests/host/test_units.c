/* lib/units.c: sizes and durations scale to the unit a reader expects. */
#include "lib_under_test.h"
#include <lib/units.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

static void expect_bytes(uint64_t v, const char *want)
{
	char buf[UNITS_MAX];

	units_bytes(buf, sizeof(buf), v);
	if (strcmp(buf, want) != 0)
		fail_msg("units_bytes(%llu) = \"%s\", want \"%s\"", (unsigned long long)v, buf, want);
}

static void expect_duration(uint64_t tenths, const char *want)
{
	char buf[UNITS_MAX];

	units_duration(buf, sizeof(buf), tenths);
	if (strcmp(buf, want) != 0)
		fail_msg("units_duration(%llu) = \"%s\", want \"%s\"", (unsigned long long)tenths, buf,
			 want);
}

static void test_bytes(void **state)
{
	expect_bytes(0, "0 bytes");
	expect_bytes(1023, "1023 bytes");
	expect_bytes(1024, "1.0 KiB");
	expect_bytes(1536, "1.5 KiB");
	expect_bytes(4096, "4.0 KiB");
	expect_bytes((1ULL << 20) - 1, "1.0 MiB"); /* rounds to 1024.0 KiB: the next unit */
	expect_bytes((1ULL << 20) - 60 * 1024, "964.0 KiB");
	expect_bytes(0x3ffff000, "1.0 GiB"); /* arm64's largest 18-bit offset */
	expect_bytes(1ULL << 20, "1.0 MiB");
	expect_bytes(3ULL << 29, "1.5 GiB");
	/* The 64-bit trade-off's old "268433394 MiB": */
	expect_bytes(268433394ULL << 20, "256.0 TiB");
	expect_bytes(1ULL << 47, "128.0 TiB");
	expect_bytes(1ULL << 50, "1.0 PiB");
	expect_bytes(~0ULL, "16.0 EiB");
}

static void test_duration(void **state)
{
	expect_duration(0, "0.0 seconds");
	expect_duration(5, "0.5 seconds");
	expect_duration(599, "59.9 seconds");
	expect_duration(600, "1.0 minutes");
	expect_duration(36000, "1.0 hours");
	expect_duration(455 * 3600, "45.5 hours");
	expect_duration(3 * 864000, "3.0 days");
	/* The 64-bit trade-off's old "497102.7 days": */
	expect_duration(4971027ULL * 86400, "1361.0 years");
	expect_duration(315576000, "1.0 years");
	expect_duration(315575999, "365.2 days");
	expect_duration(~0ULL / 2, "29227102304.5 years");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_duration),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
