/* arm64's special mappings (Linux 6.1, arch/arm64/kernel/vdso.c).
 *
 * Native tasks (arch_setup_additional_pages -> __setup_additional_pages): [vvar] (2 pages) and
 * [vdso] (1 page) at one get_unmapped_area without a hint, so top-down they end at mmap_base
 * and a program's first mmap lands 3 pages + its length below it.
 *
 * AArch32 tasks (aarch32_setup_additional_pages): [vectors] at 0xffff0000 (the kuser helpers
 * page, CONFIG_KUSER_HELPERS), then [vvar] + [vdso] as above (CONFIG_COMPAT_VDSO), then
 * [sigpage] (1 page) below them: the first mmap lands 4 pages + its length below mmap_base. */
#include <arch/memory.h>
#include <lib/errno.h>
#include <mm.h>
#include <pgtable.h>
#include <vdso.h>

#define AARCH32_VECTORS_BASE 0xffff0000u

extern const uint8_t vdso_aarch64_start[], vdso_aarch64_end[];
extern const uint8_t vdso_aarch32_start[], vdso_aarch32_end[];

static const struct vdso_image vdso_native = {
	.start = vdso_aarch64_start, .end = vdso_aarch64_end, .vvar_pages = 2,
};
static const struct vdso_image vdso_compat = {
	.start = vdso_aarch32_start, .end = vdso_aarch32_end, .vvar_pages = 2,
};

/* The AArch32 [sigpage] and [vectors] pages' contents: Linux's aarch32 signal return code at
 * the start of the sigpage, the kuser helpers at the end of the vectors page. Words in the
 * order the CPU reads them (little-endian ARM and Thumb encodings). */
static union {
	uint32_t words[PAGE_SIZE / 4];
	uint8_t page[PAGE_SIZE];
} aarch32_sigpage __aligned(PAGE_SIZE) = { .words = {
	0xe3a07077, /* mov r7, #119 (sigreturn), ARM */
	0xef000000, /* svc #0 */
	0xdf002777, /* Thumb: movs r7, #119; svc #0 */
	0xe3a070ad, /* mov r7, #173 (rt_sigreturn), ARM */
	0xef000000, /* svc #0 */
	0xdf0027ad, /* Thumb: movs r7, #173; svc #0 */
} };

static union {
	uint32_t words[PAGE_SIZE / 4];
	uint8_t page[PAGE_SIZE];
} aarch32_vectors __aligned(PAGE_SIZE);

int arch_setup_additional_pages(struct mm *mm, uint64_t start_stack)
{
	(void)start_stack;
	if (!mm->compat)
		return vdso_map(mm, &vdso_native, 0);

	/* The page is mapped, the kuser helpers are not in it yet (zeros). */
	int err = install_special_mapping(mm, AARCH32_VECTORS_BASE, PAGE_SIZE, PT_R | PT_X,
					  __pa(&aarch32_vectors), "[vectors]");
	if (!err)
		err = vdso_map(mm, &vdso_compat, 0);
	if (err)
		return err;
	uint64_t sigpage = get_unmapped_area(mm, 0, PAGE_SIZE);
	if (!sigpage)
		return -ENOMEM;
	return install_special_mapping(mm, sigpage, PAGE_SIZE, PT_R | PT_X, __pa(&aarch32_sigpage),
				       "[sigpage]");
}

const struct vma *arch_gate_vma(const struct mm *mm)
{
	(void)mm;
	return NULL;
}
