/* x86_64's part of the task interface (include/arch/task.h): the frame a new image starts with
 * (64-bit or ia32 compatibility mode), fork's return value, rewinding `syscall` / `int 0x80`,
 * TSS.rsp0 and the SYSCALL stack, and the selectors and FS/GS bases each task keeps (the
 * kernel never uses %fs or %gs, so while a task is in the kernel they are still its own). */
#include <arch/task.h>
#include <asm/cpu_64.h>
#include <asm/segment.h>
#include <asm/task_x86.h>
#include <asm/trap_frame.h>
#include <lib/string.h>

#define RFLAGS_USER 0x202 /* IF on, reserved bit 1; IOPL 0 */
/* `syscall` (0f 05) and `int 0x80` (cd 80): both two bytes; no sysenter (the vDSO has none). */
#define SYSCALL_INSN_LEN 2

extern char x86_64_boot_stack_top[]; /* head.S */
extern uint64_t x86_64_kernel_rsp;    /* entry.S: the SYSCALL entry's stack */
struct x86_64_tss;
extern struct x86_64_tss x86_64_tss;

uintptr_t x86_boot_stack_top(void)
{
	return (uintptr_t)x86_64_boot_stack_top;
}

void x86_set_kernel_stack(uintptr_t top)
{
	/* TSS.RSP0 is at offset 4 (the TSS is packed). */
	memcpy((uint8_t *)&x86_64_tss + 4, &top, sizeof(top));
	x86_64_kernel_rsp = top;
}

#define READ_SEG(seg)                                                  \
	({                                                             \
		uint16_t v_;                                           \
		__asm__ volatile("mov %%" seg ", %0" : "=r"(v_));      \
		v_;                                                    \
	})
#define LOAD_SEG(seg, v) __asm__ volatile("mov %0, %%" seg : : "r"((uint32_t)(v)) : "memory")

void x86_task_save_segments(struct arch_task *t)
{
	t->ds = READ_SEG("ds");
	t->es = READ_SEG("es");
	t->fs = READ_SEG("fs");
	t->gs = READ_SEG("gs");
	t->fs_base = rdmsr(MSR_FS_BASE);
	t->gs_base = rdmsr(MSR_GS_BASE);
}

/* A selector naming a TLS slot the task has emptied since it loaded it would fault here, in
 * the kernel: the task gets a null one instead (as Linux's loadsegment fixup does). */
static uint16_t loadable(uint16_t sel)
{
	unsigned idx = sel >> 3;

	if (idx >= GDT_ENTRY_TLS_MIN && idx < GDT_ENTRY_TLS_MIN + GDT_ENTRY_TLS_ENTRIES &&
	    !(*x86_gdt_tls_slot(idx) & (1ull << 47)))
		return 0;
	return sel;
}

/* After the TLS slots: a selector's base comes from its descriptor, then the MSR writes put
 * back what arch_prctl (or the descriptor) had set. */
void x86_task_load_segments(const struct arch_task *t)
{
	LOAD_SEG("ds", loadable(t->ds));
	LOAD_SEG("es", loadable(t->es));
	LOAD_SEG("fs", loadable(t->fs));
	LOAD_SEG("gs", loadable(t->gs));
	wrmsr(MSR_FS_BASE, t->fs_base);
	wrmsr(MSR_GS_BASE, t->gs_base);
}

/* A new image's: the data selectors an ia32 task needs, no thread pointer. */
void x86_task_clear_segments(struct arch_task *t)
{
	t->ds = t->es = USER_DS;
	t->fs = t->gs = 0;
	t->fs_base = t->gs_base = 0;
}

void arch_frame_init_user(struct trap_frame *f, uintptr_t entry, uintptr_t sp, bool compat)
{
	memset(f, 0, sizeof(*f));
	f->rip = entry;
	f->cs = compat ? USER32_CS : USER_CS;
	f->rflags = RFLAGS_USER;
	f->rsp = sp;
	f->ss = USER_DS;
}

void arch_frame_set_fork_child(struct trap_frame *f)
{
	f->rax = 0;
}

/* The entry path kept the number in error_code (orig_rax): rax holds the result by now. */
void arch_syscall_restart(struct trap_frame *f)
{
	f->rax = f->error_code;
	f->rip -= SYSCALL_INSN_LEN;
}
