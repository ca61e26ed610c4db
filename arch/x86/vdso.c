/* x86's vDSO (Linux 6.1, arch/x86/entry/vdso/vma.c). [vvar] is 4 pages and [vdso] 2, mapped
 * together by map_vdso at what get_unmapped_area returns for a hint:
 *  - i386 and ia32 tasks (load_vdso32): no hint, so top-down they end at mmap_base and the
 *    first mmap lands 6 pages + its length below it;
 *  - x86_64 tasks (map_vdso_randomized): vdso_addr's random page between the stack and the
 *    end of its 2 MiB region, so the vDSO sits just above the stack and the first mmap lands
 *    right below mmap_base. When there is no room there (randomization off: the stack ends
 *    at the top of the address space) the hint fails and the search goes top-down as above.
 * No [vsyscall] gate page: Debian builds 6.1 with CONFIG_LEGACY_VSYSCALL_NONE (vsyscall=none),
 * and then Linux has no gate VMA to show. */
#include <arch/memory.h>
#include <mm/layout.h>
#include <mm/mm.h>
#include <mm/pgtable.h>
#include <kernel/vdso.h>

extern const uint8_t vdso_ia32_start[], vdso_ia32_end[];
#ifdef CONFIG_64BIT
extern const uint8_t vdso_x86_64_start[], vdso_x86_64_end[];
static const struct vdso_image vdso_native = {
	.start = vdso_x86_64_start, .end = vdso_x86_64_end, .vvar_pages = 4,
};
static const struct vdso_image vdso_32 = {
	.start = vdso_ia32_start, .end = vdso_ia32_end, .vvar_pages = 4, .sysinfo = true,
};
#else
extern const uint8_t vdso_i386_start[], vdso_i386_end[];
static const struct vdso_image vdso_32 = {
	.start = vdso_i386_start, .end = vdso_i386_end, .vvar_pages = 4, .sysinfo = true,
};
#endif

int arch_setup_additional_pages(struct mm *mm, uint64_t start_stack)
{
#ifdef CONFIG_64BIT
	if (!mm->compat) {
		uint64_t len = (uint64_t)vdso_native.vvar_pages * PAGE_SIZE +
			       (uint64_t)(vdso_native.end - vdso_native.start);
		uint64_t hint = vdso_addr_x86_64(start_stack, len, mm->geo.task_size, PAGE_SIZE,
						 random_below);
		/* The stack VMA is not in the list yet: a hint inside it fails as Linux's would. */
		return vdso_map(mm, &vdso_native, hint >= mm->stack_top ? hint : 0);
	}
#endif
	(void)start_stack;
	return vdso_map(mm, &vdso_32, 0);
}

const struct vma *arch_gate_vma(const struct mm *mm)
{
	(void)mm;
	return NULL;
}
