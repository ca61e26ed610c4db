/* Multiboot v1 information -> struct boot_info (shared by i386 and x86_64). */
#include <boot.h>
#include <arch/memory.h>
#include <asm/multiboot.h>
#include <lib/string.h>

uint64_t x86_multiboot_ram_beyond_limit;

static void reserve_range(struct boot_info *bi, uint64_t base, uint64_t size)
{
	uint64_t start = ALIGN_DOWN(base, (uint64_t)PAGE_SIZE);
	uint64_t end = ALIGN_UP(base + size, (uint64_t)PAGE_SIZE);

	if (size)
		boot_add_reserved(bi, start, end - start);
}

static void reserve_string(struct boot_info *bi, uint32_t pa)
{
	reserve_range(bi, pa, strlen(__va(pa)) + 1);
}

/* Firmware RAM ranges need not be page aligned (e820's 0x9fc00): keep only whole pages. */
static void add_ram_range(struct boot_info *bi, uint64_t base, uint64_t len, uint64_t limit)
{
	/* A map entry that runs past 2^64 (fuzzing finding MB-1) ends there, not at 0. */
	if (base > UINT64_MAX - (PAGE_SIZE - 1))
		return;
	if (len > UINT64_MAX - base)
		len = UINT64_MAX - base;
	uint64_t start = ALIGN_UP(base, (uint64_t)PAGE_SIZE);
	uint64_t end = ALIGN_DOWN(base + len, (uint64_t)PAGE_SIZE);

	if (end <= start)
		return;
	if (end > limit) {
		uint64_t cut = MAX(start, ALIGN_DOWN(limit, (uint64_t)PAGE_SIZE));

		x86_multiboot_ram_beyond_limit += end - cut;
		end = cut;
	}
	if (end > start)
		boot_add_ram(bi, start, end - start);
}

static void parse_mmap(struct boot_info *bi, const struct multiboot_info *mbi, uint64_t limit)
{
	uintptr_t p = (uintptr_t)__va(mbi->mmap_addr);
	uintptr_t end = p + mbi->mmap_length;

	while (p + sizeof(struct multiboot_mmap_entry) <= end) {
		const struct multiboot_mmap_entry *e = (const void *)p;

		if (e->type == MULTIBOOT_MEMORY_AVAILABLE)
			add_ram_range(bi, e->addr, e->len, limit);
		p += e->size + sizeof(e->size);
	}
	reserve_range(bi, mbi->mmap_addr, mbi->mmap_length);
}

/* Without a memory map, mem_lower/mem_upper still describe the two classic ranges. */
static void parse_mem_fields(struct boot_info *bi, const struct multiboot_info *mbi,
			     uint64_t limit)
{
	add_ram_range(bi, 0, (uint64_t)mbi->mem_lower * 1024, limit);
	add_ram_range(bi, 0x100000, (uint64_t)mbi->mem_upper * 1024, limit);
}

static void reserve_modules(struct boot_info *bi, const struct multiboot_info *mbi)
{
	const struct multiboot_mod *mods = __va(mbi->mods_addr);

	reserve_range(bi, mbi->mods_addr, mbi->mods_count * sizeof(*mods));
	for (uint32_t i = 0; i < mbi->mods_count; i++) {
		reserve_range(bi, mods[i].mod_start, mods[i].mod_end - mods[i].mod_start);
		if (mods[i].string)
			reserve_string(bi, mods[i].string);
	}
}

int x86_multiboot_parse(struct boot_info *bi, uint32_t magic, uint32_t info_pa,
			uint64_t phys_limit)
{
	const struct multiboot_info *mbi = __va(info_pa);

	if (magic != MULTIBOOT_BOOTLOADER_MAGIC)
		return -1;
	bi->firmware = "multiboot";
	reserve_range(bi, info_pa, sizeof(*mbi));

	if (mbi->flags & MULTIBOOT_INFO_MEM_MAP)
		parse_mmap(bi, mbi, phys_limit);
	else if (mbi->flags & MULTIBOOT_INFO_MEMORY)
		parse_mem_fields(bi, mbi, phys_limit);

	if (mbi->flags & MULTIBOOT_INFO_CMDLINE) {
		/* QEMU prefixes -append with the image path. */
		boot_set_cmdline(bi, __va(mbi->cmdline), true);
		reserve_string(bi, mbi->cmdline);
	}
	if (mbi->flags & MULTIBOOT_INFO_LOADER_NAME)
		reserve_string(bi, mbi->boot_loader_name);
	if (mbi->flags & MULTIBOOT_INFO_MODS)
		reserve_modules(bi, mbi);
	return 0;
}
