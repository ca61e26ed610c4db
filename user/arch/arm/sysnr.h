/* ARM EABI system call numbers (also the AArch32 compat ABI of arm64): the kernel's own table,
 * arch/arm/include/asm/unistd.h, under the names user/ uses. */
#ifndef RNDBITS_USER_SYSNR_H
#define RNDBITS_USER_SYSNR_H

#include <asm/unistd.h> /* arch/arm/include */

#define SYS_read __NR_read
#define SYS_write __NR_write
#define SYS_open __NR_open
#define SYS_openat __NR_openat
#define SYS_close __NR_close
#define SYS_exit __NR_exit
#define SYS_exit_group __NR_exit_group
#define SYS_mmap2 __NR_mmap2
#define SYS_munmap __NR_munmap
#define SYS_brk __NR_brk
#define SYS_getpid __NR_getpid
#define SYS_getuid __NR_getuid32

#endif
