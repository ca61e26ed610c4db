/* Tasks on x86 (include/arch/task.h), shared by i386 and x86_64: each task's kernel stack, the
 * first frames of a task that has never run, and what arch_switch_to moves besides the
 * callee-saved registers (switch.S): the x87/SSE registers, the GDT TLS slots, the width's
 * segments, and the kernel stack a trap from user mode lands on.
 *
 * Task stacks come from the direct map (order-2 frames): it is mapped with large pages, so no
 * guard page can sit below them. A word at the bottom that arch_switch_to checks on every
 * switch catches an overflow after the fact instead (the boot stack keeps its guard page). */
#include <arch/memory.h>
#include <arch/task.h>
#include <asm/fpu.h>
#include <asm/segment.h>
#include <asm/task_x86.h>
#include <asm/trap_frame.h>
#include <kernel/kernel.h>
#include <lib/errno.h>
#include <lib/string.h>
#include <mm/pmm.h>

#define STACK_CANARY ((uintptr_t)0x5a4e5c0bdeadc0deull)

/* The registers switch.S pops, lowest address first, then its return address. */
struct switch_frame {
#ifdef CONFIG_64BIT
	uintptr_t r15, r14, r13, r12, rbx, rbp;
#define SF_FN rbx
#define SF_ARG r12
#else
	uintptr_t edi, esi, ebx, ebp;
#define SF_FN ebx
#define SF_ARG esi
#endif
	uintptr_t ret;
};

static int alloc_stack(struct arch_task *t)
{
	phys_addr_t pa = pmm_alloc_pages_uninit(X86_KSTACK_ORDER);

	if (!pa)
		return -ENOMEM;
	t->stack = (uintptr_t)__va(pa);
	t->stack_top = t->stack + X86_KSTACK_SIZE;
	*(uintptr_t *)t->stack = STACK_CANARY;
	return 0;
}

static void check_stack(const struct arch_task *t)
{
	if (t->stack && *(const uintptr_t *)t->stack != STACK_CANARY)
		panic("x86: kernel stack %p..%p overflowed", (void *)t->stack,
		      (void *)t->stack_top);
}

/* Below top: a switch frame that returns to entry. */
static struct switch_frame *push_switch_frame(struct arch_task *t, uintptr_t top,
					      const char *entry)
{
	struct switch_frame *sf = (struct switch_frame *)top - 1;

	memset(sf, 0, sizeof(*sf));
	sf->ret = (uintptr_t)entry;
	t->sp = (uintptr_t)sf;
	return sf;
}

static void task_clear_tls(struct arch_task *t)
{
	memset(t->tls, 0, sizeof(t->tls));
	x86_task_clear_segments(t);
}

int arch_task_create_kernel(struct arch_task *t, void (*fn)(void *), void *arg)
{
	struct switch_frame *sf;

	memset(t, 0, sizeof(*t));
	if (alloc_stack(t))
		return -ENOMEM;
	sf = push_switch_frame(t, t->stack_top, x86_kernel_task_entry);
	sf->SF_FN = (uintptr_t)fn;
	sf->SF_ARG = (uintptr_t)arg;
	x86_fpu_init_task(t->fpu);
	task_clear_tls(t);
	return 0;
}

__noreturn void x86_kernel_task_returned(void)
{
	panic("x86: a kernel task's function returned");
}

static void save_tls_slots(struct arch_task *t)
{
	for (unsigned i = 0; i < X86_TLS_SLOTS; i++)
		t->tls[i] = *x86_gdt_tls_slot(GDT_ENTRY_TLS_MIN + i);
}

static void load_tls_slots(const struct arch_task *t)
{
	for (unsigned i = 0; i < X86_TLS_SLOTS; i++)
		*x86_gdt_tls_slot(GDT_ENTRY_TLS_MIN + i) = t->tls[i];
}

int arch_task_create_user(struct arch_task *t, const struct trap_frame *frame, bool from_current)
{
	struct trap_frame *f;

	memset(t, 0, sizeof(*t));
	if (alloc_stack(t))
		return -ENOMEM;
	f = arch_task_user_frame(t);
	*f = *frame;
	push_switch_frame(t, (uintptr_t)f, x86_user_task_entry);
	if (from_current) {
		/* The kernel never touched them: the registers are still the running task's. */
		x86_fpu_save(t->fpu);
		save_tls_slots(t);
		x86_task_save_segments(t);
	} else {
		x86_fpu_init_task(t->fpu);
		task_clear_tls(t);
	}
	return 0;
}

void arch_task_destroy(struct arch_task *t)
{
	if (t->stack) {
		check_stack(t);
		pmm_free_pages(__pa(t->stack), X86_KSTACK_ORDER);
	}
	t->stack = t->stack_top = t->sp = 0;
}

/* Its fpu, TLS and segments are saved at its first switch away. */
void arch_task_adopt_boot(struct arch_task *t)
{
	memset(t, 0, sizeof(*t));
	t->stack_top = x86_boot_stack_top();
}

void arch_switch_to(struct arch_task *prev, struct arch_task *next)
{
	check_stack(prev);
	check_stack(next);
	x86_fpu_save(prev->fpu);
	save_tls_slots(prev);
	x86_task_save_segments(prev);
	load_tls_slots(next);
	x86_task_load_segments(next);
	x86_fpu_restore(next->fpu);
	x86_set_kernel_stack(next->stack_top);
	x86_switch_stacks(&prev->sp, next->sp);
}

struct trap_frame *arch_task_user_frame(struct arch_task *t)
{
	return (struct trap_frame *)t->stack_top - 1;
}

/* execve, for the running task: its registers and GDT slots are live, so reset them there
 * (and in t, which the next switch away overwrites anyway). */
void arch_task_reset_user_state(struct arch_task *t)
{
	x86_fpu_reset();
	task_clear_tls(t);
	load_tls_slots(t);
	x86_task_load_segments(t);
}

