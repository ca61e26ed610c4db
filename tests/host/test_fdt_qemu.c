/* lib/fdt.c on the device trees QEMU really generates (dumped at build time with
 * -machine dumpdtb for `-M virt` on arm and arm64, -m 128M as qemu/machines/ says): everything the kernel's boot code
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

	for (int c = fdt_next_child(fdt, node, -1); c >= 0; c = fdt_next_child(fdt, node, c))
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
		} else if (fdt_prop_named(&item, "compatible")) {
			if (gic < 0 && fdt_prop_has_string(&item, "arm,cortex-a15-gic"))
				gic = node.node;
		} else if (node.depth == 1 && fdt_node_named(&node, "memory") &&
			   (fdt_prop_named(&item, "reg") ||
			    (fdt_prop_named(&item, "device_type") && fdt_prop_has_string(&item, "memory")))) {
			memory_props++;
		}
	}
	assert_int_equal(begun, nodes);
	assert_int_equal(ended, nodes);
	assert_int_equal(memory_props, 2);
	assert_true(gic > 0);
	assert_string_equal(fdt_node_name(fdt, gic), "intc@8000000");
}

/* The top-level scan boot code uses finds what it asks for: the GIC's compatible on the node
 * QEMU calls intc@8000000 (arm64's request), /psci's method (arm's), the memory node's
 * properties; and every top-level node. */
static void check_scan(const void *fdt)
{
	static const char *const wanted[] = { "intc", "psci", "memory" };
	static const char *const gics[] = { "arm,cortex-a15-gic", "arm,gic-v3" };
	struct fdt_scan s;
	struct fdt_item item;
	int node = -1, gic = -1;
	unsigned top = 0, memory_props = 0;
	const char *method = NULL;

	assert_int_equal(fdt_scan_start(&s, fdt, (size_t)-1), 0);
	while (fdt_scan_next(&s, &item)) {
		if (item.kind == FDT_ITEM_NODE) {
			node = fdt_name_index(item.name, wanted, ARRAY_SIZE(wanted), true);
			fdt_scan_read_props(&s, node >= 0);
			top++;
		} else if (node == 0 && fdt_prop_named(&item, "compatible")) {
			gic = fdt_prop_string_index(&item, gics, ARRAY_SIZE(gics));
		} else if (node == 1 && fdt_prop_named(&item, "method")) {
			method = item.value;
		} else if (node == 2) {
			memory_props += fdt_prop_named(&item, "reg") || fdt_prop_named(&item, "device_type");
		}
	}
	assert_true(top > 40);
	assert_int_equal(gic, 0); /* GICv2: QEMU's default */
	assert_non_null(method);
	assert_string_equal(method, "hvc");
	assert_int_equal(memory_props, 2);
}

/* The scan hands out exactly the top of what the walk does (the root's properties, the
 * top-level nodes, the properties of those asked for: all of them here), the same pointers. */
static void check_scan_matches_walk(const void *fdt)
{
	struct fdt_walk w;
	struct fdt_scan s;
	struct fdt_item want, got;
	unsigned items = 0;

	assert_int_equal(fdt_walk_start(&w, fdt, (size_t)-1), 0);
	assert_int_equal(fdt_scan_start(&s, fdt, (size_t)-1), 0);
	while (fdt_walk_next(&w, &want)) {
		bool top = want.kind == FDT_ITEM_PROP ? want.depth <= 1 :
			   want.kind == FDT_ITEM_NODE && want.depth == 1;

		if (!top)
			continue;
		assert_true(fdt_scan_next(&s, &got));
		assert_same_fdt_item(&got, &want);
		if (got.kind == FDT_ITEM_NODE)
			fdt_scan_read_props(&s, true);
		items++;
	}
	assert_false(fdt_scan_next(&s, &got));
	assert_true(items > 200);
}

static void check_virt(const char *path)
{
	size_t size;
	uint8_t *fdt = host_load_file(path, &size);
	int root, node, len;
	const uint8_t *p;
	const char *s;

	printf("%s: %zu bytes\n", path, size);
	assert_int_equal(fdt_check(fdt, size), 0);
	assert_true(fdt_totalsize(fdt) <= size);
	root = fdt_path_offset(fdt, "/");
	assert_int_equal(root, 0);
	assert_int_equal(fdt_address_cells(fdt, root), 2);
	assert_int_equal(fdt_size_cells(fdt, root), 2);
	assert_int_equal(fdt_find_compatible(fdt, "linux,dummy-virt"), 0);

	/* RAM: one node, 128 MiB at 1 GiB. */
	node = fdt_path_offset(fdt, "/memory");
	assert_true(node > 0);
	assert_string_equal(fdt_node_name(fdt, node), "memory@40000000");
	s = fdt_getprop(fdt, node, "device_type", &len);
	assert_non_null(s);
	assert_string_equal(s, "memory");
	p = fdt_getprop(fdt, node, "reg", &len);
	assert_int_equal(len, 16);
	assert_int_equal(fdt_read_cells(p, 2), 0x40000000);
	assert_int_equal(fdt_read_cells(p + 8, 2), 128u << 20);

	/* /chosen: QEMU 7.2 provides both seeds and the console path. */
	node = fdt_path_offset(fdt, "/chosen");
	assert_true(node > 0);
	assert_non_null(fdt_getprop(fdt, node, "rng-seed", &len));
	assert_int_equal(len, 32);
	assert_non_null(fdt_getprop(fdt, node, "kaslr-seed", &len));
	assert_int_equal(len, 8);
	s = fdt_getprop(fdt, node, "stdout-path", &len);
	assert_non_null(s);
	assert_string_equal(s, "/pl011@9000000");

	/* The UART, found three ways. */
	node = fdt_find_compatible(fdt, "arm,pl011");
	assert_true(node > 0);
	assert_int_equal(fdt_path_offset(fdt, s), node);
	assert_int_equal(fdt_path_offset(fdt, "/pl011"), node);
	p = fdt_getprop(fdt, node, "reg", &len);
	assert_int_equal(len, 16);
	assert_int_equal(fdt_read_cells(p, 2), 0x09000000);

	/* PSCI through hvc (the conduit for -M virt without EL2/EL3). */
	node = fdt_path_offset(fdt, "/psci");
	assert_true(node > 0);
	assert_string_equal(fdt_getprop(fdt, node, "method", &len), "hvc");
	assert_int_equal(fdt_find_compatible(fdt, "arm,psci-0.2"), node);

	/* CPUs and the interrupt controller's node exist where the arch code looks. */
	node = fdt_path_offset(fdt, "/cpus");
	assert_true(node > 0);
	assert_int_equal(fdt_address_cells(fdt, node), 1);
	assert_int_equal(fdt_size_cells(fdt, node), 0);
	assert_true(fdt_path_offset(fdt, "/cpus/cpu@0") > node);
	assert_true(fdt_find_compatible(fdt, "arm,cortex-a15-gic") > 0);
	/* A plausible tree: QEMU's virt has dozens of nodes (32 virtio-mmio transports alone). */
	unsigned n = count_nodes(fdt, 0);
	printf("%s: %u nodes\n", path, n);
	assert_true(n > 40);
	check_walk(fdt, n);
	check_scan(fdt);
	check_scan_matches_walk(fdt);
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
