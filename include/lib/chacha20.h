/* ChaCha20 (RFC 8439) block function and a small CSPRNG built on it (lib/chacha20.c). */
#ifndef RNDBITS_LIB_CHACHA20_H
#define RNDBITS_LIB_CHACHA20_H

#include <types.h>

/* One 64-byte keystream block for (key, counter, nonce), as RFC 8439 section 2.3. */
void chacha20_block(const uint32_t key[8], uint32_t counter, const uint32_t nonce[3],
		    uint8_t out[64]);

/* The CSPRNG: key from seed material, fast-key-erasure refill (the first 32 bytes of each
 * refill become the next key), so earlier outputs cannot be reconstructed from the state. */
struct chacha_rng {
	uint32_t key[8];
	uint32_t counter;
	uint8_t buf[64];
	unsigned pos;
};
/* Deterministic for a given seed (used by rng.seed=N). */
void chacha_rng_init(struct chacha_rng *r, const uint8_t *seed, size_t len);
/* Mix more material into the key (boot-time sources, timer reads). */
void chacha_rng_mix(struct chacha_rng *r, const uint8_t *data, size_t len);
void chacha_rng_bytes(struct chacha_rng *r, void *out, size_t len);
uint64_t chacha_rng_u64(struct chacha_rng *r);

#endif
