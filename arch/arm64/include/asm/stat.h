/* arm64's struct stat (asm-generic's, 128 bytes) for native tasks, and the 32-bit ARM task's
 * stat64 (arm's layout, arch/arm/include/asm/stat.h) for compat ones. */
#ifndef RNDBITS_ASM_ARM64_STAT_H
#define RNDBITS_ASM_ARM64_STAT_H

#include <kernel/fs.h>

#include "../../../arm/include/asm/stat.h"

#define STAT64BIT_SIZE 128

static inline long stat64bit_encode(const struct kstat *k, uint8_t *b)
{
	for (unsigned i = 0; i < STAT64BIT_SIZE; i++)
		b[i] = 0;
	put_u64(b, 0, kstat_encode_dev(k->dev_major, k->dev_minor));
	put_u64(b, 8, k->ino);
	put_u32(b, 16, k->mode);
	put_u32(b, 20, k->nlink);
	put_u32(b, 24, k->uid);
	put_u32(b, 28, k->gid);
	put_u64(b, 32, kstat_encode_dev(k->rdev_major, k->rdev_minor)); /* then __pad1 */
	put_u64(b, 48, (uint64_t)k->size);
	put_u32(b, 56, k->blksize);                                   /* int, then __pad2 */
	put_u64(b, 64, (uint64_t)k->blocks);
	/* 72..119: the times and their nsec: 0; 120..127 __unused4/5 */
	return STAT64BIT_SIZE;
}

#endif
