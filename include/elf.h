/* The parts of the ELF format the loader reads (System V ABI), for both classes. */
#ifndef RNDBITS_ELF_H
#define RNDBITS_ELF_H

#include <types.h>

#define ELFCLASS32 1
#define ELFCLASS64 2
#define ELFDATA2LSB 1
#define EV_CURRENT 1
#define ET_EXEC 2
#define ET_DYN 3
#define PT_LOAD 1
#define PF_X 1
#define PF_W 2
#define PF_R 4

struct elf32_ehdr {
	uint8_t e_ident[16];
	uint16_t e_type, e_machine;
	uint32_t e_version, e_entry, e_phoff, e_shoff, e_flags;
	uint16_t e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
};

struct elf64_ehdr {
	uint8_t e_ident[16];
	uint16_t e_type, e_machine;
	uint32_t e_version;
	uint64_t e_entry, e_phoff, e_shoff;
	uint32_t e_flags;
	uint16_t e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
};

struct elf32_phdr {
	uint32_t p_type, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_flags, p_align;
};

struct elf64_phdr {
	uint32_t p_type, p_flags;
	uint64_t p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align;
};

/* A class-neutral view of what the loader needs. */
#define ELF_MAX_LOADS 8
struct elf_load {
	uint64_t vaddr, memsz, offset, filesz;
	unsigned flags;
};
struct elf_image {
	unsigned type;              /* ET_EXEC or ET_DYN */
	uint64_t entry;
	unsigned nr_loads;
	struct elf_load loads[ELF_MAX_LOADS];
	uint64_t lo, hi;            /* page-rounded span of the PT_LOAD segments */
};

/* Parse and check an image for the given class and machine against the task size: every
 * header and segment must lie inside the file, segments must be sorted, page-disjoint,
 * non-empty, below task_size, with filesz <= memsz and no arithmetic overflow. 0 or -ENOEXEC. */
int elf_parse(const uint8_t *data, size_t size, unsigned elf_class, unsigned machine,
	      uint64_t task_size, uint64_t page_size, struct elf_image *out);

#endif
