/* A reader for cpio "newc" archives (lib/cpio.c), the format of Linux's initramfs: magic
 * "070701" (or "070702", whose checksum field is then verified), thirteen 8-digit hex fields,
 * the name (NUL-terminated, padded to 4 bytes) and the data (padded to 4 bytes), up to an entry
 * named "TRAILER!!!". Archives may be concatenated, with NUL padding between them, as Linux's
 * initramfs accepts.
 *
 * The archive comes from outside the kernel, so nothing in it is trusted: every field is
 * checked before use and no byte outside [data, data + size) is ever read.
 *
 *	struct cpio_reader r;
 *	struct cpio_entry e;
 *	int n;
 *	cpio_init(&r, data, size);
 *	while ((n = cpio_next(&r, &e)) > 0)
 *		... e.name, e.mode, e.data, e.size ...
 *	if (n < 0)
 *		... r.error says why, r.index which entry ...
 */
#ifndef RNDBITS_LIB_CPIO_H
#define RNDBITS_LIB_CPIO_H

#include <lib/types.h>

#define CPIO_HEADER_SIZE 110u /* 6 bytes of magic, 13 fields of 8 hex digits */

/* st_mode's file types, as in the archive's mode field. */
#define CPIO_S_IFMT 0170000u
#define CPIO_S_IFDIR 0040000u
#define CPIO_S_IFREG 0100000u
#define CPIO_S_IFLNK 0120000u

struct cpio_entry {
	const char *name;    /* NUL-terminated, inside the archive; never "" */
	size_t namesize;     /* the header's namesize: strlen(name) + 1, or more (NUL padding) */
	uint32_t ino, mode, uid, gid, nlink, mtime;
	uint32_t devmajor, devminor, rdevmajor, rdevminor;
	const uint8_t *data; /* size bytes inside the archive, 4-byte aligned relative to it */
	size_t size;
	size_t offset;       /* of the header, from the start of the archive */
};

struct cpio_reader {
	const uint8_t *base;
	size_t size;
	size_t pos;          /* of the next header */
	unsigned index;      /* entries read so far; the failing one's number is index + 1 */
	bool ended;          /* a trailer was read and nothing but NULs followed */
	const char *error;   /* why cpio_next failed: "bad magic", "truncated archive", ... */
};

void cpio_init(struct cpio_reader *r, const void *data, size_t size);

/* The next entry into *e: 1; 0 at the end (after a trailer, with only NUL padding or further
 * archives' entries in between); -EINVAL with r->error set, and every later call fails too. The
 * trailer itself is not handed out. */
int cpio_next(struct cpio_reader *r, struct cpio_entry *e);

#endif
