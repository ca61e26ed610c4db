/* Process address spaces: a sorted VMA list over one page-table root (mm/vma.c, mm/fault.c). */
#ifndef RNDBITS_MM_H
#define RNDBITS_MM_H

#include <mm/layout.h>
#include <lib/mman.h>
#include <lib/types.h>

struct fs_file;


/* VMA_BSS: exec's anonymous pages of an image's bss past its file pages (binfmt_elf's
 * vm_brk_flags); anonymous like VMA_ANON, told apart only so that tools can name the first
 * mmap. */
enum vma_kind { VMA_ANON, VMA_IMAGE, VMA_HEAP, VMA_STACK, VMA_BSS };

struct vma {
	uint64_t start, end;   /* page aligned, end exclusive */
	unsigned prot;         /* PT_R | PT_W | PT_X (PT_USER is implied) */
	enum vma_kind kind;
	const struct fs_file *file; /* the file mapped (VMA_IMAGE, file mmap), or NULL */
	uint64_t file_offset;  /* offset of start in that file */
	phys_addr_t shared_pa; /* non-zero: maps these frames of the embedded image read-only (like
				* the page cache), never freed with the process; 0: private frames */
	const char *name;      /* a special mapping's name ([vdso], [vvar], [sigpage], [vectors]:
				* Linux's vm_special_mapping), or NULL */
	struct vma *next;
};

struct mm {
	phys_addr_t root;
	unsigned asid;
	bool compat;
	struct vma *vmas;          /* sorted by start */
	unsigned nr_vmas;
	struct task_geometry geo;
	struct mmap_range range;   /* where mmap_base could have landed */
	uint64_t rnd_pages;        /* the offset drawn */
	uint64_t mmap_base;
	uint64_t stack_top;        /* after stack randomization */
	uint64_t start_stack;      /* initial sp */
	uint64_t brk_base;         /* end of the image: start_brk before randomization */
	uint64_t start_brk, brk;
	uint64_t load_bias;        /* ET_DYN images */
	uint64_t entry;
	uint64_t vdso;             /* [vdso]'s start (AT_SYSINFO_EHDR), 0: none */
	uint64_t vdso_sysinfo;     /* AT_SYSINFO (i386's __kernel_vsyscall), 0: not passed */
	unsigned long frames;      /* leaf frames mapped (for `ps`) */
};

#define MM_MAX_VMAS 256
/* The VMAs all address spaces share (mm/vma.c's pool): room for one process at MM_MAX_VMAS
 * beside a kept one, and for 128 ordinary ones (NPROC, include/kernel/sched.h; about ten VMAs
 * each: image, bss, brk, stack, [vvar], [vdso], a few mmaps), so that fork runs out of
 * processes (-EAGAIN) before it runs out of VMAs. */
#define VMA_POOL_SIZE (2 * MM_MAX_VMAS + 10 * 128)

/* A fresh address space: root table with the kernel half. -ENOMEM on failure. */
int mm_init(struct mm *mm, bool compat, unsigned asid);
/* Free every frame, table and VMA of mm (a frame shared copy-on-write loses one owner). */
void mm_destroy(struct mm *mm);

/* fork's address space (mm/fork.c): child (uninitialised) gets parent's VMAs, every layout
 * field, the parent's ASID and a root of its own mapping every page the parent has mapped.
 * Image and special frames are shared as they are; private frames are shared copy-on-write:
 * one more owner in the frame allocator, read-only in both (the parent's TLB entries for them
 * flushed: parent must be the running address space, or none), copied by the first write
 * (handle_mm_fault, copy_to_user). Page tables are never shared. 0, or -ENOMEM with the
 * child freed (as if never made) and nothing lost. */
int mm_fork(struct mm *child, struct mm *parent);

struct vma *vma_find(struct mm *mm, uint64_t addr);
/* Insert [start, end) (page aligned, free). -EEXIST if it overlaps, -ENOMEM if out of VMAs. */
int vma_insert(struct mm *mm, uint64_t start, uint64_t end, unsigned prot, enum vma_kind kind,
	       uint64_t file_offset);
/* Mark the VMA starting at start as mapping shared frames from pa (see struct vma). */
void vma_set_shared(struct mm *mm, uint64_t start, phys_addr_t pa);

/* Linux's get_unmapped_area for a hint-less (or hinted) anonymous mapping: top-down below
 * mmap_base with a bottom-up fallback, or bottom-up from mmap_base (legacy). Returns the
 * address, or 0 with no room. */
uint64_t get_unmapped_area(struct mm *mm, uint64_t hint, uint64_t len);

/* The largest length get_unmapped_area would still find room for (top-down area and its
 * bottom-up fallback, or the bottom-up area), computed from the VMA list. */
uint64_t largest_unmapped_area(struct mm *mm);

/* mmap/munmap/brk with Linux's argument checks; return the result or -errno. */
int64_t do_mmap(struct mm *mm, uint64_t addr, uint64_t len, unsigned long prot,
		unsigned long flags);
int do_munmap(struct mm *mm, uint64_t addr, uint64_t len);
/* A private mapping of file from offset off (page aligned): the bytes are copied into private
 * frames at once (the archive's files are read-only memory), the VMA records the file. */
int64_t do_mmap_file(struct mm *mm, uint64_t addr, uint64_t len, unsigned long prot,
		     unsigned long flags, const struct fs_file *file, uint64_t off);
/* mprotect: split the VMAs at the range's ends and change the page-table leaves; -EINVAL,
 * -ENOMEM (a hole in the range, or no VMA left for a split) as Linux. */
int do_mprotect(struct mm *mm, uint64_t start, uint64_t len, unsigned long prot);
/* Does [start, end) lie wholly inside VMAs (no hole)? */
bool vma_range_mapped(struct mm *mm, uint64_t start, uint64_t end);
/* MADV_DONTNEED over [start, end): private anonymous pages read zero again on next touch. */
void vma_drop_anon_pages(struct mm *mm, uint64_t start, uint64_t end);
uint64_t do_brk(struct mm *mm, uint64_t newbrk);

/* Demand paging: make the page at addr present if a VMA allows the access. 0 when resolved,
 * -EFAULT if no VMA covers it, -EACCES if the VMA forbids the access, -ENOMEM. */
enum fault_access { FAULT_READ, FAULT_WRITE, FAULT_EXEC };
int handle_mm_fault(struct mm *mm, uint64_t addr, enum fault_access access);

/* Copy between kernel memory and mm's user memory through the kernel's linear map (never by
 * touching user addresses from the kernel), faulting pages in as the VMAs allow. -EFAULT on any
 * page the user could not access that way. When a page cannot be had for lack of frames, the
 * running process that owns mm is killed (out_of_memory, does not return); for an mm no
 * process runs in yet (exec building it) the copy fails with -ENOMEM. */
int copy_from_user(struct mm *mm, void *dst, uint64_t src, size_t len);
int copy_to_user(struct mm *mm, uint64_t dst, const void *src, size_t len);

/* Linux's OOM killer for a kernel that runs one process at a time: the largest process is
 * the one running, so it is the victim. Prints Linux 6.1's line (`Out of memory: Killed
 * process N (name) total-vm:...`) and ends the process with SIGKILL (status 137); mm_destroy
 * then gives every frame back. Only while a process runs (user faults, system calls). */
__noreturn void out_of_memory(void);

/* Map one zeroed (or given) frame at a page of mm; used by exec. */
int mm_map_new_page(struct mm *mm, uint64_t va, unsigned prot, phys_addr_t *pa_out);

#endif
