/* Captures the force-included config.h of one preset (PRESET_ID) as data for test_limits.c. */
#include "preset_limits.h"

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

#ifndef CONFIG_VA_BITS
#define CONFIG_VA_BITS 0
#endif
#ifndef CONFIG_PAGE_OFFSET
#define CONFIG_PAGE_OFFSET 0
#endif

const struct preset_limits CAT(preset_limits_, PRESET_ID) = {
	.preset = CONFIG_PRESET,
	.isa = CONFIG_ISA,
	.bits = CONFIG_BITS,
	.page_shift = CONFIG_PAGE_SHIFT,
	.va_bits = CONFIG_VA_BITS,
	.page_offset = CONFIG_PAGE_OFFSET,
	.rnd_min = CONFIG_ARCH_MMAP_RND_BITS_MIN,
	.rnd_max = CONFIG_ARCH_MMAP_RND_BITS_MAX,
	.rnd_default = CONFIG_ARCH_MMAP_RND_BITS,
#ifdef CONFIG_COMPAT
	.compat = true,
	.compat_min = CONFIG_ARCH_MMAP_RND_COMPAT_BITS_MIN,
	.compat_max = CONFIG_ARCH_MMAP_RND_COMPAT_BITS_MAX,
	.compat_default = CONFIG_ARCH_MMAP_RND_COMPAT_BITS,
#endif
};
