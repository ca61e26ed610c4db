/* Seeding the kernel CSPRNG. Every source that exists is mixed in (hardware RNG, the firmware's
 * seed, timer reads); the name reported is the strongest of them, so nobody mistakes a
 * timer-only seed for a good one. */
#include <arch/cpu.h>
#include <kernel/boot.h>
#include <kernel/kernel.h>
#include <lib/chacha20.h>
#include <lib/parse.h>
#include <lib/string.h>
#include <kernel/random.h>

static struct chacha_rng rng;
static const char *source = "none";

#define HW_SEED_BYTES 32

/* Everything the boot seeds with, gathered so that it is absorbed in one mix: one block per 32
 * bytes of material, instead of one or more blocks per source. The fixed-size readings come
 * first and the variable-length ones follow their lengths, so different readings never give
 * the same bytes. */
struct boot_seed {
	uint64_t first_cycles; /* read before any other source */
	uint64_t cycles[8];    /* timer reads, the weakest source, after all the others */
	uint32_t hw_len, fw_len;
	/* hw_len bytes from the hardware RNG, then fw_len from the firmware (DTB) */
	uint8_t material[HW_SEED_BYTES + BOOT_SEED_MAX];
};

/* The seed material waits here until the first draw, which keys the generator: a boot that
 * never draws never runs the ChaCha block function. The material is worth no more to an
 * observer than the key it becomes, and it is wiped the moment it has been absorbed. */
static union {
	struct boot_seed boot;
	uint8_t bytes[sizeof(struct boot_seed)];
} pending;
static size_t pending_len;

static void key_from_pending(void)
{
	chacha_rng_init(&rng, pending.bytes, pending_len);
	chacha_wipe(&pending, sizeof(pending));
	pending_len = 0;
}

uint64_t get_random_u64(void)
{
	if (pending_len)
		key_from_pending();
	return chacha_rng_u64(&rng);
}

const char *random_source(void)
{
	return source;
}

/* One rng.seed value: true with the number in *seed, or a line saying why it is ignored. */
static bool parse_seed(const char *value, int len, uint64_t *seed)
{
	char digits[24];

	if (len == 0 || len >= (int)sizeof(digits)) {
		printk("random: ignoring rng.seed: not a number\n");
		return false;
	}
	memcpy(digits, value, (size_t)len);
	digits[len] = '\0';
	if (!parse_u64_full(digits, 0, seed)) {
		printk("random: ignoring rng.seed=%s: not a number\n", digits);
		return false;
	}
	return true;
}

/* rng.seed=N: the whole stream follows from N, on every preset alike. Every occurrence is taken
 * in order, as Linux applies a repeated parameter, so the last good one wins. */
static bool seed_from_cmdline(const struct boot_info *bi)
{
	const char *pos = bi->cmdline, *value;
	uint64_t seed = 0, candidate;
	bool seeded = false;
	int len;

	while ((len = boot_cmdline_next(&pos, "rng.seed", &value)) >= 0) {
		if (parse_seed(value, len, &candidate)) {
			seed = candidate;
			seeded = true;
		}
	}
	if (!seeded)
		return false;
	for (unsigned i = 0; i < 8; i++)
		pending.bytes[i] = (uint8_t)(seed >> (8 * i));
	pending_len = 8;
	source = "rng.seed";
	printk("random: deterministic stream from rng.seed=%llu (not for real secrets)\n",
	       (unsigned long long)seed);
	return true;
}

static size_t gather_boot_seed(struct boot_seed *s, const struct boot_info *bi,
			       const char **hw_name)
{
	s->first_cycles = arch_cycles();
	s->hw_len = (uint32_t)arch_random_seed(s->material, HW_SEED_BYTES, hw_name);
	s->fw_len = bi->seed_len;
	/* A plain loop: the seed is a few dozen bytes, not worth memcpy's extra code. */
	for (unsigned i = 0; i < bi->seed_len; i++)
		s->material[s->hw_len + i] = bi->seed[i];
	for (unsigned i = 0; i < ARRAY_SIZE(s->cycles); i++)
		s->cycles[i] = arch_cycles();
	return offsetof(struct boot_seed, material) + s->hw_len + s->fw_len;
}

void random_init(const struct boot_info *bi)
{
	const char *hw_name = NULL;

	if (seed_from_cmdline(bi))
		return;
	pending_len = gather_boot_seed(&pending.boot, bi, &hw_name);
	size_t got = pending.boot.hw_len;

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
