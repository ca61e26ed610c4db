/* `pt walk` and `pt dump`: the kept process's page tables as the MMU reads them. The dump is
 * built from the tables alone, so a disagreement with `maps` (the VMA list) shows. */
#include <arch/memory.h>
#include <arch/mmu.h>
#include <kernel.h>
#include <lib/parse.h>
#include <lib/string.h>
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
	printk("%016llx-%016llx %c%c%c %-6s %6llu page%s  pa %#llx\n",
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
	if (!p)
		printk("pt: no kept process%s (use run -k PROG)\n", pid ? " with that pid" : "");
	return p;
}

static int pt_walk_cmd(int argc, char **argv)
{
	uint64_t va;
	struct pt_walk_result w;

	if (argc < 3 || !parse_u64_full(argv[2], 16, &va)) {
		printk("usage: pt walk VA [PID]   (VA in hex)\n");
		return 2;
	}
	struct process *p = process_arg(argc, argv, 3);
	/* Without a kept process, kernel addresses can still be walked in the kernel's tables. */
	if (!p && (argc > 3 || va < TASK_SIZE))
		return 1;
	phys_addr_t root = arch_pt_root_for(p ? p->mm.root : arch_kernel_root(), (uintptr_t)va);
	printk("pt walk %#llx in %s (%s)\n", (unsigned long long)va,
	       p ? p->name : "the kernel", arch_pt_geometry()->name);
	pt_walk(root, (uintptr_t)va, &w);
	pt_print_walk((uintptr_t)va, &w);
	return 0;
}

static int pt_dump_cmd(int argc, char **argv)
{
	struct process *p = process_arg(argc, argv, 2);
	struct dump_run run = { 0 };

	if (!p)
		return 1;
	printk("pt dump of pid %d (%s): the user half as the tables map it\n", p->pid, p->name);
	pt_for_each_leaf(p->mm.root, p->mm.geo.task_size, dump_leaf, &run);
	if (run.open)
		print_run(&run);
	printk("%llu leaves\n", (unsigned long long)run.leaves);
	return 0;
}

static int cmd_pt(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "walk") == 0)
		return pt_walk_cmd(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "dump") == 0)
		return pt_dump_cmd(argc, argv);
	printk("usage: pt walk VA [PID] | pt dump [PID]\n");
	return 2;
}
SHELL_COMMAND(pt, "pt", "pt walk VA [PID] | pt dump [PID]  page tables of the kept process", cmd_pt);
