#include "fdt_assert.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define TRUSTED_SIZE ((size_t)-1)

int check_blob(const void *fdt, size_t max_size)
{
	struct fdt_walk w;

	return fdt_walk_start(&w, fdt, max_size);
}

int node_id(const void *fdt, const struct fdt_item *node)
{
	return (int)((const char *)node->name - (const char *)fdt);
}

/* Does the node name match one path component of n bytes? Without "@" the component matches
 * any unit address. */
static bool component_matches(const char *name, const char *comp, size_t n)
{
	return strncmp(name, comp, n) == 0 &&
	       (name[n] == '\0' || (name[n] == '@' && memchr(comp, '@', n) == NULL));
}

int lookup_path(const void *fdt, const char *path)
{
	struct fdt_walk w;
	struct fdt_item item;
	unsigned matched = 0; /* depth of the deepest node matched so far (the root: 0) */
	bool root = false;

	if (!path || path[0] != '/' || fdt_walk_start(&w, fdt, TRUSTED_SIZE) != 0)
		return -1;
	while (fdt_walk_next(&w, &item)) {
		if (item.kind == FDT_ITEM_NODE_END && root && item.depth == matched)
			return -1; /* the node matched last has no child of the next name */
		if (item.kind != FDT_ITEM_NODE || item.depth != (root ? matched + 1 : 0))
			continue;
		if (root) {
			size_t n = strcspn(path, "/");

			if (!component_matches(item.name, path, n))
				continue;
			path += n;
			matched++;
		}
		root = true;
		while (*path == '/')
			path++;
		if (!*path)
			return node_id(fdt, &item);
	}
	return -1;
}

/* Walk to the node: true with *w just past it, or false. */
static bool walk_to(struct fdt_walk *w, const void *fdt, int node, unsigned *depth)
{
	struct fdt_item item;

	if (node < 0 || fdt_walk_start(w, fdt, TRUSTED_SIZE) != 0)
		return false;
	while (fdt_walk_next(w, &item)) {
		if (item.kind == FDT_ITEM_NODE && node_id(fdt, &item) == node) {
			*depth = item.depth;
			return true;
		}
	}
	return false;
}

const char *lookup_name(const void *fdt, int node)
{
	struct fdt_walk w;
	unsigned depth;

	return walk_to(&w, fdt, node, &depth) ? (const char *)fdt + node : NULL;
}

const void *lookup_prop(const void *fdt, int node, const char *name, int *len)
{
	struct fdt_walk w;
	struct fdt_item item;
	unsigned depth;

	if (len)
		*len = -1;
	if (!walk_to(&w, fdt, node, &depth))
		return NULL;
	while (fdt_walk_next(&w, &item) && item.kind == FDT_ITEM_PROP) {
		if (strcmp(item.name, name) == 0 && item.len <= INT32_MAX) {
			if (len)
				*len = (int)item.len;
			return item.value;
		}
	}
	return NULL;
}

int lookup_child(const void *fdt, int node, int prev)
{
	struct fdt_walk w;
	struct fdt_item item;
	unsigned depth;
	bool past_prev = prev == -1;

	if (!walk_to(&w, fdt, node, &depth))
		return -1;
	while (fdt_walk_next(&w, &item) && !(item.kind == FDT_ITEM_NODE_END && item.depth == depth)) {
		if (item.kind != FDT_ITEM_NODE || item.depth != depth + 1)
			continue;
		if (past_prev)
			return node_id(fdt, &item);
		past_prev = node_id(fdt, &item) == prev;
	}
	return -1;
}

int lookup_compatible(const void *fdt, const char *compat)
{
	struct fdt_walk w;
	struct fdt_item item;
	int node = -1;

	if (fdt_walk_start(&w, fdt, TRUSTED_SIZE) != 0)
		return -1;
	while (fdt_walk_next(&w, &item)) {
		if (item.kind == FDT_ITEM_NODE)
			node = node_id(fdt, &item);
		else if (item.kind == FDT_ITEM_PROP && prop_named(&item, "compatible") &&
			 prop_has_string(&item, compat))
			return node;
	}
	return -1;
}

static unsigned cells(const void *fdt, int node, const char *name, unsigned dflt)
{
	int len;
	const void *p = lookup_prop(fdt, node, name, &len);

	return p && len == 4 ? (unsigned)fdt_read_cells(p, 1) : dflt;
}

unsigned lookup_address_cells(const void *fdt, int node)
{
	return cells(fdt, node, "#address-cells", 2);
}

unsigned lookup_size_cells(const void *fdt, int node)
{
	return cells(fdt, node, "#size-cells", 1);
}

bool node_named(const struct fdt_item *node, const char *base)
{
	return fdt_name_index(node->name, &base, 1, true) == 0;
}

bool prop_named(const struct fdt_item *prop, const char *name)
{
	return fdt_name_index(prop->name, &name, 1, false) == 0;
}

bool prop_has_string(const struct fdt_item *prop, const char *s)
{
	return fdt_prop_string_index(prop, &s, 1) == 0;
}

void assert_same_fdt_item(const struct fdt_item *got, const struct fdt_item *want)
{
	assert_int_equal(got->kind, want->kind);
	assert_int_equal(got->depth, want->depth);
	assert_ptr_equal(got->name, want->name);
	if (got->kind == FDT_ITEM_PROP) {
		assert_ptr_equal(got->value, want->value);
		assert_int_equal(got->len, want->len);
	}
}
