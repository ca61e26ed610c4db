/* Seeding the kernel CSPRNG. Every source that exists is mixed in (hardware RNG, the firmware's
 * seed, timer reads); the name reported is the strongest of them, so nobody mistakes a
 * timer-only seed for a good one. */
#include <arch/cpu.h>
#include <boot.h>
#include <kernel.h>
#include <lib/chacha20.h>
#include <lib/parse.h>
#include <lib/string.h>
#include <random.h>

static struct chacha_rng rng;
static const char *source = "none";

uint64_t get_random_u64(void)
{
	return chacha_rng_u64(&rng);
}

const char *random_source(void)
{
	return source;
}

/* rng.seed=N: the whole stream follows from N, on every preset alike. */
static bool seed_from_cmdline(const struct boot_info *bi)
{
	const char *value;
	int len = boot_cmdline_get(bi, "rng.seed", &value);
	char digits[24];
	uint64_t seed;

	if (len < 0)
		return false;
	if (len == 0 || len >= (int)sizeof(digits)) {
		printk("random: ignoring rng.seed: not a number\n");
		return false;
	}
	memcpy(digits, value, (size_t)len);
	digits[len] = '\0';
	if (!parse_u64_full(digits, 0, &seed)) {
		printk("random: ignoring rng.seed=%s: not a number\n", digits);
		return false;
	}
	uint8_t bytes[8];
	for (unsigned i = 0; i < 8; i++)
		bytes[i] = (uint8_t)(seed >> (8 * i));
	chacha_rng_init(&rng, bytes, sizeof(bytes));
	source = "rng.seed";
	printk("random: deterministic stream from rng.seed=%llu (not for real secrets)\n",
	       (unsigned long long)seed);
	return true;
}

/* Timer reads are the weakest source; eight of them, absorbed in one call. */
static void mix_timer(void)
{
	uint64_t t[8];

	for (unsigned i = 0; i < ARRAY_SIZE(t); i++)
		t[i] = arch_cycles();
	chacha_rng_mix(&rng, (const uint8_t *)t, sizeof(t));
}

void random_init(const struct boot_info *bi)
{
	uint8_t hw[32];
	const char *hw_name = NULL;

	if (seed_from_cmdline(bi))
		return;
	uint64_t t0 = arch_cycles();
	chacha_rng_init(&rng, (const uint8_t *)&t0, sizeof(t0));
	size_t got = arch_random_seed(hw, sizeof(hw), &hw_name);
	if (got)
		chacha_rng_mix(&rng, hw, got);
	if (bi->seed_len)
		chacha_rng_mix(&rng, bi->seed, bi->seed_len);
	mix_timer();
	memset(hw, 0, sizeof(hw));

	if (got)
		source = hw_name;
	else if (bi->seed_len)
		source = "dtb-rng-seed";
	else
		source = "timer";
	printk("random: seeded from %s%s%s%stimer\n", got ? hw_name : "", got ? " + " : "",
	       bi->seed_len ? bi->seed_source : "", bi->seed_len ? " + " : "");
	if (!got && !bi->seed_len)
		printk("random: WARNING: no hardware or firmware entropy; timer reads only, "
		       "layouts are guessable\n");
}
