/* Read-only flattened device tree access (lib/fdt.c), bounds-checked against the blob's own
 * header: a corrupt DTB gives errors, never reads outside totalsize. */
#ifndef RNDBITS_LIB_FDT_H
#define RNDBITS_LIB_FDT_H

#include <types.h>

/* Validate the header (magic, version >= 16, offsets inside totalsize). 0 or -1. */
int fdt_check(const void *fdt, size_t max_size);
uint32_t fdt_totalsize(const void *fdt);

/* Offset of the node at an absolute path ("/chosen", "/memory@40000000"; a path component
 * without "@unit" matches the first node of that name with any unit address), or -1. */
int fdt_path_offset(const void *fdt, const char *path);
/* Property value of a node, or NULL; *len receives its length. */
const void *fdt_getprop(const void *fdt, int node, const char *name, int *len);
/* Iterate the direct children of a node: first with prev = -1; -1 when no more. */
int fdt_next_child(const void *fdt, int node, int prev);
/* A node's name with unit address ("memory@40000000"). */
const char *fdt_node_name(const void *fdt, int node);
/* Find the first node whose "compatible" list contains compat, or -1. */
int fdt_find_compatible(const void *fdt, const char *compat);
/* #address-cells / #size-cells of a node (defaults 2 and 1 as the spec says). */
unsigned fdt_address_cells(const void *fdt, int node);
unsigned fdt_size_cells(const void *fdt, int node);
/* Big-endian cell reading: n cells (1 or 2) at p. */
uint64_t fdt_read_cells(const void *p, unsigned n);

#endif
