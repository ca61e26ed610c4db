/* ASLR policy knobs and the randomness behind mmap_base (mm/layout.c). */
#ifndef RNDBITS_LAYOUT_H
#define RNDBITS_LAYOUT_H

#include <types.h>

/* The sysctls, as Linux names them. */
extern int mmap_rnd_bits;        /* vm.mmap_rnd_bits */
extern int mmap_rnd_compat_bits; /* vm.mmap_rnd_compat_bits (CONFIG_COMPAT only) */
extern int randomize_va_space;   /* kernel.randomize_va_space: 0 off, 1 stack/mmap, 2 +brk */
extern int legacy_va_layout;     /* vm.legacy_va_layout: 1 = bottom-up */

/* (random & (2^bits - 1)) << page_shift, in 64-bit arithmetic, for 0 <= bits <= 63. */
uint64_t mmap_rnd_offset(uint64_t random, unsigned bits, unsigned page_shift);

/* The mmap_rnd_bits knob that applies to a task (the compat knob for a 32-bit task on a 64-bit
 * kernel). */
unsigned mmap_rnd_bits_for(bool compat);

/* Linux's arch_mmap_rnd(): a fresh random page offset for a task's mmap_base, 0 when
 * kernel.randomize_va_space is 0. One definition serves every arch (Linux's generic one in
 * mm/util.c and x86's compute the same thing). */
uint64_t arch_mmap_rnd(bool compat);

#endif
