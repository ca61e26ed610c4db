/* i386 system call numbers (also the ia32 compat ABI of x86_64), from the kernel's table. */
#ifndef RNDBITS_USER_SYSNR_H
#define RNDBITS_USER_SYSNR_H

#include <asm/unistd.h> /* arch/x86/include: the I386_NR_ names do not depend on CONFIG_64BIT */

#define SYS_write I386_NR_write
#define SYS_exit I386_NR_exit
#define SYS_exit_group I386_NR_exit_group
#define SYS_mmap2 I386_NR_mmap2
#define SYS_munmap I386_NR_munmap
#define SYS_brk I386_NR_brk
#define SYS_getpid I386_NR_getpid
#define SYS_getuid I386_NR_getuid32

/* The file calls: the kernel numbers them in kernel/syscall.c (its asm/unistd.h has only the
 * memory and process calls); Linux's numbers. */
#define SYS_read 3
#define SYS_open 5
#define SYS_close 6
#define SYS_openat 295

#endif
