/* arm's struct stat64 (EABI: 64-bit members 8-byte aligned, 104 bytes), written at its offsets.
 * Also the layout of a 32-bit ARM task's stat64 on arm64 (arch/arm64/include/asm/stat.h
 * includes this). The 32-bit struct stat is shared with i386 (include/kernel/fs.h). */
#ifndef RNDBITS_ASM_ARM_STAT_H
#define RNDBITS_ASM_ARM_STAT_H

#include <kernel/fs.h>

#define STAT64_SIZE 104

static inline long stat64_encode(const struct kstat *k, uint8_t *b)
{
	for (unsigned i = 0; i < STAT64_SIZE; i++)
		b[i] = 0;
	put_u64(b, 0, kstat_encode_dev(k->dev_major, k->dev_minor)); /* st_dev, __pad0[4] */
	put_u32(b, 12, (uint32_t)k->ino);                             /* __st_ino */
	put_u32(b, 16, k->mode);
	put_u32(b, 20, k->nlink);
	put_u32(b, 24, k->uid);
	put_u32(b, 28, k->gid);
	put_u64(b, 32, kstat_encode_dev(k->rdev_major, k->rdev_minor)); /* st_rdev, __pad3[4] */
	put_u64(b, 48, (uint64_t)k->size);                            /* after 4 bytes of padding */
	put_u32(b, 56, k->blksize);
	put_u64(b, 64, (uint64_t)k->blocks);                          /* after 4 bytes of padding */
	/* 72..95: st_atime, st_mtime, st_ctime and their nsec: 0 */
	put_u64(b, 96, k->ino);
	return STAT64_SIZE;
}

#endif
