/* AArch64 system call numbers: the kernel's own table, arch/arm64/include/asm/unistd.h, under
 * the names user/ uses. AArch64 has no open, only openat. */
#ifndef RNDBITS_USER_SYSNR_H
#define RNDBITS_USER_SYSNR_H

#include <asm/unistd.h> /* arch/arm64/include */

#define SYS_read __NR_read
#define SYS_write __NR_write
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
