/* Arch interface: exceptions and user mode. The arch decodes an exception into struct trap_info
 * and hands it to the one generic dispatcher, trap_dispatch() (kernel/trap.c). */
#ifndef RNDBITS_ARCH_TRAP_H
#define RNDBITS_ARCH_TRAP_H

#include <lib/types.h>

struct trap_frame; /* the arch's saved registers (arch/<isa>/include/asm/trap_frame.h) */

enum trap_kind {
	TRAP_SYSCALL,     /* svc / int 0x80 / syscall */
	TRAP_PAGE_FAULT,  /* translation or permission fault on a data or instruction access */
	TRAP_ALIGNMENT,
	TRAP_UNDEFINED,   /* undefined / illegal instruction */
	TRAP_BREAKPOINT,
	TRAP_IRQ,
	TRAP_OTHER,       /* anything else: always fatal in the kernel */
	TRAP_ARITHMETIC,  /* integer divide error (x86 #DE): SIGFPE */
};

/* The interrupt sources the kernel routes (issue 17). */
enum trap_irq { IRQ_NONE, IRQ_CONSOLE, IRQ_TIMER };

enum trap_access { ACCESS_READ, ACCESS_WRITE, ACCESS_EXEC };

struct trap_info {
	enum trap_kind kind;
	const char *name;        /* the arch's own name: "Data Abort", "#PF", "Prefetch Abort" */
	bool user;               /* taken from user mode */
	bool compat;             /* from a 32-bit task on a 64-bit kernel */
	uintptr_t pc;
	uintptr_t sp;
	bool has_fault_addr;
	uintptr_t fault_addr;
	enum trap_access access;
	bool permission;         /* the translation existed but forbade the access */
	int level;               /* translation level the hardware reported, or -1 */
	uint64_t syndrome;       /* ESR_EL1, DFSR/IFSR, or the x86 error code */
	unsigned vector;         /* x86 vector / arm64 vector slot / arm mode, for the report */
	unsigned irq;            /* TRAP_IRQ: which source (enum trap_irq), already acknowledged */
	struct trap_frame *frame;
};

/* Generic dispatcher, implemented in kernel/trap.c: kernel faults are reported (with the
 * page-table walk of the fault address) and power off with EXIT_EXCEPTION; user faults and
 * syscalls go to the process layer. Returns only if the interrupted context may resume. */
void trap_dispatch(struct trap_info *ti);

/* Install vectors / IDT / GDT+TSS. Called once from kernel_main. */
void arch_traps_init(void);

/* Syscall arguments and result through the saved frame (Linux's register convention per ISA;
 * compat tasks use their own convention). */
unsigned long arch_syscall_nr(const struct trap_frame *f);
unsigned long arch_syscall_arg(const struct trap_frame *f, unsigned i);
void arch_syscall_set_return(struct trap_frame *f, long value);

#endif
