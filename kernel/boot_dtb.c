/* The boot record from a flattened device tree (arm, arm64): RAM from the memory nodes, the
 * command line, seeds and initrd from /chosen, and the one property the arch asked for, all in
 * one walk over the root's properties and its children's (lib/fdt.c). Deeper nodes are not
 * read: everything the kernel needs sits at the top of QEMU's tree, as on most boards. */
#include <kernel/boot.h>
#include <kernel/kernel.h>
#include <lib/fdt.h>
#include <lib/string.h>

/* The top-level node whose properties are being read. */
enum dtb_node {
	ROOT,   /* before the first child: the root's own properties */
	MEMORY, /* a node called memory (any unit address) */
	CHOSEN, /* the first node called chosen */
	ARCH,   /* a node of the name the arch asked for */
	OTHER,
};

/* A property kept for later, its value inside the blob (len 0: not found). */
struct dtb_value {
	const uint8_t *value;
	uint32_t len;
};

struct dtb_reader {
	struct boot_info *bi;
	const struct boot_dtb_request *arch;
	enum dtb_node node;
	bool chosen_read;
	/* The root's #address-cells and #size-cells: the layout of a memory node's reg. */
	unsigned address_cells, size_cells;
	/* The memory node being read: its device_type ("memory" or not) and reg, once found. */
	bool has_type, type_is_memory, has_reg;
	struct dtb_value reg;
	/* /chosen's properties. */
	struct dtb_value bootargs, rng_seed, kaslr_seed, initrd_start, initrd_end;
};

/* Is a node name base itself, or base@unit? */
static bool node_is(const char *name, const char *base)
{
	return fdt_name_index(name, &base, 1, true) == 0;
}

static struct dtb_value value_of(const struct fdt_item *prop)
{
	return (struct dtb_value){ prop->value, prop->len };
}

/* RAM from a memory node's reg: (address, size) pairs of the root's cell counts, which must be
 * 1 or 2 each. A trailing partial pair is ignored. */
static void add_ram_ranges(struct dtb_reader *r)
{
	unsigned ac = r->address_cells, sc = r->size_cells;
	uint32_t entry = 4 * (ac + sc);
	const uint8_t *cells = r->reg.value;

	if (ac < 1 || ac > 2 || sc < 1 || sc > 2)
		return;
	for (uint32_t off = 0; off + entry <= r->reg.len; off += entry)
		boot_add_ram(r->bi, fdt_read_cells(cells + off, ac),
			     fdt_read_cells(cells + off + 4 * ac, sc));
}

/* A memory node gives RAM as soon as both its device_type and its reg are known (so that a
 * blob damaged later in the node still gives it), and only if device_type is "memory". */
static void read_memory_prop(struct dtb_reader *r, const struct fdt_item *p)
{
	if (strcmp(p->name, "device_type") == 0 && p->len == sizeof("memory")) {
		r->has_type = true;
		r->type_is_memory = memcmp(p->value, "memory", sizeof("memory")) == 0;
	} else if (strcmp(p->name, "reg") == 0) {
		r->has_reg = true;
		r->reg = value_of(p);
	}
	if (r->has_type && r->has_reg) {
		if (r->type_is_memory)
			add_ram_ranges(r);
		r->has_type = r->has_reg = false;
	}
}

static void read_chosen_prop(struct dtb_reader *r, const struct fdt_item *p)
{
	if (strcmp(p->name, "bootargs") == 0)
		r->bootargs = value_of(p);
	else if (strcmp(p->name, "rng-seed") == 0)
		r->rng_seed = value_of(p);
	else if (strcmp(p->name, "kaslr-seed") == 0)
		r->kaslr_seed = value_of(p);
	else if (strcmp(p->name, "linux,initrd-start") == 0)
		r->initrd_start = value_of(p);
	else if (strcmp(p->name, "linux,initrd-end") == 0)
		r->initrd_end = value_of(p);
}

/* A property of the root or of a top-level node (a later one of the same name wins). */
static void read_prop(struct dtb_reader *r, const struct fdt_item *p)
{
	switch (r->node) {
	case ROOT:
		if (p->len == 4 && strcmp(p->name, "#address-cells") == 0)
			r->address_cells = (unsigned)fdt_read_cells(p->value, 1);
		else if (p->len == 4 && strcmp(p->name, "#size-cells") == 0)
			r->size_cells = (unsigned)fdt_read_cells(p->value, 1);
		break;
	case MEMORY:
		read_memory_prop(r, p);
		break;
	case CHOSEN:
		read_chosen_prop(r, p);
		break;
	case ARCH:
		if (strcmp(p->name, r->arch->prop) == 0)
			r->arch->found(p);
		break;
	case OTHER:
		break;
	}
}

static void begin_node(struct dtb_reader *r, const char *name)
{
	r->has_type = r->has_reg = false;
	if (node_is(name, "memory")) {
		r->node = MEMORY;
	} else if (!r->chosen_read && node_is(name, "chosen")) {
		r->node = CHOSEN;
		r->chosen_read = true;
	} else if (r->arch && node_is(name, r->arch->node)) {
		r->node = ARCH;
	} else {
		r->node = OTHER;
	}
}

/* Append as much of a /chosen seed as fits. */
static void append_seed(struct boot_info *bi, const struct dtb_value *seed)
{
	uint32_t n = MIN(seed->len, BOOT_SEED_MAX - bi->seed_len);

	if (n == 0)
		return;
	memcpy(bi->seed + bi->seed_len, seed->value, n);
	bi->seed_len += n;
}

/* A /chosen initrd bound: one or two cells, as a boot loader writes it (Linux reads it with the
 * property's own length); false when it has neither. */
static bool chosen_address(const struct dtb_value *v, uint64_t *out)
{
	if (v->len != 4 && v->len != 8)
		return false;
	*out = fdt_read_cells(v->value, v->len / 4);
	return true;
}

/* linux,initrd-start and linux,initrd-end (what a boot loader, or QEMU booting a raw Image,
 * writes): the initrd, if both are there. An end at or before the start is recorded as an empty
 * initrd of the DTB, for boot_take_initrd to refuse with its line (the parser prints nothing). */
static void apply_chosen_initrd(struct dtb_reader *r)
{
	uint64_t start, end;

	if (!chosen_address(&r->initrd_start, &start) || !chosen_address(&r->initrd_end, &end))
		return;
	r->bi->initrd_start = (phys_addr_t)start;
	r->bi->initrd_size = end > start ? end - start : 0;
	r->bi->initrd_from = "dtb";
	r->bi->initrd_reserved = false;
}

/* /chosen's command line, and its seeds one after the other (as much as fits). */
static void apply_chosen(struct dtb_reader *r)
{
	struct boot_info *bi = r->bi;
	bool rng = r->rng_seed.len != 0, kaslr = r->kaslr_seed.len != 0;

	if (r->bootargs.len > 0 && r->bootargs.value[r->bootargs.len - 1] == '\0')
		boot_set_cmdline(bi, (const char *)r->bootargs.value, false);
	append_seed(bi, &r->rng_seed);
	append_seed(bi, &r->kaslr_seed);
	if (rng && kaslr)
		bi->seed_source = "dtb rng-seed+kaslr-seed";
	else if (rng)
		bi->seed_source = "dtb rng-seed";
	else if (kaslr)
		bi->seed_source = "dtb kaslr-seed";
	else
		bi->seed_source = NULL;
	apply_chosen_initrd(r);
}

int boot_parse_dtb(struct boot_info *bi, const void *fdt, phys_addr_t dtb_pa,
		   const struct boot_dtb_request *arch)
{
	/* The spec's defaults of the cell counts, until the root says otherwise. */
	struct dtb_reader r = { .bi = bi, .arch = arch, .node = ROOT,
				.address_cells = 2, .size_cells = 1 };
	struct fdt_walk w;
	struct fdt_item item;

	/* The boot mapping covers 2 MiB from the DTB's start. */
	if (fdt_walk_start(&w, fdt, 2u << 20) != 0)
		return -1;
	bi->firmware = "dtb";
	bi->dtb = fdt;
	boot_add_reserved(bi, dtb_pa, fdt_totalsize(fdt));
	/* A corrupt blob ends the walk early: what was read before the damage is kept. */
	while (fdt_walk_next(&w, &item)) {
		if (item.kind == FDT_ITEM_NODE && item.depth == 1)
			begin_node(&r, item.name);
		else if (item.kind == FDT_ITEM_PROP && item.depth <= 1)
			read_prop(&r, &item);
	}
	apply_chosen(&r);
	return 0;
}
