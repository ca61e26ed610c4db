/* ChaCha20 block function (RFC 8439 section 2.3) and a CSPRNG on top of it.
 *
 * The generator uses fast key erasure: every refill computes one block under the current key,
 * the first half of that block immediately replaces the key and only the second half is handed
 * out, wiping each byte as it leaves. Whoever reads the state later learns nothing about the
 * bytes already given out. Mixing new material goes through the block function too, so the key
 * is never a plain XOR of inputs an observer might partly know. */
#include <lib/chacha20.h>

#define CHACHA_KEY_BYTES 32
#define CHACHA_BLOCK_BYTES 64

/* Domain separation for the two uses of the block function inside the generator. */
#define NONCE_OUTPUT 0x7475706fu /* "oput" */
#define NONCE_MIX 0x78696d00u    /* "\0mix" */

static inline uint32_t rotl32(uint32_t v, unsigned n)
{
	return (v << n) | (v >> (32 - n));
}

static inline uint32_t load_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void store_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* Byte-wise wipe through a volatile pointer so that the compiler cannot drop it as a dead
 * store: erasing old key material is the point of the exercise. */
static void wipe(void *p, size_t n)
{
	volatile uint8_t *v = p;

	while (n--)
		*v++ = 0;
}

static inline void quarter_round(uint32_t *x, unsigned a, unsigned b, unsigned c, unsigned d)
{
	x[a] += x[b]; x[d] = rotl32(x[d] ^ x[a], 16);
	x[c] += x[d]; x[b] = rotl32(x[b] ^ x[c], 12);
	x[a] += x[b]; x[d] = rotl32(x[d] ^ x[a], 8);
	x[c] += x[d]; x[b] = rotl32(x[b] ^ x[c], 7);
}
#define QUARTER_ROUND(x, a, b, c, d) quarter_round((x), (a), (b), (c), (d))

void chacha20_block(const uint32_t key[8], uint32_t counter, const uint32_t nonce[3],
		    uint8_t out[64])
{
	uint32_t init[16], x[16];
	unsigned i;

	/* "expand 32-byte k" */
	init[0] = 0x61707865u;
	init[1] = 0x3320646eu;
	init[2] = 0x79622d32u;
	init[3] = 0x6b206574u;
	for (i = 0; i < 8; i++)
		init[4 + i] = key[i];
	init[12] = counter;
	init[13] = nonce[0];
	init[14] = nonce[1];
	init[15] = nonce[2];

	for (i = 0; i < 16; i++)
		x[i] = init[i];
	for (i = 0; i < 10; i++) {
		/* column round, then diagonal round */
		QUARTER_ROUND(x, 0, 4, 8, 12);
		QUARTER_ROUND(x, 1, 5, 9, 13);
		QUARTER_ROUND(x, 2, 6, 10, 14);
		QUARTER_ROUND(x, 3, 7, 11, 15);
		QUARTER_ROUND(x, 0, 5, 10, 15);
		QUARTER_ROUND(x, 1, 6, 11, 12);
		QUARTER_ROUND(x, 2, 7, 8, 13);
		QUARTER_ROUND(x, 3, 4, 9, 14);
	}
	for (i = 0; i < 16; i++)
		store_le32(out + 4 * i, x[i] + init[i]);

	wipe(x, sizeof(x));
	wipe(init, sizeof(init));
}

static void key_from_bytes(uint32_t key[8], const uint8_t bytes[CHACHA_KEY_BYTES])
{
	unsigned i;

	for (i = 0; i < 8; i++)
		key[i] = load_le32(bytes + 4 * i);
}

/* Mark the output buffer empty: the next request refills under the current key. */
static void discard_output(struct chacha_rng *r)
{
	wipe(r->buf, sizeof(r->buf));
	r->pos = CHACHA_BLOCK_BYTES;
}

/* One block under the current key: its first half becomes the next key, its second half is
 * the output (buf[32..63]). */
static void refill(struct chacha_rng *r)
{
	const uint32_t nonce[3] = { NONCE_OUTPUT, 0, 0 };

	chacha20_block(r->key, r->counter++, nonce, r->buf);
	key_from_bytes(r->key, r->buf);
	wipe(r->buf, CHACHA_KEY_BYTES);
	r->pos = CHACHA_KEY_BYTES;
}

void chacha_rng_init(struct chacha_rng *r, const uint8_t *seed, size_t len)
{
	unsigned i;

	for (i = 0; i < 8; i++)
		r->key[i] = 0;
	r->counter = 0;
	discard_output(r);
	chacha_rng_mix(r, seed, len);
}

/* Absorb one chunk (up to 32 bytes): XOR it into the key, then replace the key by the first
 * half of a block keyed with the result. The nonce carries the chunk's length and position so
 * that inputs differing only in zero padding or split points do not collide. */
static void absorb_chunk(struct chacha_rng *r, const uint8_t *data, size_t n, uint32_t index,
			 uint32_t total)
{
	uint8_t chunk[CHACHA_KEY_BYTES] = { 0 };
	uint8_t block[CHACHA_BLOCK_BYTES];
	uint32_t nonce[3] = { NONCE_MIX | (uint32_t)n, index, total };
	size_t i;

	for (i = 0; i < n; i++)
		chunk[i] = data[i];
	for (i = 0; i < 8; i++)
		r->key[i] ^= load_le32(chunk + 4 * i);
	chacha20_block(r->key, r->counter, nonce, block);
	key_from_bytes(r->key, block);
	wipe(block, sizeof(block));
	wipe(chunk, sizeof(chunk));
}

void chacha_rng_mix(struct chacha_rng *r, const uint8_t *data, size_t len)
{
	uint32_t total = (uint32_t)len;
	uint32_t index = 0;
	size_t done = 0;

	/* An empty input still stirs the key, so init(NULL, 0) is well defined. Offsets rather
	 * than pointer increments: no arithmetic on a NULL data pointer. */
	do {
		size_t n = len - done < CHACHA_KEY_BYTES ? len - done : CHACHA_KEY_BYTES;

		absorb_chunk(r, n ? data + done : data, n, index++, total);
		done += n;
	} while (done < len);
	/* Output buffered under the old key must not survive a reseed. */
	discard_output(r);
}

void chacha_rng_bytes(struct chacha_rng *r, void *out, size_t len)
{
	uint8_t *dst = out;

	while (len) {
		if (r->pos >= CHACHA_BLOCK_BYTES)
			refill(r);
		*dst++ = r->buf[r->pos];
		r->buf[r->pos++] = 0;
		len--;
	}
}

uint64_t chacha_rng_u64(struct chacha_rng *r)
{
	uint8_t b[8];
	uint64_t v = 0;
	int i;

	chacha_rng_bytes(r, b, sizeof(b));
	for (i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	wipe(b, sizeof(b));
	return v;
}
