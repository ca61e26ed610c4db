/* Read-only flattened device tree access (devicetree specification v0.4, chapter 5).
 *
 * The blob comes from outside the kernel, so nothing in it is trusted: every offset and length
 * is checked against the header's block sizes before a byte is read, strings must end inside
 * their block, and walking the structure block only ever moves forward, so a corrupt blob ends
 * in an error (-1 or NULL) rather than a wild read or an endless loop. All multi-byte fields are
 * read byte by byte: the blob may be unaligned and is big-endian on every ISA.
 *
 * Node offsets are offsets of FDT_BEGIN_NODE tokens from the start of the structure block (the
 * root is 0), as in libfdt. */
#include <lib/fdt.h>
#include <lib/select.h>
#include <lib/unaligned.h>

#define FDT_MAGIC 0xd00dfeedu
#define FDT_HEADER_BYTES 40u
#define FDT_MIN_VERSION 16u

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

static inline uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint32_t header_field(const void *fdt, unsigned off)
{
	return be32((const uint8_t *)fdt + off);
}

/* Does [off, off + size) lie inside [0, limit)? Written to avoid wrapping (limit - off may
 * wrap only when off > limit, which fails the first test: both are evaluated, without a
 * branch). */
static bool range_ok(uint32_t off, uint32_t size, uint32_t limit)
{
	return (off <= limit) & (size <= limit - off);
}

/* Is a block the header places at off (size bytes) not where it must be: after the header and
 * inside the blob's total size? The same tests as range_ok, negated, so that header_ok can OR
 * the failures together (on 32-bit ARM an OR of conditions is one conditional instruction each,
 * an AND of them two). */
static bool block_misplaced(uint32_t off, uint32_t size, uint32_t total)
{
	return (off < FDT_HEADER_BYTES) | (off > total) | (size > total - off);
}

/* Names are read only if they end inside the strings block. Cutting the block after its last
 * NUL, once per view, makes that a bounds check: a name that starts below the cut ends there. */
static uint32_t terminated_size(const uint8_t *strings, uint32_t size)
{
	while (size && strings[size - 1])
		size--;
	return size;
}

/* The accessors other than fdt_check and fdt_walk_start trust the totalsize fdt_check has
 * checked against the memory that holds the blob. */
#define CHECKED_SIZE ((size_t)-1)

/* Header consistency against its own totalsize and the max_size bytes of memory that hold the
 * blob; fills the view (the two blocks the accessors read, located and size-checked once per
 * call) on success. Once the 40 bytes are known to be there, the whole header (size_dt_struct
 * too, used only from version 17 on) is read before any of it is checked, and every check, the
 * magic's included, is evaluated (| rather than ||), so that they are one straight run of code,
 * not a branch each. */
static bool header_ok(const void *fdt, size_t max_size, struct fdt_view *v)
{
	uint32_t total, version, off_struct, size_struct, off_strings, size_strings, off_rsvmap;
	const uint8_t *h = fdt;
	uint32_t w[FDT_HEADER_BYTES / 4];
	uint8_t last_string_byte;
	bool bad;

	if (!fdt || max_size < FDT_HEADER_BYTES)
		return false;
	/* All ten words by one loop: one load for QEMU to translate rather than ten (boot code
	 * passes a constant DTB address, and GCC builds each field's address on its own). */
	for (unsigned i = 0; i < FDT_HEADER_BYTES / 4; i++)
		w[i] = be32(h + 4 * i);
	total = w[HDR_TOTALSIZE / 4];
	version = w[HDR_VERSION / 4];
	off_struct = w[HDR_OFF_STRUCT / 4];
	off_strings = w[HDR_OFF_STRINGS / 4];
	size_strings = w[HDR_SIZE_STRINGS / 4];
	off_rsvmap = w[HDR_OFF_RSVMAP / 4];
	/* Version 16 has no size_dt_struct: the structure block may run to the end (the difference
	 * wraps only when off_struct > total, which block_misplaced refuses below). */
	size_struct = (uint32_t)select_word(version < 17, total - off_struct, w[HDR_SIZE_STRUCT / 4]);
	/* The blocks start after the header, so a total size that holds them holds the header too.
	 * A structure block too large for node offsets (ints) is refused; the reservation map's
	 * entries are not read, only its start checked. */
	bad = (w[HDR_MAGIC / 4] != FDT_MAGIC) | (total > max_size) |
	      (version < FDT_MIN_VERSION) | (w[HDR_LAST_COMP / 4] > 17) |
	      ((off_struct & 3) != 0) | block_misplaced(off_struct, size_struct, total) |
	      (size_struct > 0x7fffffffu) | block_misplaced(off_strings, size_strings, total) |
	      block_misplaced(off_rsvmap, 0, total);
	/* The byte before the end of the strings block (inside the blob once the checks pass: the
	 * block starts at 40 or more, and ends inside it), or the header's first if they do not, so
	 * that a good header whose strings block ends with a NUL, as it should, is told from the
	 * rest by one test, not a test and the loop of terminated_size. */
	last_string_byte = h[select_word(bad, 0, off_strings + size_strings - 1)];
	if (bad | (last_string_byte != 0)) {
		if (bad)
			return false;
		size_strings = terminated_size(h + off_strings, size_strings);
	}
	if (v) {
		v->structs = (const uint8_t *)fdt + off_struct;
		v->struct_size = size_struct;
		v->strings = (const uint8_t *)fdt + off_strings;
		v->strings_size = size_strings;
	}
	return true;
}

int fdt_check(const void *fdt, size_t max_size)
{
	return header_ok(fdt, max_size, NULL) ? 0 : -1;
}

uint32_t fdt_totalsize(const void *fdt)
{
	return header_field(fdt, HDR_TOTALSIZE);
}

/* Length of the NUL-terminated string at p with at most max bytes available; max if no NUL
 * comes first. */
static uint32_t bounded_strlen(const uint8_t *p, uint32_t max)
{
	uint32_t n = 0;

	while (n < max && p[n])
		n++;
	return n;
}

static uint32_t align4(uint32_t x)
{
	return (x + 3u) & ~3u;
}

/* One token of the structure block. */
struct fdt_tag {
	uint32_t token;        /* enum fdt_token, or garbage from a corrupt blob */
	uint32_t next;         /* offset of the following token */
	/* FDT_BEGIN_NODE: the name; FDT_PROP: name, value and length. */
	const char *name;
	const uint8_t *value;
	uint32_t len;
};

/* Decode the token at off; false if it, its payload or its strings leave their blocks. */
static bool read_tag(const struct fdt_view *v, uint32_t off, struct fdt_tag *t)
{
	uint32_t size = v->struct_size, n;
	const uint8_t *p;

	if ((off & 3) || !range_ok(off, 4, size))
		return false;
	p = v->structs + off;
	t->token = be32(p);
	switch (t->token) {
	case FDT_BEGIN_NODE:
		n = bounded_strlen(p + 4, size - off - 4);
		if (n == size - off - 4)
			return false;
		t->name = (const char *)(p + 4);
		t->next = align4(off + 4 + n + 1);
		break;
	case FDT_PROP: {
		uint32_t nameoff;

		if (!range_ok(off, 12, size))
			return false;
		t->len = be32(p + 4);
		nameoff = be32(p + 8);
		if (!range_ok(off + 12, t->len, size))
			return false;
		if (nameoff >= v->strings_size)
			return false;
		t->name = (const char *)(v->strings + nameoff);
		t->value = p + 12;
		t->next = align4(off + 12 + t->len);
		break;
	}
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

/* Check that node is a valid FDT_BEGIN_NODE offset and decode it. */
static bool read_node(const struct fdt_view *v, int node, struct fdt_tag *t)
{
	return node >= 0 && read_tag(v, (uint32_t)node, t) && t->token == FDT_BEGIN_NODE;
}

/* Offset just past the FDT_END_NODE that closes the node at off, or false on corruption. */
static bool skip_node(const struct fdt_view *v, uint32_t off, uint32_t *after)
{
	struct fdt_tag t;
	unsigned depth = 0;

	do {
		if (!read_tag(v, off, &t))
			return false;
		if (t.token == FDT_BEGIN_NODE)
			depth++;
		else if (t.token == FDT_END_NODE)
			depth--;
		else if (t.token == FDT_END)
			return false;
		off = t.next;
	} while (depth);
	*after = off;
	return true;
}

/* Offset of the first token after the node's name and properties: where its children start. */
static bool first_child_slot(const struct fdt_view *v, uint32_t node, uint32_t *off)
{
	struct fdt_tag t;

	*off = node;
	if (!read_tag(v, *off, &t))
		return false;
	*off = t.next;
	for (;;) {
		if (!read_tag(v, *off, &t))
			return false;
		if (t.token != FDT_PROP && t.token != FDT_NOP)
			return true;
		*off = t.next;
	}
}

/* From off, skip NOPs to the next sibling: its offset, or -1 at the parent's FDT_END_NODE. */
static int sibling_at(const struct fdt_view *v, uint32_t off)
{
	struct fdt_tag t;

	for (;;) {
		if (!read_tag(v, off, &t))
			return -1;
		if (t.token == FDT_BEGIN_NODE)
			return off <= 0x7fffffffu ? (int)off : -1;
		if (t.token != FDT_NOP)
			return -1;
		off = t.next;
	}
}

int fdt_next_child(const void *fdt, int node, int prev)
{
	struct fdt_view v;
	struct fdt_tag t;
	uint32_t off;

	if (!header_ok(fdt, CHECKED_SIZE, &v) || !read_node(&v, node, &t))
		return -1;
	if (prev == -1) {
		if (!first_child_slot(&v, (uint32_t)node, &off))
			return -1;
	} else {
		/* prev must be a node that starts after its parent's header. */
		if (prev <= node || !read_node(&v, prev, &t) || !skip_node(&v, (uint32_t)prev, &off))
			return -1;
	}
	return sibling_at(&v, off);
}

const char *fdt_node_name(const void *fdt, int node)
{
	struct fdt_view v;
	struct fdt_tag t;

	if (!header_ok(fdt, CHECKED_SIZE, &v) || !read_node(&v, node, &t))
		return NULL;
	return t.name;
}

static bool str_equal(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

const void *fdt_getprop(const void *fdt, int node, const char *name, int *len)
{
	struct fdt_view v;
	struct fdt_tag t;
	uint32_t off;

	if (len)
		*len = -1;
	if (!header_ok(fdt, CHECKED_SIZE, &v) || !read_node(&v, node, &t))
		return NULL;
	for (off = t.next;; off = t.next) {
		if (!read_tag(&v, off, &t))
			return NULL;
		if (t.token == FDT_NOP)
			continue;
		if (t.token != FDT_PROP)
			return NULL;
		if (str_equal(t.name, name)) {
			if (t.len > 0x7fffffffu)
				return NULL;
			if (len)
				*len = (int)t.len;
			return t.value;
		}
	}
}

/* Does the node name (with unit address) match one path component of n bytes? Without "@" the
 * component matches any unit address. */
static bool name_matches(const char *node_name, const char *comp, size_t n)
{
	size_t i;
	bool comp_has_unit = false;

	for (i = 0; i < n; i++) {
		if (node_name[i] != comp[i])
			return false;
		if (comp[i] == '@')
			comp_has_unit = true;
	}
	return node_name[n] == '\0' || (!comp_has_unit && node_name[n] == '@');
}

int fdt_path_offset(const void *fdt, const char *path)
{
	struct fdt_view v;
	struct fdt_tag t;
	int node = 0;

	if (!path || path[0] != '/' || !header_ok(fdt, CHECKED_SIZE, &v))
		return -1;
	/* The root may be preceded by NOPs. */
	node = sibling_at(&v, 0);
	while (node >= 0) {
		const char *comp;
		size_t n = 0;
		int child;

		while (*path == '/')
			path++;
		if (!*path)
			return node;
		comp = path;
		while (comp[n] && comp[n] != '/')
			n++;
		path += n;
		for (child = fdt_next_child(fdt, node, -1); child >= 0;
		     child = fdt_next_child(fdt, node, child)) {
			if (read_node(&v, child, &t) && name_matches(t.name, comp, n))
				break;
		}
		node = child;
	}
	return -1;
}

int fdt_find_compatible(const void *fdt, const char *compat)
{
	struct fdt_walk w;
	struct fdt_item item;
	int node = -1;

	if (fdt_walk_start(&w, fdt, CHECKED_SIZE) != 0)
		return -1;
	while (fdt_walk_next(&w, &item)) {
		if (item.kind == FDT_ITEM_NODE)
			node = item.node;
		else if (item.kind == FDT_ITEM_PROP && fdt_prop_named(&item, "compatible") &&
			 fdt_prop_has_string(&item, compat))
			return node;
	}
	return -1;
}

static unsigned cells_prop(const void *fdt, int node, const char *name, unsigned dflt)
{
	int len;
	const uint8_t *p = fdt_getprop(fdt, node, name, &len);

	return p && len == 4 ? be32(p) : dflt;
}

unsigned fdt_address_cells(const void *fdt, int node)
{
	return cells_prop(fdt, node, "#address-cells", 2);
}

unsigned fdt_size_cells(const void *fdt, int node)
{
	return cells_prop(fdt, node, "#size-cells", 1);
}

uint64_t fdt_read_cells(const void *p, unsigned n)
{
	const uint8_t *b = p;
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		v = v << 32 | be32(b + 4 * i);
	return v;
}

int fdt_walk_start(struct fdt_walk *w, const void *fdt, size_t max_size)
{
	if (!header_ok(fdt, max_size, &w->v))
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

	while (!w->done && read_tag(&w->v, w->off, &t)) {
		uint32_t off = w->off;

		w->off = t.next;
		switch (t.token) {
		case FDT_BEGIN_NODE:
			item->kind = FDT_ITEM_NODE;
			item->depth = w->open++;
			item->node = (int)off;
			item->name = t.name;
			w->in_props = true;
			return true;
		case FDT_PROP:
			if (!w->in_props)
				continue;
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
		break; /* FDT_END */
	}
	w->done = true;
	return false;
}

/* Not inlined: boot code calls it for node names, property names and strings alike, and one
 * copy is translated (by QEMU's TCG) once for all of them. The plain loop: on 32-bit ARM, tests
 * evaluated together (& rather than &&) cost two conditional instructions each, more than the
 * branch they save. */
__attribute__((noinline)) int fdt_name_index(const char *name, const char *const *names,
					     unsigned n, bool unit)
{
	const char stop = unit ? '@' : '\0';

	for (unsigned i = 0; i < n; i++) {
		const char *want = names[i], *s = name;

		/* s is read only while it has matched non-NUL characters of want: inside name. */
		while (*want != '\0' && *s == *want)
			want++, s++;
		if (*want == '\0' && (*s == '\0' || *s == stop))
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

bool fdt_node_named(const struct fdt_item *node, const char *base)
{
	return fdt_name_index(node->name, &base, 1, true) == 0;
}

bool fdt_prop_named(const struct fdt_item *prop, const char *name)
{
	return fdt_name_index(prop->name, &name, 1, false) == 0;
}

bool fdt_prop_has_string(const struct fdt_item *prop, const char *s)
{
	return fdt_prop_string_index(prop, &s, 1) == 0;
}

/* Does the word hold a zero byte? Subtracting 1 from every byte sets the top bit of a byte that
 * was 0 (and, by the borrow it causes, maybe of bytes above it: only when there is a zero byte);
 * "& ~x" drops the bytes whose top bit was set before. Without a zero byte nothing borrows, and
 * no byte b in 1..0x7f has b - 1 >= 0x80: the result is non-zero exactly when a byte is zero. */
static inline bool word_has_zero_byte(uint32_t x)
{
	return ((x - 0x01010101u) & ~x & 0x80808080u) != 0;
}

/* What fdt_scan_next reads instead of a property's header that would not fit in the structure
 * block: a name offset no strings block reaches (header_ok places the block at 40 or more,
 * inside a total size of at most 0xffffffff), so that a property cut off by the end of the block
 * is refused by the test that refuses a name outside the strings, not by a test of its own. */
static const uint8_t past_the_block[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff };

/* past_the_block's address, with its contents hidden from the compiler: knowing them, GCC would
 * turn the read into a branch to a copy of the code that follows with the values folded in,
 * where a conditional select of the address does (an empty asm: no instruction). */
static inline const uint8_t *past_the_block_unknown(void)
{
	const uint8_t *p = past_the_block;

	__asm__("" : "+r"(p));
	return p;
}

/* Offset of the token after the FDT_BEGIN_NODE at off (which the caller has checked lies inside
 * the block), or 0 if the node's name has no NUL inside the block. The name starts on a word
 * boundary and is padded with zeros to the next one, so the token after it starts at the word
 * after the one that holds the name's NUL, wherever the NUL is in that word: the name is read a
 * whole word at a time, and only a last partial word of the block (a structure block whose size
 * is not a multiple of 4) byte by byte. */
static uint32_t after_node_name(const struct fdt_view *v, uint32_t off)
{
	const uint32_t size = v->struct_size;
	uint32_t at = off + 4;

	for (; size - at >= 4; at += 4) {
		if (word_has_zero_byte(load_u32_unaligned(v->structs + at)))
			return at + 4;
	}
	for (; at < size; at++) {
		if (v->structs[at] == 0)
			return align4(at + 1);
	}
	return 0;
}

int fdt_scan_start(struct fdt_scan *s, const void *fdt, size_t max_size)
{
	if (!header_ok(fdt, max_size, &s->v))
		return -1;
	s->off = 0;
	s->open = 0;
	s->props = false;
	return 0;
}

/* The tokens are decoded here rather than by read_tag: the scan steps over most of the tree,
 * and this loop is the whole of the code that does it, one test per token kind and one bounds
 * test per token (header_ok keeps the structure block below 2 GiB, so that offsets plus a few
 * bytes never wrap, nor an in-block offset plus 12 plus a length that fits the rest of the
 * block once rounded up to 4), node names read a
 * word at a time (after_node_name). Offsets start at 0 and only ever grow by whole tokens
 * rounded up to 4: every token is aligned. */
bool fdt_scan_next(struct fdt_scan *s, struct fdt_item *item)
{
	const uint32_t size = s->v.struct_size;
	uint32_t off = s->off;

	while (off + 4 <= size) {
		const uint8_t *p = s->v.structs + off;
		uint32_t token = be32(p);

		if (token == FDT_PROP) {
			/* A property's length and name offset, or past_the_block's where they would
			 * not fit (refused by the name offset test, as size - off - 12 wraps). */
			const uint8_t *hdr = off + 12 <= size ? p : past_the_block_unknown();
			uint32_t len = be32(hdr + 4), nameoff = be32(hdr + 8);

			if ((len > size - off - 12) | (nameoff >= s->v.strings_size))
				break;
			off = align4(off + 12 + len);
			if (s->props) {
				item->kind = FDT_ITEM_PROP;
				item->depth = s->open - 1;
				item->name = (const char *)(s->v.strings + nameoff);
				item->value = p + 12;
				item->len = len;
				s->off = off;
				return true;
			}
		} else if (token == FDT_BEGIN_NODE) {
			uint32_t node = off;

			off = after_node_name(&s->v, node);
			if (!off)
				break;
			/* The root's properties are handed out; a top-level node's if asked. */
			s->props = s->open++ == 0;
			if (s->open == 2) {
				item->kind = FDT_ITEM_NODE;
				item->depth = 1;
				item->node = (int)node;
				item->name = (const char *)(p + 4);
				s->off = off;
				return true;
			}
		} else {
			/* A node's end or a NOP: one word each, and one path for both (a NOP changes
			 * nothing else), tested once for being neither (a corrupt token) or for ending
			 * the root, which ends the scan, or a node before any began. */
			bool end = token == FDT_END_NODE, other = !end & (token != FDT_NOP);

			if (other | (end & (s->open <= 1)))
				break;
			s->open -= end;
			s->props &= !end;
			off += 4;
		}
	}
	s->off = size; /* ended, for good */
	return false;
}
