/* lib/fdt.c: a blob shaped like QEMU virt's (built here by fdt_writer.c, no dtc needed) is read
 * correctly, and corrupt blobs -- bad headers, truncation, unterminated names and strings,
 * out-of-range offsets and lengths, unknown tokens, random damage -- give errors. Every blob
 * lives in a malloc'd buffer of exactly its size, so AddressSanitizer turns any read outside
 * it into a test failure. */
#include "lib_under_test.h"
#include "fdt_assert.h"
#include "fdt_writer.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define OFF_STRUCT 56 /* where fdtw_finish puts the structure block */

static const char bootargs[] = "console=ttyAMA0 rng.seed=7 sysctl.vm.mmap_rnd_bits=24";

/* Offsets (in the structure block) of a few tokens the corruption tests patch. */
struct layout {
	size_t bootargs_prop;
	size_t psci_node;
	size_t compatible_prop_psci;
};

static uint8_t *build_virt(size_t *size, struct layout *lay)
{
	static struct fdtw w;
	uint8_t seed[32];
	const uint32_t kaslr[2] = { 0x12345678, 0x9abcdef0 };
	const uint32_t mem_reg[4] = { 0, 0x40000000, 0, 0x08000000 };
	const uint32_t mem2_reg[4] = { 0x1, 0x00000000, 0, 0x10000000 };
	const uint32_t uart_reg[4] = { 0, 0x09000000, 0, 0x1000 };
	static const char uart_compat[] = "arm,pl011\0arm,primecell";
	static const char psci_compat[] = "arm,psci-1.0\0arm,psci-0.2\0arm,psci";
	struct layout dummy;

	if (!lay)
		lay = &dummy;
	for (int i = 0; i < 32; i++)
		seed[i] = (uint8_t)(0xa0 + i);
	fdtw_init(&w);
	fdtw_begin_node(&w, "");
	fdtw_prop_u32(&w, "#address-cells", 2);
	fdtw_prop_u32(&w, "#size-cells", 2);
	fdtw_prop_str(&w, "compatible", "linux,dummy-virt");
	fdtw_nop(&w);
	fdtw_begin_node(&w, "chosen");
	lay->bootargs_prop = w.struct_len;
	fdtw_prop_str(&w, "bootargs", bootargs);
	fdtw_prop(&w, "rng-seed", seed, sizeof(seed));
	fdtw_prop_cells(&w, "kaslr-seed", kaslr, 2);
	fdtw_end_node(&w);
	fdtw_begin_node(&w, "memory@40000000");
	fdtw_prop_str(&w, "device_type", "memory");
	fdtw_prop_cells(&w, "reg", mem_reg, 4);
	fdtw_end_node(&w);
	fdtw_begin_node(&w, "pl011@9000000");
	fdtw_prop(&w, "compatible", uart_compat, sizeof(uart_compat));
	fdtw_prop_cells(&w, "reg", uart_reg, 4);
	fdtw_end_node(&w);
	lay->psci_node = w.struct_len;
	fdtw_begin_node(&w, "psci");
	lay->compatible_prop_psci = w.struct_len;
	fdtw_prop(&w, "compatible", psci_compat, sizeof(psci_compat));
	fdtw_prop_str(&w, "method", "hvc");
	fdtw_end_node(&w);
	fdtw_begin_node(&w, "cpus");
	fdtw_prop_u32(&w, "#address-cells", 1);
	fdtw_prop_u32(&w, "#size-cells", 0);
	fdtw_begin_node(&w, "cpu@0");
	fdtw_prop_u32(&w, "reg", 0);
	fdtw_end_node(&w);
	fdtw_nop(&w);
	fdtw_begin_node(&w, "cpu@1");
	fdtw_prop_u32(&w, "reg", 1);
	fdtw_end_node(&w);
	fdtw_end_node(&w);
	fdtw_begin_node(&w, "memory@100000000");
	fdtw_prop_str(&w, "device_type", "memory");
	fdtw_prop_cells(&w, "reg", mem2_reg, 4);
	fdtw_end_node(&w);
	fdtw_begin_node(&w, "flags");
	fdtw_prop(&w, "empty", NULL, 0);
	fdtw_prop_str(&w, "compatible", "rndbits,last");
	fdtw_end_node(&w);
	fdtw_end_node(&w);
	return fdtw_finish(&w, size);
}

static const char *const root_children[] = {
	"chosen", "memory@40000000", "pl011@9000000", "psci", "cpus", "memory@100000000", "flags",
};

static void test_good_blob(void **state)
{
	size_t size;
	uint8_t *fdt = build_virt(&size, NULL);
	const uint8_t *end = fdt + size;
	int len, node, child, n;
	const char *s;
	const uint8_t *p;

	assert_int_equal(check_blob(fdt, size), 0);
	assert_int_equal(check_blob(fdt, size + 100), 0);
	assert_int_equal(fdt_totalsize(fdt), size);

	/* Paths. */
	assert_true(ROOT(fdt) > 0);
	assert_int_equal(lookup_path(fdt, "//"), ROOT(fdt));
	node = lookup_path(fdt, "/chosen");
	assert_true(node > 0);
	assert_int_equal(lookup_path(fdt, "/chosen/"), node);
	assert_int_equal(lookup_path(fdt, "//chosen"), node);
	assert_string_equal(lookup_name(fdt, node), "chosen");
	assert_string_equal(lookup_name(fdt, ROOT(fdt)), "");
	assert_string_equal(lookup_name(fdt, lookup_path(fdt, "/memory")), "memory@40000000");
	assert_int_equal(lookup_path(fdt, "/memory@40000000"), lookup_path(fdt, "/memory"));
	assert_string_equal(lookup_name(fdt, lookup_path(fdt, "/memory@100000000")),
			    "memory@100000000");
	assert_int_equal(lookup_path(fdt, "/memory@50000000"), -1);
	assert_int_equal(lookup_path(fdt, "/memory@4"), -1);
	assert_int_equal(lookup_path(fdt, "/mem"), -1);
	assert_int_equal(lookup_path(fdt, "/chosenx"), -1);
	assert_int_equal(lookup_path(fdt, "chosen"), -1);
	assert_int_equal(lookup_path(fdt, ""), -1);
	assert_int_equal(lookup_path(fdt, "/nosuch"), -1);
	assert_int_equal(lookup_path(fdt, "/chosen/nosuch"), -1);
	assert_string_equal(lookup_name(fdt, lookup_path(fdt, "/cpus/cpu@1")), "cpu@1");
	assert_string_equal(lookup_name(fdt, lookup_path(fdt, "/cpus/cpu")), "cpu@0");
	/* A grandchild is not a child. */
	assert_int_equal(lookup_path(fdt, "/cpu@0"), -1);

	/* Properties. */
	s = lookup_prop(fdt, node, "bootargs", &len);
	assert_non_null(s);
	assert_int_equal(len, sizeof(bootargs));
	assert_string_equal(s, bootargs);
	p = lookup_prop(fdt, node, "rng-seed", &len);
	assert_int_equal(len, 32);
	assert_true(p > fdt && p + 32 <= end);
	for (int i = 0; i < 32; i++)
		assert_int_equal(p[i], 0xa0 + i);
	p = lookup_prop(fdt, node, "kaslr-seed", &len);
	assert_int_equal(len, 8);
	assert_int_equal(fdt_read_cells(p, 2), 0x123456789abcdef0ULL);
	assert_int_equal(fdt_read_cells(p, 1), 0x12345678);
	assert_int_equal(fdt_read_cells(p, 0), 0);
	assert_null(lookup_prop(fdt, node, "bootarg", &len));
	assert_int_equal(len, -1);
	assert_null(lookup_prop(fdt, node, "bootargsx", NULL));
	/* A child's property is not the parent's. */
	assert_null(lookup_prop(fdt, ROOT(fdt), "bootargs", &len));
	assert_null(lookup_prop(fdt, ROOT(fdt), "reg", &len));
	p = lookup_prop(fdt, lookup_path(fdt, "/memory"), "reg", &len);
	assert_int_equal(len, 16);
	assert_int_equal(fdt_read_cells(p, 2), 0x40000000);
	assert_int_equal(fdt_read_cells(p + 8, 2), 0x08000000);
	p = lookup_prop(fdt, lookup_path(fdt, "/memory@100000000"), "reg", &len);
	assert_int_equal(fdt_read_cells(p, 2), 0x100000000ULL);
	assert_non_null(lookup_prop(fdt, lookup_path(fdt, "/flags"), "empty", &len));
	assert_int_equal(len, 0);

	/* Children, in order, skipping NOPs. */
	n = 0;
	for (child = lookup_child(fdt, ROOT(fdt), -1); child >= 0; child = lookup_child(fdt, ROOT(fdt), child)) {
		assert_true(n < (int)ARRAY_SIZE(root_children));
		assert_string_equal(lookup_name(fdt, child), root_children[n]);
		n++;
	}
	assert_int_equal(n, ARRAY_SIZE(root_children));
	node = lookup_path(fdt, "/cpus");
	child = lookup_child(fdt, node, -1);
	assert_string_equal(lookup_name(fdt, child), "cpu@0");
	child = lookup_child(fdt, node, child);
	assert_string_equal(lookup_name(fdt, child), "cpu@1");
	assert_int_equal(lookup_child(fdt, node, child), -1);
	assert_int_equal(lookup_child(fdt, child, -1), -1);

	/* compatible lists: any entry matches, prefixes do not. */
	assert_int_equal(lookup_compatible(fdt, "arm,pl011"), lookup_path(fdt, "/pl011"));
	assert_int_equal(lookup_compatible(fdt, "arm,primecell"), lookup_path(fdt, "/pl011"));
	assert_int_equal(lookup_compatible(fdt, "arm,psci-0.2"), lookup_path(fdt, "/psci"));
	assert_int_equal(lookup_compatible(fdt, "arm,psci"), lookup_path(fdt, "/psci"));
	assert_int_equal(lookup_compatible(fdt, "linux,dummy-virt"), ROOT(fdt));
	assert_int_equal(lookup_compatible(fdt, "rndbits,last"), lookup_path(fdt, "/flags"));
	assert_int_equal(lookup_compatible(fdt, "arm,pl01"), -1);
	assert_int_equal(lookup_compatible(fdt, "arm,psci-1"), -1);
	assert_int_equal(lookup_compatible(fdt, ""), -1);

	/* Cells. */
	assert_int_equal(lookup_address_cells(fdt, ROOT(fdt)), 2);
	assert_int_equal(lookup_size_cells(fdt, ROOT(fdt)), 2);
	node = lookup_path(fdt, "/cpus");
	assert_int_equal(lookup_address_cells(fdt, node), 1);
	assert_int_equal(lookup_size_cells(fdt, node), 0);
	node = lookup_path(fdt, "/chosen");
	assert_int_equal(lookup_address_cells(fdt, node), 2); /* spec defaults */
	assert_int_equal(lookup_size_cells(fdt, node), 1);

	/* Offsets that are not nodes. */
	assert_null(lookup_name(fdt, -1));
	assert_null(lookup_name(fdt, 1));
	assert_null(lookup_name(fdt, 4)); /* a property token */
	assert_null(lookup_name(fdt, INT_MAX));
	assert_null(lookup_name(fdt, (int)size));
	assert_int_equal(lookup_child(fdt, -5, -1), -1);
	assert_int_equal(lookup_child(fdt, ROOT(fdt), 3), -1);
	assert_int_equal(lookup_child(fdt, ROOT(fdt), INT_MAX), -1);
	assert_null(lookup_prop(fdt, INT_MAX, "reg", &len));
	assert_int_equal(len, -1);
	free(fdt);
}

/* The walk hands out the whole tree in blob order: nodes with their depth, their properties,
 * their ends; NOPs are skipped. */
static void test_walk_good(void **state)
{
	static const struct {
		enum fdt_item_kind kind;
		unsigned depth;
		const char *name;
	} expect[] = {
		{ FDT_ITEM_NODE, 0, "" },
		{ FDT_ITEM_PROP, 0, "#address-cells" },
		{ FDT_ITEM_PROP, 0, "#size-cells" },
		{ FDT_ITEM_PROP, 0, "compatible" },
		{ FDT_ITEM_NODE, 1, "chosen" },
		{ FDT_ITEM_PROP, 1, "bootargs" },
		{ FDT_ITEM_PROP, 1, "rng-seed" },
		{ FDT_ITEM_PROP, 1, "kaslr-seed" },
		{ FDT_ITEM_NODE_END, 1, NULL },
		{ FDT_ITEM_NODE, 1, "memory@40000000" },
		{ FDT_ITEM_PROP, 1, "device_type" },
		{ FDT_ITEM_PROP, 1, "reg" },
		{ FDT_ITEM_NODE_END, 1, NULL },
		{ FDT_ITEM_NODE, 1, "pl011@9000000" },
		{ FDT_ITEM_PROP, 1, "compatible" },
		{ FDT_ITEM_PROP, 1, "reg" },
		{ FDT_ITEM_NODE_END, 1, NULL },
		{ FDT_ITEM_NODE, 1, "psci" },
		{ FDT_ITEM_PROP, 1, "compatible" },
		{ FDT_ITEM_PROP, 1, "method" },
		{ FDT_ITEM_NODE_END, 1, NULL },
		{ FDT_ITEM_NODE, 1, "cpus" },
		{ FDT_ITEM_PROP, 1, "#address-cells" },
		{ FDT_ITEM_PROP, 1, "#size-cells" },
		{ FDT_ITEM_NODE, 2, "cpu@0" },
		{ FDT_ITEM_PROP, 2, "reg" },
		{ FDT_ITEM_NODE_END, 2, NULL },
		{ FDT_ITEM_NODE, 2, "cpu@1" },
		{ FDT_ITEM_PROP, 2, "reg" },
		{ FDT_ITEM_NODE_END, 2, NULL },
		{ FDT_ITEM_NODE_END, 1, NULL },
		{ FDT_ITEM_NODE, 1, "memory@100000000" },
		{ FDT_ITEM_PROP, 1, "device_type" },
		{ FDT_ITEM_PROP, 1, "reg" },
		{ FDT_ITEM_NODE_END, 1, NULL },
		{ FDT_ITEM_NODE, 1, "flags" },
		{ FDT_ITEM_PROP, 1, "empty" },
		{ FDT_ITEM_PROP, 1, "compatible" },
		{ FDT_ITEM_NODE_END, 1, NULL },
		{ FDT_ITEM_NODE_END, 0, NULL },
	};
	size_t size, n = 0;
	uint8_t *fdt = build_virt(&size, NULL);
	struct fdt_walk w;
	struct fdt_item item;

	/* The same checks as check_blob, the buffer's size included. */
	assert_int_equal(fdt_walk_start(&w, NULL, size), -1);
	assert_int_equal(fdt_walk_start(&w, fdt, 39), -1);
	assert_int_equal(fdt_walk_start(&w, fdt, size - 1), -1);
	assert_int_equal(fdt_walk_start(&w, fdt, size), 0);
	while (fdt_walk_next(&w, &item)) {
		assert_true(n < ARRAY_SIZE(expect));
		assert_int_equal(item.kind, expect[n].kind);
		assert_int_equal(item.depth, expect[n].depth);
		if (expect[n].name)
			assert_string_equal(item.name, expect[n].name);
		if (item.kind == FDT_ITEM_NODE && item.depth == 1) {
			char path[64];

			snprintf(path, sizeof(path), "/%s", item.name);
			assert_int_equal(node_id(fdt, &item), lookup_path(fdt, path));
		}
		if (item.kind == FDT_ITEM_PROP && !strcmp(item.name, "bootargs")) {
			assert_int_equal(item.len, sizeof(bootargs));
			assert_memory_equal(item.value, bootargs, sizeof(bootargs));
		}
		n++;
	}
	assert_int_equal(n, ARRAY_SIZE(expect));
	assert_false(fdt_walk_next(&w, &item));
	free(fdt);
}

/* The matching helpers: names with and without unit addresses, string lists. */
static void test_walk_helpers(void **state)
{
	struct fdt_item node = { .kind = FDT_ITEM_NODE, .name = "psci@0" };
	struct fdt_item prop = { .kind = FDT_ITEM_PROP, .name = "compatible" };
	static const char list[] = "arm,gic-400\0arm,cortex-a15-gic";

	assert_true(node_named(&node, "psci"));
	assert_false(node_named(&node, "psc"));
	assert_false(node_named(&node, "psci@"));
	node.name = "psci";
	assert_true(node_named(&node, "psci"));
	node.name = "psci-x";
	assert_false(node_named(&node, "psci"));
	node.name = "";
	assert_true(node_named(&node, ""));
	assert_false(node_named(&node, "chosen"));

	assert_true(prop_named(&prop, "compatible"));
	assert_false(prop_named(&prop, "compatibl"));
	assert_false(prop_named(&prop, "compatibles"));

	prop.value = list;
	prop.len = sizeof(list);
	assert_true(prop_has_string(&prop, "arm,gic-400"));
	assert_true(prop_has_string(&prop, "arm,cortex-a15-gic"));
	assert_false(prop_has_string(&prop, "arm,gic"));
	assert_false(prop_has_string(&prop, "arm,cortex-a15-gic-x"));
	assert_false(prop_has_string(&prop, ""));
	/* Without its NUL the last string never matches; nothing past len is read. */
	prop.len = sizeof(list) - 1;
	assert_true(prop_has_string(&prop, "arm,gic-400"));
	assert_false(prop_has_string(&prop, "arm,cortex-a15-gic"));
	prop.len = 0;
	assert_false(prop_has_string(&prop, "arm,gic-400"));
}

/* The table matchers: the first match's index, unit addresses only for node names, the
 * strings of a list in order, an unterminated last string never. */
static void test_name_tables(void **state)
{
	static const char *const names[] = { "memory", "chosen", "intc" };
	static const char *const gics[] = { "arm,cortex-a15-gic", "arm,gic-v3" };
	static const char list[] = "arm,gic-v3\0arm,cortex-a15-gic";
	struct fdt_item prop = { .kind = FDT_ITEM_PROP, .value = list, .len = sizeof(list) };

	assert_int_equal(fdt_name_index("intc@8000000", names, 3, true), 2);
	assert_int_equal(fdt_name_index("intc@8000000", names, 3, false), -1);
	assert_int_equal(fdt_name_index("chosen", names, 3, false), 1);
	assert_int_equal(fdt_name_index("memory-controller", names, 3, true), -1);
	assert_int_equal(fdt_name_index("memor", names, 3, true), -1);
	assert_int_equal(fdt_name_index("memory", names, 0, true), -1);
	/* A partial match of one name does not stop the others from being tried. */
	assert_int_equal(fdt_name_index("intc", names, 3, false), 2);
	assert_int_equal(fdt_name_index("memoryx", names, 3, true), -1);
	assert_int_equal(fdt_name_index("memory@", names, 3, true), 0);
	assert_int_equal(fdt_name_index("", names, 3, true), -1);
	/* A name that ends (or reaches its unit) inside a wanted one is not it. */
	assert_int_equal(fdt_name_index("mem@0", names, 3, true), -1);
	assert_int_equal(fdt_name_index("chose", names, 3, false), -1);
	assert_int_equal(fdt_name_index("chosen@", names, 3, false), -1);
	{
		static const char *const prefixes[] = { "mem", "memory", "" };

		assert_int_equal(fdt_name_index("memory", prefixes, 3, false), 1);
		assert_int_equal(fdt_name_index("mem@1", prefixes, 3, true), 0);
		assert_int_equal(fdt_name_index("me", prefixes, 3, false), -1);
		assert_int_equal(fdt_name_index("me", prefixes, 2, false), -1);
		/* An empty wanted name: the empty name, and with unit "@..." too. */
		assert_int_equal(fdt_name_index("", prefixes, 3, false), 2);
		assert_int_equal(fdt_name_index("@1", prefixes, 3, true), 2);
		assert_int_equal(fdt_name_index("@1", prefixes, 3, false), -1);
	}
	assert_int_equal(fdt_prop_string_index(&prop, gics, 2), 1);
	prop.len = sizeof(list) - 1; /* "arm,cortex-a15-gic" without its NUL */
	assert_int_equal(fdt_prop_string_index(&prop, gics, 2), 1);
	assert_int_equal(fdt_prop_string_index(&prop, gics, 1), -1);
	prop.len = 10; /* "arm,gic-v3" without its NUL */
	assert_int_equal(fdt_prop_string_index(&prop, gics, 2), -1);
	prop.len = 0;
	assert_int_equal(fdt_prop_string_index(&prop, gics, 2), -1);
}

/* Properties after a child belong to no node and are passed over; the walk ends with the root
 * (whatever follows it) and at FDT_END inside open nodes. */
static void test_walk_odd_shapes(void **state)
{
	struct fdtw w;
	struct fdt_walk walk;
	struct fdt_item item;
	size_t size;
	uint8_t *fdt;
	unsigned props = 0, nodes = 0, ends = 0;

	fdtw_init(&w);
	fdtw_nop(&w);
	fdtw_begin_node(&w, "");
	fdtw_prop_u32(&w, "a", 1);
	fdtw_begin_node(&w, "child");
	fdtw_end_node(&w);
	fdtw_prop_u32(&w, "stray", 2); /* after a child */
	fdtw_end_node(&w);
	fdtw_begin_node(&w, "second-root");
	fdtw_prop_u32(&w, "b", 3);
	fdtw_end_node(&w);
	fdt = fdtw_finish(&w, &size);
	assert_int_equal(fdt_walk_start(&walk, fdt, size), 0);
	while (fdt_walk_next(&walk, &item)) {
		if (item.kind == FDT_ITEM_PROP) {
			assert_string_equal(item.name, "a");
			props++;
		}
		nodes += item.kind == FDT_ITEM_NODE;
		ends += item.kind == FDT_ITEM_NODE_END;
	}
	assert_int_equal(props, 1);
	assert_int_equal(nodes, 2);
	assert_int_equal(ends, 2);
	assert_int_equal(lookup_compatible(fdt, "x"), -1);
	free(fdt);

	/* A node ending before any began ends the walk. */
	fdtw_init(&w);
	fdtw_end_node(&w);
	fdtw_begin_node(&w, "");
	fdtw_end_node(&w);
	fdt = fdtw_finish(&w, &size);
	assert_int_equal(fdt_walk_start(&walk, fdt, size), 0);
	assert_false(fdt_walk_next(&walk, &item));
	free(fdt);

	/* A bad header refuses the walk. */
	fdtw_init(&w);
	fdtw_begin_node(&w, "");
	fdtw_end_node(&w);
	fdt = fdtw_finish(&w, &size);
	fdtw_put_be32(fdt + FDTW_MAGIC, 0);
	assert_int_equal(fdt_walk_start(&walk, fdt, size), -1);
	free(fdt);
}

/* Read everything reachable, the way boot code would; the results only have to be safe. */
static void walk(const void *fdt, int node, int depth)
{
	int len, child;
	const uint8_t *p;

	if (depth > 16)
		return;
	(void)lookup_name(fdt, node);
	p = lookup_prop(fdt, node, "reg", &len);
	if (p && len >= 8)
		(void)fdt_read_cells(p, 2);
	(void)lookup_prop(fdt, node, "compatible", &len);
	(void)lookup_prop(fdt, node, "bootargs", &len);
	(void)lookup_address_cells(fdt, node);
	(void)lookup_size_cells(fdt, node);
	for (child = lookup_child(fdt, node, -1); child >= 0; child = lookup_child(fdt, node, child))
		walk(fdt, child, depth + 1);
}

/* The walk over everything, with the matching helpers on every item: nodes in blob order with
 * depths that nest, every property where a lookup by name finds it (the first of that name). */
static void walk_all(const void *fdt)
{
	struct fdt_walk w;
	struct fdt_item item;
	int node = -1;
	unsigned open = 0;

	if (fdt_walk_start(&w, fdt, (size_t)-1) != 0)
		return;
	while (fdt_walk_next(&w, &item)) {
		switch (item.kind) {
		case FDT_ITEM_NODE:
			assert_true(node_id(fdt, &item) > node);
			assert_int_equal(item.depth, open);
			assert_ptr_equal(lookup_name(fdt, node_id(fdt, &item)), item.name);
			(void)node_named(&item, "memory");
			node = node_id(fdt, &item);
			open++;
			break;
		case FDT_ITEM_PROP: {
			int len;
			const void *v = lookup_prop(fdt, node, item.name, &len);

			assert_int_equal(item.depth + 1, open);
			assert_non_null(v);
			assert_true((const uint8_t *)v <= (const uint8_t *)item.value);
			(void)prop_named(&item, "compatible");
			(void)prop_has_string(&item, "arm,pl011");
			(void)prop_has_string(&item, "");
			break;
		}
		case FDT_ITEM_NODE_END:
			assert_true(open > 0);
			assert_int_equal(item.depth, --open);
			break;
		default:
			fail_msg("item kind %d", item.kind);
		}
	}
	assert_false(fdt_walk_next(&w, &item)); /* and it stays ended */
}

static void exercise(const void *fdt)
{
	static const char *const paths[] = { "/", "/chosen", "/memory", "/cpus/cpu@1", "/psci",
					     "/flags", "/nosuch/x" };

	walk(fdt, ROOT(fdt), 0);
	walk_all(fdt);
	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		int node = lookup_path(fdt, paths[i]);
		if (node >= 0)
			walk(fdt, node, 8);
	}
	(void)lookup_compatible(fdt, "arm,pl011");
	(void)lookup_compatible(fdt, "nosuch");
}

static uint8_t *copy_of(const uint8_t *src, size_t n)
{
	uint8_t *b = malloc(n ? n : 1);

	assert_non_null(b);
	memcpy(b, src, n);
	return b;
}

static void test_exercise_good(void **state)
{
	size_t size;
	uint8_t *fdt = build_virt(&size, NULL);

	exercise(fdt);
	free(fdt);
}

struct header_patch {
	const char *what;
	unsigned field;
	int64_t value; /* absolute; or relative to the original when rel is set */
	bool rel;
	/* Only check_blob, which knows the buffer's real size, can tell this one. */
	bool buffer_only;
};

static void test_bad_headers(void **state)
{
	static const struct header_patch patches[] = {
		{ "bad magic", FDTW_MAGIC, 0xd00dfeee, false },
		{ "byte-swapped magic", FDTW_MAGIC, 0xedfe0dd0, false },
		{ "totalsize beyond the buffer", FDTW_TOTALSIZE, 1, true, true },
		{ "totalsize 4 GiB - 1", FDTW_TOTALSIZE, 0xffffffff, false, true },
		{ "totalsize smaller than the header", FDTW_TOTALSIZE, 39, false },
		{ "totalsize cuts the strings block", FDTW_TOTALSIZE, -1, true },
		{ "version 15", FDTW_VERSION, 15, false },
		{ "last compatible version 18", FDTW_LAST_COMP, 18, false },
		{ "structure block outside totalsize", FDTW_OFF_STRUCT, 0x10000, false },
		{ "structure block overlapping the header", FDTW_OFF_STRUCT, 0, false },
		{ "structure block misaligned", FDTW_OFF_STRUCT, 2, true },
		{ "structure size past the end", FDTW_SIZE_STRUCT, 0x1000, true },
		{ "structure size wrapping", FDTW_SIZE_STRUCT, 0xfffffff0, false },
		{ "strings block outside totalsize", FDTW_OFF_STRINGS, 0x10000, false },
		{ "strings block at 4 GiB - 1", FDTW_OFF_STRINGS, 0xffffffff, false },
		{ "strings size past the end", FDTW_SIZE_STRINGS, 1, true },
		{ "strings size wrapping", FDTW_SIZE_STRINGS, 0xffffffff, false },
		{ "reservation block outside totalsize", FDTW_OFF_RSVMAP, 0x10000, false },
		{ "reservation block inside the header", FDTW_OFF_RSVMAP, 8, false },
	};
	size_t size;
	uint8_t *good = build_virt(&size, NULL);

	assert_int_equal(check_blob(NULL, 1000), -1);
	assert_int_equal(check_blob(good, 0), -1);
	assert_int_equal(check_blob(good, 39), -1);
	assert_int_equal(check_blob(good, size - 1), -1);

	for (size_t i = 0; i < ARRAY_SIZE(patches); i++) {
		uint8_t *fdt = copy_of(good, size);
		const struct header_patch *hp = &patches[i];
		uint32_t v = hp->rel ? (uint32_t)(fdtw_get_be32(fdt + hp->field) + hp->value)
				     : (uint32_t)hp->value;

		fdtw_put_be32(fdt + hp->field, v);
		if (check_blob(fdt, size) != -1)
			fail_msg("%s: check_blob accepted it", hp->what);
		/* The accessors re-check the header against its totalsize and refuse too. */
		if (!hp->buffer_only) {
			assert_int_equal(lookup_path(fdt, "/chosen"), -1);
			assert_int_equal(lookup_compatible(fdt, "arm,pl011"), -1);
		}
		free(fdt);
	}
	free(good);
}

/* Version 16 has no size_dt_struct: whatever the field holds, the structure block runs to
 * totalsize, and the blob reads as the version 17 one does; a structure block starting past
 * totalsize is refused all the same. */
static void test_version_16(void **state)
{
	size_t size;
	uint8_t *v17 = build_virt(&size, NULL);
	uint8_t *v16 = copy_of(v17, size);
	struct fdt_walk s17, s16;
	struct fdt_item a, b;
	unsigned n = 0;

	fdtw_put_be32(v16 + FDTW_VERSION, 16);
	fdtw_put_be32(v16 + FDTW_SIZE_STRUCT, 0xfffffff0);
	assert_int_equal(check_blob(v16, size), 0);
	assert_int_equal(lookup_path(v16, "/chosen"), lookup_path(v17, "/chosen"));
	assert_int_equal(fdt_walk_start(&s17, v17, size), 0);
	assert_int_equal(fdt_walk_start(&s16, v16, size), 0);
	while (fdt_walk_next(&s17, &a)) {
		assert_true(fdt_walk_next(&s16, &b));
		assert_int_equal(a.kind, b.kind);
		assert_int_equal(a.depth, b.depth);
		if (a.kind != FDT_ITEM_NODE_END)
			assert_string_equal(a.name, b.name);
		n++;
	}
	assert_false(fdt_walk_next(&s16, &b));
	assert_true(n > 10);

	fdtw_put_be32(v16 + FDTW_OFF_STRUCT, (uint32_t)size + 8);
	assert_int_equal(check_blob(v16, size), -1);
	free(v16);
	free(v17);
}

/* Every prefix of the blob in a buffer of exactly that size: check_blob refuses all of them;
 * and with the header rewritten to claim only what is there, the accessors stay inside it. */
static void test_truncated(void **state)
{
	size_t size;
	struct layout lay;
	uint8_t *good = build_virt(&size, &lay);
	uint32_t off_strings = fdtw_get_be32(good + FDTW_OFF_STRINGS);

	for (size_t len = 0; len < size; len++) {
		uint8_t *fdt = copy_of(good, len);

		if (check_blob(fdt, len) != -1)
			fail_msg("truncated to %zu of %zu bytes: check_blob accepted it", len, size);
		if (len >= 40 && len >= OFF_STRUCT) {
			/* A consistent header describing the cut blob: blocks clipped to len. */
			uint32_t sstruct = (uint32_t)MIN(fdtw_get_be32(good + FDTW_SIZE_STRUCT),
							 len - OFF_STRUCT);
			uint32_t sstrings = len > off_strings ? (uint32_t)(len - off_strings) : 0;
			uint32_t ostrings = len > off_strings ? off_strings : (uint32_t)len;

			fdtw_put_be32(fdt + FDTW_TOTALSIZE, (uint32_t)len);
			fdtw_put_be32(fdt + FDTW_SIZE_STRUCT, sstruct);
			fdtw_put_be32(fdt + FDTW_OFF_STRINGS, ostrings);
			fdtw_put_be32(fdt + FDTW_SIZE_STRINGS, sstrings);
			assert_int_equal(check_blob(fdt, len), 0);
			exercise(fdt);
			/* The last node's compatible sits at the end of the structure block and
			 * its name at the end of the strings block: any cut loses it. */
			assert_int_equal(lookup_compatible(fdt, "rndbits,last"), -1);
			/* A node whose header was cut cannot be found. */
			if (len < OFF_STRUCT + lay.psci_node + 12)
				assert_int_equal(lookup_path(fdt, "/psci"), -1);
		}
		free(fdt);
	}
	/* Only the structure block clipped (strings intact): every cut before the last node's
	 * "compatible" loses it, and nothing reads past the clipped block. */
	uint32_t struct_size = fdtw_get_be32(good + FDTW_SIZE_STRUCT);
	for (uint32_t k = 0; k < struct_size; k++) {
		uint8_t *fdt = copy_of(good, size);

		fdtw_put_be32(fdt + FDTW_SIZE_STRUCT, k);
		assert_int_equal(check_blob(fdt, size), 0);
		exercise(fdt);
		/* That property needs its 12-byte header and 13 bytes of value (its padding may
		 * fall outside); after it come 12 bytes of END_NODE, END_NODE, END. */
		if (k < struct_size - 15)
			assert_int_equal(lookup_compatible(fdt, "rndbits,last"), -1);
		else if (k >= struct_size - 12)
			assert_true(lookup_compatible(fdt, "rndbits,last") > 0);
		free(fdt);
	}
	free(good);
}

/* Patch a 32-bit word of the structure block and check that the named lookup now fails. */
static uint8_t *patched(const uint8_t *good, size_t size, size_t struct_off, uint32_t v)
{
	uint8_t *fdt = copy_of(good, size);

	fdtw_put_be32(fdt + OFF_STRUCT + struct_off, v);
	assert_int_equal(check_blob(fdt, size), 0); /* the header is still fine */
	return fdt;
}

static void test_bad_properties(void **state)
{
	size_t size;
	struct layout lay;
	uint8_t *good = build_virt(&size, &lay);
	uint32_t strings_size = fdtw_get_be32(good + FDTW_SIZE_STRINGS);
	uint32_t struct_size = fdtw_get_be32(good + FDTW_SIZE_STRUCT);
	const uint32_t bad_lengths[] = { 0xffffffff, 0xfffffff0, 0x80000000, struct_size,
					 struct_size - (uint32_t)lay.bootargs_prop - 11 };
	const uint32_t bad_nameoffs[] = { strings_size, strings_size + 100, 0xffffffff, 0x80000000 };
	uint8_t *fdt;
	int len, chosen = lookup_path(good, "/chosen");

	assert_true(chosen > 0);
	for (size_t i = 0; i < ARRAY_SIZE(bad_lengths); i++) {
		fdt = patched(good, size, lay.bootargs_prop + 4, bad_lengths[i]);
		assert_null(lookup_prop(fdt, chosen, "bootargs", &len));
		assert_int_equal(len, -1);
		assert_null(lookup_prop(fdt, chosen, "kaslr-seed", &len));
		/* The walk cannot get past the broken property. */
		assert_int_equal(lookup_path(fdt, "/memory"), -1);
		assert_int_equal(lookup_compatible(fdt, "arm,pl011"), -1);
		exercise(fdt);
		free(fdt);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad_nameoffs); i++) {
		fdt = patched(good, size, lay.bootargs_prop + 8, bad_nameoffs[i]);
		assert_null(lookup_prop(fdt, chosen, "bootargs", &len));
		assert_null(lookup_prop(fdt, chosen, "rng-seed", &len));
		exercise(fdt);
		free(fdt);
	}
	/* An unknown token where a property was. */
	fdt = patched(good, size, lay.bootargs_prop, 7);
	assert_null(lookup_prop(fdt, chosen, "bootargs", &len));
	assert_int_equal(lookup_child(fdt, ROOT(fdt), chosen), -1);
	assert_int_equal(lookup_path(fdt, "/psci"), -1);
	exercise(fdt);
	free(fdt);
	/* FDT_END where a node begins. */
	fdt = patched(good, size, lay.psci_node, 9);
	assert_int_equal(lookup_path(fdt, "/psci"), -1);
	assert_int_equal(lookup_path(fdt, "/cpus"), -1);
	exercise(fdt);
	free(fdt);
	free(good);
}

/* A node name that runs to the end of the structure block without its NUL. */
static void test_unterminated_node_name(void **state)
{
	struct fdtw w;
	size_t size, child_off;
	uint8_t *fdt;

	fdtw_init(&w);
	fdtw_begin_node(&w, "");
	fdtw_prop_u32(&w, "#address-cells", 1);
	child_off = w.struct_len;
	fdtw_raw_u32(&w, 1);
	fdtw_raw_u32(&w, 0x61626364); /* "abcd", no NUL */
	fdt = fdtw_finish(&w, &size);
	/* Clip the structure block right after "abcd" (drop the FDT_END the writer added). */
	fdtw_put_be32(fdt + FDTW_SIZE_STRUCT, fdtw_get_be32(fdt + FDTW_SIZE_STRUCT) - 4);
	assert_int_equal(check_blob(fdt, size), 0);
	assert_null(lookup_name(fdt, (int)child_off));
	assert_int_equal(lookup_child(fdt, ROOT(fdt), -1), -1);
	assert_int_equal(lookup_path(fdt, "/abcd"), -1);
	assert_int_equal(lookup_compatible(fdt, "x"), -1);
	exercise(fdt);
	free(fdt);

	/* The root's own name unterminated. */
	fdtw_init(&w);
	fdtw_raw_u32(&w, 1);
	fdtw_raw_u32(&w, 0x2f2f2f2f);
	fdt = fdtw_finish(&w, &size);
	fdtw_put_be32(fdt + FDTW_SIZE_STRUCT, 8);
	assert_int_equal(check_blob(fdt, size), 0);
	assert_null(lookup_name(fdt, ROOT(fdt)));
	assert_int_equal(lookup_path(fdt, "/"), -1);
	assert_int_equal(lookup_address_cells(fdt, ROOT(fdt)), 2);
	exercise(fdt);
	free(fdt);
}

/* Node names of every length from 0 to 9 (the NUL in each place of a word, and names over two
 * words), at the top level and below: the walk finds where each name ends and what follows. */
static void test_walk_name_lengths(void **state)
{
	static const char letters[] = "abcdefghi";
	struct fdtw w;
	struct fdt_walk s;
	struct fdt_item item;
	size_t size;
	uint8_t *fdt;
	unsigned n = 0;
	char name[16];

	fdtw_init(&w);
	fdtw_begin_node(&w, "");
	for (unsigned len = 0; len <= 9; len++) {
		snprintf(name, sizeof(name), "%.*s", (int)len, letters);
		fdtw_begin_node(&w, name);
		snprintf(name, sizeof(name), "%.*s", (int)(9 - len), letters);
		fdtw_begin_node(&w, name); /* a child, stepped over */
		fdtw_prop_u32(&w, "inner", 100 + len);
		fdtw_end_node(&w);
		fdtw_end_node(&w);
		/* The same length again, with its own property before its child. */
		snprintf(name, sizeof(name), "%.*s@1", (int)len, letters);
		fdtw_begin_node(&w, name);
		fdtw_prop_u32(&w, "len", len);
		fdtw_begin_node(&w, name);
		fdtw_end_node(&w);
		fdtw_end_node(&w);
	}
	fdtw_end_node(&w);
	fdt = fdtw_finish(&w, &size);
	assert_int_equal(fdt_walk_start(&s, fdt, size), 0);
	while (fdt_walk_next(&s, &item)) {
		unsigned len = n / 3;

		/* The top level only: the root, the children and the ends are checked elsewhere. */
		if (item.kind == FDT_ITEM_NODE_END || item.depth != 1)
			continue;
		if (n % 3 == 2) {
			assert_int_equal(item.kind, FDT_ITEM_PROP);
			assert_string_equal(item.name, "len");
			assert_int_equal(fdtw_get_be32(item.value), len);
		} else {
			assert_int_equal(item.kind, FDT_ITEM_NODE);
			snprintf(name, sizeof(name), n % 3 ? "%.*s@1" : "%.*s", (int)len, letters);
			assert_string_equal(item.name, name);
		}
		n++;
	}
	assert_int_equal(n, 30);
	exercise(fdt);
	free(fdt);
}

/* The blob laid out with its structure block last, cut to struct_size bytes (not necessarily a
 * whole number of words), in a buffer that ends there: any read past the block is caught. */
static uint8_t *struct_block_last(struct fdtw *w, uint32_t struct_size, size_t *size)
{
	size_t dummy, off_strings = 56, off_struct = (off_strings + w->strings_len + 3) & ~(size_t)3;
	uint8_t *src = fdtw_finish(w, &dummy), *fdt;

	*size = off_struct + struct_size;
	fdt = calloc(1, *size);
	assert_non_null(fdt);
	memcpy(fdt, src, 56);
	memcpy(fdt + off_strings, w->strings, w->strings_len);
	memcpy(fdt + off_struct, w->structs, struct_size);
	fdtw_put_be32(fdt + FDTW_TOTALSIZE, (uint32_t)*size);
	fdtw_put_be32(fdt + FDTW_OFF_STRINGS, (uint32_t)off_strings);
	fdtw_put_be32(fdt + FDTW_OFF_STRUCT, (uint32_t)off_struct);
	fdtw_put_be32(fdt + FDTW_SIZE_STRUCT, struct_size);
	free(src);
	return fdt;
}

/* A structure block ending inside a word, right after a top-level node's name: the name counts
 * if its NUL is inside the block, whichever byte of the last partial word that is. */
static void test_walk_partial_last_word(void **state)
{
	static const char *const names[] = { "abc", "abcd", "abcdef", "abcdefg" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		/* The root's header (8 bytes), a property (16), the node's token (4). */
		uint32_t name_at = 8 + 16 + 4, len = (uint32_t)strlen(names[i]);

		for (uint32_t cut = name_at + len; cut <= name_at + len + 1; cut++) {
			struct fdtw w;
			struct fdt_walk s;
			struct fdt_item item;
			size_t size;
			uint8_t *fdt;

			fdtw_init(&w);
			fdtw_begin_node(&w, "");
			fdtw_prop_u32(&w, "#address-cells", 1);
			fdtw_begin_node(&w, names[i]);
			fdt = struct_block_last(&w, cut, &size);
			assert_int_equal(check_blob(fdt, size), 0);
			assert_int_equal(fdt_walk_start(&s, fdt, size), 0);
			assert_true(fdt_walk_next(&s, &item));
			assert_string_equal(item.name, "");
			assert_true(fdt_walk_next(&s, &item));
			assert_string_equal(item.name, "#address-cells");
			/* Handed out only with its NUL (at name_at + len) inside the block. */
			if (cut > name_at + len) {
				assert_true(fdt_walk_next(&s, &item));
				assert_int_equal(item.kind, FDT_ITEM_NODE);
				assert_string_equal(item.name, names[i]);
			}
			assert_false(fdt_walk_next(&s, &item));
			exercise(fdt);
			free(fdt);
		}
	}
}

/* A property name whose string lacks its NUL at the end of the strings block. */
static void test_unterminated_string(void **state)
{
	struct fdtw w;
	size_t size;
	uint8_t *fdt;
	int len;

	fdtw_init(&w);
	fdtw_begin_node(&w, "");
	fdtw_prop_u32(&w, "first", 1);
	fdtw_prop_u32(&w, "zzzz", 2);
	fdtw_end_node(&w);
	fdt = fdtw_finish(&w, &size);
	assert_non_null(lookup_prop(fdt, ROOT(fdt), "zzzz", &len));
	/* Cut the last string's NUL out of the strings block. */
	fdtw_put_be32(fdt + FDTW_SIZE_STRINGS, fdtw_get_be32(fdt + FDTW_SIZE_STRINGS) - 1);
	assert_int_equal(check_blob(fdt, size), 0);
	assert_null(lookup_prop(fdt, ROOT(fdt), "zzzz", &len));
	assert_int_equal(len, -1);
	assert_null(lookup_prop(fdt, ROOT(fdt), "zzz", &len));
	assert_non_null(lookup_prop(fdt, ROOT(fdt), "first", &len)); /* before the broken one: fine */
	exercise(fdt);
	free(fdt);
}

/* An unterminated compatible list must not be read past its length. */
static void test_unterminated_compatible(void **state)
{
	struct fdtw w;
	size_t size;
	uint8_t *fdt;

	fdtw_init(&w);
	fdtw_begin_node(&w, "");
	fdtw_begin_node(&w, "dev");
	fdtw_prop(&w, "compatible", "abc\0def", 7); /* "def" without its NUL */
	fdtw_end_node(&w);
	fdtw_end_node(&w);
	fdt = fdtw_finish(&w, &size);
	assert_int_equal(lookup_compatible(fdt, "abc"), lookup_path(fdt, "/dev"));
	assert_int_equal(lookup_compatible(fdt, "def"), -1);
	assert_int_equal(lookup_compatible(fdt, "de"), -1);
	free(fdt);
}

/* Deep nesting and unclosed nodes: iterative walks, no recursion limits, clean ends. */
static void test_deep_and_unclosed(void **state)
{
	static struct fdtw w;
	char path[4096] = "";
	size_t size;
	uint8_t *fdt;

	fdtw_init(&w);
	fdtw_begin_node(&w, "");
	for (int i = 0; i < 500; i++) {
		fdtw_begin_node(&w, "n");
		if (i < 100)
			strcat(path, "/n");
	}
	fdtw_prop_str(&w, "compatible", "deep");
	/* No END_NODEs at all: the blob ends with FDT_END inside 501 open nodes. */
	fdt = fdtw_finish(&w, &size);
	assert_int_equal(check_blob(fdt, size), 0);
	assert_true(lookup_path(fdt, path) > 0);
	assert_true(lookup_compatible(fdt, "deep") > 0);
	/* Skipping an unclosed node to find its next sibling fails cleanly. */
	int first = lookup_child(fdt, ROOT(fdt), -1);
	assert_true(first > 0);
	assert_int_equal(lookup_child(fdt, ROOT(fdt), first), -1);
	exercise(fdt);
	free(fdt);
}

/* Random damage: flipped bytes anywhere (header included), then whatever check_blob accepts is
 * walked completely. Deterministic (xorshift), 20000 blobs. */
static void test_random_corruption(void **state)
{
	size_t size;
	uint8_t *good = build_virt(&size, NULL);
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	unsigned accepted = 0;

	for (int iter = 0; iter < 20000; iter++) {
		uint8_t *fdt = copy_of(good, size);
		int flips = 1 + iter % 4;

		for (int f = 0; f < flips; f++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			size_t pos = (size_t)(x % size);
			/* Favour values that make interesting lengths and offsets. */
			static const uint8_t vals[] = { 0x00, 0xff, 0x7f, 0x80, 0x01, 0x09, 0x03, 0x04 };
			fdt[pos] = (x >> 40) & 1 ? vals[(x >> 41) % ARRAY_SIZE(vals)] : (uint8_t)(x >> 48);
		}
		if (check_blob(fdt, size) == 0) {
			accepted++;
			exercise(fdt);
		}
		free(fdt);
	}
	/* Most single-byte damage lands in the structure or strings blocks and passes the
	 * header check; make sure the walks were really exercised. */
	assert_true(accepted > 10000);
	free(good);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_blob),
		cmocka_unit_test(test_exercise_good),
		cmocka_unit_test(test_walk_good),
		cmocka_unit_test(test_walk_helpers),
				cmocka_unit_test(test_name_tables),
		cmocka_unit_test(test_walk_odd_shapes),
		cmocka_unit_test(test_bad_headers),
		cmocka_unit_test(test_version_16),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_bad_properties),
		cmocka_unit_test(test_unterminated_node_name),
		cmocka_unit_test(test_walk_name_lengths),
		cmocka_unit_test(test_walk_partial_last_word),
		cmocka_unit_test(test_unterminated_string),
		cmocka_unit_test(test_unterminated_compatible),
		cmocka_unit_test(test_deep_and_unclosed),
		cmocka_unit_test(test_random_corruption),
	};

	return cmocka_run_group_tests_name("fdt", tests, NULL, NULL);
}
