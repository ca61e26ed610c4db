/* mm/pmm.c on host memory (fake/asm/memory.h): two RAM regions with a hole between them and
 * an unaligned edge, reserved ranges with partial pages. Holes and reserved bytes are poisoned
 * for AddressSanitizer, so handing out (and zeroing) a frame that is not free RAM aborts the
 * test. Checks: exact counts, order-n alignment, no frame handed out twice, reserved ranges
 * never handed out, exhaustion returns 0, freeing restores the counts, double frees panic.
 * Further layouts reserve ranges that overlap each other, cover holes, run off either end of
 * RAM, straddle a bitmap word or cover one whole: take_frames sets whole words at a time and
 * must count only the frames it newly takes. Others describe RAM out of order, split at an
 * unaligned address or with a region smaller than a frame (pmm_init marks what is not RAM
 * stretch by stretch, between regions in any order), or chain reserved ranges so that the
 * bitmap's home moves more than once; the bitmap must be where the first fit is. One reserved
 * range runs past 2^64 (its end wraps): it reserves up to the top, so the bitmap must go
 * elsewhere; RAM regions that overlap count their common frames once. The bitmap starts at the
 * first whole RAM frame: freeing the partial frame in front of it is a bad address. */
#include "lib_under_test.h"

#include <kernel/boot.h>
#include <kernel/kernel.h>
#include <mm/pmm.h>

#include <sanitizer/asan_interface.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define PAGE ((uint64_t)1 << CONFIG_PAGE_SHIFT)

uint8_t *host_ram;
phys_addr_t host_ram_pa;
uint64_t host_ram_size;

void *host_fake_va(phys_addr_t pa)
{
	if (pa < host_ram_pa || pa > host_ram_pa + host_ram_size)
		fail_msg("__va(%#llx): not inside the fake RAM [%#llx, %#llx)", (unsigned long long)pa,
			 (unsigned long long)host_ram_pa,
			 (unsigned long long)(host_ram_pa + host_ram_size));
	return host_ram + (pa - host_ram_pa);
}

/* --- kernel services pmm.c uses ------------------------------------------------------------ */

static jmp_buf panic_jmp;
static bool panic_expected;
static char panic_message[256];

void panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(panic_message, sizeof(panic_message), fmt, ap);
	va_end(ap);
	if (panic_expected) {
		panic_expected = false;
		longjmp(panic_jmp, 1);
	}
	fail_msg("unexpected panic: %s", panic_message);
	abort();
}

int vprintk(const char *fmt, va_list ap)
{
	return vprintf(fmt, ap);
}

#define EXPECT_PANIC(stmt)                                                         \
	do {                                                                       \
		panic_expected = true;                                             \
		if (setjmp(panic_jmp) == 0) {                                      \
			stmt;                                                      \
			fail_msg("%s did not panic", #stmt);                       \
		}                                                                  \
		panic_expected = false;                                            \
	} while (0)

/* --- the fake machine ---------------------------------------------------------------------- */

/* Physical layout, in pages from RAM_PA (the fake RAM block covers all of it):
 *   region 0  [0, 40) pages
 *   hole      [40, 48)
 *   region 1  [48, 48 + 72) pages plus half a page, starting half a page in: its first and
 *             last partial frames are not usable
 * So the RAM frames are 0..39 and 49..119; a 64-bit bitmap word holds frames 0..63, the next
 * one 64..120. Each layout below lists its reserved ranges and, counted by hand, how many RAM
 * frames they touch (the test's own model must agree). */
#define RAM_PA ((phys_addr_t)0x40000000)
#define SPAN_PAGES 121

/* RAM as the firmware lists it, and how many whole frames it holds (counted by hand). */
struct ram_layout {
	unsigned nr_ram;
	struct mem_region ram[BOOT_MAX_REGIONS];
	uint64_t frames;
};

struct layout {
	unsigned nr_reserved;
	struct mem_region reserved[BOOT_MAX_REGIONS];
	uint64_t reserved_frames;
	const struct ram_layout *ram; /* NULL: two_regions */
};

#define AT(page) (RAM_PA + (page) * PAGE)

static const struct ram_layout two_regions = {
	2,
	{ { AT(0), 40 * PAGE }, { AT(48) + PAGE / 2, 72 * PAGE } },
	40 + 71, /* region 1 loses half a page at each end */
};

/* The same RAM, highest region first. */
static const struct ram_layout reversed_ram = {
	2,
	{ { AT(48) + PAGE / 2, 72 * PAGE }, { AT(0), 40 * PAGE } },
	40 + 71,
};

/* Region 0 starting just after frame 0's start and split in two at an unaligned address
 * (frames 0 and 20 are in no region whole), a region of half a frame in the middle of the
 * hole (no whole frame: it must not end the hole early), listed out of order: frames 1..19,
 * 21..39, 49..119. */
static const struct ram_layout split_ram = {
	4,
	{ { AT(20) + 100, 20 * PAGE - 100 },
	  { AT(48) + PAGE / 2, 72 * PAGE },
	  { AT(44) + PAGE / 4, PAGE / 2 },
	  { AT(0) + 100, 20 * PAGE } },
	19 + 19 + 71,
};

/* Region 0 listed twice more, once whole and once its second half: still frames 0..39 and
 * 49..119, each counted once. */
static const struct ram_layout overlapping_ram = {
	4,
	{ { AT(0), 40 * PAGE }, { AT(48) + PAGE / 2, 72 * PAGE }, { AT(20), 20 * PAGE },
	  { AT(0), 40 * PAGE } },
	40 + 71,
};

/* The "kernel" from page 2 to page 9 plus 100 bytes (frames 2..9), a "DTB" of 3000 bytes in
 * the middle of page 60, and a range that straddles frames 70 and 71: 8 + 1 + 2 frames. */
static const struct layout disjoint = {
	3,
	{ { AT(2), 7 * PAGE + 100 }, { AT(60) + PAGE / 4, 3000 }, { AT(71) - 64, 128 } },
	11,
};

/* Ranges inside, across and on top of each other, over the hole, off both ends of RAM and
 * across the word boundary: frames 0..1 (from below RAM), 2..12, 38..39 and 49 (the hole and
 * region 1's partial first frame between them are not RAM), 62..66, 118..119 (to far beyond
 * RAM), none for the ranges wholly below or above RAM: 2 + 11 + 3 + 5 + 2 = 23. */
static const struct layout overlapping = {
	11,
	{ { AT(2), 7 * PAGE + 100 },  /* 2..9 */
	  { AT(5) + 7, 2 * PAGE },     /* 5..7, inside the first */
	  { AT(8), 5 * PAGE },         /* 8..12, overlaps the first's end */
	  { AT(2), 7 * PAGE + 100 },   /* the first again */
	  { AT(62) + 1, 4 * PAGE },    /* 62..66, across the word boundary */
	  { AT(64), PAGE },            /* 64, inside the one before */
	  { AT(38), 12 * PAGE },       /* 38..49, over the hole */
	  { RAM_PA - 2 * PAGE, 3 * PAGE + 1 }, /* below RAM .. frame 1 */
	  { AT(118), (uint64_t)1 << 40 },      /* 118.. far above RAM */
	  { RAM_PA - 4 * PAGE, PAGE },         /* wholly below RAM: nothing */
	  { AT(200), PAGE } },                 /* wholly above RAM: nothing */
	23,
};

/* A whole bitmap word (frames 0..63, the hole included) and a range over most of it and into
 * the next word (10..89): RAM frames 0..39 and 49..89, 40 + 41 = 81. */
static const struct layout whole_word = {
	2,
	{ { AT(0), 64 * PAGE }, { AT(10), 80 * PAGE } },
	81,
};

/* Ranges that push the bitmap's first place along more than once, in an order that needs a
 * second pass: frames 1..2, then frame 0; the bitmap fits at frame 3. */
static const struct layout chained = {
	2,
	{ { AT(1), 2 * PAGE }, { AT(0), 100 } },
	3,
};

/* The disjoint ranges on other RAM layouts: all 11 frames are RAM on both. */
static const struct layout disjoint_reversed = {
	3,
	{ { AT(2), 7 * PAGE + 100 }, { AT(60) + PAGE / 4, 3000 }, { AT(71) - 64, 128 } },
	11,
	&reversed_ram,
};

static const struct layout disjoint_split = {
	3,
	{ { AT(2), 7 * PAGE + 100 }, { AT(60) + PAGE / 4, 3000 }, { AT(71) - 64, 128 } },
	11,
	&split_ram,
};

/* A range from page 48 whose size runs its end past 2^64 (to 4 pages, wrapped): it reserves
 * all of region 1 (frames 49..119, 71), which is listed first, so the bitmap's first fit is in
 * region 0. */
static const struct layout wrapping = {
	1,
	{ { AT(48), (uint64_t)0 - AT(48) + 4 * PAGE } },
	71,
	&reversed_ram,
};

/* The disjoint ranges on RAM listed with overlaps. */
static const struct layout disjoint_overlapping_ram = {
	3,
	{ { AT(2), 7 * PAGE + 100 }, { AT(60) + PAGE / 4, 3000 }, { AT(71) - 64, 128 } },
	11,
	&overlapping_ram,
};

static struct boot_info bi;
static uint64_t expected_total, expected_reserved;
/* Frames the allocator hands out right after pmm_init (learnt by exhausting it once). */
static bool allocatable[SPAN_PAGES];

static bool frame_is_ram(uint64_t f)
{
	phys_addr_t pa = RAM_PA + f * PAGE;

	for (unsigned i = 0; i < bi.nr_ram; i++)
		if (pa >= bi.ram[i].base && pa + PAGE <= bi.ram[i].base + bi.ram[i].size)
			return true;
	return false;
}

/* Where a reserved range ends: at the top of the address space if base + size wraps. */
static phys_addr_t reserved_end(unsigned i)
{
	phys_addr_t end = bi.reserved[i].base + bi.reserved[i].size;

	return end < bi.reserved[i].base ? ~(phys_addr_t)0 : end;
}

static bool frame_is_reserved(uint64_t f)
{
	phys_addr_t pa = RAM_PA + f * PAGE;

	for (unsigned i = 0; i < bi.nr_reserved; i++)
		if (pa < reserved_end(i) && bi.reserved[i].base < pa + PAGE)
			return true;
	return false;
}

/* Poison the part of [pa, pa + len) that the fake RAM block holds. */
static void poison_pa(phys_addr_t pa, uint64_t len)
{
	phys_addr_t lo = pa > RAM_PA ? pa : RAM_PA;
	phys_addr_t hi = len > AT(SPAN_PAGES) - lo ? AT(SPAN_PAGES) : pa + len;

	if (lo < hi)
		ASAN_POISON_MEMORY_REGION(host_ram + (lo - RAM_PA), hi - lo);
}

/* Frames the bitmap takes: one bit per frame of the span, whole pages. */
static uint64_t bitmap_frames(void)
{
	uint64_t bytes = (SPAN_PAGES + 63) / 64 * 8;

	return (bytes + PAGE - 1) / PAGE;
}

/* Where the bitmap must be: the first page-aligned place, region by region in the order the
 * firmware listed them, that fits in the region and touches no reserved range. */
static uint64_t expected_bitmap_frame(void)
{
	uint64_t len = bitmap_frames() * PAGE;

	for (unsigned i = 0; i < bi.nr_ram; i++) {
		phys_addr_t end = bi.ram[i].base + bi.ram[i].size;
		for (phys_addr_t pa = (bi.ram[i].base + PAGE - 1) & ~(PAGE - 1); pa + len <= end;
		     pa += PAGE) {
			bool touches = false;
			for (unsigned j = 0; j < bi.nr_reserved; j++)
				touches |= pa < reserved_end(j) && bi.reserved[j].base < pa + len;
			if (!touches)
				return (pa - RAM_PA) / PAGE;
		}
	}
	fail_msg("no place for the bitmap in this layout");
	return 0;
}

static void learn_allocatable(void)
{
	phys_addr_t got[SPAN_PAGES], pa;
	unsigned n = 0;

	memset(allocatable, 0, sizeof(allocatable));
	while ((pa = pmm_alloc_page()) != 0) {
		assert_true(n < SPAN_PAGES && pa >= RAM_PA && (pa - RAM_PA) / PAGE < SPAN_PAGES);
		got[n++] = pa;
		allocatable[(pa - RAM_PA) / PAGE] = true;
	}
	while (n)
		pmm_free_page(got[--n]);
}

static int setup(void **state)
{
	const struct layout *layout = *state ? *state : &disjoint;

	host_ram_size = SPAN_PAGES * PAGE;
	host_ram_pa = RAM_PA;
	host_ram = aligned_alloc(PAGE, host_ram_size);
	assert_non_null(host_ram);
	memset(host_ram, 0xcc, host_ram_size);

	const struct ram_layout *ram = layout->ram ? layout->ram : &two_regions;

	memset(&bi, 0, sizeof(bi));
	memcpy(bi.ram, ram->ram, sizeof(bi.ram));
	bi.nr_ram = ram->nr_ram;
	memcpy(bi.reserved, layout->reserved, sizeof(bi.reserved));
	bi.nr_reserved = layout->nr_reserved;

	expected_total = expected_reserved = 0;
	for (uint64_t f = 0; f < SPAN_PAGES; f++) {
		if (!frame_is_ram(f))
			continue;
		expected_total++;
		if (frame_is_reserved(f))
			expected_reserved++;
	}
	assert_int_equal(expected_total, ram->frames);
	assert_int_equal(expected_reserved, layout->reserved_frames);

	/* What is not free RAM must never be touched by the allocator's users: frames that are
	 * not wholly RAM (the hole, the partial frames at region edges) and reserved ranges. */
	for (uint64_t f = 0; f < SPAN_PAGES; f++)
		if (!frame_is_ram(f))
			poison_pa(AT(f), PAGE);
	for (unsigned i = 0; i < bi.nr_reserved; i++)
		poison_pa(bi.reserved[i].base, bi.reserved[i].size);

	pmm_init(&bi);
	learn_allocatable();
	return 0;
}

static int teardown(void **state)
{
	ASAN_UNPOISON_MEMORY_REGION(host_ram, host_ram_size);
	free(host_ram);
	host_ram = NULL;
	return 0;
}

static struct pmm_stats stats(void)
{
	struct pmm_stats st;

	memset(&st, 0xa5, sizeof(st));
	pmm_get_stats(&st);
	assert_int_equal(st.used + st.free, st.total);
	return st;
}

/* Check an allocation of 2^order frames at pa: aligned, whole inside one RAM region, no
 * reserved frame, not already handed out (owner[]), zeroed; then mark and scribble on it. */
static void check_and_claim(phys_addr_t pa, unsigned order, uint8_t *owner)
{
	uint64_t n = (uint64_t)1 << order;
	uint64_t first;

	assert_true(pa != 0);
	if (pa & ((PAGE << order) - 1))
		fail_msg("order %u block at %#llx is not aligned to %#llx", order,
			 (unsigned long long)pa, (unsigned long long)(PAGE << order));
	assert_true(pa >= RAM_PA && pa + n * PAGE <= RAM_PA + SPAN_PAGES * PAGE);
	first = (pa - RAM_PA) / PAGE;
	for (uint64_t f = first; f < first + n; f++) {
		if (!frame_is_ram(f))
			fail_msg("frame %llu handed out but is not RAM", (unsigned long long)f);
		if (frame_is_reserved(f))
			fail_msg("frame %llu handed out but is reserved", (unsigned long long)f);
		if (owner[f])
			fail_msg("frame %llu handed out twice", (unsigned long long)f);
		owner[f] = 1;
		for (uint64_t b = 0; b < PAGE; b++)
			if (host_ram[f * PAGE + b])
				fail_msg("frame %llu not zeroed", (unsigned long long)f);
	}
	/* Use it: the bitmap must not live there. */
	memset(host_ram + first * PAGE, 0xee, n * PAGE);
}

static void test_initial_counts(void **state)
{
	struct pmm_stats st = stats();

	assert_int_equal(st.total, expected_total);
	assert_int_equal(st.used, expected_reserved + bitmap_frames());
	assert_int_equal(st.free, expected_total - expected_reserved - bitmap_frames());
	/* What the allocator hands out is exactly free RAM minus the bitmap's frames, and those
	 * are where the first fit puts them. */
	uint64_t n = 0, missing = 0, home = expected_bitmap_frame();
	for (uint64_t f = 0; f < SPAN_PAGES; f++) {
		bool usable = frame_is_ram(f) && !frame_is_reserved(f);
		if (allocatable[f]) {
			assert_true(usable);
			n++;
		} else if (usable) {
			if (f < home || f >= home + bitmap_frames())
				fail_msg("frame %llu is free RAM but not handed out (bitmap at %llu)",
					 (unsigned long long)f, (unsigned long long)home);
			missing++;
		}
	}
	assert_int_equal(n, st.free);
	assert_int_equal(missing, bitmap_frames());
}

static void test_exhaust_order0(void **state)
{
	uint8_t owner[SPAN_PAGES] = { 0 };
	phys_addr_t got[SPAN_PAGES];
	struct pmm_stats before = stats(), st;
	uint64_t n = 0;
	phys_addr_t pa;

	while ((pa = pmm_alloc_page()) != 0) {
		assert_true(n < SPAN_PAGES);
		check_and_claim(pa, 0, owner);
		got[n++] = pa;
		st = stats();
		assert_int_equal(st.free, before.free - n);
		assert_int_equal(st.used, before.used + n);
	}
	assert_int_equal(n, before.free);
	st = stats();
	assert_int_equal(st.free, 0);
	assert_int_equal(st.used, st.total);
	/* Exhausted stays exhausted, at every order. */
	for (unsigned order = 0; order < 4; order++)
		assert_int_equal(pmm_alloc_pages(order), 0);
	assert_int_equal(stats().free, 0);
	/* Free in a scrambled order (odd indices, then even): counts come back exactly. */
	for (uint64_t i = 1; i < n; i += 2)
		pmm_free_page(got[i]);
	for (uint64_t i = 0; i < n; i += 2)
		pmm_free_page(got[i]);
	st = stats();
	assert_int_equal(st.free, before.free);
	assert_int_equal(st.used, before.used);
	assert_int_equal(st.total, before.total);
}

static void test_orders(void **state)
{
	struct pmm_stats before = stats();

	for (unsigned order = 1; order <= 5; order++) {
		uint8_t owner[SPAN_PAGES] = { 0 };
		phys_addr_t got[SPAN_PAGES];
		uint64_t n = 0;
		phys_addr_t pa;

		while ((pa = pmm_alloc_pages(order)) != 0) {
			assert_true(n < SPAN_PAGES);
			check_and_claim(pa, order, owner);
			got[n++] = pa;
			assert_int_equal(stats().free, before.free - (n << order));
		}
		/* Exhausted means no aligned run of free frames is left anywhere. */
		for (uint64_t f = 0; f + ((uint64_t)1 << order) <= SPAN_PAGES; f++) {
			bool free_run = true;

			if ((RAM_PA / PAGE + f) % ((uint64_t)1 << order))
				continue;
			for (uint64_t k = f; k < f + ((uint64_t)1 << order); k++)
				free_run = free_run && allocatable[k] && !owner[k];
			if (free_run)
				fail_msg("order %u exhausted, but frames %llu.. are free and aligned",
					 order, (unsigned long long)f);
		}
		/* Up to order 4 the layout has free aligned runs (frames 96..111); order 5 has none,
		 * which the loop above has just confirmed. */
		if (order <= 4)
			assert_true(n > 0);
		while (n)
			pmm_free_pages(got[--n], order);
		struct pmm_stats st = stats();
		assert_int_equal(st.free, before.free);
		assert_int_equal(st.used, before.used);
	}
}

/* After freeing every other frame no aligned pair is free: order 1 fails, order 0 works. */
static void test_fragmentation(void **state)
{
	uint8_t owner[SPAN_PAGES] = { 0 };
	phys_addr_t got[SPAN_PAGES];
	struct pmm_stats before = stats();
	uint64_t n = 0, freed = 0;
	phys_addr_t pa;

	while ((pa = pmm_alloc_page()) != 0) {
		check_and_claim(pa, 0, owner);
		got[n++] = pa;
	}
	for (uint64_t i = 0; i < n; i++)
		if (((got[i] - RAM_PA) / PAGE) % 2 == 0) {
			pmm_free_page(got[i]);
			got[i] = 0;
			freed++;
		}
	assert_int_equal(stats().free, freed);
	assert_int_equal(pmm_alloc_pages(1), 0);
	assert_int_equal(stats().free, freed);
	pa = pmm_alloc_page();
	assert_true(pa != 0 && ((pa - RAM_PA) / PAGE) % 2 == 0);
	pmm_free_page(pa);
	for (uint64_t i = 0; i < n; i++)
		if (got[i])
			pmm_free_page(got[i]);
	assert_int_equal(stats().free, before.free);
}

/* Random alloc/free against a model of the counts. */
static void test_random_workload(void **state)
{
	struct {
		phys_addr_t pa;
		unsigned order;
	} live[SPAN_PAGES];
	uint8_t owner[SPAN_PAGES] = { 0 };
	unsigned nlive = 0;
	struct pmm_stats before = stats();
	uint64_t free_model = before.free;
	uint64_t x = 88172645463325252ULL;

	for (int step = 0; step < 5000; step++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (nlive && (x & 3) == 0) {
			unsigned i = (unsigned)((x >> 8) % nlive);
			uint64_t first = (live[i].pa - RAM_PA) / PAGE;

			for (uint64_t f = first; f < first + ((uint64_t)1 << live[i].order); f++)
				owner[f] = 0;
			pmm_free_pages(live[i].pa, live[i].order);
			free_model += (uint64_t)1 << live[i].order;
			live[i] = live[--nlive];
		} else {
			unsigned order = (unsigned)((x >> 20) % 4);
			phys_addr_t pa = pmm_alloc_pages(order);

			if (pa) {
				check_and_claim(pa, order, owner);
				live[nlive].pa = pa;
				live[nlive++].order = order;
				free_model -= (uint64_t)1 << order;
			} else if (order == 0) {
				assert_int_equal(free_model, 0); /* a single frame fails only when none is free */
			}
		}
		assert_int_equal(stats().free, free_model);
	}
	while (nlive) {
		nlive--;
		pmm_free_pages(live[nlive].pa, live[nlive].order);
	}
	assert_int_equal(stats().free, before.free);
	assert_int_equal(stats().used, before.used);
}

/* Frames come back zeroed even after their previous owner scribbled on them. */
static void test_zeroed_again(void **state)
{
	phys_addr_t got[SPAN_PAGES], pa;
	unsigned n = 0;

	while ((pa = pmm_alloc_page()) != 0) {
		memset(host_fake_va(pa), 0xff, PAGE);
		got[n++] = pa;
	}
	while (n)
		pmm_free_page(got[--n]);
	for (unsigned order = 0; order < 3; order++) {
		pa = pmm_alloc_pages(order);
		assert_true(pa != 0);
		for (uint64_t b = 0; b < (PAGE << order); b++)
			assert_int_equal(((uint8_t *)host_fake_va(pa))[b], 0);
		pmm_free_pages(pa, order);
	}
}

static void test_bad_frees_panic(void **state)
{
	phys_addr_t pa = pmm_alloc_page();
	struct pmm_stats st;

	pmm_free_page(pa);
	st = stats();
	EXPECT_PANIC(pmm_free_page(pa));                         /* double free */
	EXPECT_PANIC(pmm_free_page(RAM_PA - PAGE));              /* below RAM */
	EXPECT_PANIC(pmm_free_page(RAM_PA + SPAN_PAGES * PAGE)); /* above RAM */
	EXPECT_PANIC(pmm_free_page(pa + 1));                     /* not a frame address */
	/* None of them changed the counts. */
	assert_int_equal(stats().free, st.free);
	assert_int_equal(stats().used, st.used);
}

/* Copy-on-write owners: an allocated frame has one, each pmm_page_get one more, each
 * pmm_page_put one less and the last frees it; a frame with other owners cannot be freed
 * outright, and a count on a free frame or outside RAM is a panic. */
static void test_page_owners(void **state)
{
	struct pmm_stats st = stats();
	phys_addr_t pa = pmm_alloc_page();

	assert_true(pa != 0);
	assert_int_equal(pmm_page_refs(pa), 1);
	assert_true(pmm_page_get(pa));
	assert_true(pmm_page_get(pa));
	assert_int_equal(pmm_page_refs(pa), 3);
	EXPECT_PANIC(pmm_free_page(pa));
	assert_non_null(strstr(panic_message, "share"));
	assert_false(pmm_page_put(pa));
	assert_false(pmm_page_put(pa));
	assert_int_equal(pmm_page_refs(pa), 1);
	assert_int_equal(stats().free, st.free - 1);
	assert_true(pmm_page_put(pa)); /* the last owner frees it */
	assert_int_equal(pmm_page_refs(pa), 0);
	assert_int_equal(stats().free, st.free);
	EXPECT_PANIC(pmm_page_get(pa));
	EXPECT_PANIC(pmm_page_put(pa));
	EXPECT_PANIC(pmm_page_get(RAM_PA + SPAN_PAGES * PAGE));
	assert_int_equal(pmm_page_refs(RAM_PA + SPAN_PAGES * PAGE), 0);
	/* A frame handed out again starts with one owner (the count went back to 0 extra). */
	phys_addr_t again = pmm_alloc_page();
	assert_int_equal(pmm_page_refs(again), 1);
	pmm_free_page(again);
	assert_int_equal(stats().free, st.free);
}

/* The count's limit: 65,536 owners; one more is refused, not wrapped. */
static void test_page_owners_limit(void **state)
{
	phys_addr_t pa = pmm_alloc_page();

	for (unsigned i = 1; i < 65536; i++)
		assert_true(pmm_page_get(pa));
	assert_int_equal(pmm_page_refs(pa), 65536);
	assert_false(pmm_page_get(pa));
	for (unsigned i = 1; i < 65536; i++)
		assert_false(pmm_page_put(pa));
	assert_true(pmm_page_put(pa));
}

/* Frames in the hole between the two regions, and the partial frame at region 1's start, are
 * inside the bitmap's span and marked used, but were never handed out: freeing one is a bad
 * address (it would make the hole allocatable), and the message names it. */
static void test_free_in_hole_panics(void **state)
{
	struct pmm_stats st = stats();
	char want[64];

	EXPECT_PANIC(pmm_free_page(AT(44)));
	snprintf(want, sizeof(want), "%#llx", (unsigned long long)AT(44));
	assert_non_null(strstr(panic_message, "not RAM"));
	assert_non_null(strstr(panic_message, want));
	EXPECT_PANIC(pmm_free_page(AT(48)));
	assert_non_null(strstr(panic_message, "not RAM"));
	EXPECT_PANIC(pmm_free_pages(AT(32), 4)); /* frames 32..47: the last 8 in the hole */
	assert_non_null(strstr(panic_message, "not RAM"));
	/* Nor does a hole frame take or lose an owner, though the bitmap says used. */
	EXPECT_PANIC(pmm_page_get(AT(44)));
	assert_non_null(strstr(panic_message, "not allocated RAM"));
	EXPECT_PANIC(pmm_page_put(AT(44)));
	assert_non_null(strstr(panic_message, "not RAM"));
	assert_int_equal(stats().free, st.free);
	assert_int_equal(stats().used, st.used);
}

/* The bitmap starts at the first whole RAM frame: the partial frame before it (split_ram's
 * region starts 100 bytes into frame 0) is not the allocator's, and freeing it is a bad
 * address, not a double free of a frame the allocator holds. */
static void test_partial_first_frame_outside(void **state)
{
	struct pmm_stats st = stats();

	EXPECT_PANIC(pmm_free_page(AT(0)));
	assert_non_null(strstr(panic_message, "bad frame address"));
	assert_int_equal(stats().free, st.free);
}

/* A test run on one of the layouts above (the others run on `disjoint`). */
#define LAYOUT_TEST(f, layout) { #f "." #layout, f, setup, teardown, (void *)&layout }

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_initial_counts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exhaust_order0, setup, teardown),
		cmocka_unit_test_setup_teardown(test_orders, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fragmentation, setup, teardown),
		cmocka_unit_test_setup_teardown(test_random_workload, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zeroed_again, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_frees_panic, setup, teardown),
		cmocka_unit_test_setup_teardown(test_free_in_hole_panics, setup, teardown),
		cmocka_unit_test_setup_teardown(test_page_owners, setup, teardown),
		cmocka_unit_test_setup_teardown(test_page_owners_limit, setup, teardown),
		LAYOUT_TEST(test_initial_counts, overlapping),
		LAYOUT_TEST(test_exhaust_order0, overlapping),
		LAYOUT_TEST(test_fragmentation, overlapping),
		LAYOUT_TEST(test_random_workload, overlapping),
		LAYOUT_TEST(test_initial_counts, whole_word),
		LAYOUT_TEST(test_exhaust_order0, whole_word),
		LAYOUT_TEST(test_random_workload, whole_word),
		LAYOUT_TEST(test_initial_counts, chained),
		LAYOUT_TEST(test_exhaust_order0, chained),
		LAYOUT_TEST(test_initial_counts, disjoint_reversed),
		LAYOUT_TEST(test_exhaust_order0, disjoint_reversed),
		LAYOUT_TEST(test_orders, disjoint_reversed),
		LAYOUT_TEST(test_initial_counts, disjoint_split),
		LAYOUT_TEST(test_exhaust_order0, disjoint_split),
		LAYOUT_TEST(test_random_workload, disjoint_split),
		LAYOUT_TEST(test_partial_first_frame_outside, disjoint_split),
		LAYOUT_TEST(test_initial_counts, wrapping),
		LAYOUT_TEST(test_exhaust_order0, wrapping),
		LAYOUT_TEST(test_initial_counts, disjoint_overlapping_ram),
		LAYOUT_TEST(test_exhaust_order0, disjoint_overlapping_ram),
		LAYOUT_TEST(test_random_workload, disjoint_overlapping_ram),
	};

	return cmocka_run_group_tests_name("pmm." CONFIG_PRESET, tests, NULL, NULL);
}
