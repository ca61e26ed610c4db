/* open(2) flags whose values are arm64's own (arch/arm64/include/uapi/asm/fcntl.h: arm's, so
 * 32-bit ARM tasks pass the same values). */
#ifndef RNDBITS_ASM_ARM64_FCNTL_H
#define RNDBITS_ASM_ARM64_FCNTL_H

#define O_DIRECTORY 040000
#define O_NOFOLLOW 0100000

#endif
