/* arch/x86/multiboot.c (x86_multiboot_parse, shared by i386 and x86_64) under libFuzzer.
 *
 * Physical memory is a 4 GiB window of zero pages (plus a zero tail, so a string starting at the
 * last byte still ends): the input lands at INFO_PA and the multiboot information structure is
 * read from there, so its pointers (mmap_addr, cmdline, mods_addr...) lead into the input when
 * they point at [INFO_PA, INFO_PA + size) and into zeros elsewhere.
 *
 * Every field is as the fuzzer wrote it: the parser bounds mmap_length and mods_count itself
 * and checks each entry's size against the map, each module's end against its start.
 *
 * Input: 1 byte picking phys_limit (the x86_64 and i386 linear-map limits, or odd ones), then the
 * information structure and whatever it points at. Checked: RAM regions are whole pages inside
 * [0, phys_limit), each inside one available memory-map entry (or the mem_lower/mem_upper
 * ranges), without wrapping; reservations are whole pages, do not wrap and end by 4 GiB (every
 * multiboot address is 32-bit: a module ending before it starts must not reserve a range that
 * wraps past it); the arrays and the command line stay in bounds; the "RAM beyond the limit"
 * count only counts available RAM. */
#include "lib_under_test.h"
#include <arch/memory.h>
#include <asm/multiboot.h>
#include <kernel/boot.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "fuzz.h"

#define INFO_PA 0x10000u
#define WINDOW (1ull << 32)
#define TAIL (1u << 20)
/* The parser's own bounds (arch/x86/multiboot.c), which the map walk below mirrors. */
#define MAX_MMAP_LENGTH 4096u

static uint8_t *phys;

void *fuzz_phys_to_virt(phys_addr_t pa)
{
	FUZZ_CHECK(pa < WINDOW); /* multiboot addresses are 32-bit */
	return phys + pa;
}

/* The parser's boot lines (refused entries) are formatted, to catch a bad format, and
 * dropped. */
int vprintk(const char *fmt, va_list ap)
{
	char line[256];

	return vsnprintf(line, sizeof(line), fmt, ap);
}

static const uint64_t limits[] = {
	0x38000000,        /* i386: 896 MiB of linear map */
	1ull << 32, 1ull << 36, 1ull << 46, 0, 0x1000, 0x100fff, UINT64_MAX,
};

typedef unsigned __int128 u128;

/* Is [base, base + size) inside an available entry of the (bounded) memory map? */
static bool inside_available(const struct multiboot_info *mbi, uint64_t base, uint64_t size)
{
	u128 lo = base, hi = (u128)base + size;

	if (!(mbi->flags & MULTIBOOT_INFO_MEM_MAP)) {
		u128 low_end = (u128)mbi->mem_lower * 1024, up_end = 0x100000 + (u128)mbi->mem_upper * 1024;
		return hi <= low_end || (lo >= 0x100000 && hi <= up_end);
	}
	uint64_t p = mbi->mmap_addr, end = p + MIN(mbi->mmap_length, MAX_MMAP_LENGTH);
	while (p + sizeof(struct multiboot_mmap_entry) <= end && p < WINDOW) {
		struct multiboot_mmap_entry e;
		memcpy(&e, phys + p, sizeof(e));
		if (e.type == MULTIBOOT_MEMORY_AVAILABLE && lo >= e.addr && hi <= (u128)e.addr + e.len)
			return true;
		p += (uint64_t)e.size + sizeof(e.size);
	}
	return false;
}

static void check(const struct boot_info *bi, const struct multiboot_info *mbi, uint64_t limit)
{
	FUZZ_CHECK(bi->nr_ram <= BOOT_MAX_REGIONS && bi->nr_reserved <= BOOT_MAX_REGIONS);
	/* The information structure itself, unless it lies beyond the boot mapping (then nothing
	 * is read at all). */
	FUZZ_CHECK(bi->nr_reserved >= 1 || limit < INFO_PA + sizeof(*mbi));
	FUZZ_CHECK(bi->nr_ram == 0 || limit >= INFO_PA + sizeof(*mbi));
	FUZZ_CHECK(memchr(bi->cmdline, '\0', sizeof(bi->cmdline)) != NULL);
	for (unsigned i = 0; i < bi->nr_ram; i++) {
		const struct mem_region *r = &bi->ram[i];
		FUZZ_CHECK(r->size != 0 && IS_ALIGNED(r->base, PAGE_SIZE) && IS_ALIGNED(r->size, PAGE_SIZE));
		FUZZ_CHECK(r->base + r->size > r->base);  /* no wrap */
		FUZZ_CHECK(r->base + r->size <= limit);
		FUZZ_CHECK(inside_available(mbi, r->base, r->size));
	}
	for (unsigned i = 0; i < bi->nr_reserved; i++) {
		const struct mem_region *r = &bi->reserved[i];
		FUZZ_CHECK(r->size != 0 && IS_ALIGNED(r->base, PAGE_SIZE) && IS_ALIGNED(r->size, PAGE_SIZE));
		FUZZ_CHECK(r->base + r->size > r->base);
		FUZZ_CHECK(r->base + r->size <= WINDOW);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!phys) {
		phys = mmap(NULL, WINDOW + TAIL, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		FUZZ_CHECK(phys != MAP_FAILED);
	}
	struct fuzz_input in = { data, size };
	uint64_t limit = limits[fuzz_take(&in, 1) % ARRAY_SIZE(limits)];
	size_t n = in.size < TAIL ? in.size : TAIL;
	uint8_t *info = phys + INFO_PA;
	struct multiboot_info mbi;

	memcpy(info, in.data, n);
	memcpy(&mbi, info, sizeof(mbi));

	struct boot_info bi;
	memset(&bi, 0, sizeof(bi));
	x86_multiboot_ram_beyond_limit = 0;
	FUZZ_CHECK(x86_multiboot_parse(&bi, 0x12345678, INFO_PA, limit) == -1);
	FUZZ_CHECK(x86_multiboot_parse(&bi, MULTIBOOT_BOOTLOADER_MAGIC, INFO_PA, limit) == 0);
	check(&bi, &mbi, limit);

	/* Reads leave the window's zero pages shared; only what was written needs zeroing. */
	memset(info, 0, n);
	return 0;
}
