/* Filling struct boot_info: the neutral record of what the firmware told us. */
#include <boot.h>
#include <kernel.h>
#include <lib/fdt.h>
#include <lib/string.h>

static void add_region(struct mem_region *list, unsigned *nr, phys_addr_t base, uint64_t size)
{
	if (size == 0 || *nr >= BOOT_MAX_REGIONS)
		return;
	list[*nr].base = base;
	list[*nr].size = size;
	(*nr)++;
}

void boot_add_ram(struct boot_info *bi, phys_addr_t base, uint64_t size)
{
	add_region(bi->ram, &bi->nr_ram, base, size);
}

void boot_add_reserved(struct boot_info *bi, phys_addr_t base, uint64_t size)
{
	add_region(bi->reserved, &bi->nr_reserved, base, size);
}

void boot_set_cmdline(struct boot_info *bi, const char *cmdline, bool strip_image_path)
{
	if (!cmdline) {
		bi->cmdline[0] = '\0';
		return;
	}
	if (strip_image_path) {
		while (*cmdline && *cmdline != ' ')
			cmdline++;
	}
	while (*cmdline == ' ')
		cmdline++;
	strlcpy(bi->cmdline, cmdline, sizeof(bi->cmdline));
}

size_t cmdline_next_word(const char **p, const char **word)
{
	while (**p == ' ')
		(*p)++;
	*word = *p;
	while (**p && **p != ' ')
		(*p)++;
	return (size_t)(*p - *word);
}

int boot_cmdline_get(const struct boot_info *bi, const char *key, const char **value)
{
	size_t klen = strlen(key), len;
	const char *p = bi->cmdline, *word;

	while ((len = cmdline_next_word(&p, &word)) != 0) {
		if (len > klen && strncmp(word, key, klen) == 0 && word[klen] == '=') {
			*value = word + klen + 1;
			return (int)(len - klen - 1);
		}
	}
	return -1;
}

/* The properties boot_parse_dtb reads, ordered by the node they are read from, so that the
 * ones a node may have are a run of the table and each property's name is compared in one loop
 * (rather than in a chain of tests). */
enum dtb_field {
	/* The root's: the layout of the memory nodes' "reg". */
	ADDRESS_CELLS,
	SIZE_CELLS,
	/* Every top-level node's: RAM is the "reg" of those whose device_type is "memory". */
	DEVICE_TYPE,
	REG,
	/* /chosen's: the first top-level node of that name, as the path "/chosen" finds it. */
	BOOTARGS,
	RNG_SEED,
	KASLR_SEED,
	NR_DTB_FIELDS
};

static const char *const dtb_field_names[NR_DTB_FIELDS] = {
	[ADDRESS_CELLS] = "#address-cells",
	[SIZE_CELLS] = "#size-cells",
	[DEVICE_TYPE] = "device_type",
	[REG] = "reg",
	[BOOTARGS] = "bootargs",
	[RNG_SEED] = "rng-seed",
	[KASLR_SEED] = "kaslr-seed",
};

/* What boot_parse_dtb gathers in its one pass over the tree. */
struct dtb_reader {
	struct boot_info *bi;
	const struct boot_dtb_request *arch;
	bool chosen_found;
	/* The current node: the run of dtb_field_names it may have, and whether the arch asked
	 * for one of its properties. */
	unsigned first, end;
	bool arch_node;
	/* Bit i: field[i] has been found (DEVICE_TYPE and REG: in the current node). */
	unsigned found;
	struct fdt_item field[NR_DTB_FIELDS];
};

static void begin_node(struct dtb_reader *r, const struct fdt_item *node)
{
	const char *arch_node = r->arch ? r->arch->node : NULL;

	r->first = r->end = 0;
	if (node->depth == 0) {
		r->first = ADDRESS_CELLS;
		r->end = DEVICE_TYPE;
	} else if (node->depth == 1) {
		r->first = DEVICE_TYPE;
		r->end = BOOTARGS;
		if (!r->chosen_found && fdt_node_named(node, "chosen")) {
			r->chosen_found = true;
			r->end = NR_DTB_FIELDS;
		}
	}
	r->arch_node = r->arch && (!arch_node || (node->depth == 1 && fdt_node_named(node, arch_node)));
}

static void read_prop(struct dtb_reader *r, const struct fdt_item *prop)
{
	if (r->arch_node && fdt_prop_named(prop, r->arch->prop))
		r->arch->found(prop);
	for (unsigned i = r->first; i < r->end; i++) {
		if (fdt_prop_named(prop, dtb_field_names[i])) {
			r->field[i] = *prop;
			r->found |= 1u << i;
			return;
		}
	}
}

static const struct fdt_item *field(const struct dtb_reader *r, enum dtb_field i)
{
	return r->found & (1u << i) ? &r->field[i] : NULL;
}

static unsigned cells_value(const struct fdt_item *prop, unsigned dflt)
{
	return prop && prop->len == 4 ? (unsigned)fdt_read_cells(prop->value, 1) : dflt;
}

/* RAM from a memory node's reg, in the root's #address-cells/#size-cells. */
static void add_ram_ranges(struct dtb_reader *r, const struct fdt_item *reg)
{
	unsigned ac = cells_value(field(r, ADDRESS_CELLS), 2);
	unsigned sc = cells_value(field(r, SIZE_CELLS), 1);
	uint32_t entry = 4 * (ac + sc);
	const uint8_t *cells = reg->value;

	if (ac < 1 || ac > 2 || sc < 1 || sc > 2)
		return;
	for (uint32_t off = 0; entry <= reg->len - off; off += entry)
		boot_add_ram(r->bi, fdt_read_cells(cells + off, ac),
			     fdt_read_cells(cells + off + 4 * ac, sc));
}

/* A top-level node read to its end: is it a memory node? */
static void end_top_level_node(struct dtb_reader *r)
{
	const struct fdt_item *type = field(r, DEVICE_TYPE), *reg = field(r, REG);

	if (type && reg && fdt_prop_has_string(type, "memory"))
		add_ram_ranges(r, reg);
	r->found &= ~(1u << DEVICE_TYPE | 1u << REG);
}

static void add_seed(struct boot_info *bi, const struct fdt_item *seed, const char *name)
{
	if (!seed || seed->len == 0)
		return;
	unsigned room = BOOT_SEED_MAX - bi->seed_len;
	unsigned n = seed->len < room ? seed->len : room;
	memcpy(bi->seed + bi->seed_len, seed->value, n);
	bi->seed_len += n;
	bi->seed_source = bi->seed_source ? "dtb rng-seed+kaslr-seed" : name;
}

static void apply_chosen(struct dtb_reader *r)
{
	static const char *const seed_names[] = { "dtb rng-seed", "dtb kaslr-seed" };
	const struct fdt_item *args = field(r, BOOTARGS);

	if (args && args->len > 0 && ((const char *)args->value)[args->len - 1] == '\0')
		boot_set_cmdline(r->bi, args->value, false);
	for (unsigned i = 0; i < ARRAY_SIZE(seed_names); i++)
		add_seed(r->bi, field(r, RNG_SEED + i), seed_names[i]);
}

int boot_parse_dtb(struct boot_info *bi, const void *fdt, phys_addr_t dtb_pa,
		   const struct boot_dtb_request *arch)
{
	struct dtb_reader r;
	struct fdt_walk w;
	struct fdt_item item;

	/* The boot mapping covers 2 MiB from the DTB's start. */
	if (fdt_walk_start(&w, fdt, 2u << 20) != 0)
		return -1;
	bi->firmware = "dtb";
	bi->dtb = fdt;
	boot_add_reserved(bi, dtb_pa, fdt_totalsize(fdt));
	/* field[] is valid only where found says so: not cleared. */
	r.bi = bi;
	r.arch = arch;
	r.chosen_found = r.arch_node = false;
	r.first = r.end = 0;
	r.found = 0;
	/* A corrupt blob ends the walk early: what was read before the damage is kept. */
	while (fdt_walk_next(&w, &item)) {
		if (item.kind == FDT_ITEM_NODE)
			begin_node(&r, &item);
		else if (item.kind == FDT_ITEM_PROP)
			read_prop(&r, &item);
		else if (item.depth == 1)
			end_top_level_node(&r);
	}
	/* Damage inside a top-level node ended the walk there: what the node said before it
	 * counts (a lookup of its properties would have found them too). */
	end_top_level_node(&r);
	apply_chosen(&r);
	return 0;
}
