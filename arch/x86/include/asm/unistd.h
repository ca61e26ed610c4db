/* Linux x86 syscall numbers: i386 (int 0x80, number in eax) and x86_64 (syscall, rax). On
 * x86_64 the i386 numbers are the compat ones. */
#ifndef RNDBITS_ASM_X86_UNISTD_H
#define RNDBITS_ASM_X86_UNISTD_H

#define I386_NR_exit 1
#define I386_NR_write 4
#define I386_NR_getpid 20
#define I386_NR_brk 45
#define I386_NR_munmap 91
#define I386_NR_mmap2 192
#define I386_NR_getuid32 199
#define I386_NR_exit_group 252

#ifdef CONFIG_64BIT
#define NR_write 1
#define NR_mmap 9
#define NR_munmap 11
#define NR_brk 12
#define NR_getpid 39
#define NR_exit 60
#define NR_getuid 102
#define NR_exit_group 231

#define COMPAT_NR_exit I386_NR_exit
#define COMPAT_NR_write I386_NR_write
#define COMPAT_NR_getpid I386_NR_getpid
#define COMPAT_NR_brk I386_NR_brk
#define COMPAT_NR_munmap I386_NR_munmap
#define COMPAT_NR_mmap2 I386_NR_mmap2
#define COMPAT_NR_getuid32 I386_NR_getuid32
#define COMPAT_NR_exit_group I386_NR_exit_group
#else
#define NR_exit I386_NR_exit
#define NR_write I386_NR_write
#define NR_getpid I386_NR_getpid
#define NR_brk I386_NR_brk
#define NR_munmap I386_NR_munmap
#define NR_mmap2 I386_NR_mmap2
#define NR_getuid32 I386_NR_getuid32
#define NR_exit_group I386_NR_exit_group
#endif

#endif
