/* kernel/random.c: what the generator is keyed with. random_init only reads the sources; the
 * key is made at the first draw, so these tests check that the draws still follow from exactly
 * the material read at boot: rng.seed=N gives the stream of chacha_rng_init(N's 8 bytes), and
 * every source (hardware bytes, firmware seed, each timer read) changes the stream. */
#include "lib_under_test.h"
#include <arch/cpu.h>
#include <kernel/boot.h>
#include <kernel/random.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

/* --- fakes for what random.c calls ----------------------------------------------------------- */

static uint8_t fake_hw[32];
static size_t fake_hw_len;
static uint64_t fake_cycles, fake_cycles_step = 1;
static unsigned cycle_reads;

uint64_t arch_cycles(void)
{
	cycle_reads++;
	fake_cycles += fake_cycles_step;
	return fake_cycles;
}

uint64_t arch_cycles_hz(void)
{
	return 1000000;
}

size_t arch_random_seed(uint8_t *buf, size_t len, const char **name)
{
	size_t n = fake_hw_len < len ? fake_hw_len : len;

	memcpy(buf, fake_hw, n);
	*name = n ? "fakehw" : NULL;
	return n;
}

int vprintk(const char *fmt, va_list ap)
{
	return vprintf(fmt, ap);
}

/* --- helpers -------------------------------------------------------------------------------- */

#define DRAWS 6

/* random.c keeps one generator, so every boot here is a fresh process state only in what the
 * test controls: each boot reseeds it, and the draws taken right after depend on that seed
 * alone. */
static void boot_and_draw(struct boot_info *bi, uint64_t out[DRAWS])
{
	fake_cycles = 1000;
	cycle_reads = 0;
	random_init(bi);
	for (unsigned i = 0; i < DRAWS; i++)
		out[i] = get_random_u64();
}

static struct boot_info *fresh_boot_info(void)
{
	static struct boot_info bi;

	memset(&bi, 0, sizeof(bi));
	bi.seed_source = "dtb rng-seed";
	fake_hw_len = 0;
	fake_cycles_step = 1;
	return &bi;
}

/* --- tests ---------------------------------------------------------------------------------- */

static void test_rng_seed_gives_chacha_stream_of_its_bytes(void **state)
{
	(void)state;
	struct boot_info *bi = fresh_boot_info();
	const uint64_t seed = 0x0123456789abcdefULL;
	uint8_t bytes[8];
	struct chacha_rng ref;
	uint64_t got[DRAWS];

	strcpy(bi->cmdline, "rng.seed=0x0123456789abcdef");
	boot_and_draw(bi, got);
	for (unsigned i = 0; i < 8; i++)
		bytes[i] = (uint8_t)(seed >> (8 * i));
	chacha_rng_init(&ref, bytes, sizeof(bytes));
	for (unsigned i = 0; i < DRAWS; i++)
		assert_int_equal(got[i], chacha_rng_u64(&ref));
	assert_string_equal(random_source(), "rng.seed");
	assert_int_equal(cycle_reads, 0);
}

/* A repeated rng.seed is taken in order, as Linux applies a repeated parameter: the last good
 * value wins, and a bad one after it does not undo it. */
static void test_last_good_rng_seed_wins(void **state)
{
	(void)state;
	struct boot_info *bi = fresh_boot_info();
	uint64_t got[DRAWS], want[DRAWS];

	strcpy(bi->cmdline, "rng.seed=7");
	boot_and_draw(bi, want);
	strcpy(bi->cmdline, "rng.seed=1 quiet rng.seed=7 rng.seed=x7");
	boot_and_draw(bi, got);
	assert_memory_equal(got, want, sizeof(got));
	assert_string_equal(random_source(), "rng.seed");
}

static void test_same_material_same_stream(void **state)
{
	(void)state;
	struct boot_info *bi = fresh_boot_info();
	uint64_t a[DRAWS], b[DRAWS];

	fake_hw_len = 32;
	memset(fake_hw, 0x5a, sizeof(fake_hw));
	boot_and_draw(bi, a);
	boot_and_draw(bi, b);
	assert_memory_equal(a, b, sizeof(a));
	assert_string_equal(random_source(), "fakehw");
	/* One read before the sources, eight after them: all at boot, none at the draws. */
	assert_int_equal(cycle_reads, 9);
}

/* Each source on its own changes every draw: nothing read at boot is left out of the key. */
static void test_every_source_is_in_the_key(void **state)
{
	(void)state;
	struct boot_info *bi = fresh_boot_info();
	uint64_t base[DRAWS], other[DRAWS];

	fake_hw_len = 32;
	memset(fake_hw, 0x5a, sizeof(fake_hw));
	bi->seed_len = 8;
	memset(bi->seed, 0xa5, 8);
	boot_and_draw(bi, base);

	fake_hw[31] ^= 1;
	boot_and_draw(bi, other);
	fake_hw[31] ^= 1;
	for (unsigned i = 0; i < DRAWS; i++)
		assert_int_not_equal(base[i], other[i]);

	bi->seed[7] ^= 1;
	boot_and_draw(bi, other);
	bi->seed[7] ^= 1;
	for (unsigned i = 0; i < DRAWS; i++)
		assert_int_not_equal(base[i], other[i]);

	fake_cycles_step = 2;
	boot_and_draw(bi, other);
	fake_cycles_step = 1;
	for (unsigned i = 0; i < DRAWS; i++)
		assert_int_not_equal(base[i], other[i]);

	boot_and_draw(bi, other);
	assert_memory_equal(base, other, sizeof(base));
}

/* A timer-only boot still keys the generator from its reads, and says how weak that is. */
static void test_timer_only_boot(void **state)
{
	(void)state;
	struct boot_info *bi = fresh_boot_info();
	uint64_t a[DRAWS], b[DRAWS];

	boot_and_draw(bi, a);
	assert_string_equal(random_source(), "timer");
	fake_cycles_step = 3;
	boot_and_draw(bi, b);
	for (unsigned i = 0; i < DRAWS; i++)
		assert_int_not_equal(a[i], b[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rng_seed_gives_chacha_stream_of_its_bytes),
		cmocka_unit_test(test_last_good_rng_seed_wins),
		cmocka_unit_test(test_same_material_same_stream),
		cmocka_unit_test(test_every_source_is_in_the_key),
		cmocka_unit_test(test_timer_only_boot),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
