/* Read-only flattened device tree access (lib/fdt.c), bounds-checked against the blob's own
 * header: a corrupt DTB gives errors, never reads outside totalsize, and never loops.
 *
 * Call fdt_check() once with the size of the memory that really holds the blob; the other
 * functions trust the header's totalsize (they re-check everything else on each call).
 * Node offsets are offsets of the node's FDT_BEGIN_NODE token in the structure block, as in
 * libfdt; the root is 0 (unless NOPs precede it). Multi-byte values are read byte by byte, so
 * the blob may be unaligned. */
#ifndef RNDBITS_LIB_FDT_H
#define RNDBITS_LIB_FDT_H

#include <types.h>

/* Validate the header (magic, version >= 16, last compatible version <= 17, the structure,
 * strings and reservation blocks inside totalsize, totalsize <= max_size). 0 or -1. */
int fdt_check(const void *fdt, size_t max_size);
uint32_t fdt_totalsize(const void *fdt);

/* Offset of the node at an absolute path ("/chosen", "/memory@40000000"; a path component
 * without "@unit" matches the first node of that name with any unit address), or -1.
 * Repeated and trailing slashes are ignored; "/" is the root. Aliases are not supported. */
int fdt_path_offset(const void *fdt, const char *path);
/* Property value of a node, or NULL; *len (if len is not NULL) receives its length, or -1
 * when the property is absent or the blob is corrupt. */
const void *fdt_getprop(const void *fdt, int node, const char *name, int *len);
/* Iterate the direct children of a node: first with prev = -1; -1 when no more (or corrupt). */
int fdt_next_child(const void *fdt, int node, int prev);
/* A node's name with unit address ("memory@40000000"; "" for the root), or NULL if node is
 * not a node offset. */
const char *fdt_node_name(const void *fdt, int node);
/* Find the first node (in blob order) whose "compatible" list contains compat, or -1. */
int fdt_find_compatible(const void *fdt, const char *compat);

/* #address-cells / #size-cells of a node (defaults 2 and 1 as the spec says, also when the
 * property is malformed). They describe the node's children's "reg". The value is returned as
 * found: check it is 1 or 2 before using it with fdt_read_cells. */
unsigned fdt_address_cells(const void *fdt, int node);
unsigned fdt_size_cells(const void *fdt, int node);
/* Big-endian cell reading: n cells at p (reads 4 * n bytes; n = 0 gives 0; with n > 2 only
 * the last two cells survive). */
uint64_t fdt_read_cells(const void *p, unsigned n);

/* One forward pass over the whole tree, for a caller that wants several things from it (boot
 * code: RAM, /chosen, the interrupt controller) without a lookup, and so a walk, per thing:
 *
 *	if (fdt_walk_start(&w, fdt, max_size) == 0)
 *		while (fdt_walk_next(&w, &item))
 *			...
 *
 * Items come in blob order: a node (FDT_ITEM_NODE), its properties (FDT_ITEM_PROP), its
 * children (each in the same way), its end (FDT_ITEM_NODE_END). The walk ends after the root's
 * end, at FDT_END, or at the first corrupt token, with all the checks the functions above make:
 * whatever it handed out until then is valid. Properties placed after a child (which belong to
 * no node) are passed over, as fdt_getprop does. */
enum fdt_item_kind {
	FDT_ITEM_NODE,
	FDT_ITEM_PROP,
	FDT_ITEM_NODE_END,
};

struct fdt_item {
	enum fdt_item_kind kind;
	unsigned depth;    /* of the node begun, ended, or holding the property: 0 for the root */
	int node;          /* FDT_ITEM_NODE: the offset the functions above take */
	const char *name;  /* node name with unit address ("" for the root), or property name */
	const void *value; /* FDT_ITEM_PROP: len bytes inside the structure block; unaligned */
	uint32_t len;
};

/* The structure and strings blocks as the header describes them (private to lib/fdt.c). */
struct fdt_view {
	const uint8_t *structs;
	uint32_t struct_size;
	const uint8_t *strings;
	uint32_t strings_size; /* up to its last NUL, so that every name below ends inside */
};

struct fdt_walk {
	/* Private to lib/fdt.c. */
	struct fdt_view v;
	uint32_t off;  /* the next token */
	unsigned open; /* nodes begun and not yet ended */
	bool in_props; /* still in the properties of the node begun last */
	bool done;
};

/* Start a walk over the blob in the max_size bytes at fdt, checked as fdt_check does (a caller
 * that has called fdt_check may pass (size_t)-1): 0, or -1 if it is not valid. */
int fdt_walk_start(struct fdt_walk *w, const void *fdt, size_t max_size);
/* The next item, or false at the end of the walk. */
bool fdt_walk_next(struct fdt_walk *w, struct fdt_item *item);
/* Is the node called base (given without a unit address), with or without one? "psci"
 * matches "psci" and "psci@0", not "psci-x". */
bool fdt_node_named(const struct fdt_item *node, const char *base);
/* Is the property called name? */
bool fdt_prop_named(const struct fdt_item *prop, const char *name);
/* Is s one of the NUL-separated strings of the property (a "compatible" list; or a single
 * string such as device_type)? A last string without its NUL (a corrupt list) never matches. */
bool fdt_prop_has_string(const struct fdt_item *prop, const char *s);

/* The same matching against a table, for a caller that looks for one of several names: the
 * index of the first of the n names that name is, or -1. With unit set, "name@unit" counts as
 * name too (node names); without, only name itself (property names, strings). */
int fdt_name_index(const char *name, const char *const *names, unsigned n, bool unit);
/* The index of the first of the n names that one of the property's strings is, trying the
 * strings in list order; -1 if none is (a last string without its NUL never matches). */
int fdt_prop_string_index(const struct fdt_item *prop, const char *const *names, unsigned n);

/* A forward pass over the top level of the tree only: the root's properties and its children
 * (the top-level nodes), for boot code that wants a few properties of a few of those (RAM,
 * /chosen, the interrupt controller) and nothing below them:
 *
 *	if (fdt_scan_start(&s, fdt, max_size) == 0)
 *		while (fdt_scan_next(&s, &item))
 *			if (item.kind == FDT_ITEM_NODE)
 *				fdt_scan_read_props(&s, wanted(item.name));
 *
 * Items come in blob order: first the root's properties (depth 0), then each top-level node
 * (FDT_ITEM_NODE, depth 1), followed by its properties (depth 1) only if the caller asked for
 * them right after it was handed out. Everything else (the subtrees, properties not asked for)
 * is stepped over without being handed out. The scan ends after the root's end, at FDT_END, or
 * at the first corrupt token, with all the checks the functions above make: whatever it handed
 * out until then is valid. Properties placed after a child belong to no node and are passed
 * over, as fdt_getprop does. */
struct fdt_scan {
	/* Private to lib/fdt.c. */
	struct fdt_view v;
	uint32_t off;       /* the next token */
	unsigned open;      /* nodes begun and not yet ended */
	bool props;         /* hand out the properties that follow */
};

/* Start a scan, checking the blob as fdt_walk_start does: 0, or -1 if it is not valid. */
int fdt_scan_start(struct fdt_scan *s, const void *fdt, size_t max_size);
/* The next item, or false at the end of the scan. */
bool fdt_scan_next(struct fdt_scan *s, struct fdt_item *item);
/* Whether to hand out the properties of the top-level node fdt_scan_next has just handed out
 * (they are not, unless asked for). */
static inline void fdt_scan_read_props(struct fdt_scan *s, bool wanted)
{
	s->props = wanted;
}

#endif
