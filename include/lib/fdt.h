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

#endif
