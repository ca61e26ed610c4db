/* Read-only flattened device tree access (lib/fdt.c): one forward walk over the tree, bounds-
 * checked against the blob's own header, so that a corrupt DTB ends the walk, never makes it read
 * outside totalsize, and never makes it loop. Multi-byte values are read byte by byte, so the
 * blob may be unaligned. */
#ifndef RNDBITS_LIB_FDT_H
#define RNDBITS_LIB_FDT_H

#include <lib/types.h>

/* The header's totalsize (fdt_walk_start has checked it against the memory holding the blob). */
uint32_t fdt_totalsize(const void *fdt);

/* Big-endian cell reading: n cells at p (reads 4 * n bytes; n = 0 gives 0; with n > 2 only
 * the last two cells survive). */
uint64_t fdt_read_cells(const void *p, unsigned n);

/* The walk, for a caller that wants several things from the tree (boot code: RAM, /chosen, the
 * interrupt controller) in one pass:
 *
 *	if (fdt_walk_start(&w, fdt, max_size) == 0)
 *		while (fdt_walk_next(&w, &item))
 *			...
 *
 * Items come in blob order: a node (FDT_ITEM_NODE), its properties (FDT_ITEM_PROP), its
 * children (each in the same way), its end (FDT_ITEM_NODE_END). The walk ends after the root's
 * end, at FDT_END, or at the first corrupt token: whatever it handed out until then is valid.
 * Properties placed after a child (which belong to no node) are passed over. */
enum fdt_item_kind {
	FDT_ITEM_NODE,
	FDT_ITEM_PROP,
	FDT_ITEM_NODE_END,
};

struct fdt_item {
	enum fdt_item_kind kind;
	unsigned depth;    /* of the node begun, ended, or holding the property: 0 for the root */
	const char *name;  /* node name with unit address ("" for the root), or property name */
	const void *value; /* FDT_ITEM_PROP: len bytes inside the structure block; unaligned */
	uint32_t len;
};

struct fdt_walk {
	/* Private to lib/fdt.c: the structure and strings blocks, and where the walk is. */
	const uint8_t *structs;
	uint32_t struct_size;
	const uint8_t *strings;
	uint32_t strings_size; /* up to its last NUL, so that every name below ends inside */
	uint32_t off;          /* the next token */
	unsigned open;         /* nodes begun and not yet ended */
	bool in_props;         /* still in the properties of the node begun last */
	bool done;
};

/* Start a walk over the blob in the max_size bytes at fdt: 0, or -1 if the header is not valid
 * (magic, version >= 16, last compatible version <= 17, the structure, strings and reservation
 * blocks inside totalsize, totalsize <= max_size). */
int fdt_walk_start(struct fdt_walk *w, const void *fdt, size_t max_size);
/* The next item, or false at the end of the walk. */
bool fdt_walk_next(struct fdt_walk *w, struct fdt_item *item);

/* The index of the first of the n names that name is, or -1. With unit set, "name@unit" counts
 * as name too (node names: "psci" matches "psci" and "psci@0", not "psci-x"); without, only
 * name itself (property names, strings). */
int fdt_name_index(const char *name, const char *const *names, unsigned n, bool unit);
/* The index of the first of the n names that one of the property's NUL-separated strings is (a
 * "compatible" list; or a single string such as device_type), trying the strings in list
 * order; -1 if none is. A last string without its NUL (a corrupt list) never matches. */
int fdt_prop_string_index(const struct fdt_item *prop, const char *const *names, unsigned n);

#endif
