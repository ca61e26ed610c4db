/* What the arch's boot code learnt from the firmware (DTB or multiboot), in one neutral form. */
#ifndef RNDBITS_BOOT_H
#define RNDBITS_BOOT_H

#include <lib/types.h>

#define BOOT_MAX_REGIONS 16
/* Linux's COMMAND_LINE_SIZE for the ISA, its NUL included. A longer command line is refused
 * from the word the limit cuts on (see boot_set_cmdline), never cut inside a word. */
#define BOOT_CMDLINE_MAX CONFIG_COMMAND_LINE_SIZE
#define BOOT_SEED_MAX 64

struct mem_region {
	phys_addr_t base;
	uint64_t size;
};

struct boot_info {
	/* Usable RAM, as the firmware described it. */
	struct mem_region ram[BOOT_MAX_REGIONS];
	unsigned nr_ram;
	/* Ranges inside RAM the page-frame allocator must never hand out: the kernel image, the
	 * DTB or multiboot structures, boot page tables, boot stacks. */
	struct mem_region reserved[BOOT_MAX_REGIONS];
	unsigned nr_reserved;
	/* Kernel command line (DTB /chosen bootargs, or multiboot cmdline without the image path). */
	char cmdline[BOOT_CMDLINE_MAX];
	/* The firmware's command line was this long (image path and leading blanks left out);
	 * more than strlen(cmdline) when the tail did not fit and was refused. */
	size_t cmdline_given;
	/* The first bytes of a refused tail (from its first word on), for the boot log. */
	char cmdline_refused[32];
	/* Firmware-provided entropy (DTB /chosen rng-seed and kaslr-seed), and its name for logs. */
	uint8_t seed[BOOT_SEED_MAX];
	unsigned seed_len;
	const char *seed_source;
	/* Where the boot data came from, for the boot log: "dtb" or "multiboot". */
	const char *firmware;
	/* Virtual address of the flattened device tree, or NULL (x86). */
	const void *dtb;
	/* The initial RAM disk (a cpio archive) as the boot loader or the command line described
	 * it: physical start and size, size 0 for none. initrd_from names the source for the boot
	 * line ("dtb", "multiboot module 0", "initrd=", "initrdmem="); initrd_reserved is set when
	 * the firmware parser has already reserved its frames (multiboot modules). */
	phys_addr_t initrd_start;
	uint64_t initrd_size;
	const char *initrd_from;
	bool initrd_reserved;
};

/* Record a RAM region or a reserved range (empty ones are ignored). Past BOOT_MAX_REGIONS, RAM
 * is left out (the boot log shows how many regions were recorded), while a reservation widens
 * the last one to cover it: nothing reserved is ever handed out. */
void boot_add_ram(struct boot_info *bi, phys_addr_t base, uint64_t size);
void boot_add_reserved(struct boot_info *bi, phys_addr_t base, uint64_t size);
/* Copy a command line, dropping a leading image path ("rndbits.elf foo=1" -> "foo=1") when
 * strip_image_path is set, as multiboot loaders prefix it. What does not fit in
 * BOOT_CMDLINE_MAX - 1 bytes is refused from the start of the word the limit cuts: only whole
 * words are kept (cmdline_given records the length offered, for the boot log). */
void boot_set_cmdline(struct boot_info *bi, const char *cmdline, bool strip_image_path);
/* The next blank-separated word of a command line at *p (advancing *p past it): its length, or
 * 0 at the end. */
size_t cmdline_next_word(const char **p, const char **word);
/* Look up "key=value" on the command line; returns the value's length or -1 if absent. */
int boot_cmdline_get(const struct boot_info *bi, const char *key, const char **value);
/* The next "key=value" at or after *pos (advancing *pos past it), to take every occurrence in
 * order as Linux does: the value's length, or -1 when there is none left. */
int boot_cmdline_next(const char **pos, const char *key, const char **value);

/* Take the initrd: the command line's initrd=ADDR,SIZE or initrdmem=ADDR,SIZE (Linux's
 * parameters; the last one given wins) over what the firmware said. The range must lie inside
 * one RAM region and share no byte with a reserved range (kernel image, DTB, ...); then it is
 * reserved so that the page allocator never hands its frames out. Call before pmm_init. A value
 * that is not ADDR,SIZE, or a range that breaks those rules, is refused with one boot line and
 * the kernel boots without an initrd. Returns whether an initrd was taken. */
bool boot_take_initrd(struct boot_info *bi);

struct fdt_item;
/* A property the arch wants from the device tree, handed to found() during boot_parse_dtb's
 * pass (so that nothing walks the tree again): the property called prop of every top-level
 * node called node (with any unit address). */
struct boot_dtb_request {
	const char *node;
	const char *prop;
	void (*found)(const struct fdt_item *prop);
};

/* Fill RAM (top-level nodes called memory whose device_type is "memory"), command line, seed and
 * initrd (/chosen linux,initrd-start and linux,initrd-end) from a flattened device tree (arm, arm64) in one pass over its top level, handing
 * the arch what it asked for (arch may be NULL) on the way; reserves the DTB itself. Returns 0,
 * or -1 if the blob is not a valid FDT. A blob corrupt past its header gives what could be read
 * before the damage. */
int boot_parse_dtb(struct boot_info *bi, const void *dtb, phys_addr_t dtb_pa,
		   const struct boot_dtb_request *arch);

#endif
