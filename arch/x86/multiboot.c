/* Multiboot v1 information -> struct boot_info (shared by i386 and x86_64). */
#include <kernel/boot.h>
#include <arch/memory.h>
#include <asm/multiboot.h>
#include <kernel/kernel.h>
#include <lib/string.h>

uint64_t x86_multiboot_ram_beyond_limit;

/* Bounds on what a loader may hand over. QEMU gives six memory-map entries and no modules;
 * Linux keeps at most 128 e820 entries (E820_MAX_ENTRIES_ZEROPAGE), 3 KiB of map. Beyond these
 * the rest is refused with a boot line, so that a loader's garbage cannot make the boot walk
 * hundreds of megabytes. */
#define MMAP_MAX_LENGTH 4096u
#define MODS_MAX 64u
/* The command line, loader name and module strings: far more than any command line Linux takes
 * (COMMAND_LINE_SIZE is at most 4 KiB on any arch). */
#define STRING_MAX 0x10000u

/* Multiboot v1 structures live below 4 GiB: their addresses and lengths are 32-bit fields, and
 * so is what the parser checks them against: `end`, the end of what it may read (the boot
 * mapping's, or the last byte below 4 GiB, whichever is lower). */
static uint32_t readable_end(uint64_t limit)
{
	return (uint32_t)MIN(limit, (uint64_t)UINT32_MAX);
}

/* Is [pa, pa + len) below end? Written so that no sum can wrap. */
static bool readable(uint32_t pa, uint32_t len, uint32_t end)
{
	return pa <= end && len <= end - pa;
}

/* The length of the string at pa, or -1 if it does not end below end and within STRING_MAX
 * bytes. */
static int32_t string_length(uint32_t pa, uint32_t end)
{
	if (pa >= end)
		return -1;
	size_t max = MIN(end - pa, STRING_MAX);
	size_t len = strnlen(__va(pa), max);

	return len < max ? (int32_t)len : -1;
}

/* Whole pages around [base, base + size): the end in 64 bits, as a range may end at 4 GiB. */
static void reserve_range(struct boot_info *bi, uint32_t base, uint32_t size)
{
	uint32_t start = ALIGN_DOWN(base, (uint32_t)PAGE_SIZE);
	uint64_t end = ALIGN_UP((uint64_t)base + size, (uint64_t)PAGE_SIZE);

	if (size)
		boot_add_reserved(bi, start, end - start);
}

/* Reserve the string at pa, or say why not (what: which string, for the line). Returns whether
 * it may be read. */
static bool reserve_string(struct boot_info *bi, uint32_t pa, uint32_t end, const char *what)
{
	int32_t len = string_length(pa, end);

	if (len < 0) {
		printk("multiboot: ignoring the %s at %#x: no NUL below %#x within %u bytes\n",
		       what, pa, end, STRING_MAX);
		return false;
	}
	reserve_range(bi, pa, (uint32_t)len + 1);
	return true;
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

/* The memory map: entries of `size` bytes after their size field, each at least the fields
 * this parser reads. An entry too short is skipped; one that runs past the map's end ends the
 * walk. The map is read below end (and only its first MMAP_MAX_LENGTH bytes), so offsets into
 * it stay small; an entry's size is checked against what is left before it is added. */
static void parse_mmap(struct boot_info *bi, const struct multiboot_info *mbi, uint32_t end,
		       uint64_t limit)
{
	const uint32_t fields = sizeof(struct multiboot_mmap_entry) - sizeof(uint32_t);
	uint32_t length = mbi->mmap_length, off = 0;

	if (!readable(mbi->mmap_addr, length, end)) {
		printk("multiboot: ignoring the memory map at %#x (%u bytes): it does not end below "
		       "%#x\n", mbi->mmap_addr, mbi->mmap_length, end);
		return;
	}
	if (length > MMAP_MAX_LENGTH) {
		printk("multiboot: memory map of %u bytes: reading only its first %u\n",
		       mbi->mmap_length, MMAP_MAX_LENGTH);
		length = MMAP_MAX_LENGTH;
	}
	while (length - off >= sizeof(struct multiboot_mmap_entry)) {
		const struct multiboot_mmap_entry *e = __va(mbi->mmap_addr + off);

		if (e->size > length - off - sizeof(e->size)) {
			printk("multiboot: ignoring memory-map entry %u and on: its size %u runs past "
			       "the map's %u bytes\n", off, e->size, length);
			break;
		}
		if (e->size < fields)
			printk("multiboot: ignoring memory-map entry %u: size %u, less than %u\n",
			       off, e->size, fields);
		else if (e->type == MULTIBOOT_MEMORY_AVAILABLE)
			add_ram_range(bi, e->addr, e->len, limit);
		off += sizeof(e->size) + e->size;
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

/* Module 0 is the initrd (QEMU's -initrd FILE becomes it; GRUB's `module` line likewise), as
 * Linux's multiboot-booted kernels take it; its range is reserved by the caller already. */
static void record_initrd(struct boot_info *bi, const struct multiboot_mod *mod)
{
	if (mod->mod_end == mod->mod_start)
		return;
	bi->initrd_start = mod->mod_start;
	bi->initrd_size = mod->mod_end - mod->mod_start;
	bi->initrd_from = "multiboot module 0";
	bi->initrd_reserved = true;
}

/* The modules' array, each module's range and its string. A module ending before it starts is
 * refused (its range would wrap to almost 4 GiB). */
static void reserve_modules(struct boot_info *bi, const struct multiboot_info *mbi,
			    uint32_t end)
{
	const struct multiboot_mod *mods = __va(mbi->mods_addr);
	uint32_t count = mbi->mods_count;

	if (count > MODS_MAX) {
		printk("multiboot: %u modules: reading only the first %u\n", count, MODS_MAX);
		count = MODS_MAX;
	}
	if (!readable(mbi->mods_addr, count * sizeof(*mods), end)) {
		printk("multiboot: ignoring the module list at %#x: it does not end below %#x\n",
		       mbi->mods_addr, end);
		return;
	}
	reserve_range(bi, mbi->mods_addr, count * sizeof(*mods));
	for (uint32_t i = 0; i < count; i++) {
		if (mods[i].mod_end < mods[i].mod_start) {
			printk("multiboot: ignoring module %u: it ends (%#x) before it starts (%#x)\n",
			       i, mods[i].mod_end, mods[i].mod_start);
			continue;
		}
		reserve_range(bi, mods[i].mod_start, mods[i].mod_end - mods[i].mod_start);
		if (i == 0)
			record_initrd(bi, &mods[0]);
		if (mods[i].string)
			reserve_string(bi, mods[i].string, end, "module string");
	}
}

int x86_multiboot_parse(struct boot_info *bi, uint32_t magic, uint32_t info_pa,
			uint64_t phys_limit)
{
	const struct multiboot_info *mbi = __va(info_pa);
	const uint32_t end = readable_end(phys_limit);

	if (magic != MULTIBOOT_BOOTLOADER_MAGIC)
		return -1;
	bi->firmware = "multiboot";
	if (!readable(info_pa, sizeof(*mbi), end)) {
		printk("multiboot: ignoring the information at %#x: it does not end below %#x\n",
		       info_pa, end);
		return 0;
	}
	reserve_range(bi, info_pa, sizeof(*mbi));

	if (mbi->flags & MULTIBOOT_INFO_MEM_MAP)
		parse_mmap(bi, mbi, end, phys_limit);
	else if (mbi->flags & MULTIBOOT_INFO_MEMORY)
		parse_mem_fields(bi, mbi, phys_limit);

	/* QEMU prefixes -append with the image path. */
	if ((mbi->flags & MULTIBOOT_INFO_CMDLINE) &&
	    reserve_string(bi, mbi->cmdline, end, "command line"))
		boot_set_cmdline(bi, __va(mbi->cmdline), true);
	if (mbi->flags & MULTIBOOT_INFO_LOADER_NAME)
		reserve_string(bi, mbi->boot_loader_name, end, "loader name");
	if (mbi->flags & MULTIBOOT_INFO_MODS)
		reserve_modules(bi, mbi, end);
	return 0;
}
