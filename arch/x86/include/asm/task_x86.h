/* Between arch/x86/task.c (shared) and the widths' task.c and switch.S. */
#ifndef RNDBITS_ASM_X86_TASK_X86_H
#define RNDBITS_ASM_X86_TASK_X86_H

#include <asm/task.h>

/* switch.S */
void x86_switch_stacks(uintptr_t *prev_sp, uintptr_t next_sp);
extern const char x86_kernel_task_entry[], x86_user_task_entry[];

/* <width>/task.c */
uintptr_t x86_boot_stack_top(void);
/* Where a trap from ring 3 (and, on x86_64, SYSCALL) starts the kernel stack. */
void x86_set_kernel_stack(uintptr_t top);
/* x86_64: the selectors and FS/GS bases live in the CPU while a task runs; i386 keeps its
 * selectors in the trap frame and has no bases to move. */
void x86_task_save_segments(struct arch_task *t);
void x86_task_load_segments(const struct arch_task *t);
void x86_task_clear_segments(struct arch_task *t);

#endif
