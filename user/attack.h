/* What the parts of the attack program share (user/attack.c: the case table and main;
 * attack_memory.c, attack_syscalls.c, attack_sysctl.c, attack_fds.c, attack_exhaust.c: the
 * cases, by topic). */
#ifndef RNDBITS_USER_ATTACK_H
#define RNDBITS_USER_ATTACK_H

#include <user.h>
#include <sysnr.h>

/* The ABI's mmap: mmap2 on the 32-bit ones (offset in 4096-byte units, which anonymous maps
 * ignore), as user/lib/syscalls.c calls it. */
#ifdef SYS_mmap2
#define SYS_mmap_ SYS_mmap2
#else
#define SYS_mmap_ SYS_mmap
#endif

#define AT_FDCWD (-100)
#define O_RDONLY 0
#define O_WRONLY 1
#define O_RDWR 2

#define PAGE USER_PAGE_SIZE
#define RND_BITS_FILE "/proc/sys/vm/mmap_rnd_bits"

/* What a case is run with: its name (argv[1]), its argument (NULL if none; an ADDR already
 * parsed into addr), the command line, and a RET instruction in main's stack frame. */
struct attack {
	const char *name;
	const char *arg;
	uintptr_t addr;
	int argc;
	char **argv;
	volatile uint32_t *stack_insn;
};

/* Set once an exec attack calls into data: `exec-*` re-entering main must return at once. */
extern volatile bool exec_in_progress;

__noreturn void usage(void);
bool is_err(long r);
const char *err_name(long e);
/* "attack: CALL = 3" or "attack: CALL = -EFAULT": the raw result the way strace shows it. */
void show(const char *call, long r);

/* The system calls the cases make with raw arguments: results are -errno, never errno. */
long sys_mmap(uintptr_t addr, unsigned long len, long prot, long flags);
long sys_open(const void *path, long flags);
long sys_read(long fd, uintptr_t buf, unsigned long n);
long sys_close(long fd);

/* Kernel memory and the process's own: attack_memory.c. */
int attack_access(const struct attack *a);
int attack_exec(const struct attack *a);
int attack_write_text(const struct attack *a);
int attack_map_stack(const struct attack *a);
/* Bad pointers and ranges passed to system calls: attack_syscalls.c. */
int sys_write_case(const struct attack *a);
int sys_mmap_case(const struct attack *a);
int sys_munmap_case(const struct attack *a);
int sys_brk_case(const struct attack *a);
int sys_file_case(const struct attack *a);
/* /proc/sys/vm/mmap_rnd_bits through system calls: attack_sysctl.c. */
int sysctl_read_case(const struct attack *a);
int sysctl_write_case(const struct attack *a);
int sysctl_nobody_case(const struct attack *a);
/* File descriptors across processes: attack_fds.c. */
int fds_leave_case(const struct attack *a);
int fds_inherited_case(const struct attack *a);
/* Resource exhaustion (file descriptors, frames, VMAs): attack_exhaust.c. */
int fds_case(const struct attack *a);
int oom_case(const struct attack *a);
int brk_oom_case(const struct attack *a);
int vmas_case(const struct attack *a);

#endif
