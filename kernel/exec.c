/* exec: lay out a fresh address space the way Linux 6.1's load_elf_binary does, in its order:
 * setup_new_exec (mmap_base, arch_pick_mmap_layout), setup_arg_pages (the stack VMA at the
 * randomized stack top), elf_load of each PT_LOAD (a static PIE through the mmap path, below
 * mmap_base), the brk, then create_elf_tables (the initial stack's contents). The ELF's class
 * and machine decide the ABI (native or compat), as on Linux; static ET_EXEC and ET_DYN
 * (static-pie) images run, one with PT_INTERP does not (there is no dynamic loader to open:
 * ENOENT). docs/layout.md states each rule with its Linux source. */
#include <arch/exec.h>
#include <arch/memory.h>
#include <arch/layout.h>
#include <kernel/cred.h>
#include <kernel/elf.h>
#include <kernel/exec.h>
#include <kernel/fs.h>
#include <kernel/kernel.h>
#include <mm/layout.h>
#include <lib/errno.h>
#include <lib/fmt.h>
#include <lib/string.h>
#include <mm/mm.h>
#include <mm/pgtable.h>
#include <mm/pmm.h>
#include <kernel/proc.h>
#include <kernel/random.h>
#include <kernel/vdso.h>

/* The most the initial stack's strings and vectors may take: half of stack_expand, the rest is
 * the program's (Linux allows a quarter of the stack rlimit, but its stack grows). */
#define STACK_ARGS_MAX (STACK_EXPAND / 2)
#define CLOCKS_PER_SEC 100 /* AT_CLKTCK: USER_HZ */
#define EF_ARM_EABI_MASK 0xff000000u

const char *const exec_default_envp[] = { "PATH=/bin", "HOME=/", "TERM=linux", NULL };

const struct fs_file *bin_lookup(const char *name, bool compat)
{
	char path[FS_BIN_PATH_MAX];

	if (strlen(name) + sizeof("/bin32/") > sizeof(path))
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", compat ? "/bin32" : "/bin", name);
	return fs_file_lookup(path);
}

#define EXEC_PATH_MAX 256 /* more than a shell line holds */
#define NAME_MAX 255      /* Linux's longest path component */

int exec_lookup(const char *path, bool compat, const struct fs_file **out)
{
	char abs[EXEC_PATH_MAX];
	size_t len = strlen(path);

	*out = NULL;
	if (!strchr(path, '/')) {
		*out = bin_lookup(path, compat);
		return *out ? 0 : len > NAME_MAX ? -ENAMETOOLONG : -ENOENT;
	}
	while (path[0] == '.' && path[1] == '/') /* relative to the working directory, "/" */
		path += 2;
	if (snprintf(abs, sizeof(abs), "%s%s", path[0] == '/' ? "" : "/", path) >= (int)sizeof(abs))
		return -ENAMETOOLONG;
	len = strlen(abs);
	bool trailing_slash = len > 1 && abs[len - 1] == '/';
	if (trailing_slash)
		abs[len - 1] = '\0';
	if (fs_is_directory(abs))
		return -EACCES; /* execve of a directory: EACCES (do_open_execat's S_ISREG check) */
	/* /proc/self/exe names the program through a link: busybox's shell execs its applets so. */
	struct fs_node n;
	if (fs_resolve(abs, true, &n) == 0 && n.kind == FS_NODE_FILE)
		strlcpy(abs, n.path, sizeof(abs));
	const struct fs_file *f = fs_file_lookup(abs);
	if (!f) /* a /proc/sys file exists but has no exec permission */
		return fs_sysctl_file(abs) ? (trailing_slash ? -ENOTDIR : -EACCES) : -ENOENT;
	if (trailing_slash)
		return -ENOTDIR;
	if (!(f->mode & 0111))
		return -EACCES;
	*out = f;
	return 0;
}

/* elf_check_arch and compat_elf_check_arch: ARM's own conditions on top of the machine. */
static bool arm_header_ok(const struct elf_ident *id, bool compat)
{
	if (id->machine != EM_ARM)
		return true;
	if (compat) /* AArch32 EL0 runs EABI programs only */
		return (id->flags & EF_ARM_EABI_MASK) != 0;
	return (id->entry & 1) || !(id->entry & 3); /* Thumb, or a word-aligned ARM entry */
}

int exec_image_abi(const struct fs_file *prog)
{
	struct elf_ident id;
	unsigned native_class = sizeof(uintptr_t) == 8 ? ELFCLASS64 : ELFCLASS32;

	if (elf_identify(prog->data, prog->size, &id))
		return -ENOEXEC;
	if (id.elf_class == native_class && id.machine == ELF_MACHINE)
		return arm_header_ok(&id, false) ? 0 : -ENOEXEC;
	if (CONFIG_COMPAT_ENABLED && id.elf_class == ELFCLASS32 && id.machine == ELF_MACHINE_COMPAT)
		return arm_header_ok(&id, true) ? 1 : -ENOEXEC;
	return -ENOEXEC;
}

static uint64_t page_down(uint64_t x)
{
	return x & ~((uint64_t)PAGE_SIZE - 1);
}

static uint64_t page_up(uint64_t x)
{
	return page_down(x + PAGE_SIZE - 1);
}

static unsigned segment_prot(unsigned flags, bool read_implies_exec)
{
	unsigned prot = (flags & PF_R ? PT_R : 0) | (flags & PF_W ? PT_W | PT_R : 0) |
			(flags & PF_X ? PT_X : 0);
	/* READ_IMPLIES_EXEC: every readable mapping is executable too. */
	return read_implies_exec && (prot & PT_R) ? prot | PT_X : prot;
}

/* Does any segment other than seg touch a page of [start, end)? */
static bool region_shared_with_other(const struct elf_image *img, unsigned seg, uint64_t start,
				     uint64_t end)
{
	for (unsigned j = 0; j < img->nr_loads; j++) {
		const struct elf_load *o = &img->loads[j];
		if (j != seg && page_down(o->vaddr) < end && page_up(o->vaddr + o->memsz) > start)
			return true;
	}
	return false;
}

/* A read-only segment whose pages line up with the file's pages (struct fs_file's data is page
 * aligned) and that has its pages to itself can map the file's own frames, as Linux maps a
 * file from the page cache: nothing to allocate or copy, and (under QEMU) no translated code
 * thrown away because its page was rewritten. */
static bool can_share(const struct fs_file *file, const struct elf_image *img,
		      const struct elf_region *r)
{
	const struct elf_load *l = &img->loads[r->seg];

	return !(l->flags & PF_W) && l->filesz == l->memsz &&
	       page_down((uintptr_t)file->data) == (uintptr_t)file->data &&
	       ((l->vaddr - l->offset) & (PAGE_SIZE - 1)) == 0 && r->start == page_down(l->vaddr) &&
	       r->end == page_up(l->vaddr + l->memsz) &&
	       !region_shared_with_other(img, r->seg, r->start, r->end);
}

/* The bytes of page (image address, before the bias) as the mappings leave them: each
 * segment's file bytes where it has them, zero elsewhere (its bss, padzero's tail of the last
 * file page, and the gaps between segments sharing the page). */
static void fill_page(uint8_t *frame, const uint8_t *file, const struct elf_image *img,
		      uint64_t page)
{
	for (unsigned j = 0; j < img->nr_loads; j++) {
		const struct elf_load *l = &img->loads[j];
		uint64_t lo = MAX(page, l->vaddr), hi = MIN(page + PAGE_SIZE, l->vaddr + l->filesz);
		if (lo < hi)
			memcpy(frame + (lo - page), file + l->offset + (lo - l->vaddr), (size_t)(hi - lo));
	}
}

/* One region: a VMA naming the file, then its pages (shared with the file, or private copies
 * of the file bytes with the rest zero). */
static int load_region(struct mm *mm, const struct fs_file *file, const struct elf_image *img,
		       const struct elf_region *r, uint64_t bias, bool read_implies_exec)
{
	const struct elf_load *l = &img->loads[r->seg];
	uint64_t start = r->start + bias, end = r->end + bias;

	if (r->anon) { /* the bss pages past the file's: vm_brk_flags, zero on first touch */
		struct pmm_stats st;
		pmm_get_stats(&st);
		/* __vm_enough_memory's heuristic (overcommit_memory 0): no more pages than RAM. */
		if ((end - start) >> PAGE_SHIFT > st.total)
			return -ENOMEM;
		return vma_insert(mm, start, end, segment_prot(l->flags, read_implies_exec), VMA_BSS,
				  0);
	}
	/* elf_map's offset: the file position of the region's first byte (wrapping like Linux's
	 * unsigned arithmetic where the segment is not page-congruent with the file). */
	uint64_t offset = l->offset - (l->vaddr - r->start);
	unsigned prot = segment_prot(l->flags, read_implies_exec);
	int err = vma_insert(mm, start, end, prot, VMA_IMAGE, offset);

	if (err)
		return err;
	struct vma *v = vma_find(mm, start);
	v->file = file;
	if (can_share(file, img, r)) {
		phys_addr_t pa = __pa(file->data + offset);
		vma_set_shared(mm, start, pa);
		return pt_map(mm->root, (uintptr_t)start, pa, (size_t)(end - start), prot | PT_USER, 0);
	}
	for (uint64_t page = r->start; page < r->end; page += PAGE_SIZE) {
		phys_addr_t pa;
		err = mm_map_new_page(mm, page + bias, prot, &pa);
		if (err)
			return err;
		fill_page((uint8_t *)__va(pa), file->data, img, page);
	}
	return 0;
}

/* An ET_DYN without PT_INTERP (static PIE) goes where a hint-less mmap of its whole span
 * (total_mapping_size) would: just below mmap_base top-down, at mmap_base bottom-up (legacy),
 * from the same random draw as every mmap. A p_align above the page moves it down to that
 * alignment (6.1.192 honours it here; it then maps with MAP_FIXED_NOREPLACE). The load bias
 * is what puts the image's first page there. (An ET_DYN with PT_INTERP would go to
 * ELF_ET_DYN_BASE + arch_mmap_rnd(), aligned: it never gets this far, having no loader.) */
static int pick_load_bias(struct mm *mm, const struct elf_image *img, uint64_t *bias)
{
	uint64_t addr = get_unmapped_area(mm, 0, img->hi - img->lo);

	if (!addr)
		return -ENOMEM;
	if (img->max_align > PAGE_SIZE)
		addr &= ~(img->max_align - 1);
	*bias = addr - img->lo;
	return 0;
}

/* Linux's arch_pick_mmap_layout for this task, plus randomize_stack_top. */
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

/* Where the initial stack is assembled: this buffer for the usual few hundred bytes, fresh
 * frames for a larger one (measured: a frame from the allocator for every exec made `bench
 * exec` three times slower on arm64-4k-va48). */
static uint8_t stack_scratch[2048];

static int count_strings(const char *const *v)
{
	int n = 0;

	while (v[n])
		n++;
	return n;
}

static unsigned order_for(uint64_t size)
{
	unsigned order = 0;

	while (((uint64_t)PAGE_SIZE << order) < size)
		order++;
	return order;
}

/* arch_align_stack's random lowering, in bytes: below ARCH_ALIGN_STACK_RANGE when randomizing
 * (the largest for the worst case), none otherwise or where the arch has none. */
static uint64_t align_stack_lower(bool randomize, bool worst_case)
{
	if (!randomize || ARCH_ALIGN_STACK_RANGE == 0)
		return 0;
	return worst_case ? ARCH_ALIGN_STACK_RANGE - 1 : random_below(ARCH_ALIGN_STACK_RANGE);
}

/* setup_arg_pages: the stack VMA (executable if the program asked for it with PT_GNU_STACK,
 * or has no PT_GNU_STACK where that implies READ_IMPLIES_EXEC) at the randomized stack top,
 * arch_align_stack'ed and rounded back up to a page, covering the strings' pages plus
 * stack_expand. s->top becomes its end. */
static int setup_arg_pages(struct mm *mm, struct exec_stack *s, bool randomize, bool worst_case,
			   bool exec_stack)
{
	s->top = stack_vma_end(mm->stack_top, align_stack_lower(randomize, worst_case), s->align);
	return vma_insert(mm, stack_vma_start(s->top, exec_stack_strings_size(s)), s->top,
			  PT_R | PT_W | (exec_stack ? PT_X : 0), VMA_STACK, 0);
}

/* create_elf_tables: the auxiliary vector, then the initial stack Linux builds
 * (kernel/exec_stack.c) below the strings, lowered again by arch_align_stack, assembled in
 * scratch memory and copied once: one page lookup (and fault) instead of one per string and
 * word. */
static int create_elf_tables(struct mm *mm, struct exec_stack *s, const struct elf_image *img,
			     const struct arch_exec_info *ai, bool randomize, bool worst_case)
{
	uint64_t r[2] = { get_random_u64(), get_random_u64() };
	uint64_t bias = mm->load_bias;
	unsigned uid = current_uid();
	uint64_t auxv[2 * 24], *a = auxv;
	int err;

#define AUX(key, value) (a[0] = (key), a[1] = (value), a += 2)
	/* ARCH_DLINFO comes first: the vDSO (kernel/vdso.c), then AT_MINSIGSTKSZ. */
	if (mm->vdso_sysinfo)
		AUX(AT_SYSINFO, mm->vdso_sysinfo);
	if (mm->vdso)
		AUX(AT_SYSINFO_EHDR, mm->vdso);
	if (ai->minsigstksz)
		AUX(AT_MINSIGSTKSZ, ai->minsigstksz);
	AUX(AT_HWCAP, ai->hwcap);
	AUX(AT_PAGESZ, PAGE_SIZE);
	AUX(AT_CLKTCK, CLOCKS_PER_SEC);
	AUX(AT_PHDR, img->phdr_vaddr + bias);
	AUX(AT_PHENT, img->phentsize);
	AUX(AT_PHNUM, img->phnum);
	AUX(AT_BASE, 0); /* no interpreter */
	AUX(AT_FLAGS, 0);
	AUX(AT_ENTRY, img->entry + bias);
	AUX(AT_UID, uid);
	AUX(AT_EUID, uid);
	AUX(AT_GID, uid); /* the shell's users have a group of their own id (root 0, nobody) */
	AUX(AT_EGID, uid);
	AUX(AT_SECURE, 0);
	AUX(AT_RANDOM, 0);
	AUX(AT_HWCAP2, ai->hwcap2);
	AUX(AT_EXECFN, 0);
	AUX(AT_PLATFORM, 0);
	AUX(AT_NULL, 0);
#undef AUX

	s->random = (const uint8_t *)r;
	s->auxv = auxv;
	s->lower = align_stack_lower(randomize, worst_case);
	uint64_t size = exec_stack_size(s);
	if (size - s->lower > STACK_ARGS_MAX) /* the contents; the lowering is below a page */
		return -E2BIG;
	if (size <= sizeof(stack_scratch)) {
		mm->start_stack = exec_stack_build(s, stack_scratch);
		return copy_to_user(mm, mm->start_stack, stack_scratch, (size_t)size);
	}
	unsigned order = order_for(size);
	phys_addr_t scratch = pmm_alloc_pages(order);
	if (!scratch)
		return -ENOMEM;
	mm->start_stack = exec_stack_build(s, (uint8_t *)__va(scratch));
	err = copy_to_user(mm, mm->start_stack, __va(scratch), (size_t)size);
	pmm_free_pages(scratch, order);
	return err;
}

/* The image's segments, as binfmt_elf's elf_load maps them (elf_plan_regions): the file's
 * pages, and anonymous ones for the bss beyond them. */
static int load_image(struct mm *mm, const struct fs_file *prog, const struct elf_image *img,
		      bool read_implies_exec)
{
	struct elf_region regions[ELF_MAX_REGIONS];
	unsigned n = elf_plan_regions(img, PAGE_SIZE, regions);

	for (unsigned i = 0; i < n; i++) {
		int err = load_region(mm, prog, img, &regions[i], mm->load_bias, read_implies_exec);
		if (err)
			return err == -EEXIST ? -ENOEXEC : err;
	}
	return 0;
}

/* The brk as load_elf_binary leaves it: elf_brk_base (a static PIE's at ELF_ET_DYN_BASE, any
 * other a page past its bss when randomized), then arch_randomize_brk. */
static void set_brk(struct mm *mm, const struct elf_image *img, bool randomize)
{
	bool static_pie = img->type == ET_DYN; /* one with PT_INTERP never gets here */

	mm->brk_base = elf_brk_base(img->hi + mm->load_bias, static_pie,
				    ELF_ET_DYN_BASE_FOR(mm->compat),
				    randomize && randomize_va_space > 1);
	randomize_brk(mm, randomize);
}

int exec_image(struct mm *mm, const struct fs_file *prog, int argc, char **argv,
	       bool randomize, bool worst_case)
{
	return exec_image_env(mm, prog, argc, argv, NULL, randomize, worst_case);
}

int exec_image_env(struct mm *mm, const struct fs_file *prog, int argc, char **argv,
		   const char *const *envp, bool randomize, bool worst_case)
{
	struct elf_image img;
	struct arch_exec_info ai;
	int abi = exec_image_abi(prog);

	if (abi < 0)
		return abi;
	if (abi != mm->compat)
		return -ENOEXEC;
	int err = elf_parse(prog->data, prog->size, mm->geo.task_size, PAGE_SIZE, &img);
	if (err)
		return err;
	/* No dynamic loader here: Linux would fail to open the PT_INTERP path. */
	if (img.has_interp)
		return -ENOENT;
	arch_exec_info(mm->compat, &ai);
	bool read_implies_exec = ai.read_implies_exec && img.stack == ELF_STACK_DEFAULT;
	bool exec_stack = img.stack == ELF_STACK_EXEC || read_implies_exec;
	struct exec_stack s = {
		.word = mm->compat || sizeof(uintptr_t) == 4 ? 4 : 8,
		.top_gap = sizeof(uintptr_t),
		.align = ai.stack_align,
		.argc = argc,
		.argv = (const char *const *)argv,
		.envc = count_strings(envp ? envp : exec_default_envp),
		.envp = envp ? envp : exec_default_envp,
		.execfn = prog->path,
		.platform = ai.platform,
	};

	pick_layout(mm, randomize, worst_case);
	if ((err = setup_arg_pages(mm, &s, randomize, worst_case, exec_stack)))
		return err;
	uint64_t bias = 0;
	if (img.type == ET_DYN && (err = pick_load_bias(mm, &img, &bias)))
		return err;
	if (img.hi + bias > mm->geo.task_size || img.hi + bias < img.hi)
		return -ENOEXEC;
	mm->load_bias = bias;
	if ((err = load_image(mm, prog, &img, read_implies_exec)))
		return err;
	mm->entry = img.entry + bias;
	set_brk(mm, &img, randomize);
	/* binfmt_elf's order: the vDSO and its kin (ARCH_SETUP_ADDITIONAL_PAGES) after the image
	 * and brk, so a top-down vDSO lands below a static PIE; x86_64 and ARM place theirs from
	 * the bottom of the argument strings (Linux's mm->start_stack at that point). */
	if ((err = arch_setup_additional_pages(mm, s.top - exec_stack_strings_size(&s))))
		return err;
	return create_elf_tables(mm, &s, &img, &ai, randomize, worst_case);
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
