/* boot_tables ELF OUT: the contents of ELF's .boot_tables section, written to OUT, for objcopy
 * --update-section (tools/boot_tables/boot_tables.cmake runs both after each link of the
 * kernel). The ISA's part (boot_tables_make) says what goes in; this reads the ELF, whose class
 * and machine the build names (BOOT_TABLES_ELF_CLASS, BOOT_TABLES_ELF_MACHINE). Fails with a
 * message naming what does not fit, and writes nothing then. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot_tables.h"

#define SECTION ".boot_tables"

/* The ELF structures of the class the build names. */
#if BOOT_TABLES_ELF_CLASS == ELFCLASS64
typedef Elf64_Ehdr Ehdr;
typedef Elf64_Shdr Shdr;
typedef Elf64_Sym Sym;
#else
typedef Elf32_Ehdr Ehdr;
typedef Elf32_Shdr Shdr;
typedef Elf32_Sym Sym;
#endif

struct elf_image {
	struct boot_image image; /* first: boot_tables_make's view of this */
	const char *path;
	uint8_t *bytes;
	size_t size;
	const Shdr *sections;
	unsigned nr_sections;
};

static __noreturn void die(const char *path, const char *what, const char *why)
{
	fprintf(stderr, "boot_tables: %s: %s%s%s\n", path, what ? what : "", what ? ": " : "",
		why);
	exit(1);
}

static uint8_t *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *bytes = NULL;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    !(bytes = malloc((size_t)n + 1)) || fread(bytes, 1, (size_t)n, f) != (size_t)n)
		die(path, NULL, "cannot read it");
	fclose(f);
	*size = (size_t)n;
	return bytes;
}

/* Whether [offset, offset + count * size) lies in the file. */
static bool in_file(const struct elf_image *e, uint64_t offset, uint64_t count, uint64_t size)
{
	return offset <= e->size && count <= (e->size - offset) / (size ? size : 1);
}

static void open_elf(struct elf_image *e, const char *path)
{
	e->path = path;
	e->bytes = read_file(path, &e->size);
	const Ehdr *h = (const Ehdr *)e->bytes;
	if (e->size < sizeof(*h) || memcmp(h->e_ident, ELFMAG, SELFMAG) ||
	    h->e_ident[EI_CLASS] != BOOT_TABLES_ELF_CLASS || h->e_ident[EI_DATA] != ELFDATA2LSB ||
	    h->e_machine != BOOT_TABLES_ELF_MACHINE || h->e_shentsize != sizeof(Shdr) ||
	    !in_file(e, h->e_shoff, h->e_shnum, sizeof(Shdr)) || h->e_shstrndx >= h->e_shnum)
		die(path, NULL, "not a little-endian ELF image of the kernel's ISA with section headers");
	e->sections = (const Shdr *)(e->bytes + h->e_shoff);
	e->nr_sections = h->e_shnum;
}

/* The NUL-terminated string at `index` of string table section `strtab`, or NULL. */
static const char *string_at(const struct elf_image *e, uint64_t strtab, uint64_t index)
{
	if (strtab >= e->nr_sections)
		return NULL;
	const Shdr *s = &e->sections[strtab];
	if (!in_file(e, s->sh_offset, s->sh_size, 1) || index >= s->sh_size ||
	    !memchr(e->bytes + s->sh_offset + index, 0, s->sh_size - index))
		return NULL;
	return (const char *)e->bytes + s->sh_offset + index;
}

static const Shdr *find_section(const struct elf_image *e, const char *name)
{
	unsigned shstrndx = ((const Ehdr *)e->bytes)->e_shstrndx;

	for (unsigned i = 0; i < e->nr_sections; i++) {
		const char *n = string_at(e, shstrndx, e->sections[i].sh_name);
		if (n && !strcmp(n, name))
			return &e->sections[i];
	}
	return NULL;
}

static uint64_t symbol(const struct boot_image *image, const char *name)
{
	const struct elf_image *e = (const struct elf_image *)image;
	const Shdr *symtab = find_section(e, ".symtab");

	if (!symtab || symtab->sh_type != SHT_SYMTAB ||
	    !in_file(e, symtab->sh_offset, symtab->sh_size / sizeof(Sym), sizeof(Sym)))
		die(e->path, NULL, "no symbol table");
	const Sym *syms = (const Sym *)(e->bytes + symtab->sh_offset);
	for (uint64_t i = 0; i < symtab->sh_size / sizeof(Sym); i++) {
		const char *n = string_at(e, symtab->sh_link, syms[i].st_name);
		if (n && !strcmp(n, name) && syms[i].st_shndx != SHN_UNDEF)
			return syms[i].st_value;
	}
	die(e->path, name, "no such symbol");
}

int main(int argc, char **argv)
{
	struct elf_image e;

	if (argc != 3) {
		fprintf(stderr, "usage: boot_tables KERNEL.elf OUT.bin\n");
		return 2;
	}
	open_elf(&e, argv[1]);
	const Shdr *s = find_section(&e, SECTION);
	if (!s || s->sh_type != SHT_PROGBITS || !(s->sh_flags & SHF_ALLOC))
		die(e.path, SECTION, "missing, or not loaded with the image (it must be PROGBITS)");
	e.image = (struct boot_image){ s->sh_addr, s->sh_addr + s->sh_size, symbol };

	uint8_t *tables = calloc(1, s->sh_size);
	const char *what = NULL;
	if (!tables)
		die(e.path, SECTION, "out of memory");
	const char *why = boot_tables_make(&e.image, tables, &what);
	if (why)
		die(e.path, what, why);

	FILE *out = fopen(argv[2], "wb");
	if (!out || fwrite(tables, 1, s->sh_size, out) != s->sh_size || fclose(out))
		die(argv[2], NULL, "cannot write it");
	free(tables);
	free(e.bytes);
	return 0;
}
