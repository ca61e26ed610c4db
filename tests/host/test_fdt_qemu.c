/* lib/fdt.c on the device trees QEMU really generates (dumped at build time with
 * -machine dumpdtb for `-M virt` on arm and arm64, -m 128M as arch/arm/qemu.json and arch/arm64/qemu.json
 * say): everything the kernel's boot code
 * reads must be found where QEMU 7.2 puts it. Arguments: the .dtb files. */
#include "lib_under_test.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fdt_assert.h"
#include "host_files.h"

static char **dtb_paths;
static int nr_dtbs;

static unsigned count_nodes(const void *fdt, int node)
{
	unsigned n = 1;

	for (int c = lookup_child(fdt, node, -1); c >= 0; c = lookup_child(fdt, node, c))
		n += count_nodes(fdt, c);
	return n;
}

/* The one-pass walk boot code uses sees the same tree: every node begun and ended, the memory
 * node's properties, the GIC where QEMU puts it. */
static void check_walk(const void *fdt, unsigned nodes)
{
	struct fdt_walk w;
	struct fdt_item item, node = { 0 };
	unsigned begun = 0, ended = 0, memory_props = 0;
	int gic = -1;

	assert_int_equal(fdt_walk_start(&w, fdt, (size_t)-1), 0);
	while (fdt_walk_next(&w, &item)) {
		if (item.kind == FDT_ITEM_NODE) {
			node = item;
			begun++;
		} else if (item.kind == FDT_ITEM_NODE_END) {
			ended++;
		} else if (prop_named(&item, "compatible")) {
			if (gic < 0 && prop_has_string(&item, "arm,cortex-a15-gic"))
				gic = node_id(fdt, &node);
		} else if (node.depth == 1 && node_named(&node, "memory") &&
			   (prop_named(&item, "reg") ||
			    (prop_named(&item, "device_type") && prop_has_string(&item, "memory")))) {
			memory_props++;
		}
	}
	assert_int_equal(begun, nodes);
	assert_int_equal(ended, nodes);
	assert_int_equal(memory_props, 2);
	assert_true(gic > 0);
	assert_string_equal(lookup_name(fdt, gic), "intc@8000000");
}

/* The top of the tree, as boot code reads it, has what boot code asks for: the GIC's compatible
 * on the node QEMU calls intc@8000000 (arm64's request), /psci's method (arm's), the memory
 * node's properties; and every top-level node. */
static void check_top_level(const void *fdt)
{
	static const char *const wanted[] = { "intc", "psci", "memory" };
	static const char *const gics[] = { "arm,cortex-a15-gic", "arm,gic-v3" };
	struct fdt_walk w;
	struct fdt_item item;
	int node = -1, gic = -1;
	unsigned top = 0, memory_props = 0;
	const char *method = NULL;

	assert_int_equal(fdt_walk_start(&w, fdt, (size_t)-1), 0);
	while (fdt_walk_next(&w, &item)) {
		if (item.kind == FDT_ITEM_NODE_END || item.depth != 1)
			continue;
		if (item.kind == FDT_ITEM_NODE) {
			node = fdt_name_index(item.name, wanted, ARRAY_SIZE(wanted), true);
			top++;
		} else if (node == 0 && prop_named(&item, "compatible")) {
			gic = fdt_prop_string_index(&item, gics, ARRAY_SIZE(gics));
		} else if (node == 1 && prop_named(&item, "method")) {
			method = item.value;
		} else if (node == 2) {
			memory_props += prop_named(&item, "reg") || prop_named(&item, "device_type");
		}
	}
	assert_true(top > 40);
	assert_int_equal(gic, 0); /* GICv2: QEMU's default */
	assert_non_null(method);
	assert_string_equal(method, "hvc");
	assert_int_equal(memory_props, 2);
}

static void check_virt(const char *path)
{
	size_t size;
	uint8_t *fdt = host_load_file(path, &size);
	int root, node, len;
	const uint8_t *p;
	const char *s;

	printf("%s: %zu bytes\n", path, size);
	assert_int_equal(check_blob(fdt, size), 0);
	assert_true(fdt_totalsize(fdt) <= size);
	root = lookup_path(fdt, "/");
	assert_true(root > 0);
	assert_int_equal(lookup_address_cells(fdt, root), 2);
	assert_int_equal(lookup_size_cells(fdt, root), 2);
	assert_int_equal(lookup_compatible(fdt, "linux,dummy-virt"), ROOT(fdt));

	/* RAM: one node, 128 MiB at 1 GiB. */
	node = lookup_path(fdt, "/memory");
	assert_true(node > 0);
	assert_string_equal(lookup_name(fdt, node), "memory@40000000");
	s = lookup_prop(fdt, node, "device_type", &len);
	assert_non_null(s);
	assert_string_equal(s, "memory");
	p = lookup_prop(fdt, node, "reg", &len);
	assert_int_equal(len, 16);
	assert_int_equal(fdt_read_cells(p, 2), 0x40000000);
	assert_int_equal(fdt_read_cells(p + 8, 2), 128u << 20);

	/* /chosen: QEMU 7.2 provides both seeds and the console path. */
	node = lookup_path(fdt, "/chosen");
	assert_true(node > 0);
	assert_non_null(lookup_prop(fdt, node, "rng-seed", &len));
	assert_int_equal(len, 32);
	assert_non_null(lookup_prop(fdt, node, "kaslr-seed", &len));
	assert_int_equal(len, 8);
	s = lookup_prop(fdt, node, "stdout-path", &len);
	assert_non_null(s);
	assert_string_equal(s, "/pl011@9000000");

	/* The UART, found three ways. */
	node = lookup_compatible(fdt, "arm,pl011");
	assert_true(node > 0);
	assert_int_equal(lookup_path(fdt, s), node);
	assert_int_equal(lookup_path(fdt, "/pl011"), node);
	p = lookup_prop(fdt, node, "reg", &len);
	assert_int_equal(len, 16);
	assert_int_equal(fdt_read_cells(p, 2), 0x09000000);

	/* PSCI through hvc (the conduit for -M virt without EL2/EL3). */
	node = lookup_path(fdt, "/psci");
	assert_true(node > 0);
	assert_string_equal(lookup_prop(fdt, node, "method", &len), "hvc");
	assert_int_equal(lookup_compatible(fdt, "arm,psci-0.2"), node);

	/* CPUs and the interrupt controller's node exist where the arch code looks. */
	node = lookup_path(fdt, "/cpus");
	assert_true(node > 0);
	assert_int_equal(lookup_address_cells(fdt, node), 1);
	assert_int_equal(lookup_size_cells(fdt, node), 0);
	assert_true(lookup_path(fdt, "/cpus/cpu@0") > node);
	assert_true(lookup_compatible(fdt, "arm,cortex-a15-gic") > 0);
	/* A plausible tree: QEMU's virt has dozens of nodes (32 virtio-mmio transports alone). */
	unsigned n = count_nodes(fdt, root);
	printf("%s: %u nodes\n", path, n);
	assert_true(n > 40);
	check_walk(fdt, n);
	check_top_level(fdt);
	free(fdt);
}

static void test_qemu_dtbs(void **state)
{
	assert_true(nr_dtbs > 0);
	for (int i = 0; i < nr_dtbs; i++)
		check_virt(dtb_paths[i]);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qemu_dtbs),
	};

	dtb_paths = argv + 1;
	nr_dtbs = argc - 1;
	return cmocka_run_group_tests_name("fdt_qemu", tests, NULL, NULL);
}
