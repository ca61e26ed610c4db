/* cpio "newc" reader (include/lib/cpio.h). Everything in the archive is checked against the
 * bytes that are really there before it is used; sizes are compared with what remains rather
 * than added to positions, so no field can wrap a position on a 32-bit kernel. */
#include <lib/cpio.h>
#include <lib/errno.h>
#include <lib/string.h>

#define MAGIC_LEN 6
#define FIELD_LEN 8
#define NR_FIELDS 13

/* The header's fields, in archive order. */
enum {
	F_INO, F_MODE, F_UID, F_GID, F_NLINK, F_MTIME, F_FILESIZE,
	F_DEVMAJOR, F_DEVMINOR, F_RDEVMAJOR, F_RDEVMINOR, F_NAMESIZE, F_CHECK,
};

static const char trailer[] = "TRAILER!!!";

void cpio_init(struct cpio_reader *r, const void *data, size_t size)
{
	memset(r, 0, sizeof(*r));
	r->base = data;
	r->size = size;
}

static int fail(struct cpio_reader *r, const char *why)
{
	r->error = why;
	return -EINVAL;
}

static size_t align4(size_t x)
{
	return (x + 3) & ~(size_t)3;
}

/* Eight hex digits (either case) at p into *v; false if any is not a hex digit. */
static bool parse_field(const uint8_t *p, uint32_t *v)
{
	uint32_t x = 0;

	for (unsigned i = 0; i < FIELD_LEN; i++) {
		unsigned c = p[i], d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return false;
		x = x << 4 | d;
	}
	*v = x;
	return true;
}

/* Between archives (and after the last one) only NUL padding may follow a trailer, as Linux's
 * initramfs skips it; the next archive starts at a multiple of 4. 0 at the end, 1 if another
 * archive follows, -EINVAL. */
static int skip_padding(struct cpio_reader *r)
{
	while (r->pos < r->size && r->base[r->pos] == 0)
		r->pos++;
	if (r->pos == r->size) {
		r->ended = true;
		return 0;
	}
	if (r->pos & 3)
		return fail(r, "bad padding after trailer");
	return 1;
}

/* 070702's check field: the 32-bit sum of the data bytes of a regular file. */
static bool checksum_ok(const struct cpio_entry *e, uint32_t check)
{
	uint32_t sum = 0;

	if ((e->mode & CPIO_S_IFMT) != CPIO_S_IFREG)
		return true;
	for (size_t i = 0; i < e->size; i++)
		sum += e->data[i];
	return sum == check;
}

/* Parse the header at r->pos into e (name and data checked to lie inside the archive). */
static int read_entry(struct cpio_reader *r, struct cpio_entry *e)
{
	const uint8_t *h = r->base + r->pos;
	size_t left = r->size - r->pos;
	uint32_t f[NR_FIELDS];
	bool crc;

	if (left < MAGIC_LEN)
		return fail(r, "truncated archive");
	if (memcmp(h, "070701", MAGIC_LEN) == 0)
		crc = false;
	else if (memcmp(h, "070702", MAGIC_LEN) == 0)
		crc = true;
	else
		return fail(r, "bad magic");
	if (left < CPIO_HEADER_SIZE)
		return fail(r, "truncated archive");
	for (unsigned i = 0; i < NR_FIELDS; i++)
		if (!parse_field(h + MAGIC_LEN + i * FIELD_LEN, &f[i]))
			return fail(r, "bad header field");

	size_t namesize = f[F_NAMESIZE], filesize = f[F_FILESIZE];
	left -= CPIO_HEADER_SIZE;
	if (namesize == 0)
		return fail(r, "empty name");
	if (namesize > left)
		return fail(r, "truncated archive");
	const char *name = (const char *)h + CPIO_HEADER_SIZE;
	if (name[namesize - 1] != '\0')
		return fail(r, "name not terminated");
	if (name[0] == '\0')
		return fail(r, "empty name");
	/* The data starts at the next multiple of 4 after the name (relative to the archive). */
	size_t data_at = align4(r->pos + CPIO_HEADER_SIZE + namesize);
	if (data_at > r->size || filesize > r->size - data_at)
		return fail(r, "truncated archive");

	memset(e, 0, sizeof(*e));
	e->name = name;
	e->namesize = namesize;
	e->ino = f[F_INO];
	e->mode = f[F_MODE];
	e->uid = f[F_UID];
	e->gid = f[F_GID];
	e->nlink = f[F_NLINK];
	e->mtime = f[F_MTIME];
	e->devmajor = f[F_DEVMAJOR];
	e->devminor = f[F_DEVMINOR];
	e->rdevmajor = f[F_RDEVMAJOR];
	e->rdevminor = f[F_RDEVMINOR];
	e->data = r->base + data_at;
	e->size = filesize;
	e->offset = r->pos;
	if (crc && !checksum_ok(e, f[F_CHECK]))
		return fail(r, "checksum mismatch");
	/* The next header: after the data, padded to 4 (the padding may run past the end only
	 * if nothing follows, and then a trailer is missing anyway). */
	r->pos = MIN(align4(data_at + filesize), r->size);
	return 0;
}

int cpio_next(struct cpio_reader *r, struct cpio_entry *e)
{
	if (r->error)
		return -EINVAL;
	if (r->ended)
		return 0;
	for (;;) {
		if (r->pos == r->size)
			return fail(r, r->size == 0 ? "empty archive" : "missing trailer");
		int err = read_entry(r, e);
		if (err)
			return err;
		r->index++;
		if (strcmp(e->name, trailer) != 0)
			return 1;
		int more = skip_padding(r);
		if (more <= 0)
			return more;
	}
}
