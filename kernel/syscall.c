/* System calls: the arch's table for the caller's ABI (Linux's numbers, include/kernel/syscall.h)
 * picks the handler; a number without one is -ENOSYS, reported once per process and call.
 * Every user pointer goes through copy_from_user / copy_to_user. */
#include <arch/trap.h>
#include <kernel/kernel.h>
#include <lib/errno.h>
#include <lib/string.h>
#include <kernel/proc.h>
#include <kernel/syscall.h>
#include <kernel/trap.h>

/* Arguments as the task passed them: 32-bit tasks' registers hold 32-bit values. */
static uint64_t arg(const struct trap_info *ti, unsigned i)
{
	uint64_t v = arch_syscall_arg(ti->frame, i);

	return ti->compat ? (uint32_t)v : v;
}

/* The slot of nr in t, or NULL for a number the ABI does not have. */
static const struct syscall_entry *lookup(const struct syscall_table *t, unsigned long nr)
{
	if (nr < t->size)
		return &t->entries[nr];
	if (t->private_entries && nr - t->private_base < t->private_size)
		return &t->private_entries[nr - t->private_base];
	return NULL;
}

/* Which bit of sys_state.enosys_seen stands for nr: one each for the first 512 numbers and
 * arm's private ones, one shared by every other number (a fuzzer's random words would
 * otherwise print a line each). */
static unsigned seen_bit(const struct syscall_table *t, unsigned long nr)
{
	if (nr < 512)
		return (unsigned)nr;
	if (t->private_entries && nr - t->private_base < 8)
		return 512 + (unsigned)(nr - t->private_base);
	return 520;
}

/* Linux logs nothing here; rndbits says once per process and call what a program wanted, so a
 * user sees why their program goes another way: `hello[7]: syscall 293 (rseq) not implemented`. */
static void report_enosys(struct process *p, const struct syscall_table *t, unsigned long nr,
			  const struct syscall_entry *e)
{
	unsigned bit = seen_bit(t, nr);
	uint64_t *word = &p->sys.enosys_seen[bit / 64], mask = 1ull << (bit % 64);

	if (*word & mask)
		return;
	*word |= mask;
	if (e && e->name)
		printk("%s[%d]: syscall %lu (%s) not implemented\n", p->name, p->pid, nr, e->name);
	else
		printk("%s[%d]: syscall %lu not implemented\n", p->name, p->pid, nr);
}

void sys_state_init(struct process *p)
{
	memset(&p->sys, 0, sizeof(p->sys));
	arch_tls_reset();
}

void syscall_dispatch(struct trap_info *ti)
{
	struct process *p = current_process();

	if (!p)
		panic("syscall with no current process");

	const struct syscall_table *t = arch_syscall_table(ti->compat);
	unsigned long nr = arch_syscall_nr(ti->frame);
	const struct syscall_entry *e = lookup(t, nr);
	struct syscall_args a = { .p = p, .compat = ti->compat, .frame = ti->frame };
	long ret;

	for (unsigned i = 0; i < ARRAY_SIZE(a.a); i++)
		a.a[i] = arg(ti, i);
	if (e && e->fn) {
		ret = e->fn(&a);
	} else {
		report_enosys(p, t, nr, e);
		ret = -ENOSYS;
	}
	arch_syscall_set_return(ti->frame, ret);
}
