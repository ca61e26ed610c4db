/* Physical page frames: one bit per frame from the first whole RAM frame to the last (set =
 * not free), with a running free count so `free` is exact. Holes between RAM regions and reserved
 * ranges are simply never free. The bitmap itself lives in the first free frames it finds. */
#include <arch/memory.h>
#include <kernel/boot.h>
#include <kernel/kernel.h>
#include <lib/string.h>
#include <mm/pmm.h>
#include <kernel/shell.h>

#define BITS_PER_WORD (8 * sizeof(unsigned long))

/* A frame number or count. A machine word, as Linux's pfns: frames fit it on every preset (the
 * 32-bit ones see at most 4 GiB), and 64-bit arithmetic on a 32-bit CPU is longer code. */
typedef unsigned long frame_t;

/* Physical frame numbers (address >> PAGE_SHIFT) [first, end); empty when end <= first. */
struct frame_range {
	frame_t first, end;
};

/* The allocator's state, in one struct: its fields stay side by side wherever link-time
 * optimisation puts the code that reads them (pmm_init at boot, the owner counts inlined into
 * fork and teardown), so one base address reaches them all. As separate variables they were
 * laid out apart once fork inlined the counts, and the boot's code grew by 37 instructions. */
static struct {
	unsigned long *bitmap; /* linear-map address */
	/* Per frame, the owners beyond the first: 0 for a frame with one owner (and a free one),
	 * so an allocation need not write it. Only copy-on-write sharing (mm_fork) raises it.
	 * Right after the bitmap, in the same frames. */
	uint16_t *extra_refs;
	frame_t base_frame;   /* the physical frame number of bit 0 */
	phys_addr_t base_pa;  /* its address, which every allocation adds to */
	frame_t nr_frames;    /* frames covered by the bitmap (RAM span) */
	frame_t total_frames; /* frames that are RAM */
	frame_t free_frames;
	frame_t search_hint;  /* no frame below it is free (where searches start) */
	frame_t low_free;     /* the fewest free frames seen since the last peak reset */
	/* The whole frames of each RAM region, so that a free can tell a frame in a hole between
	 * regions (marked used in the bitmap, never handed out) from one it handed out. */
	struct frame_range ram_frames[BOOT_MAX_REGIONS];
	unsigned nr_ram_frames;
	/* The physical frame number past the bitmap's last bit (the spare bits of its last word
	 * are never free: pmm_init takes them as not RAM). */
	frame_t bits_end;
} pmm;

static bool frame_used(frame_t f)
{
	return pmm.bitmap[f / BITS_PER_WORD] & (1UL << (f % BITS_PER_WORD));
}

static void mark_used(frame_t f)
{
	pmm.bitmap[f / BITS_PER_WORD] |= 1UL << (f % BITS_PER_WORD);
}

static void mark_free(frame_t f)
{
	pmm.bitmap[f / BITS_PER_WORD] &= ~(1UL << (f % BITS_PER_WORD));
}

/* How many bits of x are set (no libgcc here, so no __builtin_popcountl): the bits are summed
 * in pairs, nibbles and bytes, then the bytes by one multiply. */
static unsigned bits_set(unsigned long x)
{
	const unsigned long ones = ~0UL / 255; /* 0x01 in every byte */

	x -= (x >> 1) & (ones * 0x55);
	x = (x & (ones * 0x33)) + ((x >> 2) & (ones * 0x33));
	x = (x + (x >> 4)) & (ones * 0x0f);
	return (unsigned)((x * ones) >> (BITS_PER_WORD - 8));
}


/* Mark frames [r.first, r.end) used, as far as the bitmap has bits for them (a reserved range
 * may lie anywhere), a bitmap word at a time (the kernel image alone is hundreds of frames), and
 * take from free_frames those of them that were free until now. */
static void take_frames(struct frame_range r)
{
	frame_t end = MIN(MAX(r.end, pmm.base_frame), pmm.bits_end) - pmm.base_frame;
	frame_t taken = 0;

	for (frame_t f = MIN(MAX(r.first, pmm.base_frame), pmm.bits_end) - pmm.base_frame; f < end;) {
		unsigned bit = f % BITS_PER_WORD;
		frame_t n = MIN(BITS_PER_WORD - bit, end - f);
		unsigned long mask = (~0UL >> (BITS_PER_WORD - n)) << bit; /* n bits from bit */
		unsigned long *word = &pmm.bitmap[f / BITS_PER_WORD];

		taken += bits_set(mask & ~*word);
		*word |= mask;
		f += n;
	}
	pmm.free_frames -= taken;
}

/* The frame holding pa. Where a frame_t is narrower than a physical address (32-bit ISAs) a
 * frame past its range counts as the last but one, so that frame + 1 still fits: no RAM is
 * there (the arch keeps RAM within its linear map), and a reserved range there reserves
 * nothing the bitmap covers. */
static frame_t frame_of(phys_addr_t pa)
{
	return (frame_t)MIN(pa >> PAGE_SHIFT, (phys_addr_t)(frame_t)-2);
}

/* The frames of a RAM region (whole: those it covers entirely) or of a reserved range (every
 * frame it touches at all). A range running past 2^64 runs up to the top. */
static struct frame_range region_frames(const struct mem_region *r, bool whole)
{
	phys_addr_t end = r->base + MIN(r->size, ~r->base); /* no wrap past the top */
	bool base_partial = r->base & (PAGE_SIZE - 1), end_partial = end & (PAGE_SIZE - 1);
	struct frame_range f = { frame_of(r->base), frame_of(end) };

	/* A partial frame is no RAM frame (rounded in), but a reserved one (rounded out). */
	if (whole && base_partial)
		f.first++;
	if (!whole && end_partial)
		f.end++;
	return f;
}

/* The first place of n frames, in the RAM regions' order, that lies in one region and shares
 * no frame with a reserved range (a panic if there is none): in each region, from its first
 * frame, a place moves past each range it shares a frame with, and the ranges are looked at
 * again from the first after every move (a place only moves up). */
static frame_t find_bitmap_home(const struct boot_info *bi, frame_t n)
{
	for (unsigned i = 0; i < bi->nr_ram; i++) {
		struct frame_range ram = region_frames(&bi->ram[i], true);
		frame_t f = ram.first;

		for (unsigned j = 0; j < bi->nr_reserved; j++) {
			struct frame_range r = region_frames(&bi->reserved[j], false);

			if (MAX(f, r.first) < MIN(f + n, r.end)) { /* they share a frame */
				f = r.end;
				j = -1u; /* from the first range again */
			}
		}
		if (f + n <= ram.end)
			return f;
	}
	panic("pmm: no room for a %llu-byte frame bitmap",
	      (unsigned long long)((phys_addr_t)n << PAGE_SHIFT));
}

/* The first frame at or after f that some RAM region covers (f itself if one does), or none
 * if there is no such frame. The regions may come in any order. */
static frame_t next_ram_frame(const struct boot_info *bi, frame_t f, frame_t none)
{
	frame_t next = none;

	for (unsigned i = 0; i < bi->nr_ram; i++) {
		struct frame_range r = region_frames(&bi->ram[i], true);
		frame_t candidate = MAX(r.first, f);
		next = MIN(next, candidate < r.end ? candidate : none);
	}
	return next;
}

void pmm_init(const struct boot_info *bi)
{
	frame_t lo = (frame_t)-1, hi = 0;

	/* The bitmap covers the frames from the first whole RAM frame to the last. */
	for (unsigned i = 0; i < bi->nr_ram; i++) {
		struct frame_range r = region_frames(&bi->ram[i], true);
		lo = MIN(lo, r.first);
		hi = MAX(hi, r.end);
		pmm.ram_frames[i] = r;
	}
	pmm.nr_ram_frames = bi->nr_ram;
	if (hi <= lo) /* no region, or none with a whole frame */
		panic("pmm: no RAM described by the firmware");
	pmm.base_frame = lo;
	pmm.base_pa = (phys_addr_t)lo << PAGE_SHIFT;
	pmm.nr_frames = hi - lo;

	frame_t words = (pmm.nr_frames + BITS_PER_WORD - 1) / BITS_PER_WORD;
	/* (The bitmap's and the counts' bytes are a few per frame: a frame_t holds them.) */
	frame_t bitmap_bytes = words * sizeof(unsigned long);
	frame_t refs_bytes = pmm.nr_frames * sizeof(*pmm.extra_refs);
	frame_t bitmap_frames = (bitmap_bytes + refs_bytes + PAGE_SIZE - 1) >> PAGE_SHIFT;
	frame_t home = find_bitmap_home(bi, bitmap_frames);
	pmm.bitmap = __va((phys_addr_t)home << PAGE_SHIFT);
	pmm.extra_refs = (uint16_t *)((char *)pmm.bitmap + bitmap_bytes);
	memset(pmm.extra_refs, 0, (size_t)refs_bytes);

	/* Every whole RAM frame is free, but those a reserved range or the bitmap touches. The
	 * bitmap starts all free and takes the rest by one routine, which counts what it takes:
	 * first what is not RAM (what is left is the RAM), then the reserved ranges. The frames
	 * that are not RAM come in stretches, each starting at the bitmap's first frame or where
	 * a region's whole frames end and running up to the next RAM frame (the bitmap's last
	 * word included). */
	pmm.bits_end = lo + words * BITS_PER_WORD;
	memset(pmm.bitmap, 0, (size_t)words * sizeof(unsigned long));
	pmm.free_frames = words * BITS_PER_WORD;
	frame_t from = lo;
	for (unsigned i = 0;; i++) {
		take_frames((struct frame_range){ from, next_ram_frame(bi, from, pmm.bits_end) });
		if (i == bi->nr_ram)
			break;
		from = region_frames(&bi->ram[i], true).end;
	}
	pmm.total_frames = pmm.free_frames; /* RAM regions that overlap count their common frames once */
	for (unsigned i = 0; i < bi->nr_reserved; i++)
		take_frames(region_frames(&bi->reserved[i], false));
	take_frames((struct frame_range){ home, home + bitmap_frames });
	pmm.search_hint = 0;
	pmm.low_free = pmm.free_frames;
}

static bool run_is_free(frame_t first, frame_t count)
{
	for (frame_t f = first; f < first + count; f++)
		if (frame_used(f))
			return false;
	return true;
}

/* Lowest free order-0 frame: the lowest clear bit of the first word from search_hint's on
 * that is not full (the bits below search_hint in that word are set: those frames are used). */
static frame_t find_free_frame(void)
{
	for (frame_t w = pmm.search_hint / BITS_PER_WORD; w * BITS_PER_WORD < pmm.nr_frames; w++) {
		if (pmm.bitmap[w] == ~0UL)
			continue;
		frame_t f = w * BITS_PER_WORD + (frame_t)__builtin_ctzl(~pmm.bitmap[w]);
		return MIN(f, pmm.nr_frames); /* (the spare bits past the last frame are set) */
	}
	return pmm.nr_frames;
}

/* Lowest free, naturally aligned run of 2^order frames. No frame below search_hint is free,
 * so no run starts there: the search starts at the first aligned place from it (from the
 * bitmap's start, a fork's kernel stack went over every full word of the kernel image and of
 * every live process first). */
static frame_t find_free_run(unsigned order)
{
	frame_t count = 1UL << order;
	/* Alignment is of the physical frame number, not of the bitmap index. */
	frame_t first = ALIGN_UP(pmm.base_frame, count) - pmm.base_frame;
	frame_t from = first + ALIGN_UP(MAX(pmm.search_hint, first) - first, count);

	for (frame_t f = from; f + count <= pmm.nr_frames;) {
		/* A full bitmap word (the kernel image, the tables of a live process) is passed in
		 * one step: to the first candidate at or after the next word. */
		if (pmm.bitmap[f / BITS_PER_WORD] == ~0UL) {
			frame_t next = (f / BITS_PER_WORD + 1) * BITS_PER_WORD;
			f = first + ALIGN_UP(next - first, count);
			continue;
		}
		if (run_is_free(f, count))
			return f;
		f += count;
	}
	return pmm.nr_frames;
}

phys_addr_t pmm_alloc_pages_uninit(unsigned order)
{
	frame_t count = 1UL << order;
	frame_t f = order == 0 ? find_free_frame() : find_free_run(order);

	if (f >= pmm.nr_frames || pmm.free_frames < count)
		return 0;
	for (frame_t i = 0; i < count; i++)
		mark_used(f + i);
	pmm.free_frames -= count;
	if (pmm.free_frames < pmm.low_free)
		pmm.low_free = pmm.free_frames;
	if (order == 0)
		pmm.search_hint = f + 1;
	return pmm.base_pa + ((phys_addr_t)f << PAGE_SHIFT);
}

phys_addr_t pmm_alloc_pages(unsigned order)
{
	phys_addr_t pa = pmm_alloc_pages_uninit(order);

	if (pa)
		memset(__va(pa), 0, (size_t)PAGE_SIZE << order);
	return pa;
}

/* Is physical frame f whole in a RAM region? */
static bool frame_is_ram(frame_t f)
{
	for (unsigned i = 0; i < pmm.nr_ram_frames; i++)
		if (f >= pmm.ram_frames[i].first && f < pmm.ram_frames[i].end)
			return true;
	return false;
}

/* Does the bitmap's span hold frames that are no RAM (holes between regions, marked used)?
 * Every frame it covers is RAM exactly when the RAM frames are as many as the span (the spare
 * bits past its end were taken as not RAM, not counted in total_frames). One region, as on
 * every ARM machine, leaves none. */
static bool span_has_holes(void)
{
	return pmm.total_frames != pmm.nr_frames;
}

void pmm_free_pages(phys_addr_t pa, unsigned order)
{
	frame_t count = 1UL << order;

	phys_addr_t frame = pa >> PAGE_SHIFT;

	if (frame < pmm.base_frame || !IS_ALIGNED(pa, (phys_addr_t)PAGE_SIZE))
		panic("pmm: freeing bad frame address %#llx", (unsigned long long)pa);
	/* Range-checked before it is narrowed to a bitmap index. */
	phys_addr_t offset = frame - pmm.base_frame;
	if (offset + count > pmm.nr_frames)
		panic("pmm: freeing frame %#llx outside RAM", (unsigned long long)pa);
	frame_t f = (frame_t)offset;
	/* A hole between regions is marked used too: only RAM tells it from a frame handed out. */
	for (frame_t i = 0; i < count; i++)
		if (!frame_is_ram(pmm.base_frame + f + i))
			panic("pmm: freeing frame %#llx, which is not RAM",
			      (unsigned long long)(pa + ((phys_addr_t)i << PAGE_SHIFT)));
	for (frame_t i = 0; i < count; i++) {
		if (!frame_used(f + i))
			panic("pmm: double free of frame %#llx",
			      (unsigned long long)(pa + ((phys_addr_t)i << PAGE_SHIFT)));
		if (pmm.extra_refs[f + i])
			panic("pmm: freeing frame %#llx, which %u others still share",
			      (unsigned long long)(pa + ((phys_addr_t)i << PAGE_SHIFT)),
			      (unsigned)pmm.extra_refs[f + i]);
		mark_free(f + i);
	}
	pmm.free_frames += count;
	if (f < pmm.search_hint)
		pmm.search_hint = f;
}

/* The bitmap index of an allocated frame at pa; a panic for anything else (a count on a frame
 * nobody owns would hand it out twice). A fork takes a count on every private page and the
 * child's exit drops it, so this is kept short: one unsigned compare for both ends of the span
 * (a frame below it wraps to a huge index) and the RAM regions only where they leave holes. */
static inline frame_t owned_frame(phys_addr_t pa, const char *what)
{
	phys_addr_t f = (pa >> PAGE_SHIFT) - pmm.base_frame;

	if (f >= pmm.nr_frames || !IS_ALIGNED(pa, (phys_addr_t)PAGE_SIZE) || !frame_used((frame_t)f) ||
	    (span_has_holes() && !frame_is_ram((frame_t)(pa >> PAGE_SHIFT))))
		panic("pmm: %s of frame %#llx, which is not allocated RAM", what,
		      (unsigned long long)pa);
	return (frame_t)f;
}

bool pmm_page_get(phys_addr_t pa)
{
	frame_t f = owned_frame(pa, "reference");

	if (pmm.extra_refs[f] == UINT16_MAX)
		return false;
	pmm.extra_refs[f]++;
	return true;
}

/* A shared frame loses an owner; the last one frees it, through pmm_free_pages' checks. A
 * frame with owners beyond the first is allocated RAM (only pmm_page_get, which checks, adds
 * one, and no frame is freed while it has them): the child's exit after a fork drops one per
 * page with no more checks than the range. */
bool pmm_page_put(phys_addr_t pa)
{
	phys_addr_t f = (pa >> PAGE_SHIFT) - pmm.base_frame; /* below the span: wraps past it */

	if (f < pmm.nr_frames && IS_ALIGNED(pa, (phys_addr_t)PAGE_SIZE) && pmm.extra_refs[f]) {
		pmm.extra_refs[f]--;
		return false;
	}
	pmm_free_pages(pa, 0);
	return true;
}

unsigned pmm_page_refs(phys_addr_t pa)
{
	phys_addr_t frame = pa >> PAGE_SHIFT;

	if (frame < pmm.base_frame || frame - pmm.base_frame >= pmm.nr_frames)
		return 0;
	frame_t f = (frame_t)(frame - pmm.base_frame);
	return frame_used(f) ? 1u + pmm.extra_refs[f] : 0;
}

void pmm_get_stats(struct pmm_stats *st)
{
	st->total = pmm.total_frames;
	st->free = pmm.free_frames;
	st->used = pmm.total_frames - pmm.free_frames;
	st->peak_used = pmm.total_frames - pmm.low_free;
}

void pmm_reset_peak(void)
{
	pmm.low_free = pmm.free_frames;
}

static int cmd_free(int argc, char **argv)
{
	struct pmm_stats st;
	unsigned kib = PAGE_SIZE / 1024;

	pmm_get_stats(&st);
	printk("            total       used       free\n");
	printk("pages: %10llu %10llu %10llu\n", (unsigned long long)st.total,
	       (unsigned long long)st.used, (unsigned long long)st.free);
	printk("KiB:   %10llu %10llu %10llu\n", (unsigned long long)(st.total * kib),
	       (unsigned long long)(st.used * kib), (unsigned long long)(st.free * kib));
	return 0;
}
SHELL_COMMAND(free, "free", "free                 page frames: total, used, free", cmd_free);
