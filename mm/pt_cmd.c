/* `pt walk` and `pt dump`: the kept process's page tables as the MMU reads them. The dump is
 * built from the tables alone, so a disagreement with `maps` (the VMA list) shows. */
#include <arch/memory.h>
#include <arch/mmu.h>
#include <kernel/aslr.h>
#include <kernel/cred.h>
#include <kernel/kernel.h>
#include <lib/fmt.h>
#include <lib/parse.h>
#include <lib/string.h>
#include <lib/vafields.h>
#include <mm/mm.h>
#include <mm/pgtable.h>
#include <mm/pmm.h>
#include <kernel/proc.h>
#include <kernel/shell.h>

struct dump_run {
	bool open;
	uint64_t start, end;
	phys_addr_t pa_start;
	unsigned prot;
	uint64_t leaves;
};

static void print_run(const struct dump_run *r)
{
	printk("%016llx-%016llx %c%c%c %-6s %6llu page%s  pa 0x%llx\n",
	       (unsigned long long)r->start, (unsigned long long)r->end,
	       r->prot & PT_R ? 'r' : '-', r->prot & PT_W ? 'w' : '-', r->prot & PT_X ? 'x' : '-',
	       r->prot & PT_USER ? "user" : "kernel",
	       (unsigned long long)((r->end - r->start) >> PAGE_SHIFT),
	       (r->end - r->start) >> PAGE_SHIFT == 1 ? "" : "s", (unsigned long long)r->pa_start);
}

/* Merge leaves that continue the previous range with the same permissions. */
static int dump_leaf(const struct pt_leaf *l, void *ctx)
{
	struct dump_run *r = ctx;
	uint64_t va = l->va, size = l->size;
	phys_addr_t pa = l->info.pa;
	unsigned prot = l->info.prot;

	r->leaves++;
	if (r->open && r->end == va && r->prot == prot) {
		r->end = va + size;
		return 0;
	}
	if (r->open)
		print_run(r);
	*r = (struct dump_run){ true, va, va + size, pa, prot, r->leaves };
	return 0;
}

static struct process *process_arg(int argc, char **argv, int index)
{
	uint64_t pid = 0;

	if (argc > index && !parse_u64_full(argv[index], 10, &pid)) {
		printk("pt: bad pid '%s'\n", argv[index]);
		return NULL;
	}
	struct process *p = kept_process((int)pid);
	if (!p) {
		printk("pt: no kept process%s (use run -k PROG)\n", pid ? " with that pid" : "");
		return NULL;
	}
	if (!may_inspect_process(p, current_uid())) {
		printk("pt: pid %d: Permission denied\n", p->pid);
		return NULL;
	}
	return p;
}

/* Table addresses and physical addresses are root's, as Linux's /proc/PID/pagemap shows page
 * frame numbers only to CAP_SYS_ADMIN: `pt walk` and `pt dump` print them, for any process. */
static bool may_see_physical(const char *what)
{
	if (current_uid() == UID_ROOT)
		return true;
	printk("pt %s: Permission denied (physical addresses are root's)\n", what);
	return false;
}

/* A page of the kept process named by what it holds: the first page of its text, heap or first
 * anonymous mapping, or the stack's top page (the one in use). */
static bool symbolic_va(struct process *p, const char *name, uint64_t *va)
{
	for (struct vma *v = p ? p->mm.vmas : NULL; v; v = v->next) {
		if ((strcmp(name, "text") == 0 && v->kind == VMA_IMAGE && (v->prot & PT_X)) ||
		    (strcmp(name, "heap") == 0 && v->kind == VMA_HEAP) ||
		    (strcmp(name, "mmap") == 0 && v->kind == VMA_ANON)) {
			*va = v->start;
			return true;
		}
		if (strcmp(name, "stack") == 0 && v->kind == VMA_STACK) {
			*va = v->end - PAGE_SIZE;
			return true;
		}
	}
	return false;
}

/* `pt walk --compare`: the page-table index fields of a few key addresses of two processes, the
 * fields that differ marked. One process is kept at a time, so the first of the two is the one
 * the last `run -k` dropped: its addresses were remembered then (pt_compare_remember). */
enum { KEY_MMAP, KEY_STACK, KEY_BRK, KEY_TEXT, NR_KEYS };
static const char *const key_names[NR_KEYS] = { "mmap", "stack", "brk", "text" };

struct key_addresses {
	bool valid, compat;
	int pid;
	unsigned uid;
	char name[PROC_NAME_MAX];
	uint64_t va[NR_KEYS]; /* 0: the process had none */
};
static struct key_addresses remembered;

/* mmap: mmap_base, the randomized boundary itself; stack: its top page; brk: start_brk;
 * text: the first executable page of the image. */
static void key_addresses_of(const struct process *p, struct key_addresses *k)
{
	memset(k, 0, sizeof(*k));
	k->valid = true;
	k->compat = p->mm.compat;
	k->pid = p->pid;
	k->uid = p->uid;
	strlcpy(k->name, p->name, sizeof(k->name));
	k->va[KEY_MMAP] = p->mm.mmap_base;
	k->va[KEY_BRK] = p->mm.start_brk;
	for (const struct vma *v = p->mm.vmas; v; v = v->next) {
		if (v->kind == VMA_STACK)
			k->va[KEY_STACK] = v->end - PAGE_SIZE;
		if (v->kind == VMA_IMAGE && (v->prot & PT_X) && !k->va[KEY_TEXT])
			k->va[KEY_TEXT] = v->start;
	}
}

void pt_compare_remember(const struct process *p)
{
	key_addresses_of(p, &remembered);
}

/* One address as its fields: "L0 [ 511]  L1 [  22] ... +0x0000". */
static void print_fields(const struct va_field *f, unsigned n, uint64_t va)
{
	for (unsigned i = 0; i < n; i++) {
		if (f[i].level == VA_OFFSET)
			printk("  +0x%04llx", (unsigned long long)va_field_value(&f[i], va));
		else
			printk("  L%d [%4llu]", f[i].level, (unsigned long long)va_field_value(&f[i], va));
	}
	printk("\n");
}

/* Carets under the fields that differ, aligned with print_fields' columns (nothing after the
 * last one, so the line has no trailing blanks). */
static void print_marks(const struct va_field *f, unsigned n, unsigned differ)
{
	char line[160];
	size_t len = (size_t)snprintf(line, sizeof(line), "         differ %21s", "");
	size_t last = 0;

	for (unsigned i = 0; i < n && len + 12 < sizeof(line); i++) {
		unsigned width = f[i].level == VA_OFFSET ? 7 : 9;
		line[len++] = ' ';
		line[len++] = ' ';
		memset(line + len, differ & (1u << i) ? '^' : ' ', width);
		len += width;
		if (differ & (1u << i))
			last = len;
	}
	line[last ? last : 15] = '\0';
	printk("%s\n", line);
}

static int pt_compare_cmd(int argc, char **argv)
{
	struct key_addresses now;
	struct process *p = process_arg(0, argv, 0);
	uint64_t pid1 = 0, pid2 = 0;

	if (argc != 3 && !(argc == 5 && parse_u64_full(argv[3], 10, &pid1) &&
			   parse_u64_full(argv[4], 10, &pid2))) {
		printk("usage: pt walk --compare [PID1 PID2]   (the process the last run -k dropped, "
		       "and the kept one)\n");
		return 2;
	}
	if (!p)
		return 1;
	if (!remembered.valid) {
		printk("pt: --compare needs two processes: run -k one, then run -k another\n");
		return 1;
	}
	/* may_inspect_process's rule, for a process that is gone. */
	if (current_uid() != UID_ROOT && current_uid() != remembered.uid) {
		printk("pt: pid %d: Permission denied\n", remembered.pid);
		return 1;
	}
	if (argc == 5 && !((pid1 == (uint64_t)remembered.pid && pid2 == (uint64_t)p->pid) ||
			   (pid2 == (uint64_t)remembered.pid && pid1 == (uint64_t)p->pid))) {
		printk("pt: --compare: pids %d (dropped by the last run -k) and %d (kept) can be "
		       "compared\n", remembered.pid, p->pid);
		return 2;
	}
	key_addresses_of(p, &now);
	const struct pt_geometry *geo = arch_pt_geometry();
	struct va_field f[VA_FIELDS_MAX];
	unsigned va_bits = va_width(geo);
	if (now.compat || remembered.compat)
		va_bits = MIN(va_bits, 32u);
	unsigned n = va_fields(geo, va_bits, f);
	printk("pt walk --compare: pid %d (%s) and pid %d (%s), %s\n", remembered.pid,
	       remembered.name, now.pid, now.name, geo->name);
	char layout[128];
	va_fields_layout(f, n, layout, sizeof(layout));
	printk("  fields  %s\n", layout);
	for (unsigned k = 0; k < NR_KEYS; k++) {
		uint64_t a = remembered.va[k], b = now.va[k];
		char names[48];
		if (!a || !b) {
			printk("  %-6s (not in both processes)\n", key_names[k]);
			continue;
		}
		unsigned differ = va_fields_differ(f, n, a, b);
		va_fields_names(f, n, differ, names, sizeof(names));
		printk("  %-6s pid %-5d %#18llx", key_names[k], remembered.pid, (unsigned long long)a);
		print_fields(f, n, a);
		printk("         pid %-5d %#18llx", now.pid, (unsigned long long)b);
		print_fields(f, n, b);
		print_marks(f, n, differ);
		printk("pt-compare: key=%s va1=%#llx va2=%#llx differ=%s\n", key_names[k],
		       (unsigned long long)a, (unsigned long long)b, names);
	}
	return 0;
}

/* What `pt walk` adds about a user page's frame: its owners when fork shares it
 * copy-on-write, or that the next write makes a read-only private page writable again (its
 * sharers are gone). NULL for a page that is simply the process's own, or the image's. */
static const char *frame_note(struct process *p, uint64_t va, const struct pt_walk_result *w,
			      char *buf, size_t size)
{
	const struct vma *v = p && w->mapped && va < p->mm.geo.task_size ? vma_find(&p->mm, va) : NULL;

	if (!v || v->shared_pa)
		return NULL;
	unsigned refs = pmm_page_refs(w->pa & ~((phys_addr_t)PAGE_SIZE - 1));
	if (refs > 1)
		snprintf(buf, size, "shared copy-on-write, %u refs", refs);
	else if ((v->prot & PT_W) && !(w->prot & PT_W))
		snprintf(buf, size, "copy-on-write, 1 ref: the next write takes it back");
	else
		return NULL;
	return buf;
}

static int pt_walk_cmd(int argc, char **argv)
{
	uint64_t va;
	struct pt_walk_result w;

	if (argc >= 3 && strcmp(argv[2], "--compare") == 0)
		return pt_compare_cmd(argc, argv); /* virtual addresses only: anyone's own */
	if (argc < 3) {
		printk("usage: pt walk VA|text|heap|mmap|stack [PID]   (VA in hex)\n"
		       "       pt walk --compare [PID1 PID2]\n");
		return 2;
	}
	if (!may_see_physical("walk"))
		return 1;
	struct process *p = process_arg(argc, argv, 3);
	if (!parse_u64_full(argv[2], 16, &va) && !symbolic_va(p, argv[2], &va)) {
		printk("pt: %s: not an address or a mapping of the kept process\n", argv[2]);
		return 2;
	}
	/* Without a kept process, kernel addresses can still be walked in the kernel's tables. */
	if (!p && (argc > 3 || va < TASK_SIZE))
		return 1;
	phys_addr_t root = arch_pt_root_for(p ? p->mm.root : arch_kernel_root(), (uintptr_t)va);
	printk("pt walk 0x%llx in %s (%s)\n", (unsigned long long)va,
	       p ? p->name : "the kernel", arch_pt_geometry()->name);
	pt_walk(root, (uintptr_t)va, &w);
	char note[64];
	pt_print_walk_note((uintptr_t)va, &w, frame_note(p, va, &w, note, sizeof(note)));
	return 0;
}

static int pt_dump_cmd(int argc, char **argv)
{
	struct dump_run run = { 0 };

	if (!may_see_physical("dump"))
		return 1;
	struct process *p = process_arg(argc, argv, 2);
	if (!p)
		return 1;
	printk("pt dump of pid %d (%s): the user half as the tables map it\n", p->pid, p->name);
	const struct pt_visit_ops ops = { .leaf = dump_leaf };
	pt_visit(p->mm.root, 0, p->mm.geo.task_size - 1, &ops, &run);
	if (run.open)
		print_run(&run);
	printk("%llu leaves\n", (unsigned long long)run.leaves);
	return 0;
}

struct check_ctx {
	struct process *p;
	uint64_t pages, bad, cow;
};

/* A leaf that grants its VMA's permissions but write: a private page fork made copy-on-write
 * (mm_fork), written back by the next write fault. */
static bool write_protected(const struct vma *v, unsigned leaf, unsigned want)
{
	return !v->shared_pa && (v->prot & PT_W) && leaf == (want & ~(unsigned)PT_W);
}

/* What a VMA's pages must grant, in the bits every format can express. */
static unsigned comparable(unsigned prot)
{
	unsigned mask = (PT_R | PT_W | PT_X | PT_USER) & ~arch_pt_geometry()->always_granted;

	return prot & mask;
}

static int check_leaf(const struct pt_leaf *l, void *ctx)
{
	struct check_ctx *c = ctx;
	uint64_t va = l->va, size = l->size;
	unsigned prot = l->info.prot;
	struct vma *v = vma_find(&c->p->mm, va);

	c->pages += size >> PAGE_SHIFT;
	if (!v || va + size > v->end) {
		printk("  0x%llx: mapped in the tables (%s) but in no VMA\n", (unsigned long long)va,
		       prot & PT_USER ? "user" : "kernel");
		c->bad++;
	} else if (!v->prot) {
		/* PROT_NONE keeps its pages with no user access (vma_change_prot). */
		if (prot & PT_USER) {
			printk("  0x%llx: tables grant the user access, VMA 0x%llx-0x%llx says ---\n",
			       (unsigned long long)va, (unsigned long long)v->start,
			       (unsigned long long)v->end);
			c->bad++;
		}
	} else if (write_protected(v, comparable(prot), comparable(v->prot | PT_USER))) {
		c->cow++;
	} else if (comparable(prot) != comparable(v->prot | PT_USER)) {
		printk("  0x%llx: tables grant %c%c%c%s, VMA 0x%llx-0x%llx says %c%c%c\n",
		       (unsigned long long)va, prot & PT_R ? 'r' : '-', prot & PT_W ? 'w' : '-',
		       prot & PT_X ? 'x' : '-', prot & PT_USER ? " user" : " kernel",
		       (unsigned long long)v->start, (unsigned long long)v->end,
		       v->prot & PT_R ? 'r' : '-', v->prot & PT_W ? 'w' : '-', v->prot & PT_X ? 'x' : '-');
		c->bad++;
	}
	return 0;
}

/* Every page the tables map must lie in a VMA and grant exactly what that VMA allows. */
static int pt_check_cmd(int argc, char **argv)
{
	struct process *p = process_arg(argc, argv, 2);
	struct check_ctx c = { p, 0, 0, 0 };

	if (!p)
		return 1;
	const struct pt_visit_ops ops = { .leaf = check_leaf };
	pt_visit(p->mm.root, 0, p->mm.geo.task_size - 1, &ops, &c);
	printk("pt check: pid %d, %u VMAs, %llu pages mapped, %llu mismatch%s", p->pid,
	       p->mm.nr_vmas, (unsigned long long)c.pages, (unsigned long long)c.bad,
	       c.bad == 1 ? "" : "es");
	if (c.cow)
		printk(", %llu copy-on-write", (unsigned long long)c.cow);
	printk("\n");
	return c.bad ? 1 : 0;
}

static int cmd_pt(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "check") == 0)
		return pt_check_cmd(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "walk") == 0)
		return pt_walk_cmd(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "dump") == 0)
		return pt_dump_cmd(argc, argv);
	printk("usage: pt walk VA|text|heap|mmap|stack [PID] | pt walk --compare [PID1 PID2] | "
	       "pt dump [PID] | pt check [PID]\n");
	return 2;
}
SHELL_COMMAND(pt, "pt", "pt walk VA|text|heap|mmap|stack | dump | check [PID]  the kept process's page tables",
	      cmd_pt);
