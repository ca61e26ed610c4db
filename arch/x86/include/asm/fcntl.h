/* open(2) flags: x86 (i386 and x86_64) uses asm-generic/fcntl.h's values. */
#ifndef RNDBITS_ASM_X86_FCNTL_H
#define RNDBITS_ASM_X86_FCNTL_H

#define O_DIRECTORY 0200000
#define O_NOFOLLOW 0400000

#endif
