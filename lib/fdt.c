/* Read-only flattened device tree access (devicetree specification v0.4, chapter 5).
 *
 * The blob comes from outside the kernel, so nothing in it is trusted: every offset and length
 * is checked against the header's block sizes before a byte is read, strings must end inside
 * their block, and the walk only ever moves forward, so a corrupt blob ends the walk rather than
 * causing a wild read or an endless loop. All multi-byte fields are read byte by byte: the blob
 * may be unaligned and is big-endian on every ISA. */
#include <lib/fdt.h>

#define FDT_MAGIC 0xd00dfeedu
#define FDT_HEADER_BYTES 40u
#define FDT_MIN_VERSION 16u
#define FDT_LAST_COMP_VERSION 17u

enum fdt_token {
	FDT_BEGIN_NODE = 1,
	FDT_END_NODE = 2,
	FDT_PROP = 3,
	FDT_NOP = 4,
	FDT_END = 9,
};

/* Header field offsets. */
enum {
	HDR_MAGIC = 0,
	HDR_TOTALSIZE = 4,
	HDR_OFF_STRUCT = 8,
	HDR_OFF_STRINGS = 12,
	HDR_OFF_RSVMAP = 16,
	HDR_VERSION = 20,
	HDR_LAST_COMP = 24,
	HDR_SIZE_STRINGS = 32,
	HDR_SIZE_STRUCT = 36,
};

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint32_t header_field(const void *fdt, unsigned off)
{
	return be32((const uint8_t *)fdt + off);
}

/* Does [off, off + size) lie inside [0, limit)? Written so that nothing wraps. */
static bool range_ok(uint32_t off, uint32_t size, uint32_t limit)
{
	return off <= limit && size <= limit - off;
}

/* Is a block the header places at off (size bytes) after the header and inside the blob? */
static bool block_ok(uint32_t off, uint32_t size, uint32_t total)
{
	return off >= FDT_HEADER_BYTES && range_ok(off, size, total);
}

uint32_t fdt_totalsize(const void *fdt)
{
	return header_field(fdt, HDR_TOTALSIZE);
}

/* Check the header against its own totalsize and the max_size bytes of memory that hold the
 * blob, and locate the structure and strings blocks for the walk. */
static bool header_ok(struct fdt_walk *w, const void *fdt, size_t max_size)
{
	const uint8_t *h = fdt;
	uint32_t total, version, off_struct, size_struct, off_strings, size_strings;

	if (!fdt || max_size < FDT_HEADER_BYTES || header_field(fdt, HDR_MAGIC) != FDT_MAGIC)
		return false;
	total = header_field(fdt, HDR_TOTALSIZE);
	version = header_field(fdt, HDR_VERSION);
	off_struct = header_field(fdt, HDR_OFF_STRUCT);
	off_strings = header_field(fdt, HDR_OFF_STRINGS);
	size_strings = header_field(fdt, HDR_SIZE_STRINGS);
	if (total > max_size || version < FDT_MIN_VERSION ||
	    header_field(fdt, HDR_LAST_COMP) > FDT_LAST_COMP_VERSION)
		return false;
	/* Version 16 has no size_dt_struct: the structure block may run to the end. */
	if (off_struct > total)
		return false;
	size_struct = version < 17 ? total - off_struct : header_field(fdt, HDR_SIZE_STRUCT);
	/* The blocks start after the header, so a total size that holds them holds the header
	 * too. The reservation map's entries are not read, only its start checked. */
	if ((off_struct & 3) != 0 || !block_ok(off_struct, size_struct, total) ||
	    !block_ok(off_strings, size_strings, total) ||
	    !block_ok(header_field(fdt, HDR_OFF_RSVMAP), 0, total))
		return false;
	/* Names are read only if they end inside the strings block: cutting the block after its
	 * last NUL makes that a bounds check (a name that starts below the cut ends there). */
	while (size_strings > 0 && h[off_strings + size_strings - 1] != '\0')
		size_strings--;
	w->structs = h + off_struct;
	w->struct_size = size_struct;
	w->strings = h + off_strings;
	w->strings_size = size_strings;
	return true;
}

static uint32_t align4(uint32_t x)
{
	return (x + 3u) & ~3u;
}

/* One token of the structure block. */
struct fdt_tag {
	uint32_t token; /* enum fdt_token, or garbage from a corrupt blob */
	uint32_t next;  /* offset of the following token */
	/* FDT_BEGIN_NODE: the name; FDT_PROP: name, value and length. */
	const char *name;
	const uint8_t *value;
	uint32_t len;
};

/* Decode the token at off; false if it, its payload or its name leave their blocks. */
static bool read_tag(const struct fdt_walk *w, uint32_t off, struct fdt_tag *t)
{
	uint32_t size = w->struct_size, n, nameoff;
	const uint8_t *p;

	if (!range_ok(off, 4, size))
		return false;
	p = w->structs + off;
	t->token = be32(p);
	switch (t->token) {
	case FDT_BEGIN_NODE:
		for (n = 0; off + 4 + n < size && p[4 + n] != '\0'; n++)
			;
		if (off + 4 + n == size)
			return false; /* no NUL inside the block */
		t->name = (const char *)(p + 4);
		t->next = align4(off + 4 + n + 1);
		break;
	case FDT_PROP:
		if (!range_ok(off, 12, size))
			return false;
		t->len = be32(p + 4);
		nameoff = be32(p + 8);
		if (!range_ok(off + 12, t->len, size) || nameoff >= w->strings_size)
			return false;
		t->name = (const char *)(w->strings + nameoff);
		t->value = p + 12;
		t->next = align4(off + 12 + t->len);
		break;
	case FDT_END_NODE:
	case FDT_NOP:
	case FDT_END:
		t->next = off + 4;
		break;
	default:
		return false;
	}
	/* Only ever forward (so every walk ends), and never wrapped past 4 GiB by align4. A next
	 * offset beyond the block is caught by the range check of the following read. */
	return t->next > off;
}

int fdt_walk_start(struct fdt_walk *w, const void *fdt, size_t max_size)
{
	if (!header_ok(w, fdt, max_size))
		return -1;
	w->off = 0;
	w->open = 0;
	w->in_props = false;
	w->done = false;
	return 0;
}

bool fdt_walk_next(struct fdt_walk *w, struct fdt_item *item)
{
	struct fdt_tag t;

	while (!w->done && read_tag(w, w->off, &t)) {
		w->off = t.next;
		switch (t.token) {
		case FDT_BEGIN_NODE:
			item->kind = FDT_ITEM_NODE;
			item->depth = w->open++;
			item->name = t.name;
			w->in_props = true;
			return true;
		case FDT_PROP:
			if (!w->in_props)
				continue; /* after a child: no node's */
			item->kind = FDT_ITEM_PROP;
			item->depth = w->open - 1;
			item->name = t.name;
			item->value = t.value;
			item->len = t.len;
			return true;
		case FDT_END_NODE:
			if (w->open == 0)
				break; /* a node ended before any began */
			item->kind = FDT_ITEM_NODE_END;
			item->depth = --w->open;
			w->in_props = false;
			w->done = w->open == 0; /* the root has ended, and the walk with it */
			return true;
		case FDT_NOP:
			continue;
		}
		break; /* FDT_END, or an end before any node began */
	}
	w->done = true;
	return false;
}

uint64_t fdt_read_cells(const void *p, unsigned n)
{
	const uint8_t *b = p;
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v = v << 32 | be32(b + 4 * i);
	return v;
}

int fdt_name_index(const char *name, const char *const *names, unsigned n, bool unit)
{
	for (unsigned i = 0; i < n; i++) {
		const char *want = names[i], *s = name;

		/* s is read only while it has matched non-NUL characters of want: inside name. */
		while (*want != '\0' && *s == *want)
			want++, s++;
		if (*want == '\0' && (*s == '\0' || (unit && *s == '@')))
			return (int)i;
	}
	return -1;
}

int fdt_prop_string_index(const struct fdt_item *prop, const char *const *names, unsigned n)
{
	const char *s = prop->value, *p = s, *end = s + prop->len;

	/* Each string is tried when its NUL is reached: an unterminated last one never is. */
	while (p < end) {
		if (*p++ == '\0') {
			int k = fdt_name_index(s, names, n, false);

			if (k >= 0)
				return k;
			s = p;
		}
	}
	return -1;
}
