/* kernel/boot_dtb.c, kernel/cmdline.c and kernel/initrd.c: boot_parse_dtb's results on blobs built here (the RAM of memory nodes, /chosen's
 * command line and seeds, the arch's property, the DTB reserved) and on the device trees QEMU
 * really hands the arm and arm64 kernels (arguments: the .dtb files dumped at build time). The
 * fuzz harness only checks that whatever comes out is well-formed; these check that it is right. */
#include "lib_under_test.h"
#include <kernel/boot.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "host_files.h"

#include "fdt_writer.h"

static char **dtb_paths;

/* boot.c's boot lines (an initrd refused): counted, so that a refusal is one line. */
int printk(const char *fmt, ...);
static unsigned printk_lines;

int printk(const char *fmt, ...)
{
	(void)fmt;
	printk_lines++;
	return 0;
}
static int nr_dtbs;

/* --- the arch's request: every property handed over is recorded ------------------------------ */

static unsigned arch_calls;
static char arch_value[64];
static uint32_t arch_len;

static void arch_found(const struct fdt_item *prop)
{
	arch_calls++;
	arch_len = prop->len;
	memcpy(arch_value, prop->value, prop->len < sizeof(arch_value) ? prop->len : sizeof(arch_value));
}

static const struct boot_dtb_request gic_request = { "intc", "compatible", arch_found };

/* --- blobs ----------------------------------------------------------------------------------- */

static void root_cells(struct fdtw *w, uint32_t ac, uint32_t sc)
{
	fdtw_prop_u32(w, "#address-cells", ac);
	fdtw_prop_u32(w, "#size-cells", sc);
}

static void memory_node(struct fdtw *w, const char *name, const char *type, const uint32_t *reg,
			size_t cells, bool type_first)
{
	fdtw_begin_node(w, name);
	if (type_first && type)
		fdtw_prop_str(w, "device_type", type);
	fdtw_prop_cells(w, "reg", reg, cells);
	if (!type_first && type)
		fdtw_prop_str(w, "device_type", type);
	fdtw_end_node(w);
}

static uint8_t *parse(struct fdtw *w, struct boot_info *bi, size_t *size)
{
	uint8_t *blob;

	fdtw_end_node(w); /* the root */
	blob = fdtw_finish(w, size);
	memset(bi, 0, sizeof(*bi));
	arch_calls = 0;
	assert_int_equal(boot_parse_dtb(bi, blob, 0x48000000, &gic_request), 0);
	return blob;
}

/* --- tests ----------------------------------------------------------------------------------- */

/* What QEMU's virt machine gives, in miniature: 2+2 cells, one memory node, /chosen with a
 * command line and both seeds, the GIC. */
static void test_virt_like_blob(void **state)
{
	(void)state;
	static const uint32_t reg[] = { 0, 0x40000000, 0, 0x08000000 };
	uint8_t rng[32], kaslr[8];
	struct fdtw w;
	struct boot_info bi;
	size_t size;

	for (unsigned i = 0; i < sizeof(rng); i++)
		rng[i] = (uint8_t)(i + 1);
	for (unsigned i = 0; i < sizeof(kaslr); i++)
		kaslr[i] = (uint8_t)(0xa0 + i);
	fdtw_init(&w);
	fdtw_begin_node(&w, "");
	root_cells(&w, 2, 2);
	fdtw_begin_node(&w, "intc@8000000");
	fdtw_prop_str(&w, "compatible", "arm,cortex-a15-gic");
	fdtw_end_node(&w);
	memory_node(&w, "memory@40000000", "memory", reg, 4, true);
	fdtw_begin_node(&w, "chosen");
	fdtw_prop_str(&w, "bootargs", "rng.seed=5 vm.mmap_rnd_bits=20");
	fdtw_prop(&w, "rng-seed", rng, sizeof(rng));
	fdtw_prop(&w, "kaslr-seed", kaslr, sizeof(kaslr));
	fdtw_end_node(&w);
	uint8_t *blob = parse(&w, &bi, &size);

	assert_int_equal(bi.nr_ram, 1);
	assert_int_equal(bi.ram[0].base, 0x40000000);
	assert_int_equal(bi.ram[0].size, 0x08000000);
	assert_string_equal(bi.cmdline, "rng.seed=5 vm.mmap_rnd_bits=20");
	assert_int_equal(bi.seed_len, 40);
	assert_memory_equal(bi.seed, rng, 32);
	assert_memory_equal(bi.seed + 32, kaslr, 8);
	assert_string_equal(bi.seed_source, "dtb rng-seed+kaslr-seed");
	assert_int_equal(bi.nr_reserved, 1);
	assert_int_equal(bi.reserved[0].base, 0x48000000);
	assert_int_equal(bi.reserved[0].size, size);
	assert_string_equal(bi.firmware, "dtb");
	assert_ptr_equal(bi.dtb, blob);
	assert_int_equal(arch_calls, 1);
	assert_int_equal(arch_len, sizeof("arm,cortex-a15-gic"));
	assert_string_equal(arch_value, "arm,cortex-a15-gic");
	free(blob);
}

/* --- command lines longer than BOOT_CMDLINE_MAX - 1 bytes ------------------------------------ */

/* boot_set_cmdline on text of filler bytes ('a', in words of at most 99) up to `at`, then tail:
 * what is kept, how long the offered line was, where the refused part starts. */
static void set_long_cmdline(struct boot_info *bi, size_t at, const char *tail, bool strip)
{
	static char text[3 * BOOT_CMDLINE_MAX];
	size_t n = 0;

	if (strip)
		n += (size_t)sprintf(text, "/boot/rndbits.elf ");
	size_t start = n;
	while (n < start + at) {
		text[n] = (n - start) % 100 == 99 || n + 1 == start + at ? ' ' : 'a';
		n++;
	}
	strcpy(text + n, tail);
	memset(bi, 0, sizeof(*bi));
	boot_set_cmdline(bi, text, strip);
}

/* A line that fits exactly is whole; one byte more and the word the limit cuts is refused,
 * never applied cut short: the 484 filler bytes and sysctl.vm.mmap_rnd_bits=200 (which
 * a 511-byte cut turned into =20), here at the real limit. */
static void test_long_cmdline_refused_from_cut_word(void **state)
{
	(void)state;
	const size_t max = BOOT_CMDLINE_MAX - 1;
	const char *param = "sysctl.vm.mmap_rnd_bits=200";
	struct boot_info bi;
	const char *value;

	assert_true(BOOT_CMDLINE_MAX == 2048); /* arm64's COMMAND_LINE_SIZE (this test's preset) */
	/* Exactly max bytes: all kept. */
	set_long_cmdline(&bi, max - strlen(param), param, false);
	assert_int_equal(strlen(bi.cmdline), max);
	assert_int_equal(bi.cmdline_given, max);
	assert_string_equal(bi.cmdline_refused, "");
	assert_int_equal(boot_cmdline_get(&bi, "sysctl.vm.mmap_rnd_bits", &value), 3);
	/* One more: the limit falls inside the parameter's last digit. */
	for (bool strip = false; ; strip = true) {
		set_long_cmdline(&bi, max - strlen(param) + 1, param, strip);
		assert_int_equal(bi.cmdline_given, max + 1);
		assert_int_equal(strlen(bi.cmdline), max - strlen(param)); /* the blank dropped too */
		assert_int_equal(boot_cmdline_get(&bi, "sysctl.vm.mmap_rnd_bits", &value), -1);
		assert_string_equal(bi.cmdline_refused, "sysctl.vm.mmap_rnd_bits=200");
		if (strip)
			break;
	}
	/* The limit right after a whole word (on the blank after it): that word is kept. */
	set_long_cmdline(&bi, max - strlen(param), "sysctl.vm.mmap_rnd_bits=20 rng.seed=1", false);
	assert_int_equal(boot_cmdline_get(&bi, "sysctl.vm.mmap_rnd_bits", &value), 2);
	assert_int_equal(boot_cmdline_get(&bi, "rng.seed", &value), -1);
	assert_string_equal(bi.cmdline_refused, "rng.seed=1");
	/* A single word longer than the limit: nothing kept. */
	memset(&bi, 0, sizeof(bi));
	char *word = malloc(3 * BOOT_CMDLINE_MAX);
	memset(word, 'x', 3 * BOOT_CMDLINE_MAX - 1);
	word[3 * BOOT_CMDLINE_MAX - 1] = '\0';
	boot_set_cmdline(&bi, word, false);
	assert_string_equal(bi.cmdline, "");
	assert_int_equal(bi.cmdline_given, 3 * BOOT_CMDLINE_MAX - 1);
	assert_int_equal(strlen(bi.cmdline_refused), sizeof(bi.cmdline_refused) - 1);
	free(word);
}

/* Every occurrence of a parameter, in order. */
static void test_cmdline_next_in_order(void **state)
{
	(void)state;
	struct boot_info bi;
	const char *pos, *value;

	memset(&bi, 0, sizeof(bi));
	boot_set_cmdline(&bi, "  rng.seed=1 rng.seedx=2 rng.seed= rng.seed=3", false);
	pos = bi.cmdline;
	assert_int_equal(boot_cmdline_next(&pos, "rng.seed", &value), 1);
	assert_memory_equal(value, "1", 1);
	assert_int_equal(boot_cmdline_next(&pos, "rng.seed", &value), 0);
	assert_int_equal(boot_cmdline_next(&pos, "rng.seed", &value), 1);
	assert_memory_equal(value, "3", 1);
	assert_int_equal(boot_cmdline_next(&pos, "rng.seed", &value), -1);
	assert_int_equal(boot_cmdline_get(&bi, "rng.seed", &value), 1);
	assert_memory_equal(value, "1", 1);
}

/* 1+1 cells, several ranges in one reg, properties in either order; a node without
 * device_type "memory" and one with another name give no RAM. */
static void test_memory_nodes(void **state)
{
	(void)state;
	static const uint32_t two_ranges[] = { 0x80000000, 0x01000000, 0x90000000, 0x00200000 };
	static const uint32_t one_range[] = { 0xa0000000, 0x00100000 };
	static const uint32_t ignored[] = { 0xb0000000, 0x00100000 };
	struct fdtw w;
	struct boot_info bi;
	size_t size;

	fdtw_init(&w);
	fdtw_begin_node(&w, "");
	root_cells(&w, 1, 1);
	memory_node(&w, "memory@80000000", "memory", two_ranges, 4, false);
	memory_node(&w, "memory@a0000000", "memory", one_range, 2, true);
	memory_node(&w, "memory@b0000000", NULL, ignored, 2, true);
	memory_node(&w, "memory@c0000000", "memoryx", ignored, 2, true);
	memory_node(&w, "sram@d0000000", "memory", ignored, 2, true);
	uint8_t *blob = parse(&w, &bi, &size);

	assert_int_equal(bi.nr_ram, 3);
	assert_int_equal(bi.ram[0].base, 0x80000000);
	assert_int_equal(bi.ram[0].size, 0x01000000);
	assert_int_equal(bi.ram[1].base, 0x90000000);
	assert_int_equal(bi.ram[1].size, 0x00200000);
	assert_int_equal(bi.ram[2].base, 0xa0000000);
	assert_int_equal(bi.ram[2].size, 0x00100000);
	assert_string_equal(bi.cmdline, "");
	assert_int_equal(bi.seed_len, 0);
	assert_null(bi.seed_source);
	assert_int_equal(arch_calls, 0);
	free(blob);
}

/* Cells other than 1 or 2 make reg unreadable: no RAM rather than wrong RAM. */
static void test_unsupported_cells(void **state)
{
	(void)state;
	static const uint32_t reg[] = { 0, 0, 0x40000000, 0, 0x1000000 };
	struct fdtw w;
	struct boot_info bi;
	size_t size;

	fdtw_init(&w);
	fdtw_begin_node(&w, "");
	root_cells(&w, 3, 2);
	memory_node(&w, "memory@40000000", "memory", reg, 5, true);
	uint8_t *blob = parse(&w, &bi, &size);

	assert_int_equal(bi.nr_ram, 0);
	free(blob);
}

/* Only the first /chosen counts; a command line without its NUL is not taken; seeds are cut
 * at BOOT_SEED_MAX, the one found first filling first. */
static void test_chosen_rules(void **state)
{
	(void)state;
	uint8_t big[60], kaslr[8];
	struct fdtw w;
	struct boot_info bi;
	size_t size;

	memset(big, 0x11, sizeof(big));
	memset(kaslr, 0x22, sizeof(kaslr));
	fdtw_init(&w);
	fdtw_begin_node(&w, "");
	fdtw_begin_node(&w, "chosen");
	fdtw_prop(&w, "bootargs", "no-nul", 6);
	fdtw_prop(&w, "rng-seed", big, sizeof(big));
	fdtw_prop(&w, "kaslr-seed", kaslr, sizeof(kaslr));
	fdtw_end_node(&w);
	fdtw_begin_node(&w, "chosen");
	fdtw_prop_str(&w, "bootargs", "second");
	fdtw_end_node(&w);
	uint8_t *blob = parse(&w, &bi, &size);

	assert_string_equal(bi.cmdline, "");
	assert_int_equal(bi.seed_len, BOOT_SEED_MAX);
	assert_memory_equal(bi.seed, big, sizeof(big));
	assert_memory_equal(bi.seed + sizeof(big), kaslr, BOOT_SEED_MAX - sizeof(big));
	assert_string_equal(bi.seed_source, "dtb rng-seed+kaslr-seed");
	free(blob);

	fdtw_init(&w);
	fdtw_begin_node(&w, "");
	fdtw_begin_node(&w, "chosen");
	fdtw_prop(&w, "kaslr-seed", kaslr, sizeof(kaslr));
	fdtw_end_node(&w);
	blob = parse(&w, &bi, &size);
	assert_int_equal(bi.seed_len, 8);
	assert_string_equal(bi.seed_source, "dtb kaslr-seed");
	free(blob);
}

/* Not an FDT: -1, and nothing recorded. */
static void test_not_a_dtb(void **state)
{
	(void)state;
	struct fdtw w;
	struct boot_info bi;
	size_t size;

	fdtw_init(&w);
	fdtw_begin_node(&w, "");
	fdtw_end_node(&w);
	uint8_t *blob = fdtw_finish(&w, &size);
	fdtw_put_be32(blob + FDTW_MAGIC, 0xd00dfeee);
	memset(&bi, 0, sizeof(bi));
	assert_int_equal(boot_parse_dtb(&bi, blob, 0x48000000, &gic_request), -1);
	assert_int_equal(bi.nr_ram, 0);
	assert_int_equal(bi.nr_reserved, 0);
	free(blob);
}

/* QEMU's own trees (-m 128M): one RAM region at 0x40000000, the GIC handed to the arch once. */
/* Past the list's room, RAM regions are left out but reservations never are: the last one
 * widens to cover each further range (a loader with many modules must not have the page
 * allocator hand out their frames). */
static void test_reservations_never_dropped(void **state)
{
	struct boot_info bi;

	(void)state;
	memset(&bi, 0, sizeof(bi));
	for (unsigned i = 0; i < BOOT_MAX_REGIONS + 4; i++) {
		boot_add_ram(&bi, 0x100000ULL * (i + 1), 0x1000);
		boot_add_reserved(&bi, 0x100000ULL * (i + 1), 0x1000);
	}
	boot_add_reserved(&bi, 0x50000, 0x1000); /* below everything: widens downwards */
	boot_add_reserved(&bi, 0x7000, 0);       /* empty: nothing */
	assert_int_equal(bi.nr_ram, BOOT_MAX_REGIONS);
	assert_int_equal(bi.nr_reserved, BOOT_MAX_REGIONS);
	const struct mem_region *last = &bi.reserved[BOOT_MAX_REGIONS - 1];
	assert_int_equal(last->base, 0x50000);
	assert_int_equal(last->base + last->size, 0x100000ULL * (BOOT_MAX_REGIONS + 4) + 0x1000);
}

/* /chosen linux,initrd-start/-end, in one or two cells each: the initrd; an end at or before the
 * start, or a bound of another length, is no initrd. */
static void test_chosen_initrd(void **state)
{
	(void)state;
	static const uint32_t start2[] = { 0, 0x47ff0000 }, end2[] = { 0, 0x47ff8cb8 };
	struct fdtw w;
	struct boot_info bi;
	size_t size;
	uint8_t *blob;

	fdtw_init(&w);
	fdtw_begin_node(&w, "");
	fdtw_begin_node(&w, "chosen");
	fdtw_prop_cells(&w, "linux,initrd-start", start2, 2);
	fdtw_prop_cells(&w, "linux,initrd-end", end2, 2);
	fdtw_end_node(&w);
	blob = parse(&w, &bi, &size);
	assert_int_equal(bi.initrd_start, 0x47ff0000);
	assert_int_equal(bi.initrd_size, 0x8cb8);
	assert_string_equal(bi.initrd_from, "dtb");
	free(blob);

	fdtw_init(&w);
	fdtw_begin_node(&w, "");
	fdtw_begin_node(&w, "chosen");
	fdtw_prop_u32(&w, "linux,initrd-start", 0x44000000);
	fdtw_prop_u32(&w, "linux,initrd-end", 0x44001000);
	fdtw_end_node(&w);
	blob = parse(&w, &bi, &size);
	assert_int_equal(bi.initrd_start, 0x44000000);
	assert_int_equal(bi.initrd_size, 0x1000);
	free(blob);

	fdtw_init(&w);
	fdtw_begin_node(&w, "");
	fdtw_begin_node(&w, "chosen");
	fdtw_prop_u32(&w, "linux,initrd-start", 0x44001000);
	fdtw_prop_u32(&w, "linux,initrd-end", 0x44001000);
	fdtw_end_node(&w);
	blob = parse(&w, &bi, &size);
	/* Recorded empty, refused by boot_take_initrd with one line. */
	assert_int_equal(bi.initrd_size, 0);
	assert_string_equal(bi.initrd_from, "dtb");
	printk_lines = 0;
	assert_false(boot_take_initrd(&bi));
	assert_int_equal(printk_lines, 1);
	assert_null(bi.initrd_from);
	free(blob);

	fdtw_init(&w);
	fdtw_begin_node(&w, "");
	fdtw_begin_node(&w, "chosen");
	fdtw_prop(&w, "linux,initrd-start", "abc", 3);
	fdtw_prop_u32(&w, "linux,initrd-end", 0x44001000);
	fdtw_end_node(&w);
	blob = parse(&w, &bi, &size);
	assert_int_equal(bi.initrd_size, 0);
	free(blob);
}

/* 128 MiB of RAM at 0x40000000 with the kernel image reserved, and a command line. */
static void initrd_machine(struct boot_info *bi, const char *cmdline)
{
	memset(bi, 0, sizeof(*bi));
	boot_add_ram(bi, 0x40000000, 128 << 20);
	boot_add_reserved(bi, 0x40200000, 0x100000);
	boot_set_cmdline(bi, cmdline, false);
}

/* initrd= and initrdmem= (the last one wins, sizes with K/M/G), over the firmware's; a range is
 * taken only inside RAM and clear of every reservation, and then reserved itself. */
static void test_take_initrd(void **state)
{
	(void)state;
	struct boot_info bi;

	initrd_machine(&bi, "rng.seed=1 initrd=0x47ff0000,36024");
	assert_true(boot_take_initrd(&bi));
	assert_int_equal(bi.initrd_start, 0x47ff0000);
	assert_int_equal(bi.initrd_size, 36024);
	assert_string_equal(bi.initrd_from, "initrd=");
	assert_int_equal(bi.nr_reserved, 2);
	assert_int_equal(bi.reserved[1].base, 0x47ff0000);
	assert_int_equal(bi.reserved[1].size, 36024);

	initrd_machine(&bi, "initrd=0x47000000,1 initrdmem=0x46000000,1M");
	assert_true(boot_take_initrd(&bi));
	assert_int_equal(bi.initrd_start, 0x46000000);
	assert_int_equal(bi.initrd_size, 1 << 20);
	assert_string_equal(bi.initrd_from, "initrdmem=");

	/* The command line wins over the DTB's. */
	initrd_machine(&bi, "initrd=0x45000000,4K");
	bi.initrd_start = 0x44000000;
	bi.initrd_size = 100;
	bi.initrd_from = "dtb";
	assert_true(boot_take_initrd(&bi));
	assert_int_equal(bi.initrd_start, 0x45000000);
	assert_int_equal(bi.initrd_size, 4096);

	/* The firmware's alone. */
	initrd_machine(&bi, "");
	bi.initrd_start = 0x44000000;
	bi.initrd_size = 100;
	bi.initrd_from = "dtb";
	assert_true(boot_take_initrd(&bi));
	assert_int_equal(bi.nr_reserved, 2);

	/* Refused, each with one line, and no initrd at all then. */
	static const char *const bad[] = {
		"initrd=junk", "initrd=0x44000000", "initrd=0x44000000,", "initrd=0x44000000,0",
		"initrd=0x44000000,12x", "initrd=0x1000,100", "initrd=0x47fff000,0x2000",
		"initrd=0x40280000,4096", "initrd=0x401ff000,0x2000", "initrd=0xffffffffffff0000,0x20000",
		"initrd=0x44000000,99999999999G",
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		initrd_machine(&bi, bad[i]);
		bi.initrd_start = 0x44000000;
		bi.initrd_size = 100;
		bi.initrd_from = "dtb";
		printk_lines = 0;
		assert_false(boot_take_initrd(&bi));
		assert_int_equal(printk_lines, 1);
		assert_int_equal(bi.initrd_size, 0);
		assert_int_equal(bi.nr_reserved, 1);
	}

	/* A multiboot module, reserved by its parser already: not refused for overlapping its own
	 * reservation, not reserved twice. */
	initrd_machine(&bi, "");
	boot_add_reserved(&bi, 0x44000000, 0x1000);
	bi.initrd_start = 0x44000000;
	bi.initrd_size = 0x1000;
	bi.initrd_from = "multiboot module 0";
	bi.initrd_reserved = true;
	assert_true(boot_take_initrd(&bi));
	assert_int_equal(bi.nr_reserved, 2);
}

static void test_qemu_dtbs(void **state)
{
	(void)state;
	if (nr_dtbs == 0)
		skip();
	for (int i = 0; i < nr_dtbs; i++) {
		struct boot_info bi;
		size_t size;
		uint8_t *blob = host_load_file(dtb_paths[i], &size);

		memset(&bi, 0, sizeof(bi));
		arch_calls = 0;
		assert_int_equal(boot_parse_dtb(&bi, blob, 0x40000000, &gic_request), 0);
		assert_int_equal(bi.nr_ram, 1);
		assert_int_equal(bi.ram[0].base, 0x40000000);
		assert_int_equal(bi.ram[0].size, 128u << 20);
		assert_int_equal(bi.nr_reserved, 1);
		assert_int_equal(bi.reserved[0].size, size);
		assert_int_equal(arch_calls, 1);
		assert_non_null(strstr(arch_value, "gic"));
		free(blob);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_virt_like_blob),
		cmocka_unit_test(test_long_cmdline_refused_from_cut_word),
		cmocka_unit_test(test_cmdline_next_in_order),
		cmocka_unit_test(test_memory_nodes),
		cmocka_unit_test(test_unsupported_cells),
		cmocka_unit_test(test_chosen_rules),
		cmocka_unit_test(test_chosen_initrd),
		cmocka_unit_test(test_take_initrd),
		cmocka_unit_test(test_not_a_dtb),
		cmocka_unit_test(test_reservations_never_dropped),
		cmocka_unit_test(test_qemu_dtbs),
	};
	dtb_paths = argv + 1;
	nr_dtbs = argc - 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
