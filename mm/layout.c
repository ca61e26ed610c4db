/* The ASLR knobs and the random offset of mmap_base. */
#include <arch/memory.h>
#include <layout.h>
#include <random.h>
#include <sysctl.h>

int mmap_rnd_bits = CONFIG_ARCH_MMAP_RND_BITS;
SYSCTL_INT_MINMAX(mmap_rnd_bits, "vm.mmap_rnd_bits", &mmap_rnd_bits, 0600,
		  CONFIG_ARCH_MMAP_RND_BITS_MIN, CONFIG_ARCH_MMAP_RND_BITS_MAX,
		  CONFIG_ARCH_MMAP_RND_BITS);

#ifdef CONFIG_COMPAT
int mmap_rnd_compat_bits = CONFIG_ARCH_MMAP_RND_COMPAT_BITS;
SYSCTL_INT_MINMAX(mmap_rnd_compat_bits, "vm.mmap_rnd_compat_bits", &mmap_rnd_compat_bits, 0600,
		  CONFIG_ARCH_MMAP_RND_COMPAT_BITS_MIN, CONFIG_ARCH_MMAP_RND_COMPAT_BITS_MAX,
		  CONFIG_ARCH_MMAP_RND_COMPAT_BITS);
#endif

int randomize_va_space = 2;
SYSCTL_INT_MINMAX(randomize_va_space, "kernel.randomize_va_space", &randomize_va_space, 0644,
		  0, 2, 2);

int legacy_va_layout;
SYSCTL_INT_MINMAX(legacy_va_layout, "vm.legacy_va_layout", &legacy_va_layout, 0644, 0, 1, 0);

uint64_t mmap_rnd_offset(uint64_t random, unsigned bits, unsigned page_shift)
{
	/* 64-bit mask: the 2015 form `get_random_int() % (1 << bits)` is undefined at 32 bits
	 * and cannot express arm64's 33. */
	return (random & ((1ULL << bits) - 1)) << page_shift;
}

unsigned mmap_rnd_bits_for(bool compat)
{
#ifdef CONFIG_COMPAT
	if (compat)
		return (unsigned)mmap_rnd_compat_bits;
#else
	(void)compat;
#endif
	return (unsigned)mmap_rnd_bits;
}

uint64_t arch_mmap_rnd(bool compat)
{
	if (randomize_va_space == 0)
		return 0;
	return mmap_rnd_offset(get_random_u64(), mmap_rnd_bits_for(compat), PAGE_SHIFT);
}
