/* c ? a : b, computed without a branch. GCC often turns a conditional expression into a branch
 * (and then a copy of what follows for each side), and under QEMU's TCG each side is a block
 * translated of its own; a mask does the same in straight-line code. One machine word: on
 * 32-bit ARM a 64-bit mask would double the instructions. */
#ifndef RNDBITS_LIB_SELECT_H
#define RNDBITS_LIB_SELECT_H

#include <types.h>

static inline uintptr_t select_word(bool c, uintptr_t a, uintptr_t b)
{
	uintptr_t mask = -(uintptr_t)c;

	return (a & mask) | (b & ~mask);
}

static inline const void *select_ptr(bool c, const void *a, const void *b)
{
	return (const void *)select_word(c, (uintptr_t)a, (uintptr_t)b);
}

#endif
