/* kernel/elf.c under libFuzzer: elf_parse and elf_plan_regions on arbitrary bytes, every page
 * size and the task sizes of every preset (native and compat); the class and machine are the
 * file's own (exec picks the ABI from them before it parses). The input is the ELF file itself,
 * so real user programs are useful seeds.
 *
 * What an accepted image must satisfy (the loader maps it without further checks): 1..16
 * PT_LOAD segments, exactly the file's PT_LOAD headers in order, each non-empty, filesz <=
 * memsz, file bytes inside the file, memory below task_size, no arithmetic wrap, sorted and
 * byte-disjoint (they may share a page), each segment's address and file offset equal modulo
 * the page size (finding ELF-2, fixed), lo/hi the page-rounded span, the entry point inside
 * it; and its regions sorted, page-aligned, disjoint, inside [lo, hi), each inside its own
 * segment's page-rounded range and covering that segment's last page. */
#include "lib_under_test.h"
#include <kernel/elf.h>

#include <string.h>

#include "fuzz.h"

static const uint64_t task_sizes_64[] = {
	1ull << 36, 1ull << 39, 1ull << 42, 0x7ffffffff000ull, 1ull << 47, 1ull << 48, UINT64_MAX,
};
static const uint64_t task_sizes_32[] = {
	0x3f000000, 0x7f000000, 0xbf000000, 0xc0000000, 0xffffe000, 0x100000000ull,
};
static const uint64_t page_sizes[] = { 4096, 16384, 65536 };

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* The file's PT_LOAD headers, read independently of elf.c (only called on accepted images,
 * whose program header table elf_parse found inside the file). */
static unsigned count_loads(const uint8_t *data, unsigned elf_class, struct elf_load *out,
			    unsigned max)
{
	unsigned n = 0;

	if (elf_class == ELFCLASS64) {
		struct elf64_ehdr h;
		memcpy(&h, data, sizeof(h));
		for (unsigned i = 0; i < h.e_phnum; i++) {
			struct elf64_phdr p;
			memcpy(&p, data + h.e_phoff + i * sizeof(p), sizeof(p));
			if (p.p_type == PT_LOAD && n < max)
				out[n] = (struct elf_load){ p.p_vaddr, p.p_memsz, p.p_offset,
							   p.p_filesz, p.p_flags };
			n += p.p_type == PT_LOAD;
		}
	} else {
		struct elf32_ehdr h;
		memcpy(&h, data, sizeof(h));
		for (unsigned i = 0; i < h.e_phnum; i++) {
			struct elf32_phdr p;
			memcpy(&p, data + h.e_phoff + i * sizeof(p), sizeof(p));
			if (p.p_type == PT_LOAD && n < max)
				out[n] = (struct elf_load){ p.p_vaddr, p.p_memsz, p.p_offset,
							   p.p_filesz, p.p_flags };
			n += p.p_type == PT_LOAD;
		}
	}
	return n;
}

static volatile uint8_t sink;

static void check_accepted(const uint8_t *data, size_t size, unsigned elf_class,
			   uint64_t task_size, uint64_t page_size, const struct elf_image *img)
{
	struct elf_load want[ELF_MAX_LOADS];
	uint64_t mask = page_size - 1;

	FUZZ_CHECK(img->type == ET_EXEC || img->type == ET_DYN);
	FUZZ_CHECK(img->nr_loads >= 1 && img->nr_loads <= ELF_MAX_LOADS);
	FUZZ_CHECK(count_loads(data, elf_class, want, ELF_MAX_LOADS) == img->nr_loads);
	for (unsigned i = 0; i < img->nr_loads; i++) {
		const struct elf_load *l = &img->loads[i];
		FUZZ_CHECK(l->vaddr == want[i].vaddr && l->memsz == want[i].memsz &&
			   l->offset == want[i].offset && l->filesz == want[i].filesz &&
			   l->flags == want[i].flags);
		FUZZ_CHECK(l->memsz != 0 && l->filesz <= l->memsz);
		FUZZ_CHECK(l->offset <= size && l->filesz <= size - l->offset);
		FUZZ_CHECK(l->vaddr < task_size && l->memsz <= task_size - l->vaddr);
		/* Linux maps a segment from its file offset rounded down to a page, so it refuses
		 * one whose address and offset differ within a page (vm_mmap: EINVAL). Finding
		 * ELF-2, fixed: its inputs are in the corpus. */
		FUZZ_CHECK(((l->vaddr - l->offset) & mask) == 0);
		/* The loader copies these bytes: let ASan see every one of them. */
		for (uint64_t b = 0; b < l->filesz; b += 61)
			sink ^= data[l->offset + b];
		if (l->filesz)
			sink ^= data[l->offset + l->filesz - 1];
		if (i) {
			const struct elf_load *p = &img->loads[i - 1];
			uint64_t prev_end = (p->vaddr + p->memsz + mask) & ~mask;
			FUZZ_CHECK(prev_end != 0); /* page rounding did not wrap */
			FUZZ_CHECK(l->vaddr >= p->vaddr + p->memsz);
		}
	}
	const struct elf_load *first = &img->loads[0], *last = &img->loads[img->nr_loads - 1];
	FUZZ_CHECK(img->lo == (first->vaddr & ~mask));
	FUZZ_CHECK(img->hi == ((last->vaddr + last->memsz + mask) & ~mask));
	FUZZ_CHECK(img->lo < img->hi);
	FUZZ_CHECK(img->entry >= img->lo && img->entry < img->hi);

	struct elf_region r[ELF_MAX_REGIONS];
	unsigned n = elf_plan_regions(img, page_size, r);
	FUZZ_CHECK(n >= 1 && n <= 2 * img->nr_loads);
	FUZZ_CHECK(r[n - 1].seg == img->nr_loads - 1 && r[n - 1].end == img->hi);
	for (unsigned i = 0; i < n; i++) {
		const struct elf_load *l = &img->loads[r[i].seg];
		FUZZ_CHECK(((r[i].start | r[i].end) & mask) == 0 && r[i].start < r[i].end);
		uint64_t file_end = (l->vaddr + l->filesz + mask) & ~mask;
		/* A file region starts at its segment's first page; an anonymous one there (no file
		 * bytes) or where the file's pages end. */
		FUZZ_CHECK(r[i].start == (l->vaddr & ~mask) ||
			   (r[i].anon && l->filesz && r[i].start == file_end));
		FUZZ_CHECK(r[i].end <= ((l->vaddr + l->memsz + mask) & ~mask));
		FUZZ_CHECK(r[i].anon || r[i].end <= file_end);
		if (i)
			FUZZ_CHECK(r[i].start >= r[i - 1].end &&
				   (r[i].seg > r[i - 1].seg ||
				    (r[i].seg == r[i - 1].seg && r[i].anon && !r[i - 1].anon)));
	}
}

static void try_one(const uint8_t *data, size_t size, uint64_t task_size, uint64_t page_size)
{
	struct elf_image img;

	if (elf_parse(data, size, task_size, page_size, &img) == 0) {
		FUZZ_CHECK(img.elf_class == data[4] && img.machine == le16(data + 18));
		check_accepted(data, size, img.elf_class, task_size, page_size, &img);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Exact-size copy: a read past the end is an ASan report. */
	uint8_t *copy = malloc(size ? size : 1);
	memcpy(copy, data, size);
	bool is64 = size > 4 && copy[4] == ELFCLASS64;
	const uint64_t *task_sizes = is64 ? task_sizes_64 : task_sizes_32;
	size_t nr_task_sizes = is64 ? ARRAY_SIZE(task_sizes_64) : ARRAY_SIZE(task_sizes_32);

	for (unsigned p = 0; p < ARRAY_SIZE(page_sizes); p++)
		for (unsigned t = 0; t < nr_task_sizes; t++)
			try_one(copy, size, task_sizes[t], page_sizes[p]);
	free(copy);
	return 0;
}
