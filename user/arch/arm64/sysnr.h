/* AArch64 system call numbers, from the kernel's table. */
#ifndef RNDBITS_USER_SYSNR_H
#define RNDBITS_USER_SYSNR_H

#include <asm/unistd.h> /* arch/arm64/include */

#define SYS_write NR_write
#define SYS_exit NR_exit
#define SYS_exit_group NR_exit_group
#define SYS_mmap NR_mmap
#define SYS_munmap NR_munmap
#define SYS_brk NR_brk
#define SYS_getpid NR_getpid
#define SYS_getuid NR_getuid

/* The file calls: the kernel numbers them in kernel/syscall.c (its asm/unistd.h has only the
 * memory and process calls); Linux's numbers. AArch64 has no open, only openat. */
#define SYS_read 63
#define SYS_close 57
#define SYS_openat 56

#endif
