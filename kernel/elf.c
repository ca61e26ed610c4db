/* ELF header checks: everything the loader will trust is validated here, against the file size
 * and the task's address space, so that a malformed image is refused before any memory is used. */
#include <elf.h>
#include <lib/errno.h>
#include <lib/string.h>

static bool add_overflows(uint64_t a, uint64_t b)
{
	return a + b < a;
}

static bool ident_ok(const uint8_t *id, unsigned elf_class)
{
	return id[0] == 0x7f && id[1] == 'E' && id[2] == 'L' && id[3] == 'F' &&
	       id[4] == elf_class && id[5] == ELFDATA2LSB && id[6] == EV_CURRENT;
}

/* Read program header i into the neutral form. */
static void read_phdr(const uint8_t *data, unsigned elf_class, uint64_t phoff, unsigned i,
		      uint32_t *type, struct elf_load *l)
{
	if (elf_class == ELFCLASS64) {
		struct elf64_phdr p;
		memcpy(&p, data + phoff + (uint64_t)i * sizeof(p), sizeof(p));
		*type = p.p_type;
		*l = (struct elf_load){ p.p_vaddr, p.p_memsz, p.p_offset, p.p_filesz, p.p_flags };
	} else {
		struct elf32_phdr p;
		memcpy(&p, data + phoff + (uint64_t)i * sizeof(p), sizeof(p));
		*type = p.p_type;
		*l = (struct elf_load){ p.p_vaddr, p.p_memsz, p.p_offset, p.p_filesz, p.p_flags };
	}
}

static bool load_ok(const struct elf_load *l, size_t size, uint64_t task_size, uint64_t page_size)
{
	/* The end is rounded up to a page later: that must not wrap either (fuzzing finding
	 * ELF-1, reachable only with a task size within a page of 2^64). */
	return l->memsz != 0 && l->filesz <= l->memsz && !add_overflows(l->offset, l->filesz) &&
	       l->offset + l->filesz <= size && !add_overflows(l->vaddr, l->memsz) &&
	       !add_overflows(l->vaddr + l->memsz, page_size - 1) &&
	       l->vaddr + l->memsz <= task_size;
}

int elf_parse(const uint8_t *data, size_t size, unsigned elf_class, unsigned machine,
	      uint64_t task_size, uint64_t page_size, struct elf_image *out)
{
	uint64_t phoff, entry;
	unsigned type, phnum, phentsize, e_machine;
	size_t ehsize = elf_class == ELFCLASS64 ? sizeof(struct elf64_ehdr) : sizeof(struct elf32_ehdr);
	size_t phsize = elf_class == ELFCLASS64 ? sizeof(struct elf64_phdr) : sizeof(struct elf32_phdr);

	if (size < ehsize || !ident_ok(data, elf_class))
		return -ENOEXEC;
	if (elf_class == ELFCLASS64) {
		struct elf64_ehdr h;
		memcpy(&h, data, sizeof(h));
		type = h.e_type, e_machine = h.e_machine, entry = h.e_entry;
		phoff = h.e_phoff, phnum = h.e_phnum, phentsize = h.e_phentsize;
	} else {
		struct elf32_ehdr h;
		memcpy(&h, data, sizeof(h));
		type = h.e_type, e_machine = h.e_machine, entry = h.e_entry;
		phoff = h.e_phoff, phnum = h.e_phnum, phentsize = h.e_phentsize;
	}
	if ((type != ET_EXEC && type != ET_DYN) || e_machine != machine || phentsize != phsize ||
	    phnum == 0 || phnum > 64 || phoff > size || (uint64_t)phnum * phsize > size - phoff)
		return -ENOEXEC;

	memset(out, 0, sizeof(*out));
	out->type = type;
	out->entry = entry;
	uint64_t prev_end = 0;
	for (unsigned i = 0; i < phnum; i++) {
		struct elf_load l;
		uint32_t ptype;
		read_phdr(data, elf_class, phoff, i, &ptype, &l);
		if (ptype != PT_LOAD)
			continue;
		if (out->nr_loads == ELF_MAX_LOADS || !load_ok(&l, size, task_size, page_size))
			return -ENOEXEC;
		uint64_t start = l.vaddr & ~(page_size - 1);
		uint64_t end = (l.vaddr + l.memsz + page_size - 1) & ~(page_size - 1);
		/* Sorted and page-disjoint: each page gets exactly one segment's permissions. */
		if (out->nr_loads && start < prev_end)
			return -ENOEXEC;
		if (!out->nr_loads)
			out->lo = start;
		out->hi = end;
		prev_end = end;
		out->loads[out->nr_loads++] = l;
	}
	if (!out->nr_loads || entry < out->lo || entry >= out->hi)
		return -ENOEXEC;
	return 0;
}
