/* User faults (mm/fault.c): what a trap from user mode means for the process, and the console
 * lines Linux 6.1 prints when one kills it.
 *
 * The arch decodes the hardware syndrome into struct trap_info (include/arch/trap.h); mm/fault.c
 * resolves it by demand paging or decides the signal, and the arch prints Linux's words for it
 * (arch_show_unhandled_signal: show_signal_msg on x86, arm64_show_signal on arm64,
 * __do_user_fault's CONFIG_DEBUG_USER report on 32-bit ARM). rndbits' own one-line explanation
 * follows on every ISA. docs/faults.md describes each format. */
#ifndef RNDBITS_FAULT_H
#define RNDBITS_FAULT_H

#include <arch/trap.h>
#include <mm/mm.h>
#include <kernel/proc.h>
#include <lib/types.h>

#define SIGILL 4
#define SIGTRAP 5
#define SIGBUS 7
#define SIGSEGV 11

/* Linux's show_unhandled_signals (the debug.exception-trace sysctl on x86 and arm64): the arch
 * prints its report of a signal that kills only when this is non-zero. The arches that have
 * it define it with Linux's default (1 on x86, 0 on arm64); 32-bit ARM has none. */
extern int show_unhandled_signals;

/* "read", "write", "exec". */
const char *trap_access_name(enum trap_access a);

/* A trap from user mode that is not a system call: demand paging resolves it and returns, or
 * the process ends with its signal, after the arch's report and rndbits' line. */
void user_fault(struct trap_info *ti);

/* A user trap that kills: what the arch's report needs. */
struct user_signal {
	int sig;
	const struct trap_info *ti;
	const char *comm;
	int pid;
	const struct process *proc;
	struct mm *mm;
};

/* The arch's report of a fatal user trap, in Linux 6.1's words for that ISA (arch/<isa>). */
void arch_show_unhandled_signal(const struct user_signal *us);

/* Linux's print_vma_addr(" in ", ip) into buf (FAULT_VMA_ADDR_MAX bytes hold any):
 * " in NAME[START+SIZE]" for the first VMA ending above ip (find_vma: it may start above ip)
 * when a file backs it, else "". */
#define FAULT_VMA_ADDR_MAX 320 /* " in ", a file name (< 256), "[start+size]" */
void fault_vma_addr(const struct user_signal *us, uintptr_t ip, char *buf, size_t size);

/* copy_from_user_nmi: copy n user bytes at va into buf without faulting anything in; false if
 * any of them is not present and user-readable (or the range ends above limit). */
bool user_peek(struct mm *mm, uint64_t va, void *buf, size_t n, uint64_t limit);

/* dump_stack_print_info: "CPU: 0 PID: P Comm: NAME Not tainted RELEASE #1", then the
 * "Hardware name:" line when the arch gives one (NULL: none). */
void fault_print_task_info(const struct user_signal *us, const char *hardware_name);

/* The file a VMA maps: its own, or the program's for an image VMA recorded without one (what
 * /proc/PID/maps names and print_vma_addr reports). */
static inline const struct fs_file *vma_backing_file(const struct process *p,
						     const struct vma *v)
{
	if (v->file)
		return v->file;
	return v->kind == VMA_IMAGE ? p->exe : NULL;
}

#endif
