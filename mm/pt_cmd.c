/* `pt walk` and `pt dump`: the kept process's page tables as the MMU reads them. The dump is
 * built from the tables alone, so a disagreement with `maps` (the VMA list) shows. */
#include <arch/memory.h>
#include <arch/mmu.h>
#include <cred.h>
#include <kernel.h>
#include <lib/parse.h>
#include <lib/string.h>
#include <mm.h>
#include <pgtable.h>
#include <proc.h>
#include <shell.h>

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
static void dump_leaf(uint64_t va, uint64_t size, phys_addr_t pa, unsigned prot, void *ctx)
{
	struct dump_run *r = ctx;

	r->leaves++;
	if (r->open && r->end == va && r->prot == prot) {
		r->end = va + size;
		return;
	}
	if (r->open)
		print_run(r);
	*r = (struct dump_run){ true, va, va + size, pa, prot, r->leaves };
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

static int pt_walk_cmd(int argc, char **argv)
{
	uint64_t va;
	struct pt_walk_result w;

	if (argc < 3) {
		printk("usage: pt walk VA|text|heap|mmap|stack [PID]   (VA in hex)\n");
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
	pt_print_walk((uintptr_t)va, &w);
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
	pt_for_each_leaf(p->mm.root, p->mm.geo.task_size, dump_leaf, &run);
	if (run.open)
		print_run(&run);
	printk("%llu leaves\n", (unsigned long long)run.leaves);
	return 0;
}

struct check_ctx {
	struct process *p;
	uint64_t pages, bad;
};

/* What a VMA's pages must grant, in the bits every format can express. */
static unsigned comparable(unsigned prot)
{
	unsigned mask = (PT_R | PT_W | PT_X | PT_USER) & ~arch_pt_geometry()->always_granted;

	return prot & mask;
}

static void check_leaf(uint64_t va, uint64_t size, phys_addr_t pa, unsigned prot, void *ctx)
{
	struct check_ctx *c = ctx;
	struct vma *v = vma_find(&c->p->mm, va);

	c->pages += size >> PAGE_SHIFT;
	if (!v || va + size > v->end) {
		printk("  0x%llx: mapped in the tables (%s) but in no VMA\n", (unsigned long long)va,
		       prot & PT_USER ? "user" : "kernel");
		c->bad++;
	} else if (comparable(prot) != comparable(v->prot | PT_USER)) {
		printk("  0x%llx: tables grant %c%c%c%s, VMA 0x%llx-0x%llx says %c%c%c\n",
		       (unsigned long long)va, prot & PT_R ? 'r' : '-', prot & PT_W ? 'w' : '-',
		       prot & PT_X ? 'x' : '-', prot & PT_USER ? " user" : " kernel",
		       (unsigned long long)v->start, (unsigned long long)v->end,
		       v->prot & PT_R ? 'r' : '-', v->prot & PT_W ? 'w' : '-', v->prot & PT_X ? 'x' : '-');
		c->bad++;
	}
	(void)pa;
}

/* Every page the tables map must lie in a VMA and grant exactly what that VMA allows. */
static int pt_check_cmd(int argc, char **argv)
{
	struct process *p = process_arg(argc, argv, 2);
	struct check_ctx c = { p, 0, 0 };

	if (!p)
		return 1;
	pt_for_each_leaf(p->mm.root, p->mm.geo.task_size, check_leaf, &c);
	printk("pt check: pid %d, %u VMAs, %llu pages mapped, %llu mismatch%s\n", p->pid,
	       p->mm.nr_vmas, (unsigned long long)c.pages, (unsigned long long)c.bad,
	       c.bad == 1 ? "" : "es");
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
	printk("usage: pt walk VA|text|heap|mmap|stack [PID] | pt dump [PID] | pt check [PID]\n");
	return 2;
}
SHELL_COMMAND(pt, "pt", "pt walk VA|text|heap|mmap|stack | dump | check [PID]  the kept process's page tables",
	      cmd_pt);
