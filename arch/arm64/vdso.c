/* arm64's special mappings (Linux 6.1, arch/arm64/kernel/vdso.c).
 *
 * Native tasks (arch_setup_additional_pages -> __setup_additional_pages): [vvar] (2 pages) and
 * [vdso] (1 page) at one get_unmapped_area without a hint, so top-down they end at mmap_base
 * and a program's first mmap lands 3 pages + its length below it.
 *
 * AArch32 tasks (aarch32_setup_additional_pages): [vectors] at 0xffff0000 (the kuser helpers
 * page, CONFIG_KUSER_HELPERS; not with 64K pages, below), then [vvar] + [vdso] as above (CONFIG_COMPAT_VDSO), then
 * [sigpage] (1 page) below them: the first mmap lands 4 pages + its length below mmap_base. */
#include <arch/memory.h>
#include <lib/errno.h>
#include <mm/mm.h>
#include <mm/pgtable.h>
#include <kernel/vdso.h>

#define AARCH32_VECTORS_BASE 0xffff0000u

extern const uint8_t vdso_aarch64_start[], vdso_aarch64_end[];
extern const uint8_t vdso_aarch32_start[], vdso_aarch32_end[];

static const struct vdso_image vdso_native = {
	.start = vdso_aarch64_start, .end = vdso_aarch64_end, .vvar_pages = 2,
};
static const struct vdso_image vdso_compat = {
	.start = vdso_aarch32_start, .end = vdso_aarch32_end, .vvar_pages = 2,
};

/* The AArch32 [sigpage]: Linux's aarch32 signal return code at its start. Words in the order
 * the CPU reads them (little-endian ARM and Thumb encodings). */
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

/* The kuser helpers (the ABI of Documentation/arm/kernel_user_helpers.rst) at their fixed
 * addresses at the end of the first 4 KiB, as Linux 6.1's kuser32.S has them for ARMv8, and
 * __kuser_helper_version (5 helpers' worth of 32-byte slots) in its last word. */
#define KUSER(addr) [((addr) & 0xfff) / 4]
static union {
	uint32_t words[PAGE_SIZE / 4];
	uint8_t page[PAGE_SIZE];
} aarch32_vectors __aligned(PAGE_SIZE) = { .words = {
	/* __kuser_cmpxchg64 */
	KUSER(0xffff0f60) = 0xe92d00f0, /* push {r4-r7} */
	0xe1c040d0, /* ldrd r4, r5, [r0] */
	0xe1c160d0, /* ldrd r6, r7, [r1] */
	0xe1b20f9f, /* 1: ldrexd r0, r1, [r2] */
	0xe0303004, /* eors r3, r0, r4 */
	0x00313005, /* eorseq r3, r1, r5 */
	0x01a23e96, /* stlexdeq r3, r6, [r2] */
	0x03330001, /* teqeq r3, #1 */
	0x0afffff9, /* beq 1b */
	0xf57ff05b, /* dmb ish */
	0xe2730000, /* rsbs r0, r3, #0 */
	0xe8bd00f0, /* pop {r4-r7} */
	0xe12fff1e, /* bx lr */
	/* __kuser_memory_barrier */
	KUSER(0xffff0fa0) = 0xf57ff05b, /* dmb ish */
	0xe12fff1e, /* bx lr */
	/* __kuser_cmpxchg */
	KUSER(0xffff0fc0) = 0xe1923f9f, /* 1: ldrex r3, [r2] */
	0xe0533000, /* subs r3, r3, r0 */
	0x01823e91, /* stlexeq r3, r1, [r2] */
	0x03330001, /* teqeq r3, #1 */
	0x0afffffa, /* beq 1b */
	0xf57ff05b, /* dmb ish */
	0xe2730000, /* rsbs r0, r3, #0 */
	0xe12fff1e, /* bx lr */
	/* __kuser_get_tls: TPIDRURO, the compat thread pointer */
	KUSER(0xffff0fe0) = 0xee1d0f70, /* mrc p15, 0, r0, c13, c0, 3 */
	0xe12fff1e, /* bx lr */
	/* __kuser_helper_version */
	KUSER(0xffff0ffc) = 5,
} };

/* With 64 KiB pages the vectors page would span 0xffff0000 to 4 GiB, every address above an
 * AArch32 task's TASK_SIZE: left out there, as by a CONFIG_KUSER_HELPERS=n kernel (Linux 6.1
 * allows COMPAT with 64K pages only under EXPERT). */
static bool vectors_page_fits(void)
{
	return PAGE_SIZE <= 0x4000;
}

int arch_setup_additional_pages(struct mm *mm, uint64_t start_stack)
{
	(void)start_stack;
	if (!mm->compat)
		return vdso_map(mm, &vdso_native, 0);

	int err = 0;
	if (vectors_page_fits())
		err = install_special_mapping(mm, AARCH32_VECTORS_BASE, PAGE_SIZE, PT_R | PT_X,
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
