/* i386 exceptions: the IDT, decoding each vector into struct trap_info for trap_dispatch(), the
 * PIT's tick and COM1's receive interrupt (IRQ 0 and 4), and the double-fault task. */
#include <arch/console.h>
#include <arch/cpu.h>
#include <arch/trap.h>
#include <kernel/kernel.h>
#include <asm/pic.h>
#include <asm/processor.h>
#include <asm/segment.h>
#include <asm/trap_frame.h>
#include <asm/uart.h>
#include <asm/x86_32.h>
#include <stddef.h>

_Static_assert(offsetof(struct trap_frame, eax) == TF_EAX, "trap frame: eax");
_Static_assert(offsetof(struct trap_frame, vector) == TF_VECTOR, "trap frame: vector");
_Static_assert(offsetof(struct trap_frame, eip) == TF_EIP, "trap frame: eip");
_Static_assert(offsetof(struct trap_frame, cs) == TF_CS, "trap frame: cs");
_Static_assert(offsetof(struct trap_frame, user_esp) == TF_SIZE_KERNEL, "trap frame: size");

enum {
	X86_VEC_DE = 0, X86_VEC_DB = 1, X86_VEC_NMI = 2, X86_VEC_BP = 3, X86_VEC_OF = 4,
	X86_VEC_BR = 5, X86_VEC_UD = 6, X86_VEC_NM = 7, X86_VEC_DF = 8, X86_VEC_TS = 10,
	X86_VEC_NP = 11, X86_VEC_SS = 12, X86_VEC_GP = 13, X86_VEC_PF = 14, X86_VEC_MF = 16,
	X86_VEC_AC = 17, X86_VEC_MC = 18, X86_VEC_XM = 19,
	X86_NR_EXCEPTIONS = 32,
	X86_VEC_SYSCALL = 0x80,
};

/* #PF error code bits. */
#define PF_ERR_P (1u << 0)  /* protection violation (else: not present) */
#define PF_ERR_W (1u << 1)
#define PF_ERR_U (1u << 2)
#define PF_ERR_RSVD (1u << 3)
#define PF_ERR_I (1u << 4)  /* instruction fetch: reported only with SMEP (or NX under PAE) */

static const char *const exception_names[X86_NR_EXCEPTIONS] = {
	"#DE divide error", "#DB debug", "NMI", "#BP breakpoint", "#OF overflow",
	"#BR bound range", "#UD invalid opcode", "#NM device not available", "#DF double fault",
	"coprocessor segment overrun", "#TS invalid TSS", "#NP segment not present",
	"#SS stack fault", "#GP general protection", "#PF page fault", "reserved 15",
	"#MF x87 error", "#AC alignment check", "#MC machine check", "#XM SIMD exception",
	"#VE virtualization", "#CP control protection", "reserved 22", "reserved 23",
	"reserved 24", "reserved 25", "reserved 26", "reserved 27", "#HV hypervisor injection",
	"#VC VMM communication", "#SX security", "reserved 31",
};

struct idt_gate {
	uint16_t offset_low, selector;
	uint8_t zero, type_attr;
	uint16_t offset_high;
} __packed;

#define IDT_INTERRUPT_GATE_DPL0 0x8E /* 32-bit interrupt gate: IF cleared on entry */
#define IDT_INTERRUPT_GATE_DPL3 0xEE /* reachable by `int n` from ring 3 */
#define IDT_TASK_GATE 0x85

static struct idt_gate idt[256] __aligned(8);

static void set_gate(unsigned vec, uintptr_t handler, uint16_t selector, uint8_t type_attr)
{
	idt[vec] = (struct idt_gate){
		.offset_low = handler & 0xFFFF,
		.selector = selector,
		.type_attr = type_attr,
		.offset_high = handler >> 16,
	};
}

static void load_idt(void)
{
	struct {
		uint16_t limit;
		uint32_t base;
	} __packed desc = { sizeof(idt) - 1, (uintptr_t)idt };

	__asm__ volatile("lidt %0" : : "m"(desc));
}

/* Stubs 0..47 are the exceptions and the 16 PIC lines, the last one is int 0x80. */
static void fill_idt(void)
{
	for (unsigned vec = 0; vec < X86_IRQ_BASE + X86_NR_IRQS; vec++)
		set_gate(vec, x86_vector_stubs[vec], KERNEL_CS, IDT_INTERRUPT_GATE_DPL0);
	/* int3 and int 0x80 are instructions user programs may use on purpose. */
	set_gate(X86_VEC_BP, x86_vector_stubs[X86_VEC_BP], KERNEL_CS, IDT_INTERRUPT_GATE_DPL3);
	set_gate(X86_VEC_SYSCALL, x86_vector_stubs[X86_IRQ_BASE + X86_NR_IRQS], KERNEL_CS,
		 IDT_INTERRUPT_GATE_DPL3);
	set_gate(X86_VEC_DF, 0, DOUBLEFAULT_TSS_SEL, IDT_TASK_GATE);
}

/* From the first lines of arch_start: an exception during early boot is reported (and QEMU
 * exits with EXIT_EXCEPTION) instead of triple-faulting into a reboot loop. */
void x86_early_traps_init(void)
{
	x86_gdt_init();
	fill_idt();
	load_idt();
}

void arch_traps_init(void)
{
	x86_fpu_init();
	x86_pic_init();
	x86_pic_unmask(X86_COM1_IRQ);
	x86_uart_enable_rx_irq();
	x86_idle_wakes_on_irq = true;
}

static bool frame_from_user(const struct trap_frame *f)
{
	return (f->cs & 3) == 3;
}

/* Where ESP pointed when the trap hit: a ring change pushes it, otherwise it is just above the
 * CPU-pushed part of the frame. */
static uintptr_t frame_sp(const struct trap_frame *f)
{
	if (frame_from_user(f))
		return f->user_esp;
	return (uintptr_t)f + TF_SIZE_KERNEL;
}

/* Without SMEP, 32-bit paging never reports instruction fetches in the error code; a fault at
 * (or within an instruction's length after) EIP can only be the fetch. */
static enum trap_access page_fault_access(const struct trap_frame *f, uintptr_t addr)
{
	if (f->error_code & PF_ERR_I)
		return ACCESS_EXEC;
	if (f->error_code & PF_ERR_W)
		return ACCESS_WRITE;
	if (addr - f->eip < 16)
		return ACCESS_EXEC;
	return ACCESS_READ;
}

static enum trap_kind exception_kind(unsigned vec)
{
	switch (vec) {
	case X86_VEC_DE:
		return TRAP_ARITHMETIC;
	case X86_VEC_PF:
		return TRAP_PAGE_FAULT;
	case X86_VEC_UD:
		return TRAP_UNDEFINED;
	case X86_VEC_DB: /* single-step (TF) from ring 3: SIGTRAP, as on x86_64 and Linux */
	case X86_VEC_BP:
		return TRAP_BREAKPOINT;
	case X86_VEC_AC:
		return TRAP_ALIGNMENT;
	default:
		return TRAP_OTHER;
	}
}

static void decode_trap(struct trap_frame *f, struct trap_info *ti)
{
	unsigned vec = f->vector;

	*ti = (struct trap_info){
		.user = frame_from_user(f),
		.pc = f->eip,
		.sp = frame_sp(f),
		.level = -1,
		.syndrome = f->error_code,
		.vector = vec,
		.frame = f,
	};
	if (vec == X86_VEC_SYSCALL) {
		f->error_code = f->eax; /* orig_eax: arch_syscall_restart needs the number back */
		ti->kind = TRAP_SYSCALL;
		ti->name = "int 0x80";
		return;
	}
	ti->kind = exception_kind(vec);
	ti->name = vec < X86_NR_EXCEPTIONS ? exception_names[vec] : "unexpected vector";
	if (vec == X86_VEC_PF) {
		uintptr_t addr = read_cr2();

		ti->has_fault_addr = true;
		ti->fault_addr = addr;
		ti->access = page_fault_access(f, addr);
		ti->permission = f->error_code & PF_ERR_P;
	}
}

/* The PIT's tick and COM1's receive line. EOI first: the dispatcher may switch to another
 * task (or end this one) before returning here. A spurious IRQ 7 (15) is no interrupt at all. */
static void handle_irq(struct trap_frame *f)
{
	unsigned irq = f->vector - X86_IRQ_BASE;
	struct trap_info ti = {
		.kind = TRAP_IRQ,
		.name = "IRQ",
		.user = frame_from_user(f),
		.pc = f->eip,
		.sp = frame_sp(f),
		.level = -1,
		.vector = f->vector,
		.irq = x86_irq_source(irq),
		.frame = f,
	};

	if (!x86_pic_eoi(irq))
		return;
	trap_dispatch(&ti);
}

/* Kernel-mode exceptions being handled right now. One that arrives while another is being
 * reported (the report itself faulted) would recurse until the stack runs out: stop at once. */
static unsigned kernel_exception_depth;

static void check_not_nested(void)
{
	static const char msg[] = "\r\nrndbits: exception while reporting an exception: "
				  "powering off\r\n";

	if (kernel_exception_depth == 0)
		return;
	for (const char *p = msg; *p; p++)
		arch_console_putc(*p);
	arch_poweroff(EXIT_EXCEPTION);
}

static void dispatch_kernel_exception(struct trap_info *ti)
{
	check_not_nested();
	kernel_exception_depth++;
	trap_dispatch(ti);
	kernel_exception_depth--;
}

void x86_trap(struct trap_frame *f)
{
	struct trap_info ti;

	if (f->vector >= X86_IRQ_BASE && f->vector < X86_IRQ_BASE + X86_NR_IRQS) {
		handle_irq(f);
		return;
	}
	decode_trap(f, &ti);
	if (ti.user)
		trap_dispatch(&ti);
	else
		dispatch_kernel_exception(&ti);
}

/* Entered by a task switch through the #DF task gate, on its own stack and TSS. The state of
 * the interrupted code was saved by the CPU into x86_tss. */
__noreturn void x86_doublefault_task(void)
{
	const struct x86_tss *t = &x86_tss;
	struct trap_frame f = {
		.gs = t->gs, .fs = t->fs, .es = t->es, .ds = t->ds,
		.edi = t->edi, .esi = t->esi, .ebp = t->ebp, .esp_pushal = t->esp,
		.ebx = t->ebx, .edx = t->edx, .ecx = t->ecx, .eax = t->eax,
		.vector = X86_VEC_DF, .error_code = 0,
		.eip = t->eip, .cs = t->cs, .eflags = t->eflags,
		.user_esp = t->esp, .user_ss = t->ss,
	};
	struct trap_info ti = {
		.kind = TRAP_OTHER,
		.name = "#DF double fault (on the double-fault task's stack)",
		.user = false,
		.pc = t->eip,
		.sp = t->esp,
		.level = -1,
		.vector = X86_VEC_DF,
		.frame = &f,
	};

	/* The usual cause: the kernel stack ran into its guard page, and the CPU could not push
	 * the #PF frame. CR2 still holds that page-fault address. */
	uintptr_t cr2 = read_cr2();
	if (cr2 >= (uintptr_t)boot_stack_guard && cr2 < (uintptr_t)boot_stack) {
		ti.name = "#DF double fault: kernel stack overflow into the guard page";
		ti.has_fault_addr = true;
		ti.fault_addr = cr2;
		ti.access = ACCESS_WRITE;
	}
	dispatch_kernel_exception(&ti);
	/* A double fault never resumes. */
	arch_poweroff(EXIT_EXCEPTION);
}
