/* Arch interface: tasks and the timer (issue 17). Every task (the shell, which is init, pid 1, and
 * each user process) has its own kernel stack. The generic scheduler (kernel/sched.c) decides
 * which task runs; the arch saves and restores what belongs to a task: its callee-saved kernel
 * registers, its user registers (a struct trap_frame at the top of its kernel stack while it is in
 * the kernel), its FP/SIMD registers and its thread pointer(s).
 *
 * Rules every arch keeps:
 * - The kernel runs with interrupts masked. An interrupt arrives either from user mode (then it
 *   is handled like any other trap of that task, on its kernel stack, through trap_dispatch) or
 *   inside arch_idle(), which unmasks, waits and masks again.
 * - A trap from user mode saves the user registers on the running task's own kernel stack, so
 *   trap_dispatch may call schedule(), which switches to another task's kernel stack and comes
 *   back later; the return to user mode then restores this task's registers.
 * - The kernel itself never uses the FP/SIMD registers, so while a task is in the kernel they
 *   still hold its user values: arch_switch_to saves them into prev and loads next's. */
#ifndef RNDBITS_ARCH_TASK_H
#define RNDBITS_ARCH_TASK_H

#include <lib/types.h>
#include <asm/task.h> /* struct arch_task: the arch's per-task state */

struct trap_frame;

/* A kernel task that starts by calling fn(arg) on its own new kernel stack (fn never returns).
 * 0 or -ENOMEM. */
int arch_task_create_kernel(struct arch_task *t, void (*fn)(void *), void *arg);

/* A user task whose first arch_switch_to returns to user mode with the registers in *frame
 * (copied onto its new kernel stack), the FP/SIMD registers and thread pointer(s) copied from
 * the running task's (fork) or reset (from_current false: a first exec from the shell).
 * 0 or -ENOMEM. */
int arch_task_create_user(struct arch_task *t, const struct trap_frame *frame, bool from_current);

/* Free a task's kernel stack and state. Never called for the running task (its parent reaps it). */
void arch_task_destroy(struct arch_task *t);

/* The boot context becomes the first task (the shell): its stack is the boot stack. */
void arch_task_adopt_boot(struct arch_task *t);

/* Save prev's kernel registers, FP/SIMD registers and thread pointer(s), make next's current
 * (including the stack a trap from user mode will use: TSS.rsp0/esp0 on x86) and continue where
 * next stopped. Returns when prev is switched back to. The user page tables are switched by the
 * caller (arch_switch_user_root). */
void arch_switch_to(struct arch_task *prev, struct arch_task *next);

/* The user registers of a task that is in the kernel (the frame its trap saved), or of a task
 * created by arch_task_create_user that has not run yet. */
struct trap_frame *arch_task_user_frame(struct arch_task *t);

/* execve: the registers a new image starts with (all zero but pc = entry, sp, the mode: 32-bit
 * compat when compat, Thumb when entry's bit 0 is set on ARM), and the running task's FP/SIMD
 * registers and thread pointer(s) reset to their reset values. */
void arch_frame_init_user(struct trap_frame *f, uintptr_t entry, uintptr_t sp, bool compat);
void arch_task_reset_user_state(struct arch_task *t);

/* fork's child: the same user registers with the system call returning 0. */
void arch_frame_set_fork_child(struct trap_frame *f);

/* Start a periodic timer interrupt hz times a second (arm/arm64: the generic timer's virtual
 * timer through the GIC; x86: the PIT through the 8259). Each tick reaches trap_dispatch as
 * TRAP_IRQ with irq == IRQ_TIMER, already acknowledged. */
void arch_timer_start(unsigned hz);

/* Rewind a system call so that returning to user mode executes it again (SA_RESTART, and a
 * sleep interrupted by a signal that is ignored). */
void arch_syscall_restart(struct trap_frame *f);

#endif
