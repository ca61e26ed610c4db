/* ARM EABI system call numbers (also the AArch32 compat ABI of arm64), from the kernel's table. */
#ifndef RNDBITS_USER_SYSNR_H
#define RNDBITS_USER_SYSNR_H

#include <asm/unistd.h> /* arch/arm/include */

#define SYS_write NR_write
#define SYS_exit NR_exit
#define SYS_exit_group NR_exit_group
#define SYS_mmap2 NR_mmap2
#define SYS_munmap NR_munmap
#define SYS_brk NR_brk
#define SYS_getpid NR_getpid
#define SYS_getuid NR_getuid32

/* The file calls: the kernel numbers them in kernel/syscall.c (its asm/unistd.h has only the
 * memory and process calls); Linux's numbers. */
#define SYS_read 3
#define SYS_open 5
#define SYS_close 6
#define SYS_openat 322

#endif
