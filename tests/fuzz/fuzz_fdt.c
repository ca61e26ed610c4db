/* lib/fdt.c and kernel/boot_dtb.c's boot_parse_dtb under libFuzzer. The input is the blob; the
 * memory holding it is exactly the input (the kernel maps 2 MiB and starts its walk with that,
 * so boot_parse_dtb runs here only on blobs whose header fits the input).
 *
 * Checked: no read outside the blob (ASan), every walk ends (libFuzzer's timeout), the walk
 * hands out node and property names that end inside the blob, property values inside it, depths
 * that nest, and stays ended; the matchers and the cell reader on every property; boot_info
 * stays within its arrays with a NUL-terminated command line and a seed of at most 64 bytes,
 * and does not depend on what the arch asks boot_parse_dtb for; the arch is handed every
 * property it asks for. */
#include "lib_under_test.h"
#include <kernel/boot.h>

#include <string.h>

#include "fuzz.h"

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

static bool named(const char *name, const char *want, bool unit)
{
	return fdt_name_index(name, &want, 1, unit) == 0;
}

static bool has_string(const struct fdt_item *prop, const char *s)
{
	return fdt_prop_string_index(prop, &s, 1) == 0;
}

/* A property's value: every byte readable, the cell reader on every whole number of cells it
 * holds, the string matchers on it. */
static void check_prop(const struct blob *b, const struct fdt_item *prop)
{
	const uint8_t *v = prop->value;

	FUZZ_CHECK(inside(b, v, prop->len));
	for (uint32_t k = 0; k < prop->len; k++)
		sink ^= v[k];
	for (unsigned n = 0; n <= 2 && 4 * n <= prop->len; n++)
		sink ^= (uint8_t)fdt_read_cells(v, n);
	int k = fdt_prop_string_index(prop, compats, ARRAY_SIZE(compats));
	FUZZ_CHECK(k < 0 || has_string(prop, compats[k]));
}

/* The walk: names and values inside the blob, nodes and ends whose depths nest, properties
 * at the depth of the node they follow; and once ended, it stays ended. */
static void check_walk(const struct blob *b)
{
	struct fdt_walk w;
	struct fdt_item item;
	unsigned open = 0;

	FUZZ_CHECK(fdt_walk_start(&w, b->start, b->size) == 0);
	while (fdt_walk_next(&w, &item)) {
		if (item.kind != FDT_ITEM_NODE_END)
			FUZZ_CHECK(inside(b, item.name, strnlen(item.name, b->size) + 1));
		if (item.kind == FDT_ITEM_NODE) {
			FUZZ_CHECK(item.depth == open);
			sink ^= (uint8_t)named(item.name, "memory", true);
			open++;
		} else if (item.kind == FDT_ITEM_PROP) {
			FUZZ_CHECK(open > 0 && item.depth == open - 1);
			check_prop(b, &item);
		} else {
			FUZZ_CHECK(item.kind == FDT_ITEM_NODE_END && open > 0 && item.depth == --open);
		}
	}
	FUZZ_CHECK(!fdt_walk_next(&w, &item));
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
	FUZZ_CHECK(named(prop->name, "compatible", false) || named(prop->name, "method", false));
	sink ^= (uint8_t)has_string(prop, "arm,cortex-a15-gic");
	arch_calls++;
}

/* How many properties boot_parse_dtb should hand the arch: those called req->prop of every
 * top-level node called req->node, as the walk finds them. */
static unsigned expected_arch_calls(const struct blob *b, const struct boot_dtb_request *req)
{
	struct fdt_walk w;
	struct fdt_item item;
	bool wanted = false;
	unsigned n = 0;

	if (fdt_walk_start(&w, b->start, b->size) != 0)
		return 0;
	while (fdt_walk_next(&w, &item)) {
		if (item.kind == FDT_ITEM_NODE && item.depth == 1)
			wanted = named(item.name, req->node, true);
		else if (item.kind == FDT_ITEM_PROP && item.depth == 1)
			n += wanted && named(item.name, req->prop, false);
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

	struct fdt_walk w;

	if (fdt_walk_start(&w, copy, size) == 0) {
		FUZZ_CHECK(fdt_totalsize(copy) <= size);
		b.size = fdt_totalsize(copy); /* the walk reads only what totalsize says */
		check_walk(&b);

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
