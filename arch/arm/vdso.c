/* 32-bit ARM's special mappings (Linux 6.1, arch/arm/kernel/process.c and vdso.c).
 *
 * arch_setup_additional_pages asks get_unmapped_area for [sigpage] + [vvar] + [vdso] (1 + 1 +
 * 1 pages) at a hint sigpage_addr draws: a random page between the (page above the) start of
 * the argument strings and TASK_SIZE. With the stack randomized there is room above it, so
 * the three pages sit between the stack and TASK_SIZE and the first mmap lands just below
 * mmap_base; with it not randomized there is none and they go top-down below mmap_base. The
 * draw happens even with randomize_va_space = 0, as on Linux.
 *
 * [vectors] at 0xffff0000 is the kernel's vectors page, above TASK_SIZE and shared by every
 * process: Linux shows it in maps through its gate VMA, and so does arch_gate_vma here. */
#include <arch/memory.h>
#include <mm/layout.h>
#include <lib/errno.h>
#include <mm/mm.h>
#include <mm/pgtable.h>
#include <kernel/vdso.h>

extern const uint8_t vdso_arm_start[], vdso_arm_end[];

static const struct vdso_image vdso_arm = {
	.start = vdso_arm_start, .end = vdso_arm_end, .vvar_pages = 1,
};

/* The sigpage: Linux fills it with an undefined instruction and puts its sigreturn code
 * (sigreturn_codes.S: ARM and Thumb sigreturn, rt_sigreturn) at a random word offset from
 * 0x200 drawn once per boot; here it sits at 0x200. */
#define SIGPAGE_POISON 0xe7fddef1u /* udf, ARM */
#define SIGRETURN_OFFSET 0x200

static union {
	uint32_t words[PAGE_SIZE / 4];
	uint8_t page[PAGE_SIZE];
} sigpage __aligned(PAGE_SIZE);

static const uint32_t sigreturn_codes[] = {
	0xe3a07077, /* mov r7, #119 (sigreturn), ARM */
	0xef900077, /* swi #0x900077 (the OABI number, ignored under EABI) */
	0xdf002777, /* Thumb: movs r7, #119; svc #0 */
	0xe3a070ad, /* mov r7, #173 (rt_sigreturn), ARM */
	0xef9000ad, /* swi #0x9000ad */
	0xdf0027ad, /* Thumb: movs r7, #173; svc #0 */
};

static void sigpage_fill(void)
{
	if (sigpage.words[0] == SIGPAGE_POISON)
		return;
	for (unsigned i = 0; i < PAGE_SIZE / 4; i++)
		sigpage.words[i] = SIGPAGE_POISON;
	for (unsigned i = 0; i < ARRAY_SIZE(sigreturn_codes); i++)
		sigpage.words[SIGRETURN_OFFSET / 4 + i] = sigreturn_codes[i];
}

int arch_setup_additional_pages(struct mm *mm, uint64_t start_stack)
{
	uint64_t text_pages = (uint64_t)(vdso_arm_end - vdso_arm_start) / PAGE_SIZE;
	uint64_t npages = 1 + vdso_arm.vvar_pages + text_pages;
	uint64_t hint = sigpage_addr_arm(start_stack, npages, mm->geo.task_size, PAGE_SIZE,
					 random_below);

	/* The stack VMA is not in the list yet: a hint inside it fails as Linux's would. */
	if (hint < mm->stack_top)
		hint = 0;
	uint64_t addr = get_unmapped_area(mm, hint, npages * PAGE_SIZE);
	if (!addr)
		return -ENOMEM;
	sigpage_fill();
	int err = install_special_mapping(mm, addr, PAGE_SIZE, PT_R | PT_X, __pa(&sigpage),
					  "[sigpage]");
	if (err)
		return err;
	/* Linux carries on without a vDSO if this fails; the page is there, so it does not. */
	return vdso_map(mm, &vdso_arm, addr + PAGE_SIZE);
}

static const struct vma vectors_gate = {
	.start = 0xffff0000u, .end = 0xffff0000u + PAGE_SIZE, .prot = PT_R | PT_X,
	.name = "[vectors]",
};

const struct vma *arch_gate_vma(const struct mm *mm)
{
	(void)mm;
	return &vectors_gate;
}
