/* x86_64 system call numbers: the kernel's own table, arch/x86/include/asm/unistd_64.h, under
 * the names user/ uses. */
#ifndef RNDBITS_USER_SYSNR_H
#define RNDBITS_USER_SYSNR_H

#include <asm/unistd_64.h> /* arch/x86/include */

#define SYS_read __NR_read
#define SYS_write __NR_write
#define SYS_open __NR_open
#define SYS_openat __NR_openat
#define SYS_close __NR_close
#define SYS_exit __NR_exit
#define SYS_exit_group __NR_exit_group
#define SYS_mmap __NR_mmap
#define SYS_munmap __NR_munmap
#define SYS_brk __NR_brk
#define SYS_getpid __NR_getpid
#define SYS_getuid __NR_getuid

#endif
