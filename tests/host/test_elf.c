/* kernel/elf.c: what the loader trusts of an ELF image. Synthetic images with one property
 * each (absurd headers refused with ENOEXEC, never a crash under ASan), how segments linked for
 * 4K pages become mappings on 16K and 64K pages (binfmt_elf's MAP_FIXED overlay), AT_PHDR,
 * PT_INTERP and PT_GNU_STACK; and the host's own test executable, a real dynamic ELF. */
#include "lib_under_test.h"
#include <kernel/elf.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "host_files.h"

#define TASK_SIZE (1ULL << 47)

/* An ELF64 image: header, up to 8 program headers at 64, file bytes up to 1 MiB (zero). */
struct img64 {
	uint8_t bytes[1 << 20];
	unsigned nph;
};

static struct img64 *img_new(unsigned type, uint64_t entry)
{
	struct img64 *m = calloc(1, sizeof(*m));
	struct elf64_ehdr h = { .e_type = type, .e_machine = EM_AARCH64, .e_version = 1,
				.e_entry = entry, .e_phoff = 64, .e_ehsize = 64,
				.e_phentsize = sizeof(struct elf64_phdr) };

	memcpy(h.e_ident, "\177ELF\2\1\1", 7);
	memcpy(m->bytes, &h, sizeof(h));
	return m;
}

static void img_phdr(struct img64 *m, uint32_t type, uint32_t flags, uint64_t offset, uint64_t vaddr,
		     uint64_t filesz, uint64_t memsz)
{
	struct elf64_phdr p = { .p_type = type, .p_flags = flags, .p_offset = offset, .p_vaddr = vaddr,
				.p_paddr = vaddr, .p_filesz = filesz, .p_memsz = memsz,
				.p_align = 0x1000 };
	uint16_t n = (uint16_t)++m->nph;

	memcpy(m->bytes + 64 + (n - 1) * sizeof(p), &p, sizeof(p));
	memcpy(m->bytes + offsetof(struct elf64_ehdr, e_phnum), &n, sizeof(n));
}

static void img_set16(struct img64 *m, size_t off, uint16_t v)
{
	memcpy(m->bytes + off, &v, sizeof(v));
}

static void img_set64(struct img64 *m, size_t off, uint64_t v)
{
	memcpy(m->bytes + off, &v, sizeof(v));
}

/* Text at 0x10000 (file 0) and data right after it in the file, 4K-congruent, as an armhf or
 * i386 linker lays them out: they share a 16K and a 64K page. */
static struct img64 *img_4k_linked(void)
{
	struct img64 *m = img_new(ET_EXEC, 0x10100);
	img_phdr(m, PT_LOAD, PF_R | PF_X, 0, 0x10000, 0x55d6c, 0x55d6c);
	img_phdr(m, PT_LOAD, PF_R | PF_W, 0x560a8, 0x660a8, 0x32e8, 0x5de8);
	img_phdr(m, PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0);
	return m;
}

static int parse(struct img64 *m, uint64_t page, struct elf_image *out)
{
	return elf_parse(m->bytes, sizeof(m->bytes), TASK_SIZE, page, out);
}

static void test_good_image(void **state)
{
	struct img64 *m = img_4k_linked();
	struct elf_image e;
	struct elf_ident id;

	assert_int_equal(elf_identify(m->bytes, sizeof(m->bytes), &id), 0);
	assert_int_equal(id.elf_class, ELFCLASS64);
	assert_int_equal(id.machine, EM_AARCH64);
	assert_int_equal(id.entry, 0x10100);
	assert_int_equal(parse(m, 0x1000, &e), 0);
	assert_int_equal(e.nr_loads, 2);
	assert_int_equal(e.lo, 0x10000);
	assert_int_equal(e.hi, 0x6c000);
	assert_false(e.has_interp);
	assert_int_equal(e.stack, ELF_STACK_NOEXEC);
	/* AT_PHDR: e_phoff 64 lies in the first PT_LOAD (file offset 0 at 0x10000). */
	assert_int_equal(e.phdr_vaddr, 0x10040);
	assert_int_equal(e.phnum, 3);
	free(m);
}

static void test_regions_4k_pages(void **state)
{
	struct img64 *m = img_4k_linked();
	struct elf_image e;
	struct elf_region r[ELF_MAX_REGIONS];

	assert_int_equal(parse(m, 0x1000, &e), 0);
	/* Data's file bytes end at 0x69390: its pages from 0x6a000 on are anonymous bss. */
	assert_int_equal(elf_plan_regions(&e, 0x1000, r), 3);
	assert_int_equal(r[0].start, 0x10000);
	assert_int_equal(r[0].end, 0x66000);
	assert_false(r[0].anon);
	assert_int_equal(r[1].start, 0x66000);
	assert_int_equal(r[1].end, 0x6a000);
	assert_false(r[1].anon);
	assert_int_equal(r[2].start, 0x6a000);
	assert_int_equal(r[2].end, 0x6c000);
	assert_true(r[2].anon);
	assert_int_equal(r[2].seg, 1);
	free(m);
}

static void test_regions_shared_page(void **state)
{
	struct img64 *m = img_4k_linked();
	struct elf_image e;
	struct elf_region r[ELF_MAX_REGIONS];

	/* 64K: text's last page 0x60000 is also data's first; the data mapping (later) takes it. */
	assert_int_equal(parse(m, 0x10000, &e), 0);
	assert_int_equal(e.hi, 0x70000);
	assert_int_equal(elf_plan_regions(&e, 0x10000, r), 2);
	assert_int_equal(r[0].start, 0x10000);
	assert_int_equal(r[0].end, 0x60000);
	assert_int_equal(r[0].seg, 0);
	assert_int_equal(r[1].start, 0x60000);
	assert_int_equal(r[1].end, 0x70000);
	assert_int_equal(r[1].seg, 1);
	/* 16K: the same at 0x64000. */
	assert_int_equal(parse(m, 0x4000, &e), 0);
	assert_int_equal(elf_plan_regions(&e, 0x4000, r), 2);
	assert_int_equal(r[0].end, 0x64000);
	assert_int_equal(r[1].start, 0x64000);
	assert_int_equal(r[1].end, 0x6c000);
	free(m);
}

static void test_regions_swallowed_segment(void **state)
{
	struct img64 *m = img_new(ET_EXEC, 0x400100);
	struct elf_image e;
	struct elf_region r[ELF_MAX_REGIONS];

	/* Three small segments in one 64K page: the last mapping has the page, its bss the pages
	 * after it. */
	img_phdr(m, PT_LOAD, PF_R | PF_X, 0, 0x400000, 0x800, 0x800);
	img_phdr(m, PT_LOAD, PF_R, 0x1000, 0x401000, 0x100, 0x100);
	img_phdr(m, PT_LOAD, PF_R | PF_W, 0x2000, 0x402000, 0x100, 0x20000);
	assert_int_equal(parse(m, 0x10000, &e), 0);
	assert_int_equal(elf_plan_regions(&e, 0x10000, r), 2);
	assert_int_equal(r[0].start, 0x400000);
	assert_int_equal(r[0].end, 0x410000);
	assert_int_equal(r[0].seg, 2);
	assert_false(r[0].anon);
	assert_int_equal(r[1].start, 0x410000);
	assert_int_equal(r[1].end, 0x430000);
	assert_true(r[1].anon);
	/* On 4K pages each keeps its own, and the bss past 0x403000 is anonymous. */
	assert_int_equal(parse(m, 0x1000, &e), 0);
	assert_int_equal(elf_plan_regions(&e, 0x1000, r), 4);
	assert_int_equal(r[3].start, 0x403000);
	assert_int_equal(r[3].end, 0x422000);
	assert_true(r[3].anon);
	free(m);
}

/* A bss-only PT_LOAD (p_filesz 0) is anonymous from the page holding its first byte, taking
 * that page from the segment before it (6.1.192's elf_load: vm_brk_flags unmaps first). */
static void test_regions_bss_only(void **state)
{
	struct img64 *m = img_new(ET_EXEC, 0x400100);
	struct elf_image e;
	struct elf_region r[ELF_MAX_REGIONS];

	img_phdr(m, PT_LOAD, PF_R | PF_X, 0, 0x400000, 0x1800, 0x1800);
	img_phdr(m, PT_LOAD, PF_R | PF_W, 0x1800, 0x401800, 0, 0x3000);
	assert_int_equal(parse(m, 0x1000, &e), 0);
	assert_int_equal(elf_plan_regions(&e, 0x1000, r), 2);
	assert_int_equal(r[0].end, 0x401000);
	assert_false(r[0].anon);
	assert_int_equal(r[1].start, 0x401000);
	assert_int_equal(r[1].end, 0x405000);
	assert_true(r[1].anon);
	assert_int_equal(r[1].seg, 1);
	free(m);
}

/* maximum_alignment: the largest power-of-two p_align of the PT_LOADs, at least a page; 0 when
 * none is a power of two. */
static void set_align(struct img64 *m, unsigned i, uint64_t align)
{
	memcpy(m->bytes + 64 + i * sizeof(struct elf64_phdr) + offsetof(struct elf64_phdr, p_align),
	       &align, sizeof(align));
}

static void test_max_align(void **state)
{
	struct img64 *m = img_4k_linked();
	struct elf_image e;

	assert_int_equal(parse(m, 0x1000, &e), 0);
	assert_int_equal(e.max_align, 0x1000);
	set_align(m, 1, 0x10000);
	assert_int_equal(parse(m, 0x1000, &e), 0);
	assert_int_equal(e.max_align, 0x10000);
	assert_int_equal(parse(m, 0x10000, &e), 0);
	assert_int_equal(e.max_align, 0x10000);
	set_align(m, 0, 0x30000); /* not a power of two: skipped */
	set_align(m, 1, 4);       /* below the page: a page */
	assert_int_equal(parse(m, 0x4000, &e), 0);
	assert_int_equal(e.max_align, 0x4000);
	set_align(m, 1, 0);
	set_align(m, 2, 0x100000); /* PT_GNU_STACK's does not count */
	assert_int_equal(parse(m, 0x1000, &e), 0);
	assert_int_equal(e.max_align, 0);
	free(m);
}

static void test_interp_and_stack(void **state)
{
	struct img64 *m = img_4k_linked();
	struct elf_image e;

	memcpy(m->bytes + 0x300, "/lib/ld-linux-aarch64.so.1", 27);
	img_phdr(m, PT_INTERP, PF_R, 0x300, 0x10300, 27, 27);
	img_phdr(m, PT_GNU_STACK, PF_R | PF_W | PF_X, 0, 0, 0, 0); /* the last one wins */
	assert_int_equal(parse(m, 0x1000, &e), 0);
	assert_true(e.has_interp);
	assert_int_equal(e.stack, ELF_STACK_EXEC);
	free(m);

	/* A PT_INTERP that is no NUL-terminated path. */
	m = img_4k_linked();
	memcpy(m->bytes + 0x300, "/lib/ld", 7);
	img_phdr(m, PT_INTERP, PF_R, 0x300, 0x10300, 7, 7);
	assert_int_equal(parse(m, 0x1000, &e), -ENOEXEC);
	free(m);

	/* No PT_GNU_STACK at all: the ABI's default. */
	m = img_new(ET_EXEC, 0x10100);
	img_phdr(m, PT_LOAD, PF_R | PF_X, 0, 0x10000, 0x1000, 0x1000);
	assert_int_equal(parse(m, 0x1000, &e), 0);
	assert_int_equal(e.stack, ELF_STACK_DEFAULT);
	free(m);
}

/* Each absurd header is refused; ASan would catch any read outside the image. */
static void test_absurd_headers(void **state)
{
	struct elf_image e;
	struct img64 *m;

	m = img_4k_linked();
	img_set16(m, offsetof(struct elf64_ehdr, e_phnum), 0xffff); /* huge phnum */
	assert_int_equal(parse(m, 0x1000, &e), -ENOEXEC);
	free(m);

	m = img_4k_linked();
	img_set64(m, offsetof(struct elf64_ehdr, e_phoff), ~0ULL - 8); /* overflowing e_phoff */
	assert_int_equal(parse(m, 0x1000, &e), -ENOEXEC);
	free(m);

	m = img_4k_linked();
	img_set16(m, offsetof(struct elf64_ehdr, e_phentsize), 32); /* wrong entry size */
	assert_int_equal(parse(m, 0x1000, &e), -ENOEXEC);
	free(m);

	m = img_new(ET_EXEC, 0x10100);
	img_phdr(m, PT_LOAD, PF_R | PF_X, 0, 0x10000, 0x2000, 0x1000); /* filesz > memsz */
	assert_int_equal(parse(m, 0x1000, &e), -ENOEXEC);
	free(m);

	m = img_new(ET_EXEC, 0x10100);
	img_phdr(m, PT_LOAD, PF_R | PF_X, ~0ULL - 0x100, 0x10000, 0x1000, 0x1000); /* offset wraps */
	assert_int_equal(parse(m, 0x1000, &e), -ENOEXEC);
	free(m);

	m = img_new(ET_EXEC, 0x10100);
	img_phdr(m, PT_LOAD, PF_R | PF_X, 0, 0x10000, 0x200000, 0x200000); /* past the file */
	assert_int_equal(parse(m, 0x1000, &e), -ENOEXEC);
	free(m);

	m = img_new(ET_EXEC, TASK_SIZE - 0x800);
	img_phdr(m, PT_LOAD, PF_R | PF_X, 0, TASK_SIZE - 0x1000, 0x1000, 0x2000); /* past TASK_SIZE */
	assert_int_equal(parse(m, 0x1000, &e), -ENOEXEC);
	free(m);

	m = img_new(ET_EXEC, 0x10100);
	img_phdr(m, PT_LOAD, PF_R | PF_X, 0, ~0ULL - 0x1000, 0x1000, 0x1000); /* end rounds past 2^64 */
	assert_int_equal(elf_parse(m->bytes, sizeof(m->bytes), ~0ULL, 0x1000, &e), -ENOEXEC);
	free(m);

	m = img_new(ET_EXEC, 0x10100);
	img_phdr(m, PT_LOAD, PF_R | PF_X, 0, 0x10000, 0x1000, 0x1000);
	img_phdr(m, PT_LOAD, PF_R | PF_W, 0x1000, 0x10800, 0x100, 0x100); /* overlapping bytes */
	assert_int_equal(parse(m, 0x1000, &e), -ENOEXEC);
	free(m);

	/* Address and offset apart by 4K: fine on 4K pages, not on 64K ones (finding ELF-2). */
	m = img_new(ET_EXEC, 0x10100);
	img_phdr(m, PT_LOAD, PF_R | PF_X, 0x1000, 0x10000, 0x1000, 0x1000);
	assert_int_equal(parse(m, 0x1000, &e), 0);
	assert_int_equal(parse(m, 0x10000, &e), -ENOEXEC);
	free(m);

	m = img_new(ET_EXEC, 0x90000); /* entry outside every segment */
	img_phdr(m, PT_LOAD, PF_R | PF_X, 0, 0x10000, 0x1000, 0x1000);
	assert_int_equal(parse(m, 0x1000, &e), -ENOEXEC);
	free(m);

	m = img_new(4 /* ET_CORE */, 0x10100);
	img_phdr(m, PT_LOAD, PF_R | PF_X, 0, 0x10000, 0x1000, 0x1000);
	assert_int_equal(parse(m, 0x1000, &e), -ENOEXEC);
	free(m);

	/* No PT_LOAD, or more than the loader keeps. */
	m = img_new(ET_EXEC, 0x10100);
	img_phdr(m, PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0);
	assert_int_equal(parse(m, 0x1000, &e), -ENOEXEC);
	free(m);
	m = img_new(ET_EXEC, 0x10100);
	for (unsigned i = 0; i <= ELF_MAX_LOADS; i++)
		img_phdr(m, PT_LOAD, PF_R | PF_X, 0, 0x10000 + i * 0x1000, 0x100, 0x100);
	assert_int_equal(parse(m, 0x1000, &e), -ENOEXEC);
	free(m);

	/* Too short, bad magic, big-endian. */
	uint8_t tiny[40] = "\177ELF\2\1\1";
	struct elf_ident id;
	assert_int_equal(elf_identify(tiny, sizeof(tiny), &id), -ENOEXEC);
	assert_int_equal(elf_parse(tiny, sizeof(tiny), TASK_SIZE, 0x1000, &e), -ENOEXEC);
	m = img_4k_linked();
	m->bytes[1] = 'F';
	assert_int_equal(parse(m, 0x1000, &e), -ENOEXEC);
	m->bytes[1] = 'E';
	m->bytes[5] = 2;
	assert_int_equal(parse(m, 0x1000, &e), -ENOEXEC);
	free(m);
}

/* The test program itself: a dynamically linked host ELF (PT_INTERP, PT_PHDR). */
static const char *self_path;

static void test_real_dynamic_binary(void **state)
{
	size_t size;
	uint8_t *data = host_load_file(self_path, &size);
	struct elf_image e;

	assert_int_equal(elf_parse(data, size, TASK_SIZE, 0x1000, &e), 0);
	assert_int_equal(e.elf_class, sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32);
	assert_true(e.has_interp);
	assert_int_not_equal(e.phdr_vaddr, 0);
	assert_true(e.nr_loads >= 2);
	free(data);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_image),
		cmocka_unit_test(test_regions_4k_pages),
		cmocka_unit_test(test_regions_shared_page),
		cmocka_unit_test(test_regions_swallowed_segment),
		cmocka_unit_test(test_regions_bss_only),
		cmocka_unit_test(test_max_align),
		cmocka_unit_test(test_interp_and_stack),
		cmocka_unit_test(test_absurd_headers),
		cmocka_unit_test(test_real_dynamic_binary),
	};
	self_path = argv[0];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
