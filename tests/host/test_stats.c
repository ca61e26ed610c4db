/* lib/stats.c: the fixed-point chi-square test against exact values (regularized incomplete
 * gamma, computed offline) and against the definition of the statistic. */
#include "lib_under_test.h"
#include <lib/stats.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

/* Q(31.5, x/2): the exact upper tail for 63 degrees of freedom. */
static const struct { unsigned x; double p; } exact63[] = {
	{ 30, 0.999866 }, { 40, 0.989522 }, { 50, 0.88268 }, { 63, 0.476302 }, { 70, 0.254367 },
	{ 80, 0.072895 }, { 90, 0.014415 }, { 100, 0.002077 }, { 110, 0.000229 }, { 120, 0.00002 },
	{ 150, 0.0 },
};

static void test_p_values(void **state)
{
	for (size_t i = 0; i < sizeof(exact63) / sizeof(exact63[0]); i++) {
		double p = chi2_p_ppm((uint64_t)exact63[i].x * 1000, 63) / 1e6;
		double err = p - exact63[i].p;
		if (err > 0.001 || err < -0.001)
			fail_msg("x=%u: p=%f, exact %f", exact63[i].x, p, exact63[i].p);
	}
	/* The p-value falls as x grows. */
	unsigned prev = 1000001;
	for (unsigned x = 0; x <= 200000; x += 500) {
		unsigned p = chi2_p_ppm(x, 63);
		assert_true(p <= prev);
		prev = p;
	}
}

static void test_statistic(void **state)
{
	unsigned flat[64], skew[64] = { 0 };
	for (int i = 0; i < 64; i++)
		flat[i] = 100;
	assert_int_equal(chi2_milli(flat, 64, 6400), 0);
	skew[0] = 6400; /* everything in one bucket: x = 63 * n */
	assert_int_equal(chi2_milli(skew, 64, 6400), 63ULL * 6400 * 1000);
	/* 2 buckets, 30 and 10 of 40: (30-20)^2/20 + (10-20)^2/20 = 10 */
	unsigned two[2] = { 30, 10 };
	assert_int_equal(chi2_milli(two, 2, 40), 10000);
	assert_int_equal(chi2_milli(two, 2, 0), 0);
}

static void test_entropy(void **state)
{
	unsigned flat[64], one[64] = { 0 }, half[64] = { 0 };

	for (int i = 0; i < 64; i++)
		flat[i] = 100;
	assert_int_equal(entropy_milli(flat, 64, 6400), 6000);
	one[7] = 6400;
	assert_int_equal(entropy_milli(one, 64, 6400), 0);
	half[0] = half[1] = 50;
	assert_int_equal(entropy_milli(half, 64, 100), 1000);
	/* 3 equally likely outcomes: log2 3 = 1.58496 */
	unsigned three[3] = { 1000, 1000, 1000 };
	assert_int_equal(entropy_milli(three, 3, 3000), 1585);
	assert_int_equal(log2_q16(1), 0);
	assert_int_equal(log2_q16(2), 1 << 16);
	assert_int_equal(log2_q16(1ULL << 40), 40u << 16);
	/* log2(10) = 3.321928: within 2^-15 */
	assert_true(log2_q16(10) >= 217705 - 2 && log2_q16(10) <= 217705 + 2);
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

/* sort_u64 against the C library's qsort, on lengths 0..300 with repeats and extremes. */
static void test_sort(void **state)
{
	(void)state;
	uint64_t a[300], b[300], x = 0x9e3779b97f4a7c15ULL;
	for (unsigned n = 0; n <= 300; n++) {
		for (unsigned i = 0; i < n; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			a[i] = b[i] = i % 7 == 0 ? UINT64_MAX : i % 5 == 0 ? 0 : x % (n + 1);
		}
		sort_u64(a, n);
		qsort(b, n, sizeof(*b), cmp_u64);
		assert_memory_equal(a, b, n * sizeof(*a));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_p_values),
		cmocka_unit_test(test_statistic),
		cmocka_unit_test(test_entropy),
		cmocka_unit_test(test_sort),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
