/* Linux ARM EABI syscall numbers (svc #0, number in r7) for the calls rndbits implements. */
#ifndef RNDBITS_ASM_ARM_UNISTD_H
#define RNDBITS_ASM_ARM_UNISTD_H

#define NR_exit 1
#define NR_write 4
#define NR_getpid 20
#define NR_brk 45
#define NR_munmap 91
#define NR_mmap2 192
#define NR_getuid32 199
#define NR_exit_group 248

#endif
