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

/* The state lives in sixteen scalars, not an array: nothing takes their address, so the
 * compiler keeps them in registers. An array that is wiped afterwards must live in memory, and
 * then every round loads and stores it (about 2.5x the instructions of a block under QEMU). */
#define QR(a, b, c, d)                                                                 \
	do {                                                                           \
		(a) += (b); (d) = rotl32((d) ^ (a), 16);                               \
		(c) += (d); (b) = rotl32((b) ^ (c), 12);                               \
		(a) += (b); (d) = rotl32((d) ^ (a), 8);                                \
		(c) += (d); (b) = rotl32((b) ^ (c), 7);                                \
	} while (0)

void chacha20_block(const uint32_t key[8], uint32_t counter, const uint32_t nonce[3],
		    uint8_t out[64])
{
	/* "expand 32-byte k" */
	const uint32_t i0 = 0x61707865u, i1 = 0x3320646eu, i2 = 0x79622d32u, i3 = 0x6b206574u;
	uint32_t x0 = i0, x1 = i1, x2 = i2, x3 = i3;
	uint32_t x4 = key[0], x5 = key[1], x6 = key[2], x7 = key[3];
	uint32_t x8 = key[4], x9 = key[5], x10 = key[6], x11 = key[7];
	uint32_t x12 = counter, x13 = nonce[0], x14 = nonce[1], x15 = nonce[2];

	for (unsigned i = 0; i < 10; i++) {
		/* column round, then diagonal round */
		QR(x0, x4, x8, x12);
		QR(x1, x5, x9, x13);
		QR(x2, x6, x10, x14);
		QR(x3, x7, x11, x15);
		QR(x0, x5, x10, x15);
		QR(x1, x6, x11, x12);
		QR(x2, x7, x8, x13);
		QR(x3, x4, x9, x14);
	}
	store_le32(out + 0, x0 + i0);
	store_le32(out + 4, x1 + i1);
	store_le32(out + 8, x2 + i2);
	store_le32(out + 12, x3 + i3);
	store_le32(out + 16, x4 + key[0]);
	store_le32(out + 20, x5 + key[1]);
	store_le32(out + 24, x6 + key[2]);
	store_le32(out + 28, x7 + key[3]);
	store_le32(out + 32, x8 + key[4]);
	store_le32(out + 36, x9 + key[5]);
	store_le32(out + 40, x10 + key[6]);
	store_le32(out + 44, x11 + key[7]);
	store_le32(out + 48, x12 + counter);
	store_le32(out + 52, x13 + nonce[0]);
	store_le32(out + 56, x14 + nonce[1]);
	store_le32(out + 60, x15 + nonce[2]);
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

	/* Eight bytes still buffered (the usual case): take and clear them in place. */
	if (r->pos <= CHACHA_BLOCK_BYTES - 8) {
		uint8_t *p = r->buf + r->pos;
		for (i = 7; i >= 0; i--) {
			v = v << 8 | p[i];
			p[i] = 0;
		}
		r->pos += 8;
		return v;
	}
	chacha_rng_bytes(r, b, sizeof(b));
	for (i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	wipe(b, sizeof(b));
	return v;
}
