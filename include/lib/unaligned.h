/* Loads and stores of whole words at addresses of any alignment, in the CPU's byte order. A
 * fixed-size memcpy is what GCC turns into a single load or store on every target here (ARMv7
 * included, which allows unaligned word accesses to normal memory); written out byte by byte,
 * the same access becomes a chain of shifts and bit-field inserts. Not for device memory, nor
 * for code that runs with the arm64 MMU off (Device memory there faults on unaligned access). */
#ifndef RNDBITS_LIB_UNALIGNED_H
#define RNDBITS_LIB_UNALIGNED_H

#include <lib/types.h>

static inline uint32_t load_u32_unaligned(const void *p)
{
	uint32_t v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static inline void store_u32_unaligned(void *p, uint32_t v)
{
	__builtin_memcpy(p, &v, sizeof(v));
}

static inline uint64_t load_u64_unaligned(const void *p)
{
	uint64_t v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static inline void store_u64_unaligned(void *p, uint64_t v)
{
	__builtin_memcpy(p, &v, sizeof(v));
}

#endif
