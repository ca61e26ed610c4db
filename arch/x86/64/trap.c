/* x86_64 exceptions, interrupts, system calls and user mode: GDT + 64-bit TSS, the IDT, the
 * SYSCALL MSRs, and the decoding of a trap frame into struct trap_info for trap_dispatch(). */
#include <arch/console.h>
#include <arch/cpu.h>
#include <arch/trap.h>
#include <asm/cpu_64.h>
#include <asm/fpu.h>
#include <asm/io.h>
#include <asm/pic.h>
#include <asm/processor.h>
#include <asm/segment.h>
#include <asm/trap_frame.h>
#include <asm/uart.h>
#include <kernel/kernel.h>
#include <lib/types.h>

_Static_assert(__builtin_offsetof(struct trap_frame, rax) == TF_RAX, "TF_RAX");
_Static_assert(__builtin_offsetof(struct trap_frame, vector) == TF_VECTOR, "TF_VECTOR");
_Static_assert(__builtin_offsetof(struct trap_frame, rip) == TF_RIP, "TF_RIP");
_Static_assert(__builtin_offsetof(struct trap_frame, ss) == TF_SS, "TF_SS");
_Static_assert(sizeof(struct trap_frame) == TF_SIZE, "TF_SIZE");

/* entry.S */
extern const char x86_64_trap_stubs[], x86_64_int80_stub[];
extern const char x86_64_syscall_entry[], x86_64_syscall_compat_entry[];
void x86_64_trap(struct trap_frame *f);
/* head.S: the kernel stacks and the guard pages below them. */
extern char x86_64_boot_stack[], x86_64_boot_stack_top[];
extern char x86_64_ist_stack[], x86_64_ist_stack_top[];

#define X86_64_TRAP_STUB_SIZE 16
#define X86_64_NR_STUBS 48 /* 32 exceptions and the PIC's 16 IRQs */

struct x86_64_tss {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __packed;

/* entry.S writes RSP0 (offset 4) when it enters user mode. */
struct x86_64_tss x86_64_tss __aligned(16);

static uint64_t gdt[GDT_ENTRIES] __aligned(16) = {
	[GDT_ENTRY_KERNEL_CS] = 0x00AF9A000000FFFFull,  /* L, P, DPL0, execute/read */
	[GDT_ENTRY_KERNEL_DS] = 0x00CF92000000FFFFull,  /* P, DPL0, read/write */
	[GDT_ENTRY_USER32_CS] = 0x00CFFA000000FFFFull,  /* D, G, P, DPL3: compatibility mode */
	[GDT_ENTRY_USER_DS] = 0x00CFF2000000FFFFull,    /* P, DPL3, read/write */
	[GDT_ENTRY_USER_CS] = 0x00AFFA000000FFFFull,    /* L, P, DPL3 */
};

uint64_t *x86_gdt_tls_slot(unsigned idx)
{
	return &gdt[idx];
}

struct idt_gate {
	uint16_t offset_low;
	uint16_t selector;
	uint8_t ist;
	uint8_t type_attr;
	uint16_t offset_mid;
	uint32_t offset_high;
	uint32_t reserved;
} __packed;

static struct idt_gate idt[256] __aligned(16);

#define GATE_INTERRUPT_DPL0 0x8E /* P, DPL0, 64-bit interrupt gate: IF cleared on entry */
#define GATE_INTERRUPT_DPL3 0xEE /* the same, reachable by `int n` from ring 3 */

static void gdt_set_tss(void)
{
	uint64_t base = (uint64_t)(uintptr_t)&x86_64_tss;
	uint64_t limit = sizeof(x86_64_tss) - 1;

	gdt[GDT_ENTRY_TSS] = (limit & 0xFFFF) | ((base & 0xFFFFFF) << 16) | (0x89ull << 40) |
			     (((limit >> 16) & 0xF) << 48) | (((base >> 24) & 0xFF) << 56);
	gdt[GDT_ENTRY_TSS + 1] = base >> 32;
}

/* A far return reloads CS; the data segments follow. */
static void reload_segments(void)
{
	__asm__ volatile("pushq %[cs]\n\t"
			 "leaq 1f(%%rip), %%rax\n\t"
			 "pushq %%rax\n\t"
			 "lretq\n"
			 "1:\n\t"
			 "movl %[ds], %%eax\n\t"
			 "movl %%eax, %%ss\n\t"
			 "xorl %%eax, %%eax\n\t"
			 "movl %%eax, %%ds\n\t"
			 "movl %%eax, %%es\n\t"
			 "movl %%eax, %%fs\n\t"
			 "movl %%eax, %%gs"
			 :
			 : [cs] "i"(KERNEL_CS), [ds] "i"(KERNEL_DS)
			 : "rax", "memory");
}

/* Called by arch_start before anything else: the boot GDT lives in the identity-mapped .boot
 * section, which the kernel's own tables do not map. */
void x86_64_gdt_init(void)
{
	struct x86_64_desc_ptr p = { sizeof(gdt) - 1, (uint64_t)(uintptr_t)gdt };

	x86_64_tss.iomap_base = sizeof(x86_64_tss); /* no I/O bitmap: ring 3 has no ports */
	x86_64_tss.rsp[0] = (uint64_t)(uintptr_t)x86_64_boot_stack_top;
	x86_64_tss.ist[IST_DOUBLE_FAULT - 1] = (uint64_t)(uintptr_t)x86_64_ist_stack_top;
	gdt_set_tss();
	lgdt(&p);
	reload_segments();
	ltr(TSS_SEL);
}

static void idt_set(unsigned vector, const void *handler, uint8_t type_attr, unsigned ist)
{
	uint64_t a = (uint64_t)(uintptr_t)handler;

	idt[vector] = (struct idt_gate){
		.offset_low = a & 0xFFFF,
		.selector = KERNEL_CS,
		.ist = ist,
		.type_attr = type_attr,
		.offset_mid = (a >> 16) & 0xFFFF,
		.offset_high = a >> 32,
	};
}

enum {
	X86_DE = 0, X86_DB = 1, X86_NMI = 2, X86_BP = 3, X86_OF = 4, X86_UD = 6, X86_DF = 8,
	X86_GP = 13, X86_PF = 14, X86_AC = 17, X86_MC = 18,
};

static void idt_init(void)
{
	struct x86_64_desc_ptr p = { sizeof(idt) - 1, (uint64_t)(uintptr_t)idt };

	for (unsigned v = 0; v < X86_64_NR_STUBS; v++) {
		/* #DF, NMI and #MC can arrive on a broken stack: give them a known-good one.
		 * A kernel stack overflow faults in the guard page, and the #PF cannot be pushed
		 * there either, so it ends up as #DF here instead of a silent triple fault. */
		unsigned ist = (v == X86_DF || v == X86_NMI || v == X86_MC) ? IST_DOUBLE_FAULT : 0;
		/* int3 and into are instructions user code may execute. */
		uint8_t type = (v == X86_BP || v == X86_OF) ? GATE_INTERRUPT_DPL3
							    : GATE_INTERRUPT_DPL0;
		idt_set(v, x86_64_trap_stubs + v * X86_64_TRAP_STUB_SIZE, type, ist);
	}
	idt_set(X86_64_VECTOR_INT80, x86_64_int80_stub, GATE_INTERRUPT_DPL3, 0);
	lidt(&p);
}

/* What SYSCALL clears in RFLAGS on the way in (the user's value stays in R11 and comes back
 * with iretq). The same set as Linux's syscall_init(): every flag a user may set, so that the
 * kernel never runs on one. IF: the stack is still the user's; TF: no single-step trap in the
 * kernel; DF, AC: string operations and (with SMAP) user accesses; NT: in long mode an iretq
 * with NT set raises #GP, so a user's NT would crash the kernel's return from the call (or,
 * left in the kernel by an exit, the next entry to user mode). Interrupt and trap gates clear
 * TF and NT themselves; trap_common clears DF. */
#define SYSCALL_FLAGS_MASK                                                                   \
	(X86_RFLAGS_CF | X86_RFLAGS_PF | X86_RFLAGS_AF | X86_RFLAGS_ZF | X86_RFLAGS_SF |      \
	 X86_RFLAGS_TF | X86_RFLAGS_IF | X86_RFLAGS_DF | X86_RFLAGS_OF | X86_RFLAGS_IOPL |    \
	 X86_RFLAGS_NT | X86_RFLAGS_RF | X86_RFLAGS_AC | X86_RFLAGS_ID)

static void syscall_init(void)
{
	wrmsr(MSR_STAR, ((uint64_t)(USER32_CS - 3) << 48) | ((uint64_t)KERNEL_CS << 32));
	wrmsr(MSR_LSTAR, (uint64_t)(uintptr_t)x86_64_syscall_entry);
	wrmsr(MSR_CSTAR, (uint64_t)(uintptr_t)x86_64_syscall_compat_entry);
	wrmsr(MSR_SFMASK, SYSCALL_FLAGS_MASK);
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
}

/* COM1's receive interrupt (IRQ 4) is unmasked here; the PIT's (IRQ 0) by arch_timer_start. */
static void irq_init(void)
{
	x86_pic_init();
	x86_uart_enable_rx_irq();
	x86_pic_unmask(X86_COM1_IRQ);
	x86_idle_wakes_on_irq = true;
}

/* User code compiled for x86_64 uses SSE (it is part of the base ABI); the kernel itself is
 * built with -mgeneral-regs-only and never touches those registers, so nothing needs saving
 * around a trap; arch_switch_to moves them between tasks (asm/fpu.h). */
static void fpu_init(void)
{
	struct cpuid_regs r;

	cpuid_count(1, 0, &r);
	if (!(r.edx & X86_CPUID1_EDX_FXSR) || !(r.edx & X86_CPUID1_EDX_SSE))
		return;
	write_cr0((read_cr0() & ~(uintptr_t)(X86_CR0_EM | X86_CR0_TS)) | X86_CR0_MP);
	write_cr4(read_cr4() | X86_CR4_OSFXSR | X86_CR4_OSXMMEXCPT);
	x86_fpu_fxsr = true;
}

void arch_traps_init(void)
{
	idt_init();
	syscall_init();
	irq_init();
	fpu_init();
}

static const char *const exception_names[32] = {
	"#DE", "#DB", "NMI", "#BP", "#OF", "#BR", "#UD", "#NM", "#DF", "#MF(old)", "#TS",
	"#NP", "#SS", "#GP", "#PF", "#15", "#MF", "#AC", "#MC", "#XM", "#VE", "#CP",
};

static enum trap_kind exception_kind(unsigned vector)
{
	switch (vector) {
	case X86_DE:
		return TRAP_ARITHMETIC;
	case X86_PF:
		return TRAP_PAGE_FAULT;
	case X86_UD:
		return TRAP_UNDEFINED;
	case X86_AC:
		return TRAP_ALIGNMENT;
	case X86_DB:
	case X86_BP:
		return TRAP_BREAKPOINT;
	default:
		return TRAP_OTHER;
	}
}

/* #PF error code bits (Intel SDM vol. 3, 4.7). */
#define PF_PROT (1u << 0)
#define PF_WRITE (1u << 1)
#define PF_USER (1u << 2)
#define PF_RSVD (1u << 3)
#define PF_INSTR (1u << 4)

static void decode_page_fault(const struct trap_frame *f, struct trap_info *ti)
{
	ti->has_fault_addr = true;
	ti->fault_addr = read_cr2();
	ti->permission = f->error_code & PF_PROT;
	/* A corrupt table entry, not a missing or forbidding one: say so. */
	if (f->error_code & PF_RSVD)
		ti->name = "#PF (reserved bit set in a paging entry)";
	if (f->error_code & PF_INSTR)
		ti->access = ACCESS_EXEC;
	else if (f->error_code & PF_WRITE)
		ti->access = ACCESS_WRITE;
	else
		ti->access = ACCESS_READ;
}

static bool in_guard_page(uintptr_t va)
{
	uintptr_t boot_guard = (uintptr_t)x86_64_boot_stack - 4096;
	uintptr_t ist_guard = (uintptr_t)x86_64_ist_stack - 4096;

	return (va >= boot_guard && va < boot_guard + 4096) ||
	       (va >= ist_guard && va < ist_guard + 4096);
}

/* #DF saves no useful RIP; when CR2 points into a stack guard page, say what happened. */
static void decode_double_fault(struct trap_info *ti)
{
	uintptr_t cr2 = read_cr2();

	if (!in_guard_page(cr2))
		return;
	ti->name = "#DF (kernel stack overflow)";
	ti->has_fault_addr = true;
	ti->fault_addr = cr2;
	ti->access = ACCESS_WRITE;
}

static bool frame_from_user(const struct trap_frame *f)
{
	return (f->cs & 3) == 3;
}

/* An `int 0x80` uses the ia32 ABI even from 64-bit code, as on Linux. */
static bool frame_is_ia32_syscall(const struct trap_frame *f)
{
	return f->vector == X86_64_VECTOR_INT80;
}

static void decode(struct trap_frame *f, struct trap_info *ti)
{
	unsigned vector = (unsigned)f->vector;

	*ti = (struct trap_info){
		.kind = TRAP_OTHER,
		.name = "?",
		.user = frame_from_user(f),
		.compat = frame_from_user(f) && f->cs == USER32_CS,
		.pc = f->rip,
		.sp = f->rsp,
		.level = -1,
		.syndrome = f->error_code,
		.vector = vector,
		.frame = f,
	};
	if (vector == X86_64_VECTOR_SYSCALL || vector == X86_64_VECTOR_INT80) {
		ti->name = vector == X86_64_VECTOR_SYSCALL ? "syscall" : "int 0x80";
		f->error_code = f->rax; /* orig_rax: arch_syscall_restart needs the number back */
		ti->compat = frame_is_ia32_syscall(f);
		/* From the kernel, int 0x80 is a bug, not a system call. */
		ti->kind = ti->user ? TRAP_SYSCALL : TRAP_OTHER;
		return;
	}
	if (vector >= X86_IRQ_BASE && vector < X86_IRQ_BASE + X86_NR_IRQS) {
		ti->kind = TRAP_IRQ;
		ti->name = "IRQ";
		ti->irq = x86_irq_source(vector - X86_IRQ_BASE);
		return;
	}
	if (vector < ARRAY_SIZE(exception_names)) {
		ti->name = exception_names[vector] ? exception_names[vector] : "reserved";
		ti->kind = exception_kind(vector);
	}
	if (vector == X86_PF)
		decode_page_fault(f, ti);
	else if (vector == X86_DF)
		decode_double_fault(ti);
}

/* A kernel exception never returns (trap_dispatch reports it and powers off). One that arrives
 * while the report is being written means the report itself faulted: recursing would only
 * bury the first report, so stop at once with the same status. */
static bool reporting_kernel_exception;

static void dispatch_kernel_exception(struct trap_info *ti)
{
	static const char msg[] = "\r\nrndbits: exception while reporting an exception: "
				  "powering off\r\n";

	if (reporting_kernel_exception) {
		for (const char *p = msg; *p; p++)
			arch_console_putc(*p);
		arch_poweroff(EXIT_EXCEPTION);
	}
	reporting_kernel_exception = true;
	trap_dispatch(ti);
}

void x86_64_trap(struct trap_frame *f)
{
	struct trap_info ti;

	decode(f, &ti);
	if (ti.kind == TRAP_IRQ) {
		/* The PIT's tick or COM1's receive line. EOI first: the dispatcher may switch to
		 * another task (or end this one) before returning here. A spurious IRQ 7 (15) is
		 * no interrupt at all. */
		if (x86_pic_eoi((unsigned)f->vector - X86_IRQ_BASE))
			trap_dispatch(&ti);
		return;
	}
	if (ti.user)
		trap_dispatch(&ti);
	else
		dispatch_kernel_exception(&ti);
}

unsigned long arch_syscall_nr(const struct trap_frame *f)
{
	return frame_is_ia32_syscall(f) ? (uint32_t)f->rax : f->rax;
}

unsigned long arch_syscall_arg(const struct trap_frame *f, unsigned i)
{
	const uint64_t native[6] = { f->rdi, f->rsi, f->rdx, f->r10, f->r8, f->r9 };
	const uint64_t ia32[6] = { f->rbx, f->rcx, f->rdx, f->rsi, f->rdi, f->rbp };

	if (i >= 6)
		return 0;
	return frame_is_ia32_syscall(f) ? (uint32_t)ia32[i] : native[i];
}

void arch_syscall_set_return(struct trap_frame *f, long value)
{
	f->rax = (uint64_t)value;
}
