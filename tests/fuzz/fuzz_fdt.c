/* lib/fdt.c and kernel/boot.c's boot_parse_dtb under libFuzzer. The input is the blob; the
 * memory holding it is exactly the input (the kernel maps 2 MiB and calls fdt_check with that,
 * so boot_parse_dtb runs here only on blobs fdt_check accepts against the input's size).
 *
 * Checked: no read outside the blob (ASan), every walk ends (libFuzzer's timeout), every node
 * offset handed out names a node whose name ends inside the blob, children come after their
 * parent and siblings in order, property values lie inside the blob, and boot_info stays
 * within its arrays with a NUL-terminated command line and a seed of at most 64 bytes. */
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

		struct boot_info bi;
		memset(&bi, 0, sizeof(bi));
		FUZZ_CHECK(boot_parse_dtb(&bi, copy, 0x48000000) == 0);
		check_boot_info(&b, &bi);
	} else {
		struct boot_info bi;
		memset(&bi, 0, sizeof(bi));
		/* boot_parse_dtb checks against 2 MiB: only call it when the header fits the input. */
		if (size >= 40 && fdt_totalsize(copy) <= size)
			FUZZ_CHECK(boot_parse_dtb(&bi, copy, 0x48000000) == -1);
	}
	free(copy);
	return 0;
}
