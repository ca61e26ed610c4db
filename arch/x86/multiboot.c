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

/* Multiboot v1 structures live below 4 GiB: their addresses are 32-bit fields. */
#define MULTIBOOT_ADDRESS_END (1ull << 32)

/* Is [pa, pa + len) inside what the parser may read: the boot mapping (below limit) and the
 * first 4 GiB? In 64-bit arithmetic, so that no 32-bit field can wrap it, on i386 either. */
static bool readable(uint64_t pa, uint64_t len, uint64_t limit)
{
	uint64_t end = MIN(limit, MULTIBOOT_ADDRESS_END);

	return pa <= end && len <= end - pa;
}

/* The length of the string at pa, or -1 if it does not end inside the boot mapping and within
 * STRING_MAX bytes. */
static int64_t string_length(uint32_t pa, uint64_t limit)
{
	uint64_t end = MIN(limit, MULTIBOOT_ADDRESS_END);

	if (pa >= end)
		return -1;
	size_t max = (size_t)MIN(end - pa, (uint64_t)STRING_MAX);
	size_t len = strnlen(__va(pa), max);

	return len < max ? (int64_t)len : -1;
}

static void reserve_range(struct boot_info *bi, uint64_t base, uint64_t size)
{
	uint64_t start = ALIGN_DOWN(base, (uint64_t)PAGE_SIZE);
	uint64_t end = ALIGN_UP(base + size, (uint64_t)PAGE_SIZE);

	if (size)
		boot_add_reserved(bi, start, end - start);
}

/* Reserve the string at pa, or say why not (what: which string, for the line). Returns whether
 * it may be read. */
static bool reserve_string(struct boot_info *bi, uint32_t pa, uint64_t limit, const char *what)
{
	int64_t len = string_length(pa, limit);

	if (len < 0) {
		printk("multiboot: ignoring the %s at %#x: no NUL below %#llx within %u bytes\n",
		       what, pa, (unsigned long long)limit, STRING_MAX);
		return false;
	}
	reserve_range(bi, pa, (uint64_t)len + 1);
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
 * walk. Offsets are 64-bit, so no size can wrap them (on i386, a pointer would). */
static void parse_mmap(struct boot_info *bi, const struct multiboot_info *mbi, uint64_t limit)
{
	const uint32_t fields = sizeof(struct multiboot_mmap_entry) - sizeof(uint32_t);
	uint64_t length = mbi->mmap_length, off = 0;

	if (!readable(mbi->mmap_addr, length, limit)) {
		printk("multiboot: ignoring the memory map at %#x (%u bytes): it does not end below "
		       "%#llx\n", mbi->mmap_addr, mbi->mmap_length, (unsigned long long)limit);
		return;
	}
	if (length > MMAP_MAX_LENGTH) {
		printk("multiboot: memory map of %u bytes: reading only its first %u\n",
		       mbi->mmap_length, MMAP_MAX_LENGTH);
		length = MMAP_MAX_LENGTH;
	}
	while (length - off >= sizeof(struct multiboot_mmap_entry)) {
		const struct multiboot_mmap_entry *e = __va(mbi->mmap_addr + off);
		uint64_t next = off + sizeof(e->size) + e->size;

		if (next > length) {
			printk("multiboot: ignoring memory-map entry %llu and on: its size %u runs past "
			       "the map's %llu bytes\n", (unsigned long long)off, e->size,
			       (unsigned long long)length);
			break;
		}
		if (e->size < fields)
			printk("multiboot: ignoring memory-map entry %llu: size %u, less than %u\n",
			       (unsigned long long)off, e->size, fields);
		else if (e->type == MULTIBOOT_MEMORY_AVAILABLE)
			add_ram_range(bi, e->addr, e->len, limit);
		off = next;
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
			    uint64_t limit)
{
	const struct multiboot_mod *mods = __va(mbi->mods_addr);
	uint32_t count = mbi->mods_count;

	if (count > MODS_MAX) {
		printk("multiboot: %u modules: reading only the first %u\n", count, MODS_MAX);
		count = MODS_MAX;
	}
	if (!readable(mbi->mods_addr, (uint64_t)count * sizeof(*mods), limit)) {
		printk("multiboot: ignoring the module list at %#x: it does not end below %#llx\n",
		       mbi->mods_addr, (unsigned long long)limit);
		return;
	}
	reserve_range(bi, mbi->mods_addr, (uint64_t)count * sizeof(*mods));
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
			reserve_string(bi, mods[i].string, limit, "module string");
	}
}

int x86_multiboot_parse(struct boot_info *bi, uint32_t magic, uint32_t info_pa,
			uint64_t phys_limit)
{
	const struct multiboot_info *mbi = __va(info_pa);

	if (magic != MULTIBOOT_BOOTLOADER_MAGIC)
		return -1;
	bi->firmware = "multiboot";
	if (!readable(info_pa, sizeof(*mbi), phys_limit)) {
		printk("multiboot: ignoring the information at %#x: it does not end below %#llx\n",
		       info_pa, (unsigned long long)phys_limit);
		return 0;
	}
	reserve_range(bi, info_pa, sizeof(*mbi));

	if (mbi->flags & MULTIBOOT_INFO_MEM_MAP)
		parse_mmap(bi, mbi, phys_limit);
	else if (mbi->flags & MULTIBOOT_INFO_MEMORY)
		parse_mem_fields(bi, mbi, phys_limit);

	/* QEMU prefixes -append with the image path. */
	if ((mbi->flags & MULTIBOOT_INFO_CMDLINE) &&
	    reserve_string(bi, mbi->cmdline, phys_limit, "command line"))
		boot_set_cmdline(bi, __va(mbi->cmdline), true);
	if (mbi->flags & MULTIBOOT_INFO_LOADER_NAME)
		reserve_string(bi, mbi->boot_loader_name, phys_limit, "loader name");
	if (mbi->flags & MULTIBOOT_INFO_MODS)
		reserve_modules(bi, mbi, phys_limit);
	return 0;
}
