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
#define MAP_SHARED_VALIDATE 0x03
#define MAP_TYPE 0x0f /* the field holding one of the three above */
#define MAP_FIXED 0x10
#define MAP_ANONYMOUS 0x20
/* The flags every kernel since 2.6 accepts and MAP_SHARED_VALIDATE does not refuse (Linux's
 * LEGACY_MAP_MASK): the above and GROWSDOWN, DENYWRITE, EXECUTABLE, LOCKED, NORESERVE,
 * POPULATE, NONBLOCK, STACK, HUGETLB, UNINITIALIZED. */
#define MAP_LEGACY_MASK                                                                    \
	(MAP_SHARED | MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS | 0x0100 | 0x0800 | 0x1000 |  \
	 0x2000 | 0x4000 | 0x8000 | 0x10000 | 0x20000 | 0x40000 | 0x4000000)

#endif
