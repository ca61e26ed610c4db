/* The parts of the ELF format the loader reads (System V ABI), for both classes. */
#ifndef RNDBITS_ELF_H
#define RNDBITS_ELF_H

#include <lib/types.h>

#define ELFCLASS32 1
#define ELFCLASS64 2
#define ELFDATA2LSB 1
#define EV_CURRENT 1
#define ET_EXEC 2
#define ET_DYN 3
#define EM_386 3
#define EM_ARM 40
#define EM_X86_64 62
#define EM_AARCH64 183
#define PT_LOAD 1
#define PT_INTERP 3
#define PT_PHDR 6
#define PT_GNU_STACK 0x6474e551
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

/* The auxiliary vector's keys (Linux's include/uapi/linux/auxvec.h and asm/auxvec.h). */
#define AT_NULL 0
#define AT_IGNORE 1
#define AT_PHDR 3
#define AT_PHENT 4
#define AT_PHNUM 5
#define AT_PAGESZ 6
#define AT_BASE 7
#define AT_FLAGS 8
#define AT_ENTRY 9
#define AT_UID 11
#define AT_EUID 12
#define AT_GID 13
#define AT_EGID 14
#define AT_PLATFORM 15
#define AT_HWCAP 16
#define AT_CLKTCK 17
#define AT_SECURE 23
#define AT_RANDOM 25
#define AT_HWCAP2 26
#define AT_EXECFN 31
#define AT_SYSINFO 32
#define AT_SYSINFO_EHDR 33
#define AT_MINSIGSTKSZ 51

/* A class-neutral view of what the loader needs. glibc's static binaries have 2-4 PT_LOADs;
 * Linux sets no limit, 16 is far above anything a linker makes. */
#define ELF_MAX_LOADS 16
struct elf_load {
	uint64_t vaddr, memsz, offset, filesz;
	unsigned flags;
	uint64_t align;             /* p_align */
};

/* PT_GNU_STACK as Linux's load_elf_binary reads it (EXSTACK_*). */
enum elf_stack { ELF_STACK_DEFAULT, ELF_STACK_EXEC, ELF_STACK_NOEXEC };

struct elf_image {
	unsigned elf_class;         /* ELFCLASS32 or ELFCLASS64 */
	unsigned machine;           /* e_machine */
	unsigned type;              /* ET_EXEC or ET_DYN */
	uint32_t flags;             /* e_flags */
	uint64_t entry;
	uint64_t phoff;             /* e_phoff */
	unsigned phnum, phentsize;
	uint64_t phdr_vaddr;        /* where the program headers are loaded (0: in no segment) */
	bool has_interp;            /* PT_INTERP: needs a dynamic loader */
	enum elf_stack stack;
	unsigned nr_loads;
	struct elf_load loads[ELF_MAX_LOADS];
	uint64_t lo, hi;            /* page-rounded span of the PT_LOAD segments */
	uint64_t max_align;         /* binfmt_elf's maximum_alignment: the largest power-of-two
				     * p_align of the PT_LOADs rounded up to a page, 0 if none */
};

/* What the ELF header claims, enough to pick the ABI before anything is loaded. */
struct elf_ident {
	unsigned elf_class, machine;
	uint32_t flags;             /* e_flags */
	uint64_t entry;
};
/* 0, or -ENOEXEC when it is no ELF at all (bad magic, version, byte order, too short). */
int elf_identify(const uint8_t *data, size_t size, struct elf_ident *id);

/* Parse and check an image against the task size and the page size it will be loaded with:
 * every header and segment lies inside the file, program headers fit in a page (as Linux's
 * load_elf_phdrs demands), PT_LOADs are sorted, byte-disjoint (they may share a page),
 * non-empty, below task_size, with filesz <= memsz, address and file offset equal modulo the
 * page size (or Linux's mmap of them fails), no arithmetic overflow, the entry inside
 * them. 0 or -ENOEXEC. */
int elf_parse(const uint8_t *data, size_t size, uint64_t task_size, uint64_t page_size,
	      struct elf_image *out);

/* How the PT_LOADs become mappings on pages of page_size, as Linux 6.1.192's binfmt_elf
 * (elf_load) makes them: each segment maps its file bytes' page-rounded range from the file, and
 * the pages of its bss past its last file page are an anonymous mapping (vm_brk_flags); a
 * segment without file bytes (p_filesz 0) is anonymous from the page holding its first byte.
 * Where two mappings share a page, the later one replaces the earlier one there (MAP_FIXED, or
 * vm_brk_flags' unmap first: its permissions win). Region i belongs to segment seg; regions are
 * sorted and disjoint; a mapping lying entirely in the page the next one takes gets no region
 * of its own. Returns the number of regions. */
#define ELF_MAX_REGIONS (2 * ELF_MAX_LOADS)
struct elf_region {
	uint64_t start, end;        /* page aligned, without the load bias */
	unsigned seg;
	bool anon;                  /* bss pages: anonymous, not the file's */
};
unsigned elf_plan_regions(const struct elf_image *img, uint64_t page_size,
			  struct elf_region regions[ELF_MAX_REGIONS]);

#endif
