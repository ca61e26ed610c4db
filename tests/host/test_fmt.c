/* lib/fmt.c against glibc's snprintf: every format in a generated table of flags, widths,
 * precisions, length modifiers and edge values, at several buffer sizes (including 0 and
 * sizes that cut the output), plus hand-picked cases. The whole destination buffer is compared,
 * so a byte written past the size shows up as well as a wrong character. */
#include "lib_under_test.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#define BUF 600

static unsigned long checks;

/* lib/fmt.c under test. Its digit loop takes 32-bit arithmetic for every value that fits in
 * 32 bits, on every ISA alike, so the host's build covers both loops. */
static const struct build {
	const char *name;
	int (*vsnprintf)(char *buf, size_t size, const char *fmt, va_list ap);
	int (*vcbprintf)(void (*out)(char c, void *ctx), void *ctx, const char *fmt, va_list ap);
} builds[] = {
	{ "rndbits", lib_vsnprintf, lib_vcbprintf },
};

/* Compare glibc and one build on (fmt, args) at one buffer size. */
static void compare_build_at(int line, const struct build *b, size_t size, const char *fmt,
			     va_list ap)
{
	char want[BUF], got[BUF];
	va_list a, c;
	int nw, ng;

	memset(want, 0x5a, sizeof(want));
	memset(got, 0x5a, sizeof(got));
	va_copy(a, ap);
	va_copy(c, ap);
	nw = vsnprintf(want, size, fmt, a);
	ng = b->vsnprintf(got, size, fmt, c);
	va_end(a);
	va_end(c);
	checks++;
	if (nw != ng || memcmp(want, got, sizeof(want)) != 0) {
		print_error("line %d: format \"%s\", size %zu:\n  glibc  %d \"%.*s\"\n  %s %d \"%.*s\"\n",
			    line, fmt, size, nw, (int)strnlen(want, sizeof(want)), want, b->name, ng,
			    (int)strnlen(got, sizeof(got)), got);
		fail();
	}
}

static void compare_at(int line, size_t size, const char *fmt, va_list ap)
{
	for (size_t i = 0; i < ARRAY_SIZE(builds); i++)
		compare_build_at(line, &builds[i], size, fmt, ap);
}

/* The streaming form must produce the same characters and count. */
struct collect {
	char buf[BUF];
	size_t len;
};

static void collect_out(char c, void *ctx)
{
	struct collect *col = ctx;

	if (col->len < sizeof(col->buf) - 1)
		col->buf[col->len] = c;
	col->len++;
}

static void compare_stream(int line, const char *fmt, va_list ap)
{
	for (size_t i = 0; i < ARRAY_SIZE(builds); i++) {
		char want[BUF];
		struct collect col = { .len = 0 };
		va_list a, b;
		int nw, ng;

		va_copy(a, ap);
		va_copy(b, ap);
		nw = vsnprintf(want, sizeof(want), fmt, a);
		ng = builds[i].vcbprintf(collect_out, &col, fmt, b);
		va_end(a);
		va_end(b);
		col.buf[col.len < sizeof(col.buf) ? col.len : sizeof(col.buf) - 1] = '\0';
		if (nw != ng || (size_t)ng != col.len || strcmp(want, col.buf) != 0) {
			print_error("line %d: vcbprintf \"%s\": glibc %d \"%s\", %s %d/%zu \"%s\"\n",
				    line, fmt, nw, want, builds[i].name, ng, col.len, col.buf);
			fail();
		}
	}
}

static void check_line(int line, const char *fmt, ...)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 7, 16, BUF };
	char probe[BUF];
	va_list ap, a;
	int full;

	va_start(ap, fmt);
	va_copy(a, ap);
	full = vsnprintf(probe, sizeof(probe), fmt, a);
	va_end(a);
	assert_true(full >= 0 && full < BUF - 1);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		compare_at(line, sizes[i], fmt, ap);
	/* Exactly the length, and one more: the terminator's place. */
	compare_at(line, (size_t)full, fmt, ap);
	compare_at(line, (size_t)full + 1, fmt, ap);
	compare_stream(line, fmt, ap);
	va_end(ap);
}

#define CHECK(...) check_line(__LINE__, __VA_ARGS__)

/* --- generated table ------------------------------------------------------------------- */

static const char *const flag_sets[] = { "", "-", "0", "+", " ", "-0", "+0", "- ", "-+", "0 ", "+ " };
static const char *const flag_sets_alt[] = { "#", "#0", "#-", "0#", "-#", "#-0" };
static const char *const widths[] = { "", "1", "2", "5", "12", "25" };
static const char *const precisions[] = { "", ".", ".0", ".1", ".3", ".12", ".25" };

typedef void (*emit_fn)(const char *fmt, int idx);

static const long long signed_values[] = {
	0, 1, -1, 7, -7, 42, 127, -128, 255, 32767, -32768, 65535, INT_MAX, INT_MIN,
	(long long)UINT_MAX, LLONG_MAX, LLONG_MIN, 1000000007LL, -123456789012345LL,
};
static const unsigned long long unsigned_values[] = {
	0, 1, 7, 8, 15, 16, 255, 256, 4095, 65535, 65536, UINT_MAX, 0x80000000ULL,
	0x123456789abcdefULL, LLONG_MAX, 0x8000000000000000ULL, UINT64_MAX,
};

static void run_signed(const char *fmt, const char *len, long long v)
{
	if (!strcmp(len, "hh") || !strcmp(len, "h") || !strcmp(len, ""))
		CHECK(fmt, (int)v);
	else if (!strcmp(len, "l"))
		CHECK(fmt, (long)v);
	else if (!strcmp(len, "ll"))
		CHECK(fmt, v);
	else if (!strcmp(len, "z"))
		CHECK(fmt, (ssize_t)v);
	else if (!strcmp(len, "j"))
		CHECK(fmt, (intmax_t)v);
	else if (!strcmp(len, "t"))
		CHECK(fmt, (ptrdiff_t)v);
	else
		fail_msg("length %s", len);
}

static void run_unsigned(const char *fmt, const char *len, unsigned long long v)
{
	if (!strcmp(len, "hh") || !strcmp(len, "h") || !strcmp(len, ""))
		CHECK(fmt, (unsigned)v);
	else if (!strcmp(len, "l"))
		CHECK(fmt, (unsigned long)v);
	else if (!strcmp(len, "ll"))
		CHECK(fmt, v);
	else if (!strcmp(len, "z"))
		CHECK(fmt, (size_t)v);
	else if (!strcmp(len, "j"))
		CHECK(fmt, (uintmax_t)v);
	else if (!strcmp(len, "t"))
		CHECK(fmt, (ptrdiff_t)v);
	else
		fail_msg("length %s", len);
}

static const char *const lengths[] = { "", "hh", "h", "l", "ll", "z", "j", "t" };

static void table_integers(const char *const *flags, size_t nflags, const char *convs)
{
	char fmt[64];

	for (size_t fi = 0; fi < nflags; fi++)
		for (size_t wi = 0; wi < ARRAY_SIZE(widths); wi++)
			for (size_t pi = 0; pi < ARRAY_SIZE(precisions); pi++)
				for (size_t li = 0; li < ARRAY_SIZE(lengths); li++)
					for (const char *c = convs; *c; c++) {
						snprintf(fmt, sizeof(fmt), "[%%%s%s%s%s%c]", flags[fi],
							 widths[wi], precisions[pi], lengths[li], *c);
						if (*c == 'd' || *c == 'i') {
							for (size_t v = 0; v < ARRAY_SIZE(signed_values); v++)
								run_signed(fmt, lengths[li], signed_values[v]);
						} else {
							for (size_t v = 0; v < ARRAY_SIZE(unsigned_values); v++)
								run_unsigned(fmt, lengths[li], unsigned_values[v]);
						}
					}
}

static void test_table_signed(void **state)
{
	table_integers(flag_sets, ARRAY_SIZE(flag_sets), "di");
}

static void test_table_unsigned(void **state)
{
	table_integers(flag_sets, ARRAY_SIZE(flag_sets), "uxXo");
}

static void test_table_alternate(void **state)
{
	/* '#' is defined for o, x and X only. */
	table_integers(flag_sets_alt, ARRAY_SIZE(flag_sets_alt), "xXo");
}

static void test_table_strings(void **state)
{
	static const char *const strs[] = { "", "a", "hello", "a longer string, 28 chars.." };
	char fmt[64];

	for (size_t fi = 0; fi < 2; fi++) /* "-" and "" are the defined flags for s and c */
		for (size_t wi = 0; wi < ARRAY_SIZE(widths); wi++) {
			for (size_t pi = 0; pi < ARRAY_SIZE(precisions); pi++) {
				snprintf(fmt, sizeof(fmt), "<%%%s%s%ss>", flag_sets[fi], widths[wi],
					 precisions[pi]);
				for (size_t s = 0; s < ARRAY_SIZE(strs); s++)
					CHECK(fmt, strs[s]);
			}
			snprintf(fmt, sizeof(fmt), "<%%%s%sc>", flag_sets[fi], widths[wi]);
			CHECK(fmt, 'x');
			CHECK(fmt, 0xe9); /* a byte above 0x7f */
		}
}

/* --- hand-picked cases ------------------------------------------------------------------- */

static void test_edge_values(void **state)
{
	CHECK("%d %d", INT_MIN, INT_MAX);
	CHECK("%i|%5i|%-12i|%012i", INT_MIN, -5, INT_MIN, INT_MIN);
	CHECK("%lld %lld", LLONG_MIN, LLONG_MAX);
	CHECK("%llu %llx %llX %llo", UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX);
	CHECK("%#llx %#llo", UINT64_MAX, UINT64_MAX);
	CHECK("%zu %zd %zx", SIZE_MAX, (ssize_t)-1, SIZE_MAX);
	CHECK("%jd %ju", INTMAX_MIN, UINTMAX_MAX);
	CHECK("%td %tx", PTRDIFF_MIN, (ptrdiff_t)-1);
	CHECK("%ld %lu %lx", LONG_MIN, ULONG_MAX, ULONG_MAX);
	CHECK("%hhd %hhu %hhx", 200, 300, -1);
	CHECK("%hd %hu %hx", 70000, 70000, -1);
	CHECK("%u %x %o", 0u, 0u, 0u);
	CHECK("%.0d|%.0u|%.0x|%.0o|%#.0o|%#.0x", 0, 0u, 0u, 0u, 0u, 0u);
	CHECK("%5.0d|%-5.0x|", 0, 0u);
	CHECK("%#o %#o %#x %#X %#x", 0u, 8u, 0u, 255u, 1u);
	CHECK("%#5o|%#.5o|%#-8x|%#08x|%#.6x", 8u, 8u, 255u, 255u, 255u);
	CHECK("%+d %+d % d % d %+ d", 0, -1, 5, -5, 5);
	CHECK("%08.3d|%-08d|%0-8d|%+08d", 42, 42, 42, 42);
	CHECK("%.20d|%.20llu|%30.25lld", -1, UINT64_MAX, LLONG_MIN);
}

static void test_star(void **state)
{
	CHECK("[%*d]", 8, 42);
	CHECK("[%*d]", -8, 42);
	CHECK("[%-*d]", -8, 42);
	CHECK("[%.*d]", 5, 42);
	CHECK("[%.*d]", -1, 42);
	CHECK("[%.*d]", 0, 0);
	CHECK("[%*.*x]", 10, 6, 0xabcu);
	CHECK("[%*.*s]", -10, 3, "abcdef");
	CHECK("[%.*s]", -3, "abcdef");
	CHECK("[%0*d]", 7, -42);
}

static void test_strings_and_chars(void **state)
{
	const char *volatile null_str = NULL;
	char unterminated[4] = { 'a', 'b', 'c', 'd' };

	CHECK("%s", null_str);
	CHECK("[%10s]", null_str);
	CHECK("[%-10s]", null_str);
	CHECK("[%.6s]", null_str);
	CHECK("[%.10s]", null_str);
	/* glibc prints nothing for NULL when the precision is below 6. */
	CHECK("[%.3s]", null_str);
	CHECK("[%.0s]", null_str);
	/* Precision limits the read: the array has no NUL (ASan checks the over-read). */
	CHECK("[%.4s]", unterminated);
	CHECK("[%.2s]", unterminated);
	CHECK("%c%c%c", 'a', 0x7f, 'z');
	CHECK("[%5c][%-5c]", 'q', 'q');
	CHECK("[%c][%3c]", 0, 0); /* a NUL character is output and counted */
	CHECK("%s and %s", "one", "two");
}

static void test_pointers(void **state)
{
	int x;

	CHECK("%p", (void *)NULL);
	CHECK("[%20p]", (void *)NULL);
	CHECK("[%-20p]", (void *)NULL);
	/* "(nil)" is a string that neither '0' nor a precision touches. */
	CHECK("[%08p][%.2p][%-8.2p][%.9p]", (void *)NULL, (void *)NULL, (void *)NULL, (void *)NULL);
	CHECK("[%08p][%.12p]", (void *)(uintptr_t)0xbeef, (void *)(uintptr_t)0xbeef);
	CHECK("%p", (void *)&x);
	CHECK("%p", (void *)(uintptr_t)0x1);
	CHECK("%p", (void *)UINTPTR_MAX);
	CHECK("[%24p][%-24p]", (void *)(uintptr_t)0xdeadbeef, (void *)(uintptr_t)0xdeadbeef);
}

static void test_percent_and_plain(void **state)
{
	CHECK("");
	CHECK("plain text");
	CHECK("100%%");
	CHECK("%%d %d %%", 3);
	CHECK("a%cb", 'X');
}

/* Arguments past the ones passed in registers (arm64 and x86_64 keep a few there, then use the
 * stack): every kind of argument is read from both places, in every size, interleaved. */
static void test_many_arguments(void **state)
{
	int x;
	void *p = &x;

	CHECK("%d %lld %s %p %hhd %zu %c %ld %u %llx %s %d %p %hu %jd %td %c %s %llu %x %p %d",
	      -1, LLONG_MIN, "one", p, 300, SIZE_MAX, 'q', LONG_MIN, UINT_MAX, 0x123456789abcdefULL,
	      "two", INT_MIN, (void *)NULL, 70000, INTMAX_MAX, (ptrdiff_t)-5, 'z', (char *)NULL,
	      UINT64_MAX, 0xdeadbeefu, p, 42);
	CHECK("%*d|%-*s|%.*s|%*.*x|%c%c%c%c%c%c%c%c%c%c|%lld", 12, -7, 9, "ab", 2, "xyz", 10, 6,
	      0xabcu, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', -1LL);
}

/* What glibc leaves to the implementation, pinned to what rndbits does: an unknown conversion
 * prints '%' and its letter (flags, width and length dropped), "%%" ignores a width, a '%' that
 * ends the format prints nothing, even after flags or a length. */
static void test_odd_conversions(void **state)
{
	char buf[64];

	assert_int_equal(lib_snprintf(buf, sizeof(buf), "a%qb%-#5yc"), 7);
	assert_string_equal(buf, "a%qb%yc");
	assert_int_equal(lib_snprintf(buf, sizeof(buf), "[%5%][%%]"), 6);
	assert_string_equal(buf, "[%][%]");
	assert_int_equal(lib_snprintf(buf, sizeof(buf), "end%"), 3);
	assert_string_equal(buf, "end");
	assert_int_equal(lib_snprintf(buf, sizeof(buf), "end%-08.3ll"), 3);
	assert_string_equal(buf, "end");
	assert_int_equal(lib_snprintf(buf, sizeof(buf), "%lq|%hhk"), 5);
	assert_string_equal(buf, "%q|%k");
}

/* Widths and precisions too large to print (glibc refuses them) are held at a bound: the output
 * is that long, and no arithmetic on them overflows (UBSan watches). One such output only: it
 * takes seconds. */
static void test_huge_counts(void **state)
{
	char buf[8];

	assert_int_equal(lib_snprintf(buf, sizeof(buf), "%*d", INT_MIN, 7), INT_MAX / 4);
	assert_string_equal(buf, "7      ");
	assert_int_equal(lib_snprintf(buf, sizeof(buf), "%.4294967297s|%.*s", "abc", INT_MAX, "de"),
			 6);
	assert_string_equal(buf, "abc|de");
}

/* Truncation in detail: every size from 0 to past the length, the return value is always the
 * full length, the terminator lands at size-1, nothing beyond size is touched. */
static void test_truncation(void **state)
{
	char want[64], got[64];
	const char *fmt = "%s=%d,%#x";

	for (size_t size = 0; size <= 40; size++) {
		memset(want, 0x33, sizeof(want));
		memset(got, 0x33, sizeof(got));
		int nw = snprintf(want, size, fmt, "mmap_rnd_bits", -28, 0x1fu);
		int ng = lib_snprintf(got, size, fmt, "mmap_rnd_bits", -28, 0x1fu);
		assert_int_equal(ng, nw);
		assert_int_equal(ng, 22);
		assert_memory_equal(got, want, sizeof(got));
		if (size)
			assert_int_equal(got[MIN(size, 23) - 1], '\0');
	}
	/* Size 0 never dereferences the buffer. */
	assert_int_equal(lib_snprintf(NULL, 0, "%d", 12345), 5);
}

/* The streaming interface has no length limit. */
static void count_out(char c, void *ctx)
{
	unsigned long *counts = ctx;

	counts[(unsigned char)c]++;
}

static int stream_count(unsigned long *counts, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = lib_vcbprintf(count_out, counts, fmt, ap);
	va_end(ap);
	return n;
}

static void test_stream_long(void **state)
{
	static unsigned long counts[256];
	static char big[5000];

	memset(big, 'x', sizeof(big) - 1);
	assert_int_equal(stream_count(counts, "%s|%-9000d|", big, -7), 4999 + 1 + 9000 + 1);
	assert_int_equal(counts['x'], 4999);
	assert_int_equal(counts[' '], 8998);
	assert_int_equal(counts['-'], 1);
	assert_int_equal(counts['7'], 1);
	assert_int_equal(counts['|'], 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edge_values),
		cmocka_unit_test(test_star),
		cmocka_unit_test(test_strings_and_chars),
		cmocka_unit_test(test_pointers),
		cmocka_unit_test(test_percent_and_plain),
		cmocka_unit_test(test_many_arguments),
		cmocka_unit_test(test_odd_conversions),
		cmocka_unit_test(test_huge_counts),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_stream_long),
		cmocka_unit_test(test_table_signed),
		cmocka_unit_test(test_table_unsigned),
		cmocka_unit_test(test_table_alternate),
		cmocka_unit_test(test_table_strings),
	};
	int failed = cmocka_run_group_tests_name("fmt", tests, NULL, NULL);

	printf("fmt: %lu comparisons against glibc\n", checks);
	return failed;
}
