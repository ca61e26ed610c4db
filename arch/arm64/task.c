/* Tasks on arm64 (include/arch/task.h): a kernel stack each, switched by a64_switch_to
 * (entry.S), which also saves and loads the FP/SIMD registers (q0-q31, FPSR, FPCR) and both
 * thread pointers (TPIDR_EL0, TPIDRRO_EL0): AArch32 compat tasks see the same registers as
 * D0-D31/FPSCR and TPIDRURW/TPIDRURO, so one path serves both. */
#include <arch/task.h>
#include <arch/trap.h>
#include <kernel/kernel.h>
#include <lib/errno.h>
#include <lib/string.h>
#include <mm/pmm.h>
#include <asm/arm64.h>
#include <asm/task.h>
#include <asm/trap_frame.h>

_Static_assert(__builtin_offsetof(struct arch_task, x19_x30) == TASK_X19, "asm/task.h");
_Static_assert(__builtin_offsetof(struct arch_task, sp) == TASK_SP, "asm/task.h");
_Static_assert(__builtin_offsetof(struct arch_task, fpsr) == TASK_FPSR, "asm/task.h");
_Static_assert(__builtin_offsetof(struct arch_task, fpcr) == TASK_FPCR, "asm/task.h");
_Static_assert(__builtin_offsetof(struct arch_task, tpidr) == TASK_TPIDR, "asm/task.h");
_Static_assert(__builtin_offsetof(struct arch_task, tpidrro) == TASK_TPIDRRO, "asm/task.h");
_Static_assert(__builtin_offsetof(struct arch_task, q) == TASK_Q, "asm/task.h");

void a64_switch_to(struct arch_task *prev, struct arch_task *next);
void a64_task_state_save(struct arch_task *t);
void a64_task_state_load(const struct arch_task *t);
void a64_ret_to_user(void);
void a64_kernel_task_start(void);

/* The lowest sp an exception from EL1 may find (entry.S): the running task's stack bottom plus
 * one frame. */
uintptr_t a64_kstack_limit;

/* The order of pmm blocks a task's kernel stack takes: TASK_KSTACK_SIZE, or one page if larger. */
static unsigned stack_order(void)
{
	unsigned order = 0;

	while ((PAGE_SIZE << order) < TASK_KSTACK_SIZE)
		order++;
	return order;
}

static int alloc_stack(struct arch_task *t)
{
	unsigned order = stack_order();
	phys_addr_t pa = pmm_alloc_pages_uninit(order);

	memset(t, 0, sizeof(*t));
	if (!pa)
		return -ENOMEM;
	t->stack_pa = pa;
	t->stack_size = PAGE_SIZE << order;
	t->stack_bottom = (uintptr_t)__va(pa);
	return 0;
}

static uintptr_t stack_top(const struct arch_task *t)
{
	return t->stack_bottom + t->stack_size;
}

int arch_task_create_kernel(struct arch_task *t, void (*fn)(void *), void *arg)
{
	int err = alloc_stack(t);

	if (err)
		return err;
	t->sp = stack_top(t);
	t->x19_x30[0] = (uint64_t)(uintptr_t)fn;
	t->x19_x30[1] = (uint64_t)(uintptr_t)arg;
	t->x19_x30[11] = (uint64_t)(uintptr_t)a64_kernel_task_start;
	return 0;
}

int arch_task_create_user(struct arch_task *t, const struct trap_frame *frame, bool from_current)
{
	int err = alloc_stack(t);

	if (err)
		return err;
	struct trap_frame *f = arch_task_user_frame(t);
	*f = *frame;
	t->sp = (uintptr_t)f;
	t->x19_x30[11] = (uint64_t)(uintptr_t)a64_ret_to_user;
	if (from_current)
		a64_task_state_save(t); /* the FP/SIMD and TLS registers still hold the parent's */
	return 0;
}

void arch_task_destroy(struct arch_task *t)
{
	if (t->stack_pa)
		pmm_free_pages(t->stack_pa, stack_order());
	t->stack_pa = 0;
}

void arch_task_adopt_boot(struct arch_task *t)
{
	memset(t, 0, sizeof(*t));
	t->stack_bottom = (uintptr_t)a64_kstack_bottom;
	t->stack_size = (uintptr_t)a64_kstack_top - (uintptr_t)a64_kstack_bottom;
	a64_kstack_limit = t->stack_bottom + TF_SIZE;
}

void arch_switch_to(struct arch_task *prev, struct arch_task *next)
{
	a64_kstack_limit = next->stack_bottom + TF_SIZE;
	a64_switch_to(prev, next);
}

struct trap_frame *arch_task_user_frame(struct arch_task *t)
{
	return (struct trap_frame *)(stack_top(t) - TF_SIZE);
}

void arch_frame_init_user(struct trap_frame *f, uintptr_t entry, uintptr_t sp, bool compat)
{
	memset(f, 0, sizeof(*f));
	if (compat) {
		/* AArch32's sp is r13, x13 here; SP_EL0 is unused. */
		f->pstate = PSR_MODE_USR32 | PSR_A | PSR_F | ((entry & 1) ? PSR_T : 0);
		f->pc = entry & ~(uintptr_t)1;
		f->x[13] = sp;
	} else {
		/* IRQs unmasked: the timer and the console reach a program that never calls. */
		f->pstate = PSR_MODE_EL0T | PSR_D | PSR_A | PSR_F;
		f->pc = entry;
		f->sp = sp;
	}
}

/* The registers EL0 could read of its previous image: zero, as Linux's reset values (FPSR and
 * FPCR 0, the thread pointers 0). t is the running task: its live registers are reset too. */
void arch_task_reset_user_state(struct arch_task *t)
{
	t->fpsr = t->fpcr = t->tpidr = t->tpidrro = 0;
	memset(t->q, 0, sizeof(t->q));
	a64_task_state_load(t);
}

void arch_frame_set_fork_child(struct trap_frame *f)
{
	f->x[0] = 0; /* AArch32's r0 too */
}

/* Back to the svc: 4 bytes in A64 and A32, 2 in Thumb; x0 (r0) as the call found it. */
void arch_syscall_restart(struct trap_frame *f)
{
	bool thumb = (f->pstate & PSR_MODE32) && (f->pstate & PSR_T);

	f->x[0] = f->orig_x0;
	f->pc -= thumb ? 2 : 4;
}
