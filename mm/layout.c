/* The ASLR knobs and the random offset of mmap_base. */
#include <arch/memory.h>
#include <arch/layout.h>
#include <mm/layout.h>
#include <kernel/random.h>
#include <kernel/sysctl.h>

int mmap_rnd_bits = CONFIG_ARCH_MMAP_RND_BITS;
SYSCTL_INT_MINMAX(mmap_rnd_bits, "vm.mmap_rnd_bits", &mmap_rnd_bits, 0600,
		  CONFIG_ARCH_MMAP_RND_BITS_MIN, CONFIG_ARCH_MMAP_RND_BITS_MAX,
		  CONFIG_ARCH_MMAP_RND_BITS);

/* Defined everywhere, for `if (CONFIG_COMPAT_ENABLED)` code to compile; the sysctl is registered
 * only where 32-bit compat tasks exist, as Linux's is (a declaration cannot sit in an `if`). */
int mmap_rnd_compat_bits = CONFIG_ARCH_MMAP_RND_COMPAT_BITS;
#if CONFIG_COMPAT_ENABLED
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
	if (CONFIG_COMPAT_ENABLED && compat)
		return (unsigned)mmap_rnd_compat_bits;
	return (unsigned)mmap_rnd_bits;
}

uint64_t arch_mmap_rnd(bool compat)
{
	if (randomize_va_space == 0)
		return 0;
	return mmap_rnd_offset(get_random_u64(), mmap_rnd_bits_for(compat), PAGE_SHIFT);
}

void task_geometry(bool compat, struct task_geometry *g)
{
	if (CONFIG_COMPAT_ENABLED && compat) {
		g->task_size = TASK_SIZE_COMPAT;
		g->stack_top = STACK_TOP_COMPAT;
		g->stack_rnd_mask = STACK_RND_MASK_COMPAT;
	} else {
		g->task_size = TASK_SIZE;
		g->stack_top = STACK_TOP;
		g->stack_rnd_mask = STACK_RND_MASK;
	}
	g->unmapped_base = TASK_UNMAPPED_BASE_FOR(g->task_size);
	g->guard_gap = 256ULL << PAGE_SHIFT;
}

static uint64_t page_align_up(uint64_t x)
{
	return (x + PAGE_SIZE - 1) & ~((uint64_t)PAGE_SIZE - 1);
}

static uint64_t clamped_gap(const struct task_geometry *g, uint64_t rlimit_stack, bool randomize)
{
	uint64_t gap = rlimit_stack;
	uint64_t pad = g->guard_gap;
	uint64_t max_gap = g->stack_top / 6 * 5;

	if (randomize)
		pad += g->stack_rnd_mask << PAGE_SHIFT;
	if (gap + pad > gap) /* an rlimit near RLIM_INFINITY would overflow */
		gap += pad;
	if (gap < MIN_GAP && MIN_GAP < max_gap)
		gap = MIN_GAP;
	else if (gap > max_gap)
		gap = max_gap;
	return gap;
}

void mmap_range(const struct task_geometry *g, uint64_t rlimit_stack, bool randomize,
		bool legacy, unsigned bits, struct mmap_range *r)
{
	uint64_t full = randomize ? (1ULL << bits) - 1 : 0;
	uint64_t room;

	r->bits = randomize ? bits : 0;
	r->gap = clamped_gap(g, rlimit_stack, randomize);
	r->topdown = !(legacy || (MMAP_LEGACY_IF_UNLIMITED_STACK && rlimit_stack == RLIM_INFINITY));
	if (r->topdown) {
		r->base = page_align_up(g->stack_top - r->gap);
		room = r->base > g->unmapped_base ? r->base - g->unmapped_base : 0;
	} else {
		uint64_t limit = g->stack_top - r->gap;
		r->base = g->unmapped_base;
		room = limit > r->base ? limit - r->base : 0;
	}
	room >>= PAGE_SHIFT;
	r->max_rnd_pages = full < room ? full : room;
}

uint64_t mmap_base_at(const struct mmap_range *r, uint64_t rnd_pages)
{
	uint64_t rnd = rnd_pages << PAGE_SHIFT;

	return r->topdown ? page_align_up(r->base - rnd) : r->base + rnd;
}

uint64_t mmap_draw_rnd_pages(const struct mmap_range *r, bool compat)
{
	uint64_t pages;

	if (r->bits == 0)
		return 0;
	do {
		pages = arch_mmap_rnd(compat) >> PAGE_SHIFT;
	} while (pages > r->max_rnd_pages);
	return pages;
}

uint64_t stack_vma_end(uint64_t stack_top, uint64_t lower, uint64_t align)
{
	return page_align_up((stack_top - lower) & ~(align - 1));
}

uint64_t stack_vma_start(uint64_t vma_end, uint64_t strings_size)
{
	return ((vma_end - strings_size) & ~((uint64_t)PAGE_SIZE - 1)) - STACK_EXPAND;
}

uint64_t elf_brk_base(uint64_t image_end, bool static_pie, uint64_t et_dyn_base,
		      bool randomize_brk)
{
	if (static_pie)
		return page_align_up(et_dyn_base);
	return page_align_up(image_end) + (randomize_brk ? PAGE_SIZE : 0);
}

uint64_t random_below(uint64_t n)
{
	uint64_t v;

	if (n <= 1)
		return 0;
	/* Reject the top partial copy of [0, n) so every value is equally likely. */
	uint64_t limit = (uint64_t)0 - ((uint64_t)0 - n) % n;
	do {
		v = get_random_u64();
	} while (limit && v >= limit);
	return v % n;
}

unsigned log2_centi(uint64_t n)
{
	unsigned whole = 0;
	uint64_t x;
	unsigned frac = 0;

	if (n <= 1)
		return 0;
	while ((n >> whole) > 1)
		whole++;
	/* x = n / 2^whole in Q32 (1 <= x < 2); square it repeatedly to read off fraction bits. */
	x = whole >= 32 ? n >> (whole - 32) : n << (32 - whole);
	for (unsigned i = 0; i < 16; i++) {
		x = (x >> 16) * (x >> 16);
		frac <<= 1;
		if (x >= (2ULL << 32)) {
			x >>= 1;
			frac |= 1;
		}
	}
	/* frac / 2^16 is the fractional part; round to hundredths. */
	return whole * 100 + (unsigned)((frac * 100ULL + (1u << 15)) >> 16);
}
