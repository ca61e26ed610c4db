/* ELF header checks: everything the loader will trust is validated here, against the file size
 * and the task's address space, so that a malformed image is refused before any memory is used.
 * Pure code (no kernel state): the host unit tests run it on real binaries. */
#include <kernel/elf.h>
#include <lib/errno.h>
#include <lib/string.h>

#define INTERP_PATH_MAX 4096 /* Linux's PATH_MAX, the longest PT_INTERP it reads */

static bool add_overflows(uint64_t a, uint64_t b)
{
	return a + b < a;
}

static void read_ehdr(const uint8_t *data, unsigned elf_class, struct elf_image *out);

int elf_identify(const uint8_t *data, size_t size, struct elf_ident *id)
{
	struct elf_image img;

	if (size < sizeof(struct elf32_ehdr) || data[0] != 0x7f || data[1] != 'E' ||
	    data[2] != 'L' || data[3] != 'F' || (data[4] != ELFCLASS32 && data[4] != ELFCLASS64) ||
	    data[5] != ELFDATA2LSB || data[6] != EV_CURRENT)
		return -ENOEXEC;
	if (data[4] == ELFCLASS64 && size < sizeof(struct elf64_ehdr))
		return -ENOEXEC;
	read_ehdr(data, data[4], &img);
	id->elf_class = data[4];
	id->machine = img.machine;
	id->flags = img.flags;
	id->entry = img.entry;
	return 0;
}

/* Program header i in the neutral form, with its type and flags. */
static void read_phdr(const uint8_t *data, unsigned elf_class, uint64_t phoff, unsigned i,
		      uint32_t *type, struct elf_load *l)
{
	if (elf_class == ELFCLASS64) {
		struct elf64_phdr p;
		memcpy(&p, data + phoff + (uint64_t)i * sizeof(p), sizeof(p));
		*type = p.p_type;
		*l = (struct elf_load){ p.p_vaddr, p.p_memsz, p.p_offset, p.p_filesz, p.p_flags,
					 p.p_align };
	} else {
		struct elf32_phdr p;
		memcpy(&p, data + phoff + (uint64_t)i * sizeof(p), sizeof(p));
		*type = p.p_type;
		*l = (struct elf_load){ p.p_vaddr, p.p_memsz, p.p_offset, p.p_filesz, p.p_flags,
					 p.p_align };
	}
}

static bool load_ok(const struct elf_load *l, size_t size, uint64_t task_size, uint64_t page_size)
{
	/* The end is rounded up to a page later: that must not wrap either (fuzzing finding
	 * ELF-1, reachable only with a task size within a page of 2^64). */
	/* Linux maps a segment from its file offset rounded down to a page, so address and offset
	 * must agree within a page (vm_mmap: EINVAL otherwise; finding ELF-2). */
	return l->memsz != 0 && l->filesz <= l->memsz && !add_overflows(l->offset, l->filesz) &&
	       l->offset + l->filesz <= size && !add_overflows(l->vaddr, l->memsz) &&
	       !add_overflows(l->vaddr + l->memsz, page_size - 1) &&
	       l->vaddr + l->memsz <= task_size && ((l->vaddr - l->offset) & (page_size - 1)) == 0;
}

/* PT_INTERP as Linux reads it: a NUL-terminated path inside the file, 2..PATH_MAX bytes. */
static bool interp_ok(const uint8_t *data, size_t size, const struct elf_load *l)
{
	return l->filesz >= 2 && l->filesz <= INTERP_PATH_MAX && !add_overflows(l->offset, l->filesz) &&
	       l->offset + l->filesz <= size && data[l->offset + l->filesz - 1] == '\0';
}

static void read_ehdr(const uint8_t *data, unsigned elf_class, struct elf_image *out)
{
	if (elf_class == ELFCLASS64) {
		struct elf64_ehdr h;
		memcpy(&h, data, sizeof(h));
		out->machine = h.e_machine;
		out->type = h.e_type, out->flags = h.e_flags, out->entry = h.e_entry;
		out->phoff = h.e_phoff, out->phnum = h.e_phnum, out->phentsize = h.e_phentsize;
	} else {
		struct elf32_ehdr h;
		memcpy(&h, data, sizeof(h));
		out->machine = h.e_machine;
		out->type = h.e_type, out->flags = h.e_flags, out->entry = h.e_entry;
		out->phoff = h.e_phoff, out->phnum = h.e_phnum, out->phentsize = h.e_phentsize;
	}
}

/* One PT_LOAD, after the ones before it: valid, and starting at or after their last byte. */
static int add_load(struct elf_image *out, const struct elf_load *l, size_t size,
		    uint64_t task_size, uint64_t page_size)
{
	if (out->nr_loads == ELF_MAX_LOADS || !load_ok(l, size, task_size, page_size))
		return -ENOEXEC;
	if (out->nr_loads) {
		const struct elf_load *prev = &out->loads[out->nr_loads - 1];
		if (l->vaddr < prev->vaddr + prev->memsz)
			return -ENOEXEC;
	} else {
		out->lo = l->vaddr & ~(page_size - 1);
	}
	out->hi = (l->vaddr + l->memsz + page_size - 1) & ~(page_size - 1);
	/* binfmt_elf (5.18+): AT_PHDR is where the PT_LOAD holding e_phoff puts it. */
	if (l->offset <= out->phoff && out->phoff < l->offset + l->filesz)
		out->phdr_vaddr = out->phoff - l->offset + l->vaddr;
	/* maximum_alignment: power-of-two p_aligns only (0 and others are skipped as invalid),
	 * the largest rounded up to a page (ELF_PAGEALIGN). */
	if (l->align && !(l->align & (l->align - 1)) && l->align > out->max_align)
		out->max_align = l->align;
	out->loads[out->nr_loads++] = *l;
	return 0;
}

int elf_parse(const uint8_t *data, size_t size, uint64_t task_size, uint64_t page_size,
	      struct elf_image *out)
{
	struct elf_ident id;

	memset(out, 0, sizeof(*out));
	if (elf_identify(data, size, &id))
		return -ENOEXEC;
	unsigned elf_class = id.elf_class;
	size_t phsize = elf_class == ELFCLASS64 ? sizeof(struct elf64_phdr) : sizeof(struct elf32_phdr);
	read_ehdr(data, elf_class, out);
	out->elf_class = elf_class;
	/* load_elf_phdrs: the table is read into one page-sized buffer at most. */
	if ((out->type != ET_EXEC && out->type != ET_DYN) || out->phentsize != phsize ||
	    out->phnum == 0 || (uint64_t)out->phnum * phsize > page_size || out->phoff > size ||
	    (uint64_t)out->phnum * phsize > size - out->phoff)
		return -ENOEXEC;

	for (unsigned i = 0; i < out->phnum; i++) {
		struct elf_load l;
		uint32_t ptype;
		int err = 0;
		read_phdr(data, elf_class, out->phoff, i, &ptype, &l);
		switch (ptype) {
		case PT_LOAD:
			err = add_load(out, &l, size, task_size, page_size);
			break;
		case PT_INTERP:
			if (!interp_ok(data, size, &l))
				err = -ENOEXEC;
			out->has_interp = true;
			break;
		case PT_GNU_STACK: /* the last one wins, as in load_elf_binary */
			out->stack = l.flags & PF_X ? ELF_STACK_EXEC : ELF_STACK_NOEXEC;
			break;
		}
		if (err)
			return err;
	}
	if (!out->nr_loads || out->entry < out->lo || out->entry >= out->hi)
		return -ENOEXEC;
	if (out->max_align) /* ELF_PAGEALIGN: a page at least */
		out->max_align = out->max_align < page_size ? page_size : out->max_align;
	return 0;
}

/* Append [start, end) of segment seg; the later mapping takes the pages it shares with the
 * ones before it (they all end at or below its end: segments are sorted and disjoint). */
static unsigned add_region(struct elf_region *regions, unsigned n, uint64_t start, uint64_t end,
			   unsigned seg, bool anon)
{
	if (start >= end)
		return n;
	while (n && regions[n - 1].end > start) {
		regions[n - 1].end = start;
		if (regions[n - 1].end > regions[n - 1].start)
			break;
		n--;
	}
	regions[n++] = (struct elf_region){ start, end, seg, anon };
	return n;
}

unsigned elf_plan_regions(const struct elf_image *img, uint64_t page_size,
			  struct elf_region regions[ELF_MAX_REGIONS])
{
	uint64_t mask = page_size - 1;
	unsigned n = 0;

	for (unsigned i = 0; i < img->nr_loads; i++) {
		const struct elf_load *l = &img->loads[i];
		uint64_t start = l->vaddr & ~mask;
		uint64_t file_end = l->filesz ? (l->vaddr + l->filesz + mask) & ~mask : start;
		uint64_t end = (l->vaddr + l->memsz + mask) & ~mask;

		n = add_region(regions, n, start, file_end, i, false);
		n = add_region(regions, n, file_end, end, i, true);
	}
	return n;
}
