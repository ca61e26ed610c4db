/* x86_64 system call numbers, from the kernel's table (which keys them on CONFIG_64BIT; user
 * objects see no config.h, so say it here). */
#ifndef RNDBITS_USER_SYSNR_H
#define RNDBITS_USER_SYSNR_H

#ifndef CONFIG_64BIT
#define CONFIG_64BIT 1
/* The file calls: the kernel numbers them in kernel/syscall.c (its asm/unistd.h has only the
 * memory and process calls); Linux's numbers. */
#define SYS_read 0
#define SYS_open 2
#define SYS_close 3
#define SYS_openat 257

#endif
#include <asm/unistd.h> /* arch/x86/include */

#define SYS_write NR_write
#define SYS_exit NR_exit
#define SYS_exit_group NR_exit_group
#define SYS_mmap NR_mmap
#define SYS_munmap NR_munmap
#define SYS_brk NR_brk
#define SYS_getpid NR_getpid
#define SYS_getuid NR_getuid

/* The file calls: the kernel numbers them in kernel/syscall.c (its asm/unistd.h has only the
 * memory and process calls); Linux's numbers. */
#define SYS_read 0
#define SYS_open 2
#define SYS_close 3
#define SYS_openat 257

#endif
