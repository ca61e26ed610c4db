/* Statistics without floating point (the kernel never touches FP registers): the chi-square
 * uniformity test and its p-value, in fixed-point arithmetic (lib/stats.c). */
#ifndef RNDBITS_LIB_STATS_H
#define RNDBITS_LIB_STATS_H

#include <lib/types.h>

/* Chi-square statistic of nbuckets observed counts against a uniform expectation, times 1000
 * (x = sum (o - n/k)^2 / (n/k)). */
uint64_t chi2_milli(const unsigned *counts, unsigned nbuckets, uint64_t n);

/* Upper-tail p-value of a chi-square statistic x (given times 1000) with dof degrees of freedom,
 * in parts per million, by the Wilson-Hilferty normal approximation (absolute error well under
 * 0.001 for dof >= 30). */
uint32_t chi2_p_ppm(uint64_t x_milli, unsigned dof);

/* log2(x) in Q16 (x >= 1; 0 for x <= 1), to about 1/65536. */
uint32_t log2_q16(uint64_t x);

/* Shannon entropy of the distribution of n samples over nbuckets counts, in thousandths of a
 * bit: log2(nbuckets) * 1000 for a flat histogram, 0 when every sample is in one bucket. */
uint32_t entropy_milli(const unsigned *counts, unsigned nbuckets, uint64_t n);

/* Sort a[0..n) ascending in place: heapsort, no recursion and no extra memory (the samples of
 * `aslr sample` fill a large block already). */
void sort_u64(uint64_t *a, unsigned n);

#endif
