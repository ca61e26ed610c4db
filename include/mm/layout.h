/* ASLR policy knobs and the randomness behind mmap_base (mm/layout.c). */
#ifndef RNDBITS_LAYOUT_H
#define RNDBITS_LAYOUT_H

#include <lib/types.h>

/* The sysctls, as Linux names them. */
extern int mmap_rnd_bits;        /* vm.mmap_rnd_bits */
extern int mmap_rnd_compat_bits; /* vm.mmap_rnd_compat_bits (a sysctl only with compat) */
extern int randomize_va_space;   /* kernel.randomize_va_space: 0 off, 1 stack/mmap, 2 +brk */
extern int legacy_va_layout;     /* vm.legacy_va_layout: 1 = bottom-up */

/* (random & (2^bits - 1)) << page_shift, in 64-bit arithmetic, for 0 <= bits <= 63. */
uint64_t mmap_rnd_offset(uint64_t random, unsigned bits, unsigned page_shift);

/* The mmap_rnd_bits knob that applies to a task (the compat knob for a 32-bit task on a 64-bit
 * kernel). */
unsigned mmap_rnd_bits_for(bool compat);

/* Linux's arch_mmap_rnd(): a fresh random page offset for a task's mmap_base, 0 when
 * kernel.randomize_va_space is 0. One definition serves every arch, under Linux's name: Linux's
 * own generic one (mm/util.c, which arm and arm64 use) is named so too, x86's computes the same
 * thing, and it is the name a learner sets a breakpoint on (docs/debugging.md). */
uint64_t arch_mmap_rnd(bool compat);


#define RLIMIT_STACK_DEFAULT (8ULL << 20)
#define RLIM_INFINITY (~0ULL)
#define MIN_GAP (128ULL << 20)

/* The address-space shape of a native or compat task on this preset. */
struct task_geometry {
	uint64_t task_size;
	uint64_t stack_top;
	uint64_t stack_rnd_mask;     /* pages */
	uint64_t unmapped_base;      /* TASK_UNMAPPED_BASE for this task size */
	uint64_t guard_gap;          /* stack_guard_gap: 256 pages */
};
void task_geometry(bool compat, struct task_geometry *g);

/* Where mmap_base may fall for one task, before drawing the random offset. */
struct mmap_range {
	bool topdown;
	uint64_t gap;                /* stack gap after the MIN_GAP/MAX_GAP clamp (top-down) */
	uint64_t base;               /* mmap_base with offset 0: the top (top-down) or bottom */
	uint64_t max_rnd_pages;      /* largest offset allowed, in pages: 2^bits - 1, or less
				      * where the room between base and the far limit is smaller */
	unsigned bits;               /* the configured bits (0 when not randomizing) */
};

/* Linux's mmap_base() and mmap_is_legacy() arithmetic, with rndbits' no-wrap rule: the range
 * never reaches below TASK_UNMAPPED_BASE (top-down) or above the stack gap (bottom-up). */
void mmap_range(const struct task_geometry *g, uint64_t rlimit_stack, bool randomize,
		bool legacy, unsigned bits, struct mmap_range *r);
/* mmap_base for a page offset rnd_pages <= r->max_rnd_pages. */
uint64_t mmap_base_at(const struct mmap_range *r, uint64_t rnd_pages);

/* A uniform random number of pages in [0, r->max_rnd_pages]: arch_mmap_rnd() redrawn (rejection,
 * never a modulo) while it falls outside the room. */
uint64_t mmap_draw_rnd_pages(const struct mmap_range *r, bool compat);

/* setup_arg_pages (Linux 6.1 fs/exec.c): the stack VMA ends at arch_align_stack(stack_top)
 * (lowered by `lower` bytes, aligned down to `align`) rounded back up to a page: on x86 (8 KiB
 * of lowering) 0 or 1 page below stack_top, on arm64 (under a page) never below it. */
uint64_t stack_vma_end(uint64_t stack_top, uint64_t lower, uint64_t align);

/* setup_arg_pages: the stack VMA starts stack_expand (128 KiB) below the pages the strings at
 * its top already use (strings_size bytes below vma_end): 132 KiB on 4K pages for a small
 * program, 144 KiB on 16K, 192 KiB on 64K. */
#define STACK_EXPAND (128ULL << 10)
uint64_t stack_vma_start(uint64_t vma_end, uint64_t strings_size);

/* load_elf_binary's brk (Linux 6.1.192, with the 6.1.y backport "binfmt_elf: Leave a gap between
 * .bss and brk"): an ET_DYN without interpreter (static PIE) gets its brk at ELF_ET_DYN_BASE
 * (et_dyn_base), page aligned, whatever the randomization; anything else after the image
 * (image_end, page aligned) plus one empty page when brk will be randomized
 * (randomize_va_space 2). This is start_brk before arch_randomize_brk. */
uint64_t elf_brk_base(uint64_t image_end, bool static_pie, uint64_t et_dyn_base,
		      bool randomize_brk);

/* 100 * log2(n), rounded, for n >= 1: the effective entropy of n equally likely values. */
unsigned log2_centi(uint64_t n);

/* A uniform random number in [0, n) (n >= 1), by rejection. */
uint64_t random_below(uint64_t n);

#endif
