/* ARMv7-A tasks (include/arch/task.h): a 16 KiB SVC stack each, switched by arch_switch_to
 * (entry.S) together with the user state the kernel never touches (VFP/NEON D0-D31, FPSCR,
 * TPIDRURW, TPIDRURO). A task in user mode has nothing on its SVC stack, so a trap pushes the
 * user registers at its very top: they are always at the same place (arch_task_user_frame). */
#include <arch/task.h>
#include <arch/trap.h>
#include <asm/cp15.h>
#include <asm/trap_frame.h>
#include <kernel/kernel.h>
#include <lib/errno.h>
#include <lib/string.h>
#include <mm/pmm.h>

extern char boot_svc_stack[];
void arm_task_start_kernel(void);
void arm_task_start_user(void);
void arm_user_state_save(struct arch_task *t);
void arm_user_state_load(const struct arch_task *t);

/* What arch_switch_to pops from a task's stack: r3-r11, then the address it returns to. */
struct switch_frame {
	uint32_t r3, r4, r5, r6_r11[6];
	uint32_t lr;
};

static uintptr_t stack_top(const struct arch_task *t)
{
	return t->stack + ARM_KSTACK_SIZE;
}

/* Zeroed user state (FPSCR and the thread IDs reset to 0, as on Linux); the stack is not
 * zeroed: the kernel reads only what it wrote there. */
static int alloc_stack(struct arch_task *t)
{
	phys_addr_t pa = pmm_alloc_pages_uninit(ARM_KSTACK_ORDER);

	memset(t, 0, sizeof(*t));
	if (!pa)
		return -ENOMEM;
	t->stack = (uintptr_t)__va(pa);
	return 0;
}

/* The first arch_switch_to to t pops *sf, placed right below `below`, and continues at resume. */
static struct switch_frame *push_switch_frame(struct arch_task *t, uintptr_t below,
					      void (*resume)(void))
{
	struct switch_frame *sf = (struct switch_frame *)(below - sizeof(*sf));

	memset(sf, 0, sizeof(*sf));
	sf->lr = (uint32_t)(uintptr_t)resume;
	t->sp = (uint32_t)(uintptr_t)sf;
	return sf;
}

int arch_task_create_kernel(struct arch_task *t, void (*fn)(void *), void *arg)
{
	struct switch_frame *sf;

	if (alloc_stack(t))
		return -ENOMEM;
	sf = push_switch_frame(t, stack_top(t), arm_task_start_kernel);
	sf->r4 = (uint32_t)(uintptr_t)fn;
	sf->r5 = (uint32_t)(uintptr_t)arg;
	return 0;
}

struct trap_frame *arch_task_user_frame(struct arch_task *t)
{
	return (struct trap_frame *)(stack_top(t) - sizeof(struct trap_frame));
}

/* The frame goes where a trap from user mode would have left it; the first switch continues
 * in entry.S's exception return (arm_task_start_user), which restores it. */
int arch_task_create_user(struct arch_task *t, const struct trap_frame *frame, bool from_current)
{
	struct trap_frame *f;

	if (alloc_stack(t))
		return -ENOMEM;
	f = arch_task_user_frame(t);
	*f = *frame;
	push_switch_frame(t, (uintptr_t)f, arm_task_start_user);
	if (from_current)
		arm_user_state_save(t);
	return 0;
}

void arch_task_destroy(struct arch_task *t)
{
	if (t->stack && t->stack != (uintptr_t)boot_svc_stack)
		pmm_free_pages(__pa(t->stack), ARM_KSTACK_ORDER);
	t->stack = 0;
}

void arch_task_adopt_boot(struct arch_task *t)
{
	memset(t, 0, sizeof(*t));
	t->stack = (uintptr_t)boot_svc_stack;
}

/* The running task's user state lives in the CPU: reset it there. */
void arch_task_reset_user_state(struct arch_task *t)
{
	struct arch_task zero;

	(void)t;
	memset(&zero, 0, sizeof(zero));
	arm_user_state_load(&zero);
}

/* A Thumb entry point has bit 0 set, as Linux's start_thread reads it (CPSR.T). IRQs are
 * unmasked in user mode (the timer, Ctrl-C); FIQs are not used. The image was just written:
 * make it visible to instruction fetch (QEMU has no caches to clean; real hardware would also
 * need a D-cache clean to PoU of the written range). */
void arch_frame_init_user(struct trap_frame *f, uintptr_t entry, uintptr_t sp, bool compat)
{
	(void)compat;
	memset(f, 0, sizeof(*f));
	f->pc = entry & ~(uintptr_t)1;
	f->sp = sp;
	f->cpsr = ARM_MODE_USR | ARM_PSR_F | ((entry & 1) ? ARM_PSR_T : 0);
	arm_iciallu(0);
	arm_bpiallis(0);
	arm_dsb();
	arm_isb();
}

void arch_frame_set_fork_child(struct trap_frame *f)
{
	f->r[0] = 0;
}

/* The return address is the instruction after the svc: 4 bytes back in ARM state, 2 in Thumb
 * (a 16-bit svc); r0 gets back the first argument the result replaced. */
void arch_syscall_restart(struct trap_frame *f)
{
	f->r[0] = f->orig_r0;
	f->pc -= (f->cpsr & ARM_PSR_T) ? 2 : 4;
}
