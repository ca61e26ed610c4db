/* Multiboot v1 (the only protocol QEMU's -kernel offers an ELF32 on x86): header constants for
 * boot/x86 head.S and the information structure the loader leaves at EBX. */
#ifndef RNDBITS_ASM_X86_MULTIBOOT_H
#define RNDBITS_ASM_X86_MULTIBOOT_H

#define MULTIBOOT_HEADER_MAGIC 0x1BADB002
#define MULTIBOOT_BOOTLOADER_MAGIC 0x2BADB002
#define MULTIBOOT_PAGE_ALIGN (1 << 0)  /* modules on page boundaries */
#define MULTIBOOT_MEMORY_INFO (1 << 1) /* mem_* and mmap_* wanted */

#ifndef __ASSEMBLER__
#include <lib/types.h>

/* flags bits saying which fields of multiboot_info are valid. */
#define MULTIBOOT_INFO_MEMORY (1u << 0)
#define MULTIBOOT_INFO_CMDLINE (1u << 2)
#define MULTIBOOT_INFO_MODS (1u << 3)
#define MULTIBOOT_INFO_MEM_MAP (1u << 6)
#define MULTIBOOT_INFO_LOADER_NAME (1u << 9)

struct multiboot_info {
	uint32_t flags;
	uint32_t mem_lower, mem_upper; /* KiB below 1 MiB / above 1 MiB */
	uint32_t boot_device;
	uint32_t cmdline;
	uint32_t mods_count, mods_addr;
	uint32_t syms[4];
	uint32_t mmap_length, mmap_addr;
	uint32_t drives_length, drives_addr;
	uint32_t config_table;
	uint32_t boot_loader_name;
	uint32_t apm_table;
	uint32_t vbe[6];
} __packed;

struct multiboot_mod {
	uint32_t mod_start, mod_end;
	uint32_t string;
	uint32_t reserved;
} __packed;

/* One memory-map entry; `size` does not count itself. */
struct multiboot_mmap_entry {
	uint32_t size;
	uint64_t addr;
	uint64_t len;
	uint32_t type;
} __packed;

#define MULTIBOOT_MEMORY_AVAILABLE 1

struct boot_info;

/* Fill bi from the multiboot information at info_pa (reached through __va, so the boot mapping
 * must cover [0, phys_limit)): RAM below phys_limit (page-rounded inwards), the command line
 * without the image path, and reservations for the information structure, memory map, command
 * line, loader name and modules; module 0, if any, becomes the initrd (bi->initrd_*). Nothing is read outside [0, min(phys_limit, 4 GiB)); a field
 * that points outside it, a map entry or module that contradicts the rest, is refused with one
 * `multiboot: ignoring ...` line and the parse goes on. Returns 0, or -1 if magic is not the
 * multiboot loader's. */
int x86_multiboot_parse(struct boot_info *bi, uint32_t magic, uint32_t info_pa,
			uint64_t phys_limit);
/* Bytes of available RAM x86_multiboot_parse left out because they lie at or above phys_limit
 * (for the boot log: the memory exists, the kernel cannot map it). */
extern uint64_t x86_multiboot_ram_beyond_limit;
#endif

#endif
