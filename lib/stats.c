/* Fixed-point statistics. Values are Q24 in an int64 (v * 2^24): enough range for the chi-square
 * quantities involved (|v| < 128) and about 7 decimal digits of precision, while products of two
 * such values still fit in 64 bits on 32-bit targets too. */
#include <lib/stats.h>

typedef int64_t q24;
#define Q_ONE ((q24)1 << 24)
#define Q(x) ((q24)((x) * (double)Q_ONE)) /* constants only: folded by the compiler */

static q24 q_mul(q24 a, q24 b)
{
	return (a * b) >> 24;
}

static q24 q_div(q24 a, q24 b)
{
	return a * Q_ONE / b; /* |a| < 2^38 here, so the product cannot overflow */
}

/* e^-u for u >= 0: e^-u = 2^-k * e^-r with r = u - k ln 2 in [0, ln 2). */
static q24 q_exp_neg(q24 u)
{
	const q24 ln2 = Q(0.69314718055994531);
	int64_t k = u / ln2;
	q24 r = u - k * ln2, term = Q_ONE, sum = Q_ONE;

	if (k >= 40)
		return 0;
	for (int i = 1; i < 14; i++) {
		term = -q_mul(term, r) / i;
		sum += term;
	}
	return sum >> k;
}

static uint64_t isqrt64(uint64_t v)
{
	uint64_t r = 0, bit = 1ULL << 62;

	while (bit > v)
		bit >>= 2;
	while (bit) {
		if (v >= r + bit) {
			v -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

static q24 q_sqrt(q24 v)
{
	return v <= 0 ? 0 : (q24)isqrt64((uint64_t)v << 24);
}

/* Cube root by Newton's method, for 0 <= v < 128. */
static q24 q_cbrt(q24 v)
{
	q24 y = v > Q_ONE ? Q_ONE + (v - Q_ONE) / 3 : Q_ONE;

	if (v <= 0)
		return 0;
	for (int i = 0; i < 40; i++) {
		q24 y2 = q_mul(y, y);
		q24 next = y - q_div(q_mul(y2, y) - v, 3 * y2);
		if (next == y)
			break;
		y = next;
	}
	return y;
}

/* Upper tail of the standard normal for z >= 0, via erfc (Abramowitz & Stegun 7.1.26). */
static q24 q_normal_tail(q24 z)
{
	q24 t = q_mul(z, Q(0.70710678118654752));
	q24 s = q_div(Q_ONE, Q_ONE + q_mul(Q(0.3275911), t));
	q24 poly = Q(1.061405429);

	poly = q_mul(poly, s) + Q(-1.453152027);
	poly = q_mul(poly, s) + Q(1.421413741);
	poly = q_mul(poly, s) + Q(-0.284496736);
	poly = q_mul(poly, s) + Q(0.254829592);
	poly = q_mul(poly, s);
	return q_mul(poly, q_exp_neg(q_mul(t, t))) / 2;
}

uint64_t chi2_milli(const unsigned *counts, unsigned nbuckets, uint64_t n)
{
	/* x = k/n * sum (o - n/k)^2 = sum (k o - n)^2 / (k n), computed exactly in integers. */
	uint64_t num = 0, den = (uint64_t)nbuckets * n;

	if (n == 0 || nbuckets == 0)
		return 0;
	for (unsigned i = 0; i < nbuckets; i++) {
		int64_t d = (int64_t)nbuckets * counts[i] - (int64_t)n;
		num += (uint64_t)(d * d);
	}
	return (num / den) * 1000 + ((num % den) * 1000) / den;
}

uint32_t chi2_p_ppm(uint64_t x_milli, unsigned dof)
{
	/* Wilson-Hilferty: (x/k)^(1/3) is close to normal with mean 1 - 2/(9k), variance 2/(9k).
	 * Beyond a million degrees of freedom 2/(9k) is below Q24's resolution. */
	if (dof == 0 || dof > 1000000)
		return 0;
	uint64_t ratio_milli = x_milli / dof;
	if (ratio_milli > 100000)
		return 0;
	q24 ratio = (q24)((ratio_milli << 24) / 1000);
	q24 v = q_div(2 * Q_ONE, (q24)(9 * dof) * Q_ONE);
	q24 z = q_div(q_cbrt(ratio) - (Q_ONE - v), q_sqrt(v));
	q24 p = z >= 0 ? q_normal_tail(z) : Q_ONE - q_normal_tail(-z);
	if (p < 0)
		p = 0;
	return (unsigned)((p * 1000000 + Q_ONE / 2) >> 24);
}

uint32_t log2_q16(uint64_t x)
{
	unsigned whole = 0;
	uint64_t m;
	uint32_t frac = 0;

	if (x <= 1)
		return 0;
	while ((x >> whole) > 1)
		whole++;
	/* m = x / 2^whole in Q31 (1 <= m < 2); each squaring reads off one fraction bit. */
	m = whole >= 31 ? x >> (whole - 31) : x << (31 - whole);
	for (unsigned i = 0; i < 16; i++) {
		m = (m * m) >> 31;
		frac <<= 1;
		if (m >= (2ULL << 31)) {
			m >>= 1;
			frac |= 1;
		}
	}
	return (whole << 16) | frac;
}

uint32_t entropy_milli(const unsigned *counts, unsigned nbuckets, uint64_t n)
{
	/* H = log2 n - (1/n) sum c log2 c, in Q16, then to thousandths. */
	uint64_t sum = 0;

	if (n == 0)
		return 0;
	for (unsigned i = 0; i < nbuckets; i++)
		sum += (uint64_t)counts[i] * log2_q16(counts[i]);
	uint64_t h = log2_q16(n) - sum / n;
	return (uint32_t)((h * 1000 + (1u << 15)) >> 16);
}

/* Move a[root] down the max-heap a[0..n) until both its children are smaller. */
static void sift_down(uint64_t *a, unsigned root, unsigned n)
{
	for (;;) {
		unsigned child = 2 * root + 1;
		if (child >= n)
			return;
		if (child + 1 < n && a[child] < a[child + 1])
			child++;
		if (a[root] >= a[child])
			return;
		uint64_t t = a[root];
		a[root] = a[child];
		a[child] = t;
		root = child;
	}
}

void sort_u64(uint64_t *a, unsigned n)
{
	for (unsigned start = n / 2; start-- > 0;)
		sift_down(a, start, n);
	/* The largest is at the root: swap it to the end and restore the heap before it. */
	for (unsigned end = n; end-- > 1;) {
		uint64_t t = a[0];
		a[0] = a[end];
		a[end] = t;
		sift_down(a, 0, end);
	}
}
