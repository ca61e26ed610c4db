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

static void add_seed(struct boot_info *bi, const void *data, int len, const char *name)
{
	if (!data || len <= 0)
		return;
	unsigned room = BOOT_SEED_MAX - bi->seed_len;
	unsigned n = (unsigned)len < room ? (unsigned)len : room;
	memcpy(bi->seed + bi->seed_len, data, n);
	bi->seed_len += n;
	bi->seed_source = bi->seed_source ? "dtb rng-seed+kaslr-seed" : name;
}

/* RAM from every /memory node's reg, in the root's #address-cells/#size-cells. */
static void parse_memory_nodes(struct boot_info *bi, const void *fdt)
{
	int root = fdt_path_offset(fdt, "/");
	unsigned ac = fdt_address_cells(fdt, root), sc = fdt_size_cells(fdt, root);

	if (ac < 1 || ac > 2 || sc < 1 || sc > 2)
		return;
	for (int node = fdt_next_child(fdt, root, -1); node >= 0;
	     node = fdt_next_child(fdt, root, node)) {
		int len;
		const char *type = fdt_getprop(fdt, node, "device_type", &len);
		if (!type || len < 7 || strncmp(type, "memory", 7) != 0)
			continue;
		const uint8_t *reg = fdt_getprop(fdt, node, "reg", &len);
		unsigned entry = 4 * (ac + sc);
		for (int off = 0; reg && off + (int)entry <= len; off += (int)entry)
			boot_add_ram(bi, fdt_read_cells(reg + off, ac),
				     fdt_read_cells(reg + off + 4 * ac, sc));
	}
}

int boot_parse_dtb(struct boot_info *bi, const void *fdt, phys_addr_t dtb_pa)
{
	if (!fdt || fdt_check(fdt, 2u << 20) != 0)
		return -1;
	bi->firmware = "dtb";
	bi->dtb = fdt;
	boot_add_reserved(bi, dtb_pa, fdt_totalsize(fdt));
	parse_memory_nodes(bi, fdt);

	int chosen = fdt_path_offset(fdt, "/chosen");
	if (chosen >= 0) {
		int len;
		const char *args = fdt_getprop(fdt, chosen, "bootargs", &len);
		if (args && len > 0 && args[len - 1] == '\0')
			boot_set_cmdline(bi, args, false);
		const void *seed = fdt_getprop(fdt, chosen, "rng-seed", &len);
		add_seed(bi, seed, len, "dtb rng-seed");
		seed = fdt_getprop(fdt, chosen, "kaslr-seed", &len);
		add_seed(bi, seed, len, "dtb kaslr-seed");
	}
	return 0;
}
