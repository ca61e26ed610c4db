/* set_thread_area / get_thread_area: the i386 thread pointer is a GDT descriptor (one of three
 * TLS slots) whose selector the task loads into %gs. i386 processes and ia32 tasks on x86_64
 * use it; the kernel's entry code keeps the user's %gs (saved in the frame on i386, never
 * touched on x86_64). The GDT's slots are the running task's: arch_switch_to saves and loads
 * them with the task (arch/x86/task.c), a new image finds them empty. */
#include <asm/segment.h>
#include <kernel/kernel.h>
#include <lib/errno.h>
#include <lib/string.h>
#include <mm/mm.h>
#include <kernel/proc.h>
#include <kernel/syscall.h>

/* Linux's struct user_desc; the flag bits in the fifth word. */
struct user_desc {
	uint32_t entry_number, base_addr, limit, flags;
};
#define UD_SEG_32BIT (1u << 0)
#define UD_CONTENTS(f) (((f) >> 1) & 3)
#define UD_READ_EXEC_ONLY (1u << 3)
#define UD_LIMIT_IN_PAGES (1u << 4)
#define UD_SEG_NOT_PRESENT (1u << 5)
#define UD_USEABLE (1u << 6)

/* Linux's "empty" descriptor request: clears the slot. */
static bool desc_request_empty(const struct user_desc *u)
{
	return u->base_addr == 0 && u->limit == 0 &&
	       (u->flags & 0x7f) == (UD_READ_EXEC_ONLY | UD_SEG_NOT_PRESENT);
}

/* The 8-byte descriptor: a DPL-3 code/data segment with the user's base and limit. */
static uint64_t desc_encode(const struct user_desc *u)
{
	uint64_t base = u->base_addr, limit = u->limit & 0xfffff;
	uint64_t type = 1u /* accessed */ | (uint64_t)(!(u->flags & UD_READ_EXEC_ONLY)) << 1 |
			(uint64_t)UD_CONTENTS(u->flags) << 2;

	return (limit & 0xffff) | (base & 0xffffff) << 16 | type << 40 | 1ull << 44 /* S */ |
	       3ull << 45 /* DPL */ | (uint64_t)!(u->flags & UD_SEG_NOT_PRESENT) << 47 |
	       (limit >> 16) << 48 | (uint64_t)!!(u->flags & UD_USEABLE) << 52 |
	       (uint64_t)!!(u->flags & UD_SEG_32BIT) << 54 |
	       (uint64_t)!!(u->flags & UD_LIMIT_IN_PAGES) << 55 | (base >> 24) << 56;
}

static void desc_decode(uint64_t d, unsigned idx, struct user_desc *u)
{
	u->entry_number = idx;
	u->base_addr = (uint32_t)(((d >> 16) & 0xffffff) | ((d >> 56) << 24));
	u->limit = (uint32_t)((d & 0xffff) | ((d >> 48) & 0xf) << 16);
	u->flags = (d & (1ull << 54) ? UD_SEG_32BIT : 0) | (uint32_t)((d >> 42) & 3) << 1 |
		   (d & (1ull << 41) ? 0 : UD_READ_EXEC_ONLY) |
		   (d & (1ull << 55) ? UD_LIMIT_IN_PAGES : 0) |
		   (d & (1ull << 47) ? 0 : UD_SEG_NOT_PRESENT) | (d & (1ull << 52) ? UD_USEABLE : 0);
	if (!d)
		u->flags = UD_READ_EXEC_ONLY | UD_SEG_NOT_PRESENT;
}

static bool tls_index_ok(uint32_t idx)
{
	return idx >= GDT_ENTRY_TLS_MIN && idx < GDT_ENTRY_TLS_MIN + GDT_ENTRY_TLS_ENTRIES;
}

long sys_set_thread_area(const struct syscall_args *a)
{
	struct mm *mm = &a->p->mm;
	struct user_desc u;

	if (copy_from_user(mm, &u, a->a[0], sizeof(u)))
		return -EFAULT;
	if (u.entry_number == 0xffffffffu) { /* -1: the first free slot, told back */
		for (u.entry_number = GDT_ENTRY_TLS_MIN; tls_index_ok(u.entry_number) &&
							 *x86_gdt_tls_slot(u.entry_number);
		     u.entry_number++)
			;
		if (!tls_index_ok(u.entry_number))
			return -ESRCH;
		if (copy_to_user(mm, a->a[0], &u.entry_number, sizeof(u.entry_number)))
			return -EFAULT;
	}
	if (!tls_index_ok(u.entry_number))
		return -EINVAL;
	*x86_gdt_tls_slot(u.entry_number) = desc_request_empty(&u) ? 0 : desc_encode(&u);
	return 0;
}

long sys_get_thread_area(const struct syscall_args *a)
{
	struct mm *mm = &a->p->mm;
	uint32_t idx;
	struct user_desc u;

	if (copy_from_user(mm, &idx, a->a[0], sizeof(idx)))
		return -EFAULT;
	if (!tls_index_ok(idx))
		return -EINVAL;
	desc_decode(*x86_gdt_tls_slot(idx), idx, &u);
	return copy_to_user(mm, a->a[0], &u, sizeof(u)) ? -EFAULT : 0;
}

void arch_tls_reset(void)
{
	for (unsigned i = 0; i < GDT_ENTRY_TLS_ENTRIES; i++)
		*x86_gdt_tls_slot(GDT_ENTRY_TLS_MIN + i) = 0;
}
