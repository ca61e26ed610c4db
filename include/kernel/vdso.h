/* The vDSO and the other special mappings Linux 6.1 puts into every new program: [vvar] (the
 * kernel's time data, read-only), [vdso] (a small shared object built with the kernel,
 * vdso/), and on ARM [sigpage] and [vectors]. kernel/vdso.c holds the generic parts (the vvar
 * data, mapping a vDSO, the placement arithmetic); arch/<isa>/vdso.c decides what goes where,
 * as each arch's arch_setup_additional_pages does. docs/vdso.md has the rules. */
#ifndef RNDBITS_VDSO_H
#define RNDBITS_VDSO_H

#include <lib/types.h>

struct mm;
struct vma;

/* One vDSO image embedded in the kernel (vdso/CMakeLists.txt), page aligned. */
struct vdso_image {
	const uint8_t *start, *end;   /* the [vdso] pages: the image, padded to Linux's size */
	unsigned vvar_pages;          /* the [vvar] pages mapped just below it */
	bool sysinfo;                 /* pass AT_SYSINFO (the ELF entry: __kernel_vsyscall) */
};

/* Arch contract: map this ABI's special pages into mm, at Linux's places, after the program's
 * segments and brk and before the initial stack is written (binfmt_elf's order). start_stack
 * is where the argument strings begin (Linux's mm->start_stack at that point, bprm->p).
 * Sets mm->vdso (and mm->vdso_sysinfo). 0 or -errno. */
int arch_setup_additional_pages(struct mm *mm, uint64_t start_stack);

/* Arch contract: the gate area /proc/PID/maps shows after the VMAs for this mm (a mapping
 * shared by all processes above TASK_SIZE: 32-bit ARM's [vectors]; x86_64's [vsyscall] where
 * vsyscall emulation is on, which Debian's 6.1 builds leave out), or
 * NULL. Its name is the VMA's name. */
const struct vma *arch_gate_vma(const struct mm *mm);

/* How many bytes of special mappings lie contiguously right below addr (mmap_base): where a
 * program's first hint-less mmap ends, top-down. */
uint64_t special_mappings_below(const struct mm *mm, uint64_t addr);

/* Linux's _install_special_mapping: a named VMA over [start, start + len) mapping the
 * kernel's own frames from pa (shared, never freed with the process). -EEXIST, -ENOMEM. */
int install_special_mapping(struct mm *mm, uint64_t start, uint64_t len, unsigned prot,
			    phys_addr_t pa, const char *name);

/* Map img's [vvar] and [vdso] pages at the address get_unmapped_area gives for hint (0: none)
 * and the whole length, as map_vdso (x86) and __setup_additional_pages (arm64) do. */
int vdso_map(struct mm *mm, const struct vdso_image *img, uint64_t hint);

/* The placement arithmetic, pure (tests/host/test_vdso.c). page_size and the random draw are
 * parameters; draw(n) returns a uniform number in [0, n).
 *
 * x86_64's vdso_addr (arch/x86/entry/vdso/vma.c): a random page between the page above
 * start_stack and the end of its 2 MiB (PMD) region (capped at the map window), len bytes. */
uint64_t vdso_addr_x86_64(uint64_t start_stack, uint64_t len, uint64_t map_window,
			  uint64_t page_size, uint64_t (*draw)(uint64_t n));
/* 32-bit ARM's sigpage_addr (arch/arm/kernel/process.c): a random page between the page above
 * start_stack and task_size for npages, 0 when they do not fit there. */
uint64_t sigpage_addr_arm(uint64_t start_stack, uint64_t npages, uint64_t task_size,
			  uint64_t page_size, uint64_t (*draw)(uint64_t n));

#endif
