/* i386's part of the task interface (include/arch/task.h): the frame a new image starts with,
 * fork's return value, rewinding `int 0x80`, and TSS.esp0. */
#include <arch/task.h>
#include <asm/segment.h>
#include <asm/task_x86.h>
#include <asm/trap_frame.h>
#include <asm/x86_32.h>
#include <lib/string.h>

#define EFLAGS_USER 0x202 /* IF on, reserved bit 1; IOPL 0 */
#define INT80_LEN 2       /* cd 80: the only system call entry (the vDSO's too) */

uintptr_t x86_boot_stack_top(void)
{
	return (uintptr_t)boot_stack_top;
}

void x86_set_kernel_stack(uintptr_t top)
{
	x86_tss_set_esp0(top);
}

/* The selectors are in the trap frame: iret and entry.S move them. */
void x86_task_save_segments(struct arch_task *t)
{
	(void)t;
}

void x86_task_load_segments(const struct arch_task *t)
{
	(void)t;
}

void x86_task_clear_segments(struct arch_task *t)
{
	(void)t;
}

void arch_frame_init_user(struct trap_frame *f, uintptr_t entry, uintptr_t sp, bool compat)
{
	(void)compat; /* an i386 kernel's native tasks are the 32-bit ones */
	memset(f, 0, sizeof(*f));
	f->gs = f->fs = f->es = f->ds = USER_DS;
	f->eip = (uint32_t)entry;
	f->cs = USER_CS;
	f->eflags = EFLAGS_USER;
	f->user_esp = (uint32_t)sp;
	f->user_ss = USER_DS;
}

void arch_frame_set_fork_child(struct trap_frame *f)
{
	f->eax = 0;
}

/* The entry path kept the number in error_code (orig_eax): eax holds the result by now. */
void arch_syscall_restart(struct trap_frame *f)
{
	f->eax = f->error_code;
	f->eip -= INT80_LEN;
}
