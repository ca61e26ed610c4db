/* System calls: Linux's numbers per ABI (asm/unistd.h), Linux's semantics and error codes, for
 * the small set rndbits' user programs use. Every user pointer goes through copy_from_user. */
#include <arch/memory.h>
#include <arch/trap.h>
#include <console.h>
#include <cred.h>
#include <kernel.h>
#include <lib/errno.h>
#include <mm.h>
#include <proc.h>
#include <trap.h>

#include <asm/unistd.h>

#include <syscall.h>

/* The file calls (kernel/fd.c), numbered per ABI as in Linux's tables. arch/<isa>/unistd.h has
 * only the memory and process calls; -1 marks a call the ABI does not have (aarch64 has no
 * open, only openat). The 32-bit Arm and i386 numbers are also the compat ones. */
#define ARM_NR_read 3
#define ARM_NR_open 5
#define ARM_NR_close 6
#define ARM_NR_openat 322
#define I386_FD_NR_read 3
#define I386_FD_NR_open 5
#define I386_FD_NR_close 6
#define I386_FD_NR_openat 295
#if defined(CONFIG_ISA_ARM64)
#define FD_NR_read 63
#define FD_NR_open (-1)
#define FD_NR_close 57
#define FD_NR_openat 56
#define FD_COMPAT_NR(name) ARM_NR_##name
#elif defined(CONFIG_ISA_ARM)
#define FD_NR_read ARM_NR_read
#define FD_NR_open ARM_NR_open
#define FD_NR_close ARM_NR_close
#define FD_NR_openat ARM_NR_openat
#elif defined(CONFIG_64BIT) /* x86_64 */
#define FD_NR_read 0
#define FD_NR_open 2
#define FD_NR_close 3
#define FD_NR_openat 257
#define FD_COMPAT_NR(name) I386_FD_NR_##name
#else /* i386 */
#define FD_NR_read I386_FD_NR_read
#define FD_NR_open I386_FD_NR_open
#define FD_NR_close I386_FD_NR_close
#define FD_NR_openat I386_FD_NR_openat
#endif
#ifdef CONFIG_COMPAT
#define FD_SYSNR(ti, name) ((ti)->compat ? (long)FD_COMPAT_NR(name) : (long)FD_NR_##name)
#else
#define FD_SYSNR(ti, name) ((long)FD_NR_##name)
#endif

/* The number of syscall `name` for the calling task's ABI. */
#ifdef CONFIG_COMPAT
#define SYSNR(ti, name) ((ti)->compat ? COMPAT_NR_##name : NR_##name)
#else
#define SYSNR(ti, name) NR_##name
#endif

/* 32-bit ABIs have mmap2 (offset in 4096-byte units) and getuid32 where 64-bit ones have mmap
 * and getuid; for anonymous maps the offset is ignored, so one handler serves both. */
#ifdef CONFIG_64BIT
#define NATIVE_NR_mmap NR_mmap
#define NATIVE_NR_getuid NR_getuid
#else
#define NATIVE_NR_mmap NR_mmap2
#define NATIVE_NR_getuid NR_getuid32
#endif
#ifdef CONFIG_COMPAT
#define ABI_NR(ti, name) ((ti)->compat ? COMPAT_NR_##name##_32 : NATIVE_NR_##name)
#define COMPAT_NR_mmap_32 COMPAT_NR_mmap2
#define COMPAT_NR_getuid_32 COMPAT_NR_getuid32
#else
#define ABI_NR(ti, name) NATIVE_NR_##name
#endif

/* Arguments as the task passed them: 32-bit tasks' registers hold 32-bit values. */
static uint64_t arg(const struct trap_info *ti, unsigned i)
{
	uint64_t v = arch_syscall_arg(ti->frame, i);

	return ti->compat ? (uint32_t)v : v;
}

/* What a syscall returns to a task: errors as -errno in the task's own width. */
static long dispatch(struct trap_info *ti, struct process *p, unsigned long nr)
{
	struct mm *mm = &p->mm;
	struct syscall_args a = { .p = p, .compat = ti->compat };

	for (unsigned i = 0; i < ARRAY_SIZE(a.a); i++)
		a.a[i] = arg(ti, i);

	if (nr == SYSNR(ti, exit) || nr == SYSNR(ti, exit_group))
		arch_user_exit((long)(arg(ti, 0) & 0xff));
	if (nr == SYSNR(ti, write))
		return sys_write(&a);
	if ((long)nr == FD_SYSNR(ti, read))
		return sys_read(&a);
	if ((long)nr == FD_SYSNR(ti, open))
		return sys_open(&a);
	if ((long)nr == FD_SYSNR(ti, openat))
		return sys_openat(&a);
	if ((long)nr == FD_SYSNR(ti, close))
		return sys_close(&a);
	if (nr == SYSNR(ti, getpid))
		return p->pid;
	if (nr == SYSNR(ti, brk))
		return (long)do_brk(mm, arg(ti, 0));
	if (nr == SYSNR(ti, munmap))
		return do_munmap(mm, arg(ti, 0), arg(ti, 1));
	if (nr == ABI_NR(ti, mmap))
		return (long)do_mmap(mm, arg(ti, 0), arg(ti, 1), (unsigned long)arg(ti, 2),
				     (unsigned long)arg(ti, 3));
	if (nr == ABI_NR(ti, getuid))
		return current_uid();
	return -ENOSYS;
}

void syscall_dispatch(struct trap_info *ti)
{
	struct process *p = current_process();

	if (!p)
		panic("syscall with no current process");
	long ret = dispatch(ti, p, arch_syscall_nr(ti->frame));
	arch_syscall_set_return(ti->frame, ret);
}
