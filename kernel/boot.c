/* Filling struct boot_info: the neutral record of what the firmware told us. */
#include <boot.h>
#include <kernel.h>
#include <lib/fdt.h>
#include <lib/string.h>

static void add_region(struct mem_region *list, unsigned *nr, phys_addr_t base, uint64_t size)
{
	list[*nr].base = base;
	list[*nr].size = size;
	(*nr)++;
}

/* RAM past the list's room is left out: the kernel then uses less RAM than there is. */
void boot_add_ram(struct boot_info *bi, phys_addr_t base, uint64_t size)
{
	if (size != 0 && bi->nr_ram < BOOT_MAX_REGIONS)
		add_region(bi->ram, &bi->nr_ram, base, size);
}

/* A reservation can never be left out (a loader with many modules would have the page
 * allocator hand out their frames): past the list's room, the last entry grows to cover the
 * new range too, reserving whatever RAM lies between them as well. */
void boot_add_reserved(struct boot_info *bi, phys_addr_t base, uint64_t size)
{
	if (size == 0)
		return;
	if (bi->nr_reserved < BOOT_MAX_REGIONS) {
		add_region(bi->reserved, &bi->nr_reserved, base, size);
		return;
	}
	struct mem_region *last = &bi->reserved[BOOT_MAX_REGIONS - 1];
	uint64_t end = MAX(last->base + last->size, base + size);

	last->base = MIN(last->base, base);
	last->size = end - last->base;
}

/* How much of a command line of len bytes fits in max bytes as whole words: all of it if it
 * fits, else up to the last blank before the word the limit cuts (or that starts right at it),
 * without the blanks in front of that word. */
static size_t whole_words_within(const char *cmdline, size_t len, size_t max)
{
	size_t keep = max;

	if (len <= max)
		return len;
	while (keep > 0 && cmdline[keep] != ' ' && cmdline[keep - 1] != ' ')
		keep--;
	while (keep > 0 && cmdline[keep - 1] == ' ')
		keep--;
	return keep;
}

void boot_set_cmdline(struct boot_info *bi, const char *cmdline, bool strip_image_path)
{
	size_t len, keep;

	bi->cmdline[0] = '\0';
	bi->cmdline_given = 0;
	bi->cmdline_refused[0] = '\0';
	if (!cmdline)
		return;
	if (strip_image_path) {
		while (*cmdline && *cmdline != ' ')
			cmdline++;
	}
	while (*cmdline == ' ')
		cmdline++;
	len = strlen(cmdline);
	keep = whole_words_within(cmdline, len, sizeof(bi->cmdline) - 1);
	memcpy(bi->cmdline, cmdline, keep);
	bi->cmdline[keep] = '\0';
	bi->cmdline_given = len;
	if (keep < len) {
		const char *tail = cmdline + keep;

		while (*tail == ' ')
			tail++;
		strlcpy(bi->cmdline_refused, tail, sizeof(bi->cmdline_refused));
	}
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

int boot_cmdline_next(const char **pos, const char *key, const char **value)
{
	size_t klen = strlen(key), len;
	const char *word;

	while ((len = cmdline_next_word(pos, &word)) != 0) {
		if (len > klen && strncmp(word, key, klen) == 0 && word[klen] == '=') {
			*value = word + klen + 1;
			return (int)(len - klen - 1);
		}
	}
	return -1;
}

int boot_cmdline_get(const struct boot_info *bi, const char *key, const char **value)
{
	const char *pos = bi->cmdline;

	return boot_cmdline_next(&pos, key, value);
}

/* The top-level nodes boot_parse_dtb reads properties of, besides the root. */
enum dtb_node {
	MEMORY, /* every node called memory (any unit address) whose device_type is "memory" */
	CHOSEN, /* the first node called chosen, as the path "/chosen" finds it */
	ARCH,   /* every node of the name the arch asked for */
	ROOT,
	OTHER,
};

/* The properties boot_parse_dtb keeps, ordered by the node they are read from, so that the
 * ones a node may have are a run of the table, looked up with one call. The arch's property has
 * a slot too, so that read_prop stores every property it finds the same way (it is handed to the
 * arch at once, and its slot never read). */
enum dtb_field {
	/* The root's: the layout of the memory nodes' "reg". */
	ADDRESS_CELLS,
	SIZE_CELLS,
	DEVICE_TYPE,
	REG,
	BOOTARGS,
	RNG_SEED,
	KASLR_SEED,
	INITRD_START,
	INITRD_END,
	ARCH_PROP,
	NR_DTB_FIELDS
};

static const char *const field_names[NR_DTB_FIELDS] = {
	[ADDRESS_CELLS] = "#address-cells",
	[SIZE_CELLS] = "#size-cells",
	[DEVICE_TYPE] = "device_type",
	[REG] = "reg",
	[BOOTARGS] = "bootargs",
	[RNG_SEED] = "rng-seed",
	[KASLR_SEED] = "kaslr-seed",
	[INITRD_START] = "linux,initrd-start",
	[INITRD_END] = "linux,initrd-end",
};

/* The run of field_names each node's properties are looked up in (ARCH's one name is the
 * arch's, not in the table: see prop_names_of). */
static const struct {
	uint8_t first, end;
} node_fields[] = {
	[ROOT] = { ADDRESS_CELLS, DEVICE_TYPE },
	[MEMORY] = { DEVICE_TYPE, BOOTARGS },
	[CHOSEN] = { BOOTARGS, ARCH_PROP },
	[ARCH] = { ARCH_PROP, NR_DTB_FIELDS },
	[OTHER] = { ADDRESS_CELLS, ADDRESS_CELLS }, /* none, and a run all the same */
};

/* The length a field must have to be kept (0: any): one cell for the root's two, and for
 * device_type that of "memory" and its NUL (a memory node's is of no use otherwise). */
static const uint8_t field_len[NR_DTB_FIELDS] = {
	[ADDRESS_CELLS] = 4,
	[SIZE_CELLS] = 4,
	[DEVICE_TYPE] = sizeof("memory"),
};

/* A kept property: its value, inside the blob. */
struct dtb_value {
	const uint8_t *value;
	uint32_t len;
};

/* What boot_parse_dtb gathers in its one pass over the top of the tree. */
struct dtb_reader {
	struct boot_info *bi;
	const struct boot_dtb_request *arch;
	/* The names of the top-level nodes wanted, by enum dtb_node (the arch's last, if any). */
	const char *nodes[ARCH + 1];
	unsigned nr_nodes;
	/* The node whose properties are being read, and the names they are looked up in. */
	enum dtb_node node;
	const char *const *prop_names;
	/* Bit i: field[i] has been kept (DEVICE_TYPE and REG: in the current memory node). */
	unsigned found;
	/* Valid where found says so, and for the fields boot_parse_dtb starts with a default:
	 * the root's cells, and a length 0 (none) for /chosen's. */
	struct dtb_value field[NR_DTB_FIELDS];
};

#define FOUND(i) (1u << (i))

/* The spec's defaults of #address-cells and #size-cells, which boot_parse_dtb starts with. */
static const uint8_t default_address_cells[4] = { 0, 0, 0, 2 };
static const uint8_t default_size_cells[4] = { 0, 0, 0, 1 };

/* The root's #address-cells or #size-cells: the property (read_prop keeps only one cell), or
 * the default. */
static unsigned cells_value(const struct dtb_reader *r, enum dtb_field i)
{
	return (unsigned)fdt_read_cells(r->field[i].value, 1);
}

/* RAM from a memory node's reg, in the root's #address-cells/#size-cells. */
static void add_ram_ranges(struct dtb_reader *r, const struct dtb_value *reg)
{
	unsigned ac = cells_value(r, ADDRESS_CELLS), sc = cells_value(r, SIZE_CELLS);
	uint32_t entry = 4 * (ac + sc);
	const uint8_t *cells = reg->value;

	/* Only 1 or 2 cells each (0 wraps to above 1). */
	if (ac - 1 > 1 || sc - 1 > 1)
		return;
	for (uint32_t off = 0; entry <= reg->len - off; off += entry)
		boot_add_ram(r->bi, fdt_read_cells(cells + off, ac),
			     fdt_read_cells(cells + off + 4 * ac, sc));
}

#define MEMORY_FIELDS (FOUND(DEVICE_TYPE) | FOUND(REG))

/* A memory node's device_type and reg have both been read: its RAM, if device_type says so.
 * read_prop keeps device_type only if it is as long as "memory" and its NUL. */
static void add_memory_node(struct dtb_reader *r)
{
	if (strcmp((const char *)r->field[DEVICE_TYPE].value, "memory") == 0)
		add_ram_ranges(r, &r->field[REG]);
	r->found &= ~MEMORY_FIELDS;
}

/* Where the properties of a node of this kind are looked up: its run of field_names, or the
 * arch's one name. */
static const char *const *prop_names_of(const struct dtb_reader *r, enum dtb_node node)
{
	return node == ARCH ? &r->arch->prop : field_names + node_fields[node].first;
}

/* A top-level node: read its properties if it is one of those wanted. */
static void begin_node(struct dtb_reader *r, const char *name)
{
	int i = fdt_name_index(name, r->nodes, r->nr_nodes, true);

	r->node = i >= 0 ? (enum dtb_node)i : OTHER;
	r->prop_names = prop_names_of(r, r->node);
	/* Only the first chosen: no node name has a slash. */
	if (r->node == CHOSEN)
		r->nodes[CHOSEN] = "/";
	/* A memory node's two properties are its own, not the last one's. */
	r->found &= ~MEMORY_FIELDS;
}

/* A property of the node being read: kept if it is one of the node's fields (of the length the
 * field must have), handed to the arch if it is the arch's. */
static void read_prop(struct dtb_reader *r, const struct fdt_item *prop)
{
	unsigned first = node_fields[r->node].first;
	int i = fdt_name_index(prop->name, r->prop_names, node_fields[r->node].end - first, false);
	unsigned k;

	if (i < 0)
		return;
	k = first + (unsigned)i;
	if (field_len[k] != 0 && prop->len != field_len[k])
		return;
	r->field[k].value = prop->value;
	r->field[k].len = prop->len;
	r->found |= FOUND(k);
	if (k == ARCH_PROP)
		r->arch->found(prop);
	if ((r->found & MEMORY_FIELDS) == MEMORY_FIELDS)
		add_memory_node(r);
}

/* Append as much of a /chosen seed as fits (a seed not found has length 0, and its value is
 * never read). */
static void append_seed(struct boot_info *bi, const struct dtb_value *seed)
{
	uint32_t n = MIN(seed->len, BOOT_SEED_MAX - bi->seed_len);

	for (uint32_t k = 0; k < n; k++)
		bi->seed[bi->seed_len + k] = seed->value[k];
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
 * writes): the initrd, if both are there and the end lies past the start. */
static void apply_chosen_initrd(struct dtb_reader *r)
{
	uint64_t start, end;

	if (!chosen_address(&r->field[INITRD_START], &start) ||
	    !chosen_address(&r->field[INITRD_END], &end))
		return;
	/* An end at or before the start is recorded as an empty initrd of the DTB, for
	 * boot_take_initrd to refuse with its line (the parser prints nothing). */
	r->bi->initrd_start = (phys_addr_t)start;
	r->bi->initrd_size = end > start ? end - start : 0;
	r->bi->initrd_from = "dtb";
	r->bi->initrd_reserved = false;
}

/* /chosen's command line, and its seeds one after the other (as much as fits). */
static void apply_chosen(struct dtb_reader *r)
{
	static const char *const seed_sources[] = {
		NULL, "dtb rng-seed", "dtb kaslr-seed", "dtb rng-seed+kaslr-seed",
	};
	const struct dtb_value *args = &r->field[BOOTARGS];
	const struct dtb_value *rng = &r->field[RNG_SEED], *kaslr = &r->field[KASLR_SEED];
	struct boot_info *bi = r->bi;

	if (args->len > 0 && args->value[args->len - 1] == '\0')
		boot_set_cmdline(bi, (const char *)args->value, false);
	append_seed(bi, rng);
	append_seed(bi, kaslr);
	bi->seed_source = seed_sources[(rng->len != 0) | (unsigned)(kaslr->len != 0) << 1];
	apply_chosen_initrd(r);
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
	r.bi = bi;
	r.arch = arch;
	r.nodes[MEMORY] = "memory";
	r.nodes[CHOSEN] = "chosen";
	r.nodes[ARCH] = arch ? arch->node : NULL;
	r.nr_nodes = arch ? ARCH + 1 : ARCH;
	r.node = ROOT;
	r.prop_names = prop_names_of(&r, ROOT);
	r.found = 0;
	/* The spec's defaults, until the root says otherwise (see cells_value); /chosen's fields
	 * none (field[] is not cleared as a whole: the others are read only once found). */
	r.field[ADDRESS_CELLS].value = default_address_cells;
	r.field[SIZE_CELLS].value = default_size_cells;
	r.field[BOOTARGS].len = 0;
	r.field[RNG_SEED].len = 0;
	r.field[KASLR_SEED].len = 0;
	r.field[INITRD_START].len = 0;
	r.field[INITRD_END].len = 0;

	bi->firmware = "dtb";
	bi->dtb = fdt;
	boot_add_reserved(bi, dtb_pa, fdt_totalsize(fdt));
	/* Only the root's properties and the top-level nodes' are read. A corrupt blob ends the
	 * walk early: what was read before the damage is kept, the properties of a node the damage
	 * cut short included. A memory node's RAM is taken as soon as both its properties are
	 * known. */
	while (fdt_walk_next(&w, &item)) {
		if (item.kind == FDT_ITEM_NODE && item.depth == 1)
			begin_node(&r, item.name);
		else if (item.kind == FDT_ITEM_PROP && item.depth <= 1)
			read_prop(&r, &item);
	}
	apply_chosen(&r);
	return 0;
}
