/* boot_tables: a kernel's first page tables, made at build time (arm64's boot tables, arm's
 * kernel tables for the image and the devices, i386's and x86_64's boot and kernel roots).
 *
 * What those tables map is fixed when the kernel is linked, as the load address is: this host
 * tool reads the linked ELF's symbols, builds the tables with the kernel's own mapper
 * (mm/pgtable.c's pt_map over the ISA's pte.c, both compiled for the host with the preset's
 * config.h), and the build writes them into the ELF's .boot_tables section with objcopy
 * --update-section (tools/boot_tables/boot_tables.cmake).
 *
 * One tool, built per preset from three parts compiled apart:
 *  - main.c reads the ELF (32- or 64-bit little-endian; the class and machine it expects come
 *    from the build) and writes the section's new contents, with the host's <elf.h>;
 *  - one file per ISA (arm64.c, arm.c, x86_32.c, x86_64.c) says what the tables map, seeing
 *    the kernel's real address map (asm/memory.h): it defines boot_tables_make; map.c,
 *    compiled with it, holds what they all do alike;
 *  - ram.c and mm/pgtable.c see the section's bytes as the RAM the tables live in, through the
 *    host tests' stand-in <asm/memory.h> (tests/host/fake), whose __va checks every address. */
#ifndef RNDBITS_TOOLS_BOOT_TABLES_H
#define RNDBITS_TOOLS_BOOT_TABLES_H

#include <lib/types.h>

/* The linked image, as main.c hands it to the ISA's part. */
struct boot_image {
	uint64_t section, section_end; /* the .boot_tables section's (virtual) addresses */
	/* The value of symbol `name`; a missing one ends the tool with a message. */
	uint64_t (*symbol)(const struct boot_image *image, const char *name);
};

/* The ISA's part: fill `bytes`, the zeroed contents of the section (section_end - section
 * bytes), with the tables for `image`. Returns NULL, or why the tables cannot be made (a
 * sentence that names what did not fit); *what then names the mapping or table concerned. */
const char *boot_tables_make(const struct boot_image *image, uint8_t *bytes, const char **what);

/* map.c, what both ISAs' parts share. One mapping: [va, end) -> pa with prot and pt_map's
 * flags; what names it when it is refused. */
struct boot_mapping {
	uint64_t va, end;
	phys_addr_t pa;
	unsigned prot, flags;
	const char *what;
};
/* Whether [va, va + size) lies in the section [section, section_end), va aligned to align. */
bool boot_tables_lies_in(uint64_t section, uint64_t section_end, uint64_t va, uint64_t size,
			 uint64_t align);
/* Why pt_map's error err refuses a mapping; pool_dry when the pool ran out of tables. */
const char *boot_tables_refusal(int err, const char *pool_dry);
/* Map maps[0..n) under root with pt_map: NULL, or why not (boot_tables_refusal), with *what
 * naming the mapping. */
const char *boot_tables_map(phys_addr_t root, const struct boot_mapping *maps, size_t n,
			    const char *pool_dry, const char **what);

/* ram.c: the section's bytes as the RAM the tables are in, and a pool of pool_tables tables of
 * table_bytes each from physical address pool on as the page allocator pt_map takes its tables
 * from (in order, each once; every table below the root is one of them). */
void boot_ram_init(uint8_t *bytes, phys_addr_t pa, uint64_t size, phys_addr_t pool,
		   unsigned pool_tables, uint64_t table_bytes);
/* Where physical address pa is in the section's bytes (it must lie in the section). */
void *boot_ram_va(phys_addr_t pa);
/* Tables taken from the pool so far. */
unsigned boot_ram_pool_used(void);

#endif
