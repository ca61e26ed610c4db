/* mmap(2)'s protection and flag values, Linux's (the same on arm, arm64, i386 and x86_64):
 * shared by the kernel's mmap and the user library. */
#ifndef RNDBITS_LIB_MMAN_H
#define RNDBITS_LIB_MMAN_H

#define PROT_NONE 0x0
#define PROT_READ 0x1
#define PROT_WRITE 0x2
#define PROT_EXEC 0x4
#define MAP_SHARED 0x01
#define MAP_PRIVATE 0x02
#define MAP_FIXED 0x10
#define MAP_ANONYMOUS 0x20

#endif
