/* The generic half of the special mappings (include/kernel/vdso.h): the vvar data every vDSO reads,
 * mapping a vDSO image and naming the VMAs, and the placement arithmetic the arches share.
 * Nothing here is copied per process: [vdso] maps the image embedded in the kernel, [vvar]
 * the kernel's own data pages, both read-only, so an exec allocates no frame for them (page
 * tables aside, which go with the address space). */
#include <arch/cpu.h>
#include <arch/memory.h>
#include <asm/vdso.h>
#include <kernel/exec.h>
#include <kernel/kernel.h>
#include <lib/errno.h>
#include <lib/string.h>
#include <mm/mm.h>
#include <mm/pgtable.h>
#include <kernel/vdso.h>
#include <kernel/vdso_data.h>

#define NSEC_PER_SEC 1000000000ull

/* The [vvar] pages: the data at the start of the first, the rest zero (Linux's pvclock,
 * hvclock and time-namespace pages, which nothing here uses). */
static union {
	struct vdso_data data;
	uint8_t pages[ARCH_VVAR_PAGES * PAGE_SIZE];
} vvar_store __aligned(PAGE_SIZE);

/* The counter's rate never changes after boot, so writing it at each exec keeps it right
 * without an init hook (Linux updates it from the timekeeping code). */
static void vdso_data_update(void)
{
	struct vdso_data *d = &vvar_store.data;
	uint64_t hz = arch_cycles_hz();

	d->counter_hz = hz;
	d->res_ns = (NSEC_PER_SEC + hz - 1) / hz;
	d->clock_mode = VDSO_CLOCK_MODE_COUNTER;
}

uint64_t special_mappings_below(const struct mm *mm, uint64_t addr)
{
	uint64_t bottom = addr;

	for (bool found = true; found;) {
		found = false;
		for (const struct vma *v = mm->vmas; v; v = v->next) {
			if (v->name && v->end == bottom) {
				bottom = v->start;
				found = true;
			}
		}
	}
	return addr - bottom;
}

int install_special_mapping(struct mm *mm, uint64_t start, uint64_t len, unsigned prot,
			    phys_addr_t pa, const char *name)
{
	int err = vma_insert(mm, start, start + len, prot, VMA_ANON, 0);

	if (err)
		return err;
	struct vma *v = vma_find(mm, start);
	v->name = name;
	vma_set_shared(mm, start, pa);
	return pt_map(mm->root, (uintptr_t)start, pa, (size_t)len, prot | PT_USER, 0);
}

/* The ELF header's e_entry: where __kernel_vsyscall is in the i386 image (its linker script
 * makes it the entry). 32-bit ELF: four bytes at offset 24. */
static uint64_t image_entry32(const struct vdso_image *img)
{
	uint32_t e;

	memcpy(&e, img->start + 24, sizeof(e));
	return e;
}

int vdso_map(struct mm *mm, const struct vdso_image *img, uint64_t hint)
{
	uint64_t vvar_len = (uint64_t)img->vvar_pages * PAGE_SIZE;
	uint64_t text_len = (uint64_t)(img->end - img->start);
	uint64_t addr = get_unmapped_area(mm, hint, vvar_len + text_len);
	int err;

	if (!addr)
		return -ENOMEM;
	vdso_data_update();
	err = install_special_mapping(mm, addr, vvar_len, PT_R, __pa(&vvar_store), "[vvar]");
	if (!err)
		err = install_special_mapping(mm, addr + vvar_len, text_len, PT_R | PT_X,
					      __pa(img->start), "[vdso]");
	if (err)
		return err;
	mm->vdso = addr + vvar_len;
	mm->vdso_sysinfo = img->sysinfo ? mm->vdso + image_entry32(img) : 0;
	return 0;
}
