/* open(2) flags whose values are arm's own (arch/arm/include/uapi/asm/fcntl.h; arm64 uses the
 * same, for its native and compat tasks alike). */
#ifndef RNDBITS_ASM_ARM_FCNTL_H
#define RNDBITS_ASM_ARM_FCNTL_H

#define O_DIRECTORY 040000
#define O_NOFOLLOW 0100000

#endif
