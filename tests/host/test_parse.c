/* lib/parse.c: parse_u64 and parse_u64_full on a table of edge cases, and against glibc's
 * strtoull for every input that starts with a digit (where the two must agree exactly). */
#include "lib_under_test.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

struct parse_case {
	const char *s;
	unsigned base;
	bool ok;
	uint64_t value;
	size_t end; /* characters consumed */
};

static const struct parse_case cases[] = {
	{ "0", 0, true, 0, 1 },
	{ "0", 10, true, 0, 1 },
	{ "7", 0, true, 7, 1 },
	{ "42", 10, true, 42, 2 },
	{ "42abc", 10, true, 42, 2 },
	{ "42 ", 10, true, 42, 2 },
	{ "4096\n", 0, true, 4096, 4 },
	{ "", 0, false, 0, 0 },
	{ "", 10, false, 0, 0 },
	{ " 1", 10, false, 0, 0 },  /* no whitespace skipping */
	{ "\t1", 0, false, 0, 0 },
	{ "+1", 10, false, 0, 0 },  /* no signs */
	{ "-1", 10, false, 0, 0 },
	{ "-0", 0, false, 0, 0 },
	{ "abc", 10, false, 0, 0 },
	{ "0x10", 0, true, 16, 4 },
	{ "0X1f", 0, true, 31, 4 },
	{ "0x10", 16, true, 16, 4 },
	{ "10", 16, true, 16, 2 },
	{ "ffffffffffffffff", 16, true, UINT64_MAX, 16 },
	{ "0xFFFFFFFFFFFFFFFF", 0, true, UINT64_MAX, 18 },
	{ "0x", 0, true, 0, 1 },    /* "0" then an 'x' */
	{ "0xg", 0, true, 0, 1 },
	{ "0x", 16, true, 0, 1 },
	{ "0x10", 10, true, 0, 1 }, /* no prefix in base 10 */
	{ "010", 0, true, 8, 3 },   /* octal */
	{ "08", 0, true, 0, 1 },    /* '8' is not octal */
	{ "0777", 8, true, 511, 4 },
	{ "1010", 2, true, 10, 4 },
	{ "102", 2, true, 2, 2 },
	{ "zz", 36, true, 1295, 2 },
	{ "ZZ", 36, true, 1295, 2 },
	{ "1", 1, false, 0, 0 },    /* bad bases */
	{ "1", 37, false, 0, 0 },
	{ "18446744073709551615", 10, true, UINT64_MAX, 20 },
	{ "18446744073709551616", 10, false, UINT64_MAX, 20 }, /* overflow saturates */
	{ "99999999999999999999999", 10, false, UINT64_MAX, 23 },
	{ "18446744073709551615x", 10, true, UINT64_MAX, 20 },
	{ "0x10000000000000000", 0, false, UINT64_MAX, 19 },
	{ "01777777777777777777777", 0, true, UINT64_MAX, 23 },
	{ "02000000000000000000000", 0, false, UINT64_MAX, 23 },
	{ "00000000000000000000000000000042", 10, true, 42, 32 },
	{ "4294967296", 10, true, 4294967296ULL, 10 },
	{ "33", 10, true, 33, 2 },
	{ "1\0" "2", 10, true, 1, 1 }, /* an embedded NUL ends the string */
};

static void test_table(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct parse_case *c = &cases[i];
		const char *end = (const char *)0x1;
		uint64_t v = 12345;
		bool ok = parse_u64(c->s, &end, c->base, &v);

		if (ok != c->ok || v != c->value || end != c->s + c->end)
			fail_msg("parse_u64(\"%s\", base %u): ok %d value %llu end +%td; want %d %llu +%zu",
				 c->s, c->base, ok, (unsigned long long)v, end - c->s, c->ok,
				 (unsigned long long)c->value, c->end);
		/* end may be NULL. */
		assert_int_equal(parse_u64(c->s, NULL, c->base, &v), c->ok);
		/* The whole-string form: ok only if all of it was digits. */
		bool full = parse_u64_full(c->s, c->base, &v);
		assert_int_equal(full, c->ok && c->s[c->end] == '\0');
		if (full)
			assert_int_equal(v, c->value);
	}
}

/* 4 KiB of digits: overflow, no crash, end past all of them. */
static void test_long_input(void **state)
{
	char *s = malloc(4097);
	const char *end;
	uint64_t v;

	memset(s, '9', 4096);
	s[4096] = '\0';
	assert_false(parse_u64(s, &end, 10, &v));
	assert_int_equal(v, UINT64_MAX);
	assert_ptr_equal(end, s + 4096);
	assert_false(parse_u64_full(s, 0, &v));
	memset(s, '0', 4095);
	s[4095] = '1';
	assert_true(parse_u64_full(s, 10, &v));
	assert_int_equal(v, 1);
	free(s);
}

/* Where the input starts with a digit, parse_u64 is strtoull. */
static void test_against_strtoull(void **state)
{
	static const char *const inputs[] = {
		"0", "1", "9", "10", "077", "0x", "0x1", "0xfg", "0XABC", "08", "0b101", "123abc",
		"18446744073709551615", "18446744073709551616", "36893488147419103232",
		"0xffffffffffffffff", "0x1ffffffffffffffff", "01777777777777777777777",
		"02000000000000000000000", "zzzzzzzzzzzzz", "zzzzzzzzzzzzzz", "1z", "4294967295",
		"4294967296", "9223372036854775807", "9223372036854775808",
	};
	static const unsigned bases[] = { 0, 2, 8, 10, 16, 36 };

	for (size_t i = 0; i < ARRAY_SIZE(inputs); i++)
		for (size_t b = 0; b < ARRAY_SIZE(bases); b++) {
			const char *s = inputs[i], *end;
			char *want_end;
			uint64_t v;

			errno = 0;
			unsigned long long want = strtoull(s, &want_end, (int)bases[b]);
			bool want_ok = want_end != s && errno != ERANGE;
			bool ok = parse_u64(s, &end, bases[b], &v);

			if (ok != want_ok || v != want || end != want_end)
				fail_msg("\"%s\" base %u: rndbits ok %d %llu +%td, strtoull ok %d %llu +%td",
					 s, bases[b], ok, (unsigned long long)v, end - s, want_ok,
					 want, want_end - s);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_long_input),
		cmocka_unit_test(test_against_strtoull),
	};

	return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
