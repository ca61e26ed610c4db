/* /proc/PID/maps: one formatter for the file (read through open/read, kernel/procfs.c) and the
 * shell's `maps` command, so the two can never differ.
 *
 * The format is Linux 6.1's show_map_vma (fs/proc/task_mmu.c): start-end as at least 8 hex
 * digits, the permissions with 'p' (every mapping here is private), the offset as at least 8
 * hex digits, the device as 2:2 hex digits, the inode in decimal, and a space. A line with a
 * name (a file's path, [heap], [stack]) is then padded with spaces up to column
 * 25 + 6 * sizeof(void *) - 1 (seq_setwidth: 72 on a 64-bit kernel, 48 on a 32-bit one; the
 * kernel's pointer size, so a compat task on arm64 gets 72 too) and gets one more space before
 * the name; a line without a name ends with the space after the inode. */
#include <kernel/console.h>
#include <kernel/cred.h>
#include <mm/fault.h>
#include <kernel/fs.h>
#include <kernel/kernel.h>
#include <lib/fmt.h>
#include <lib/string.h>
#include <mm/mm.h>
#include <mm/pgtable.h>
#include <kernel/proc.h>
#include <kernel/shell.h>
#include <kernel/vdso.h>

#define MAPS_PAD_WIDTH (25 + 6 * (int)sizeof(void *) - 1)

/* Linux's names for anonymous VMAs (show_map_vma): [heap] for any that overlaps the brk
 * area [start_brk, brk] (so with no randomization a bss that ends where brk starts is called
 * [heap] too, as on Linux), [stack] for the one holding the initial stack pointer. */
static const char *vma_anon_name(const struct process *p, const struct vma *v)
{
	const struct mm *mm = &p->mm;

	if (v->kind == VMA_HEAP || (v->start <= mm->brk && v->end >= mm->start_brk))
		return "[heap]";
	if (v->kind == VMA_STACK || (v->start <= mm->start_stack && v->end >= mm->start_stack))
		return "[stack]";
	return NULL;
}

static void maps_line(const struct process *p, const struct vma *v,
		      void (*out)(void *ctx, const char *s, size_t n), void *ctx)
{
	char line[FS_PATH_MAX + 128];
	const struct fs_file *f = vma_backing_file(p, v);
	const char *name = f ? f->path : v->name ? v->name : vma_anon_name(p, v);
	int n = snprintf(line, sizeof(line), "%08llx-%08llx %c%c%cp %08llx %02x:%02x %lu ",
			 (unsigned long long)v->start, (unsigned long long)v->end,
			 v->prot & PT_R ? 'r' : '-', v->prot & PT_W ? 'w' : '-',
			 v->prot & PT_X ? 'x' : '-',
			 (unsigned long long)(f ? v->file_offset : 0), 0u,
			 f ? FS_DEV_ROOTFS_MINOR : 0u, (unsigned long)(f ? f->ino : 0));
	if (name) {
		if (n < MAPS_PAD_WIDTH) {
			memset(line + n, ' ', (size_t)(MAPS_PAD_WIDTH - n));
			n = MAPS_PAD_WIDTH;
		}
		n += snprintf(line + n, sizeof(line) - (size_t)n, " %s", name);
	}
	n += snprintf(line + n, sizeof(line) - (size_t)n, "\n");
	out(ctx, line, (size_t)n);
}

void proc_maps_text(const struct process *p, void (*out)(void *ctx, const char *s, size_t n),
		    void *ctx)
{
	for (const struct vma *v = p->mm.vmas; v; v = v->next)
		maps_line(p, v, out, ctx);
	const struct vma *gate = arch_gate_vma(&p->mm); /* Linux's gate VMA comes last */
	if (gate)
		maps_line(p, gate, out, ctx);
}

static void to_console(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	console_write(s, n);
}

static int parse_pid(const char *s, int *pid)
{
	int v = 0;

	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 100000000)
			return -1;
		v = v * 10 + (*s - '0');
	}
	*pid = v;
	return 0;
}

static int cmd_maps(int argc, char **argv)
{
	int pid = 0;

	if (argc > 1 && parse_pid(argv[1], &pid)) {
		printk("usage: maps [PID]\n");
		return 2;
	}
	struct process *p = kept_process(pid);
	if (!p) {
		if (pid)
			printk("maps: /proc/%d/maps: No such file or directory\n", pid);
		else
			printk("maps: no kept process (use run -k PROG)\n");
		return 1;
	}
	if (!may_inspect_process(p, current_uid())) {
		printk("maps: /proc/%d/maps: Permission denied\n", p->pid);
		return 1;
	}
	proc_maps_text(p, to_console, NULL);
	return 0;
}
SHELL_COMMAND(maps, "maps", "maps [PID]           the kept process's VMAs, as /proc/PID/maps", cmd_maps);
