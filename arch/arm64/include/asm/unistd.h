/* Linux arm64 syscall numbers (svc #0, number in x8), and the AArch32 compat ones (EABI, r7). */
#ifndef RNDBITS_ASM_ARM64_UNISTD_H
#define RNDBITS_ASM_ARM64_UNISTD_H

#define NR_write 64
#define NR_exit 93
#define NR_exit_group 94
#define NR_getpid 172
#define NR_getuid 174
#define NR_brk 214
#define NR_munmap 215
#define NR_mmap 222

#define COMPAT_NR_exit 1
#define COMPAT_NR_write 4
#define COMPAT_NR_getpid 20
#define COMPAT_NR_brk 45
#define COMPAT_NR_munmap 91
#define COMPAT_NR_mmap2 192
#define COMPAT_NR_getuid32 199
#define COMPAT_NR_exit_group 248

#endif
