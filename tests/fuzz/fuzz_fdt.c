/* lib/fdt.c and kernel/boot.c's boot_parse_dtb under libFuzzer. The input is the blob; the
 * memory holding it is exactly the input (the kernel maps 2 MiB and calls fdt_check with that,
 * so boot_parse_dtb runs here only on blobs fdt_check accepts against the input's size).
 *
 * Checked: no read outside the blob (ASan), every walk ends (libFuzzer's timeout), every node
 * offset handed out names a node whose name ends inside the blob, children come after their
 * parent and siblings in order, property values lie inside the blob, the one-pass walk
 * (fdt_walk_next) hands out nodes the other functions accept, depths that nest, and properties
 * fdt_getprop finds, and so does the top-level scan (fdt_scan_next); boot_info stays within its
 * arrays with a NUL-terminated command line and a seed of at most 64 bytes, and does not depend
 * on what the arch asks boot_parse_dtb for; the arch is handed every property it asks for. */
#include "lib_under_test.h"
#include <boot.h>

#include <string.h>

#include "fuzz.h"

#define MAX_DEPTH 8
#define MAX_NODES 256

static const char *const props[] = {
	"compatible", "reg", "device_type", "bootargs", "rng-seed", "kaslr-seed",
	"#address-cells", "#size-cells", "interrupts", "status", "",
};
static const char *const paths[] = {
	"/", "/chosen", "//chosen/", "/memory", "/memory@40000000", "/memory@0", "/psci",
	"/pl011@9000000", "/intc@8000000", "/chosen/x", "/a/b/c/d", "/flash@0", "no-slash",
};
static const char *const compats[] = {
	"arm,pl011", "arm,gic-v3", "arm,cortex-a15-gic", "arm,psci-1.0", "arm,armv8-timer",
	"", "arm",
};

struct blob {
	const uint8_t *start;
	size_t size;
};

static bool inside(const struct blob *b, const void *p, size_t len)
{
	const uint8_t *q = p;
	return q >= b->start && q <= b->start + b->size && len <= (size_t)(b->start + b->size - q);
}

static volatile uint8_t sink;

static void check_node(const struct blob *b, int node)
{
	const char *name = fdt_node_name(b->start, node);

	FUZZ_CHECK(name != NULL);
	FUZZ_CHECK(inside(b, name, strnlen(name, b->size) + 1));
	for (unsigned i = 0; i < ARRAY_SIZE(props); i++) {
		int len = -2;
		const uint8_t *v = fdt_getprop(b->start, node, props[i], &len);
		if (!v) {
			FUZZ_CHECK(len == -1);
			continue;
		}
		FUZZ_CHECK(len >= 0 && inside(b, v, (size_t)len));
		for (int k = 0; k < len; k++)
			sink ^= v[k];
		/* The cell reader on any whole number of cells the property holds. */
		for (unsigned n = 0; n <= 2 && 4 * n <= (unsigned)len; n++)
			sink ^= (uint8_t)fdt_read_cells(v, n);
	}
	sink ^= (uint8_t)fdt_address_cells(b->start, node);
	sink ^= (uint8_t)fdt_size_cells(b->start, node);
}

static void walk(const struct blob *b, int node, unsigned depth, unsigned *count)
{
	check_node(b, node);
	if (depth == MAX_DEPTH)
		return;
	int prev = -1;
	for (int child = fdt_next_child(b->start, node, -1); child >= 0 && *count < MAX_NODES;
	     child = fdt_next_child(b->start, node, child)) {
		FUZZ_CHECK(child > node && child > prev);
		prev = child;
		(*count)++;
		walk(b, child, depth + 1, count);
	}
}

/* The one-pass walk: nodes in blob order that the other functions accept, depths that nest,
 * properties inside the blob that fdt_getprop finds (the first of that name, at or before). */
static void check_walk(const struct blob *b)
{
	struct fdt_walk w;
	struct fdt_item item;
	int node = -1;
	unsigned open = 0;

	if (fdt_walk_start(&w, b->start, b->size) != 0)
		return;
	while (fdt_walk_next(&w, &item)) {
		FUZZ_CHECK(inside(b, item.name, strnlen(item.name, b->size) + 1));
		if (item.kind == FDT_ITEM_NODE) {
			FUZZ_CHECK(item.node > node && item.depth == open);
			FUZZ_CHECK(fdt_node_name(b->start, item.node) == item.name);
			node = item.node;
			open++;
		} else if (item.kind == FDT_ITEM_PROP) {
			int len;
			const uint8_t *v = fdt_getprop(b->start, node, item.name, &len);

			FUZZ_CHECK(open > 0 && item.depth == open - 1);
			FUZZ_CHECK(inside(b, item.value, item.len));
			FUZZ_CHECK(v != NULL && v <= (const uint8_t *)item.value);
			sink ^= (uint8_t)fdt_prop_has_string(&item, "arm,gic-v3");
		} else {
			FUZZ_CHECK(item.kind == FDT_ITEM_NODE_END && open > 0 && item.depth == --open);
		}
	}
	FUZZ_CHECK(!fdt_walk_next(&w, &item));
}

/* The top-level scan: top-level nodes in blob order that the other functions accept, with
 * their properties (asked for every other node) and the root's inside the blob and found by
 * fdt_getprop; the string matchers on each. */
static void check_scan(const struct blob *b)
{
	static const char *const gics[] = { "arm,cortex-a15-gic", "arm,gic-v3", "" };
	struct fdt_scan s;
	struct fdt_item item;
	int node = -1, root = fdt_path_offset(b->start, "/");
	unsigned nodes = 0;

	if (fdt_scan_start(&s, b->start, b->size) != 0)
		return;
	while (fdt_scan_next(&s, &item)) {
		FUZZ_CHECK(inside(b, item.name, strnlen(item.name, b->size) + 1));
		if (item.kind == FDT_ITEM_NODE) {
			FUZZ_CHECK(item.node > node && item.depth == 1);
			FUZZ_CHECK(fdt_node_name(b->start, item.node) == item.name);
			node = item.node;
			fdt_scan_read_props(&s, nodes++ % 2);
		} else {
			int len, holder = node < 0 ? root : node;

			FUZZ_CHECK(item.kind == FDT_ITEM_PROP && item.depth == (node < 0 ? 0u : 1u));
			FUZZ_CHECK(inside(b, item.value, item.len));
			/* (Tokens fdt_path_offset refuses may precede the root the scan finds.) */
			if (holder >= 0) {
				const uint8_t *v = fdt_getprop(b->start, holder, item.name, &len);

				FUZZ_CHECK(v != NULL && v <= (const uint8_t *)item.value);
			}
			int k = fdt_prop_string_index(&item, gics, ARRAY_SIZE(gics));
			FUZZ_CHECK(k < 0 || fdt_prop_has_string(&item, gics[k]));
		}
	}
	FUZZ_CHECK(!fdt_scan_next(&s, &item));
}

/* What boot_parse_dtb hands the arch: properties inside the blob, of the name asked for, all
 * of them (arch_calls counts them). */
static const struct blob *arch_blob;
static unsigned arch_calls;

static void arch_found(const struct fdt_item *prop)
{
	FUZZ_CHECK(prop->kind == FDT_ITEM_PROP);
	FUZZ_CHECK(inside(arch_blob, prop->name, strlen(prop->name) + 1));
	FUZZ_CHECK(inside(arch_blob, prop->value, prop->len));
	FUZZ_CHECK(fdt_prop_named(prop, "compatible") || fdt_prop_named(prop, "method"));
	sink ^= (uint8_t)fdt_prop_has_string(prop, "arm,cortex-a15-gic");
	arch_calls++;
}

/* How many properties boot_parse_dtb should hand the arch: those called req->prop of every
 * top-level node called req->node, as the scan finds them and fdt_node_named tells them. */
static unsigned expected_arch_calls(const struct blob *b, const struct boot_dtb_request *req)
{
	struct fdt_scan s;
	struct fdt_item item;
	bool wanted = false;
	unsigned n = 0;

	if (fdt_scan_start(&s, b->start, b->size) != 0)
		return 0;
	while (fdt_scan_next(&s, &item)) {
		if (item.kind == FDT_ITEM_NODE) {
			wanted = fdt_node_named(&item, req->node);
			fdt_scan_read_props(&s, wanted);
		} else {
			n += wanted && fdt_prop_named(&item, req->prop);
		}
	}
	return n;
}

static const struct boot_dtb_request gic_request = { "intc", "compatible", arch_found };
static const struct boot_dtb_request psci_request = { "psci", "method", arch_found };

static void check_boot_info(const struct blob *b, const struct boot_info *bi)
{
	FUZZ_CHECK(bi->nr_ram <= BOOT_MAX_REGIONS);
	FUZZ_CHECK(bi->nr_reserved >= 1 && bi->nr_reserved <= BOOT_MAX_REGIONS);
	FUZZ_CHECK(bi->reserved[0].base == 0x48000000 && bi->reserved[0].size == fdt_totalsize(b->start));
	FUZZ_CHECK(memchr(bi->cmdline, '\0', sizeof(bi->cmdline)) != NULL);
	FUZZ_CHECK(bi->seed_len <= BOOT_SEED_MAX);
	FUZZ_CHECK((bi->seed_len == 0) == (bi->seed_source == NULL));
	for (unsigned i = 0; i < bi->nr_ram; i++)
		FUZZ_CHECK(bi->ram[i].size != 0);
	FUZZ_CHECK(bi->dtb == b->start);

	/* The command-line lookup over whatever bootargs said. */
	const char *value;
	int n = boot_cmdline_get(bi, "sysctl.vm.mmap_rnd_bits", &value);
	FUZZ_CHECK(n == -1 || (n >= 0 && value >= bi->cmdline &&
			       value + n <= bi->cmdline + strlen(bi->cmdline)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);
	memcpy(copy, data, size);
	struct blob b = { copy, size };

	if (fdt_check(copy, size) == 0) {
		FUZZ_CHECK(fdt_totalsize(copy) <= size);
		b.size = fdt_totalsize(copy); /* the accessors trust totalsize after fdt_check */
		unsigned count = 0;
		int root = fdt_path_offset(copy, "/");
		if (root >= 0)
			walk(&b, root, 0, &count);
		for (unsigned i = 0; i < ARRAY_SIZE(paths); i++) {
			int node = fdt_path_offset(copy, paths[i]);
			if (node >= 0)
				check_node(&b, node);
		}
		for (unsigned i = 0; i < ARRAY_SIZE(compats); i++) {
			int node = fdt_find_compatible(copy, compats[i]);
			if (node >= 0)
				check_node(&b, node);
		}
		/* Offsets that are not nodes are refused, never followed. */
		FUZZ_CHECK(fdt_node_name(copy, -1) == NULL);
		FUZZ_CHECK(fdt_getprop(copy, -5, "reg", NULL) == NULL);

		check_walk(&b);
		check_scan(&b);

		/* As arm64 and arm call it; the arch's request changes nothing else. */
		struct boot_info bi, bi_arm;
		memset(&bi, 0, sizeof(bi));
		memset(&bi_arm, 0, sizeof(bi_arm));
		arch_blob = &b;
		arch_calls = 0;
		FUZZ_CHECK(boot_parse_dtb(&bi, copy, 0x48000000, &gic_request) == 0);
		FUZZ_CHECK(arch_calls == expected_arch_calls(&b, &gic_request));
		check_boot_info(&b, &bi);
		arch_calls = 0;
		FUZZ_CHECK(boot_parse_dtb(&bi_arm, copy, 0x48000000, &psci_request) == 0);
		FUZZ_CHECK(arch_calls == expected_arch_calls(&b, &psci_request));
		FUZZ_CHECK(memcmp(&bi, &bi_arm, sizeof(bi)) == 0);
	} else {
		struct boot_info bi;
		memset(&bi, 0, sizeof(bi));
		/* boot_parse_dtb checks against 2 MiB: only call it when the header fits the input. */
		if (size >= 40 && fdt_totalsize(copy) <= size)
			FUZZ_CHECK(boot_parse_dtb(&bi, copy, 0x48000000, &gic_request) == -1);
	}
	free(copy);
	return 0;
}
