/* The kernel's random numbers: one ChaCha20 CSPRNG (lib/chacha20.c), seeded at boot from the
 * best sources the preset has, or made deterministic with rng.seed=N for tests and demos. */
#ifndef RNDBITS_RANDOM_H
#define RNDBITS_RANDOM_H

#include <lib/types.h>

struct boot_info;

/* Seed from rng.seed=N if given, else hardware RNG + firmware seed + timer reads; logs the
 * sources used, and warns loudly when only the timer was available. The material is read
 * here; the generator is keyed from it at the first get_random_u64(). */
void random_init(const struct boot_info *bi);

uint64_t get_random_u64(void);

/* Short name of the main source, for `uname -a` and `aslr info`: "rndr", "rdrand",
 * "dtb-rng-seed", "rng.seed" (deterministic) or "timer" (weak). */
const char *random_source(void);

#endif
