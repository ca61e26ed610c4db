/* exec: lay out a fresh address space the way Linux's binfmt_elf and arch_pick_mmap_layout do,
 * load the ELF image into it, and build the initial stack. */
#include <arch/memory.h>
#include <asm/layout.h>
#include <cred.h>
#include <elf.h>
#include <exec.h>
#include <fs.h>
#include <kernel.h>
#include <layout.h>
#include <lib/errno.h>
#include <lib/fmt.h>
#include <lib/string.h>
#include <mm.h>
#include <pgtable.h>
#include <proc.h>
#include <random.h>

#define STACK_VMA_SIZE (128u << 10)
#define AT_NULL 0
#define AT_PAGESZ 6

const struct fs_file *bin_lookup(const char *name, bool compat)
{
	char path[FS_BIN_PATH_MAX];

	if (strlen(name) + sizeof("/bin32/") > sizeof(path))
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", compat ? "/bin32" : "/bin", name);
	return fs_file_lookup(path);
}


static uint64_t page_down(uint64_t x)
{
	return x & ~((uint64_t)PAGE_SIZE - 1);
}

static uint64_t page_up(uint64_t x)
{
	return page_down(x + PAGE_SIZE - 1);
}

static unsigned segment_prot(unsigned flags)
{
	return (flags & PF_R ? PT_R : 0) | (flags & PF_W ? PT_W | PT_R : 0) | (flags & PF_X ? PT_X : 0);
}

/* A read-only segment whose pages line up with the embedded file's pages can map the kernel
 * image's own frames, as Linux maps a file from the page cache: nothing to allocate or copy,
 * and (under QEMU) no translated code thrown away because its page was rewritten. */
static bool can_share(const uint8_t *file, const struct elf_load *l, uint64_t vstart)
{
	return !(l->flags & PF_W) && l->filesz == l->memsz && page_down((uintptr_t)file) == (uintptr_t)file &&
	       ((vstart - l->offset) & (PAGE_SIZE - 1)) == 0;
}

/* Load one segment: a VMA, then its pages (shared with the image, or private copies of the
 * file bytes with the rest zero). */
static int load_segment(struct mm *mm, const uint8_t *file, const struct elf_load *l, uint64_t bias)
{
	uint64_t vstart = l->vaddr + bias;
	uint64_t start = page_down(vstart), end = page_up(vstart + l->memsz);
	uint64_t offset = l->offset - (vstart - start);
	unsigned prot = segment_prot(l->flags);
	int err = vma_insert(mm, start, end, prot, VMA_IMAGE, offset);

	if (err)
		return err;
	if (can_share(file, l, vstart)) {
		phys_addr_t pa = __pa(file + offset);
		vma_set_shared(mm, start, pa);
		return pt_map(mm->root, (uintptr_t)start, pa, (size_t)(end - start), prot | PT_USER, 0);
	}
	for (uint64_t page = start; page < end; page += PAGE_SIZE) {
		phys_addr_t pa;
		err = mm_map_new_page(mm, page, prot, &pa);
		if (err)
			return err;
		uint64_t lo = MAX(page, vstart), hi = MIN(page + PAGE_SIZE, vstart + l->filesz);
		if (lo < hi)
			memcpy((uint8_t *)__va(pa) + (lo - page), file + l->offset + (lo - vstart),
			       (size_t)(hi - lo));
	}
	return 0;
}

/* ET_DYN: ELF_ET_DYN_BASE plus a random offset, redrawn while the image would not fit below
 * mmap_base (so the 64K/compat corner cannot wrap here either). */
static int pick_load_bias(struct mm *mm, const struct elf_image *img, bool randomize,
			  uint64_t *bias)
{
	uint64_t base = page_down(ELF_ET_DYN_BASE_FOR(mm->compat));
	uint64_t span = img->hi - img->lo;
	uint64_t limit = mm->range.topdown ? mm->mmap_base : mm->geo.task_size;

	if (base + span > limit || base + span < base)
		return -ENOMEM;
	uint64_t room_pages = (limit - base - span) >> PAGE_SHIFT;
	uint64_t pages = 0;
	if (randomize) {
		do {
			pages = arch_mmap_rnd(mm->compat) >> PAGE_SHIFT;
		} while (pages > room_pages);
	}
	*bias = base + (pages << PAGE_SHIFT) - img->lo;
	return 0;
}

/* Linux's arch_pick_mmap_layout for this task, plus the stack and brk randomization. */
static void pick_layout(struct mm *mm, bool randomize, bool worst_case)
{
	struct task_geometry *g = &mm->geo;

	mmap_range(g, RLIMIT_STACK_DEFAULT, randomize, legacy_va_layout != 0,
		   mmap_rnd_bits_for(mm->compat), &mm->range);
	mm->rnd_pages = worst_case ? mm->range.max_rnd_pages
				   : mmap_draw_rnd_pages(&mm->range, mm->compat);
	mm->mmap_base = mmap_base_at(&mm->range, mm->rnd_pages);
	mm->stack_top = page_up(g->stack_top);
	if (randomize)
		mm->stack_top -= ((worst_case ? ~0ULL : get_random_u64()) & g->stack_rnd_mask)
				 << PAGE_SHIFT;
}

static void randomize_brk(struct mm *mm, bool randomize)
{
	mm->start_brk = mm->brk_base;
	if (randomize && randomize_va_space > 1) {
		uint64_t range_pages = (uint64_t)BRK_RND_RANGE(mm->compat) >> PAGE_SHIFT;
		mm->start_brk += random_below(range_pages) << PAGE_SHIFT;
	}
	mm->brk = mm->start_brk;
}

/* The initial stack is assembled here and copied into the process once: one page lookup (and
 * fault) instead of one per string and word. */
static uint8_t stack_image[4096];

/* Store bytes at user address addr of the image that will start at user address lo. */
static void put_bytes(uint64_t lo, uint64_t addr, const void *data, size_t len)
{
	memcpy(stack_image + (addr - lo), data, len);
}

static void put_word(uint64_t lo, uint64_t addr, uint64_t value, unsigned word)
{
	uint32_t v32 = (uint32_t)value;

	put_bytes(lo, addr, word == 8 ? (const void *)&value : (const void *)&v32, word);
}

/* The initial stack as Linux builds it: strings at the top, then (growing down) auxv, envp's
 * NULL, argv[] with its NULL, and argc at the 16-byte aligned stack pointer. */
static int build_stack(struct mm *mm, int argc, char **argv)
{
	unsigned word = (mm->compat || sizeof(uintptr_t) == 4) ? 4 : 8;
	uint64_t sp = mm->stack_top, strings[32];
	const uint64_t auxv[] = { AT_PAGESZ, PAGE_SIZE, AT_NULL, 0 };
	int err;

	err = vma_insert(mm, mm->stack_top - STACK_VMA_SIZE, mm->stack_top, PT_R | PT_W,
			 VMA_STACK, 0);
	if (err)
		return err;
	if (argc > (int)ARRAY_SIZE(strings))
		return -E2BIG;
	for (int i = argc - 1; i >= 0; i--) {
		sp -= strlen(argv[i]) + 1;
		strings[i] = sp;
	}
	/* Everything below is words; align so the final sp is 16-byte aligned. */
	unsigned nwords = 1 + (unsigned)argc + 1 + 1 + ARRAY_SIZE(auxv);
	uint64_t lo = (sp - nwords * word) & ~(uint64_t)15;
	if (mm->stack_top - lo > sizeof(stack_image))
		return -E2BIG;
	memset(stack_image, 0, (size_t)(mm->stack_top - lo));
	for (int i = 0; i < argc; i++)
		put_bytes(lo, strings[i], argv[i], strlen(argv[i]) + 1);
	uint64_t at = lo;
	put_word(lo, at, (uint64_t)argc, word);
	for (int i = 0; i < argc; i++)
		put_word(lo, at += word, strings[i], word);
	put_word(lo, at += word, 0, word); /* argv terminator */
	put_word(lo, at += word, 0, word); /* envp terminator */
	for (unsigned i = 0; i < ARRAY_SIZE(auxv); i++)
		put_word(lo, at += word, auxv[i], word);
	err = copy_to_user(mm, lo, stack_image, (size_t)(mm->stack_top - lo));
	if (err)
		return err;
	mm->start_stack = lo;
	return 0;
}

int exec_image(struct mm *mm, const struct fs_file *prog, int argc, char **argv,
	       bool randomize, bool worst_case)
{
	struct elf_image img;
	unsigned elf_class = (mm->compat || sizeof(uintptr_t) == 4) ? ELFCLASS32 : ELFCLASS64;
#ifdef CONFIG_COMPAT
	unsigned machine = mm->compat ? ELF_MACHINE_COMPAT : ELF_MACHINE;
#else
	unsigned machine = ELF_MACHINE;
#endif
	int err = elf_parse(prog->data, prog->size, elf_class,
			    machine, mm->geo.task_size, PAGE_SIZE, &img);
	if (err)
		return err;

	pick_layout(mm, randomize, worst_case);
	uint64_t bias = 0;
	if (img.type == ET_DYN && (err = pick_load_bias(mm, &img, randomize, &bias)))
		return err;
	if (img.hi + bias > mm->geo.task_size)
		return -ENOEXEC;
	mm->load_bias = bias;
	for (unsigned i = 0; i < img.nr_loads; i++)
		if ((err = load_segment(mm, prog->data, &img.loads[i], bias)))
			return err == -EEXIST ? -ENOEXEC : err;
	mm->entry = img.entry + bias;
	mm->brk_base = mm->start_brk = page_up(img.hi + bias);
	randomize_brk(mm, randomize);
	return build_stack(mm, argc, argv);
}

void exec_layout_only(bool compat, bool randomize, uint64_t brk_base, struct run_result *res)
{
	struct mm mm = { .compat = compat, .brk_base = brk_base };

	task_geometry(compat, &mm.geo);
	pick_layout(&mm, randomize, false);
	randomize_brk(&mm, randomize);
	res->status = 0;
	res->mmap_base = mm.mmap_base;
	res->stack_top = mm.stack_top;
	res->start_brk = mm.start_brk;
	res->brk_base = mm.brk_base;
	res->range = mm.range;
}
