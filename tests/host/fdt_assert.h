/* Lookups and assertions shared by the FDT host tests (test_fdt.c on built blobs,
 * test_fdt_qemu.c on QEMU's). lib/fdt.c offers one walk over the tree; the lookups here are each
 * one such walk, so that the tests can ask for a node or a property by name. A node is named by
 * the offset of its name in the blob (-1: none). The walks trust the header's totalsize, as
 * checked by check_blob. */
#ifndef RNDBITS_HOST_FDT_ASSERT_H
#define RNDBITS_HOST_FDT_ASSERT_H

#include <lib/fdt.h>

/* The root node. */
#define ROOT(fdt) lookup_path(fdt, "/")

/* 0 if a walk of the blob in max_size bytes may start, else -1. */
int check_blob(const void *fdt, size_t max_size);
/* The node an item of kind FDT_ITEM_NODE is. */
int node_id(const void *fdt, const struct fdt_item *node);
/* The node at an absolute path ("/chosen"; a component without "@unit" matches the first node
 * of that name with any unit address; repeated and trailing slashes are ignored), or -1. */
int lookup_path(const void *fdt, const char *path);
/* A node's name with unit address, or NULL if node is none. */
const char *lookup_name(const void *fdt, int node);
/* A node's property (the first of that name): its value and *len, or NULL and *len = -1. */
const void *lookup_prop(const void *fdt, int node, const char *name, int *len);
/* The child after prev (-1: the first), or -1. */
int lookup_child(const void *fdt, int node, int prev);
/* The first node in blob order whose "compatible" list holds compat, or -1. */
int lookup_compatible(const void *fdt, const char *compat);
/* #address-cells and #size-cells, or the spec's defaults 2 and 1. */
unsigned lookup_address_cells(const void *fdt, int node);
unsigned lookup_size_cells(const void *fdt, int node);

/* fdt_name_index and fdt_prop_string_index for one name. */
bool node_named(const struct fdt_item *node, const char *base);
bool prop_named(const struct fdt_item *prop, const char *name);
bool prop_has_string(const struct fdt_item *prop, const char *s);

/* Two walks handed out the same item: same kind, depth and name (the same pointer into the
 * blob), and for a property the same value and length. */
void assert_same_fdt_item(const struct fdt_item *got, const struct fdt_item *want);

#endif
