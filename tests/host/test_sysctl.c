/* kernel/proc_dointvec.c: Linux's proc_dointvec_minmax write rules on a table of inputs — the
 * quirks Linux has (octal, trailing '\r', a second number ignored, 21-character numbers) and the
 * hostile ones (huge numbers, signs, empty, NUL bytes, 4 KiB of digits). */
#include "lib_under_test.h"
#include <kernel/sysctl.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define EINVAL_RET (-22L)

struct case_ {
	const char *text;
	size_t len;      /* 0: strlen(text) */
	int min, max;
	long ret;        /* bytes consumed, or -EINVAL */
	int value;       /* when ret >= 0 */
};

#define OK(t, n, v) { t, 0, 18, 33, n, v }
#define BAD(t) { t, 0, 18, 33, EINVAL_RET, 0 }
#define RANGE(t, lo, hi, n, v) { t, 0, lo, hi, n, v }
#define RANGE_BAD(t, lo, hi) { t, 0, lo, hi, EINVAL_RET, 0 }

static const struct case_ cases[] = {
	OK("24\n", 3, 24),
	OK("24", 2, 24),
	OK(" 24", 3, 24),
	OK("\t24\n", 4, 24),
	OK("24 ", 3, 24),
	OK("  24  \n", 7, 24),
	OK("24 25", 3, 24),          /* one int: the second number is left unread, no error */
	OK("24 abc", 3, 24),         /* ... and so is anything after the whitespace */
	OK("24\t\n  ", 6, 24),
	OK("0x18", 4, 24),           /* base 0: hex */
	OK("0X18\n", 5, 24),
	OK("030", 3, 24),            /* base 0: octal */
	OK("\r24", 3, 24),           /* isspace() before the number includes \r ... */
	OK("\v24", 3, 24),
	BAD("24\r\n"),               /* ... but after it only space, tab and newline count */
	BAD("24\v"),
	BAD("08"),                   /* octal: '8' is trailing garbage */
	BAD("0x"),
	BAD("+24"),                  /* no '+' */
	BAD("-24"),                  /* below min */
	BAD("-"),
	BAD("- 24"),
	BAD("24abc"),
	BAD("abc"),
	BAD("\n"),                   /* nothing but whitespace */
	BAD("   "),
	{ "", 0, 18, 33, EINVAL_RET, 0 },
	{ "2\0" "4", 3, 18, 33, EINVAL_RET, 0 },  /* embedded NUL after a digit */
	{ "\0" "24", 3, 18, 33, EINVAL_RET, 0 },  /* NUL first */
	{ "24\0", 3, 18, 33, EINVAL_RET, 0 },     /* NUL right after the number */
	BAD("17"),                   /* min - 1 */
	OK("18", 2, 18),             /* min */
	OK("33", 2, 33),             /* max */
	BAD("34"),                   /* max + 1 */
	RANGE("-0", -5, 5, 2, 0),
	RANGE("-5", -5, 5, 2, -5),
	RANGE_BAD("-6", -5, 5),
	RANGE("2147483647", INT32_MIN, INT32_MAX, 10, INT32_MAX),
	RANGE_BAD("2147483648", INT32_MIN, INT32_MAX),
	RANGE("-2147483648", INT32_MIN, INT32_MAX, 11, INT32_MIN),
	RANGE_BAD("-2147483649", INT32_MIN, INT32_MAX),
	RANGE_BAD("4294967296", INT32_MIN, INT32_MAX),
	RANGE_BAD("18446744073709551615", INT32_MIN, INT32_MAX),
	RANGE_BAD("99999999999999999999", INT32_MIN, INT32_MAX),   /* overflows 64 bits */
	RANGE("00000000000000000024", 0, 100, 20, 20),             /* 20 chars: octal 24 */
	RANGE_BAD("000000000000000000024", 0, 100),                /* 21 chars: too long */
	RANGE("0", 0, 2, 1, 0),
	RANGE("2\n", 0, 2, 2, 2),
	RANGE_BAD("3\n", 0, 2),
};

static void test_table(void **state)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct case_ *c = &cases[i];
		size_t len = c->len ? c->len : strlen(c->text);
		int value = 12345;
		long ret = dointvec_minmax_parse(c->text, len, c->min, c->max, &value);
		if (ret != c->ret || (ret >= 0 && value != c->value) || (ret < 0 && value != 12345))
			fail_msg("case %zu \"%s\": got ret %ld value %d, want ret %ld value %d", i,
				 c->text, ret, value, c->ret, c->value);
	}
}

static int knob = 18;
static const struct sysctl_entry entry = {
	.name = "vm.mmap_rnd_bits", .data = &knob, .mode = 0600, .min = 18, .max = 33,
	.default_value = 18, .handler = proc_dointvec_minmax,
};

static void test_handler_keeps_value_on_error(void **state)
{
	char buf[32];

	knob = 20;
	assert_int_equal(proc_dointvec_minmax(&entry, true, (char *)"99\n", 3), EINVAL_RET);
	assert_int_equal(knob, 20);
	assert_int_equal(proc_dointvec_minmax(&entry, true, (char *)"", 0), 0); /* empty write: no-op */
	assert_int_equal(knob, 20);
	assert_int_equal(proc_dointvec_minmax(&entry, true, (char *)"33\n", 3), 3);
	assert_int_equal(knob, 33);
	assert_int_equal(proc_dointvec_minmax(&entry, false, buf, sizeof(buf)), 3);
	assert_string_equal(buf, "33\n");
}

static void test_4k_inputs(void **state)
{
	static char big[8192];
	int value = 0;

	memset(big, '1', 4096); /* 4 KiB of digits */
	assert_int_equal(dointvec_minmax_parse(big, 4096, 18, 33, &value), EINVAL_RET);
	memset(big, ' ', 4096); /* only the first 4095 bytes are read: all spaces */
	memcpy(big + 4096, "24", 2);
	assert_int_equal(dointvec_minmax_parse(big, 4098, 18, 33, &value), EINVAL_RET);
	memset(big, ' ', 4000); /* a number within the first 4095 bytes still counts */
	memcpy(big + 4000, "24\n", 3);
	value = 0;
	assert_int_equal(dointvec_minmax_parse(big, 4003, 18, 33, &value), 4003);
	assert_int_equal(value, 24);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_handler_keeps_value_on_error),
		cmocka_unit_test(test_4k_inputs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
