/* ChaCha20 (RFC 8439) block function and a small CSPRNG built on it (lib/chacha20.c). */
#ifndef RNDBITS_LIB_CHACHA20_H
#define RNDBITS_LIB_CHACHA20_H

#include <lib/types.h>

/* One 64-byte keystream block for (key, counter, nonce), as RFC 8439 section 2.3. */
void chacha20_block(const uint32_t key[8], uint32_t counter, const uint32_t nonce[3],
		    uint8_t out[64]);

/* The CSPRNG: key from seed material, fast-key-erasure refill (each refill is one block: its
 * first 32 bytes become the next key, its last 32 are the output, kept in buf and wiped from it
 * as they are handed out: buf[0..pos) is always zero), so earlier outputs cannot be
 * reconstructed from the state. */
struct chacha_rng {
	uint32_t key[8];
	uint32_t counter;
	_Alignas(8) uint8_t buf[32];
	unsigned pos;
};
/* Deterministic for a given seed (used by rng.seed=N). */
void chacha_rng_init(struct chacha_rng *r, const uint8_t *seed, size_t len);
/* Mix more material into the key (boot-time sources, timer reads); buffered output is
 * discarded, so everything after a mix depends on it. data may be NULL when len is 0. */
void chacha_rng_mix(struct chacha_rng *r, const uint8_t *data, size_t len);
void chacha_rng_bytes(struct chacha_rng *r, void *out, size_t len);
uint64_t chacha_rng_u64(struct chacha_rng *r);

/* Zero n bytes of secret material with stores the compiler may not drop as dead (word-sized
 * once aligned): for seed buffers and the like that are about to go out of scope. */
void chacha_wipe(void *p, size_t n);

#endif
