/* x86's stat layouts: x86_64's struct stat (144 bytes) for 64-bit tasks, and i386's struct
 * stat64 (96 bytes: i386 aligns 64-bit members to 4, so unlike arm's nothing is padded before
 * st_size or st_blocks) for i386 tasks, native or compat. */
#ifndef RNDBITS_ASM_X86_STAT_H
#define RNDBITS_ASM_X86_STAT_H

#include <kernel/fs.h>

#define STAT64_SIZE 96
#define STAT64BIT_SIZE 144

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
	put_u64(b, 44, (uint64_t)k->size);
	put_u32(b, 52, k->blksize);
	put_u64(b, 56, (uint64_t)k->blocks);
	/* 64..87: the times and their nsec: 0 */
	put_u64(b, 88, k->ino);
	return STAT64_SIZE;
}

static inline long stat64bit_encode(const struct kstat *k, uint8_t *b)
{
	for (unsigned i = 0; i < STAT64BIT_SIZE; i++)
		b[i] = 0;
	put_u64(b, 0, kstat_encode_dev(k->dev_major, k->dev_minor));
	put_u64(b, 8, k->ino);
	put_u64(b, 16, k->nlink);
	put_u32(b, 24, k->mode);
	put_u32(b, 28, k->uid);
	put_u32(b, 32, k->gid);                                      /* then __pad0 */
	put_u64(b, 40, kstat_encode_dev(k->rdev_major, k->rdev_minor));
	put_u64(b, 48, (uint64_t)k->size);
	put_u64(b, 56, k->blksize);
	put_u64(b, 64, (uint64_t)k->blocks);
	/* 72..119: the times and their nsec: 0; 120..143: __unused[3] */
	return STAT64BIT_SIZE;
}

#endif
