/* TEMPORARY (X86 helper): `x86task` checks the PIT tick, arch_idle and kernel-task switching
 * with FP state before the generic scheduler lands. */
#include <arch/cpu.h>
#include <arch/task.h>
#include <kernel/kernel.h>
#include <kernel/shell.h>

extern volatile uint64_t x86_timer_ticks;

static struct arch_task boot_t, ta, tb;
static volatile int steps;
static volatile int fails;

static void set_xmm0(uint64_t v)
{
	uint64_t buf[2] = { v, ~v };
	__asm__ volatile("movdqu %0, %%xmm0" : : "m"(buf));
}

static uint64_t get_xmm0(void)
{
	uint64_t buf[2];
	__asm__ volatile("movdqu %%xmm0, %0" : "=m"(buf));
	return buf[0];
}

static void task_a(void *arg)
{
	(void)arg;
	set_xmm0(0xAAAA);
	steps++;
	arch_switch_to(&ta, &tb);
	if (get_xmm0() != 0xAAAA)
		fails++;
	steps++;
	arch_switch_to(&ta, &boot_t);
	for (;;)
		;
}

static void task_b(void *arg)
{
	if (get_xmm0() != 0)
		fails++;
	if ((uintptr_t)arg != 0xB)
		fails++;
	set_xmm0(0xBBBB);
	steps++;
	arch_switch_to(&tb, &ta);
	for (;;)
		;
}

static int cmd_x86task(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	uint64_t t0, c0, c1;

	arch_timer_start(100);
	t0 = x86_timer_ticks;
	c0 = arch_cycles();
	while (x86_timer_ticks < t0 + 50)
		arch_idle();
	c1 = arch_cycles();
	printk("50 ticks in %llu ms\n",
	       (unsigned long long)((c1 - c0) * 1000 / arch_cycles_hz()));

	arch_task_adopt_boot(&boot_t);
	if (arch_task_create_kernel(&ta, task_a, 0) || arch_task_create_kernel(&tb, task_b, (void *)0xB))
		return 1;
	set_xmm0(0x1234);
	arch_switch_to(&boot_t, &ta);
	if (get_xmm0() != 0x1234)
		fails++;
	arch_task_destroy(&ta);
	arch_task_destroy(&tb);
	printk("switch: steps %d fails %d\n", steps, fails);
	return 0;
}
SHELL_COMMAND(x86task, "x86task", "x86task  TEMPORARY", cmd_x86task);
