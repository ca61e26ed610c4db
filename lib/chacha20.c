/* ChaCha20 block function (RFC 8439 section 2.3) and a CSPRNG on top of it.
 *
 * The generator uses fast key erasure: every refill computes one block under the current key,
 * the first half of that block immediately replaces the key and only the second half is handed
 * out, wiping each byte as it leaves. Whoever reads the state later learns nothing about the
 * bytes already given out. Mixing new material goes through the block function too, so the key
 * is never a plain XOR of inputs an observer might partly know: each chunk of up to 32 bytes is
 * XORed into the key, and the first half of a block under that key (with the chunk's length and
 * its position in the input in the nonce) becomes the new key. Absorbing costs one block per 32
 * bytes, so callers with several sources gather them and mix them in one call.
 *
 * Neither half of a block goes through a temporary buffer: the block function writes the next
 * key straight over the old one and the output straight into the generator's buffer, so no
 * copy of key material is left in a local array to wipe. */
#include <lib/chacha20.h>
#include <lib/unaligned.h>

#define CHACHA_KEY_BYTES 32
#define CHACHA_OUT_BYTES ((unsigned)sizeof(((struct chacha_rng *)0)->buf))

_Static_assert(sizeof(((struct chacha_rng *)0)->buf) == CHACHA_KEY_BYTES,
	       "the output buffer holds the second half of one block");

/* Domain separation for the two uses of the block function inside the generator. */
#define NONCE_OUTPUT 0x7475706fu /* "oput" */
#define NONCE_MIX 0x78696d00u    /* "\0mix" */

static inline uint32_t rotl32(uint32_t v, unsigned n)
{
	return (v << n) | (v >> (32 - n));
}

/* Every target is little-endian, so the RFC's little-endian words are the CPU's own, loaded and
 * stored whole (include/lib/unaligned.h). */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "ChaCha20 words are stored natively");

static inline uint32_t load_le32(const uint8_t *p)
{
	return load_u32_unaligned(p);
}

static inline void store_le32(uint8_t *p, uint32_t v)
{
	store_u32_unaligned(p, v);
}

/* Stores through a volatile pointer, so that the compiler cannot drop them as dead stores:
 * erasing old key material is the point of the exercise. Whole words once the pointer is
 * word-aligned (the generator's own buffers always are), single bytes for the ragged ends. */
void chacha_wipe(void *p, size_t n)
{
	volatile uint8_t *b = p;
	volatile unsigned long *w;

	while (n && ((uintptr_t)b & (sizeof(*w) - 1))) {
		*b++ = 0;
		n--;
	}
	for (w = (volatile unsigned long *)b; n >= sizeof(*w); n -= sizeof(*w))
		*w++ = 0;
	for (b = (volatile uint8_t *)w; n; n--)
		*b++ = 0;
}

/* The state lives in sixteen scalars, not an array: nothing takes their address, so the
 * compiler keeps them in registers (an array that is wiped afterwards must live in memory). */
#define QR(a, b, c, d)                                                                 \
	do {                                                                           \
		(a) += (b); (d) = rotl32((d) ^ (a), 16);                               \
		(c) += (d); (b) = rotl32((b) ^ (c), 12);                               \
		(a) += (b); (d) = rotl32((d) ^ (a), 8);                                \
		(c) += (d); (b) = rotl32((b) ^ (c), 7);                                \
	} while (0)

/* One block for (key, counter, nonce), delivered in the form each caller needs: the first half
 * as eight words in head (the generator's next key; head may be key itself, since every key
 * word is read before the first one is written), the second half as little-endian bytes in
 * tail, or not at all when tail is NULL. */
static void chacha20_halves(const uint32_t key[8], uint32_t counter, const uint32_t nonce[3],
			    uint32_t head[8], uint8_t *tail)
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
	/* Add the input back, reading all of it before anything is written. */
	x0 += i0; x1 += i1; x2 += i2; x3 += i3;
	x4 += key[0]; x5 += key[1]; x6 += key[2]; x7 += key[3];
	x8 += key[4]; x9 += key[5]; x10 += key[6]; x11 += key[7];
	x12 += counter; x13 += nonce[0]; x14 += nonce[1]; x15 += nonce[2];
	if (tail) {
		store_le32(tail + 0, x8);
		store_le32(tail + 4, x9);
		store_le32(tail + 8, x10);
		store_le32(tail + 12, x11);
		store_le32(tail + 16, x12);
		store_le32(tail + 20, x13);
		store_le32(tail + 24, x14);
		store_le32(tail + 28, x15);
	}
	head[0] = x0;
	head[1] = x1;
	head[2] = x2;
	head[3] = x3;
	head[4] = x4;
	head[5] = x5;
	head[6] = x6;
	head[7] = x7;
}

void chacha20_block(const uint32_t key[8], uint32_t counter, const uint32_t nonce[3],
		    uint8_t out[64])
{
	uint32_t head[8];

	chacha20_halves(key, counter, nonce, head, out + 32);
	for (unsigned i = 0; i < 8; i++)
		store_le32(out + 4 * i, head[i]);
	chacha_wipe(head, sizeof(head));
}

/* Mark the output buffer empty: the next request refills under the current key. */
static void discard_output(struct chacha_rng *r)
{
	chacha_wipe(r->buf, sizeof(r->buf));
	r->pos = CHACHA_OUT_BYTES;
}

/* One block under the current key: its first half becomes the next key, its second half the
 * output. */
static void refill(struct chacha_rng *r)
{
	const uint32_t nonce[3] = { NONCE_OUTPUT, 0, 0 };

	chacha20_halves(r->key, r->counter++, nonce, r->key, r->buf);
	r->pos = 0;
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

/* XOR an n-byte chunk (n <= 32), zero-padded to 32 bytes, into the key as little-endian words.
 * Whole words first, then the ragged end if there is one: the padding beyond it is zero and
 * would leave the key as it is. */
static void xor_into_key(uint32_t key[8], const uint8_t *chunk, size_t n)
{
	size_t at = 0;
	unsigned i;

	for (i = 0; n - at >= 4; i++, at += 4)
		key[i] ^= load_le32(chunk + at);
	if (n > at) {
		uint32_t w = 0;

		while (n > at)
			w = w << 8 | chunk[--n];
		key[i] ^= w;
	}
}

/* Absorb one chunk (up to 32 bytes): XOR it into the key, then replace the key by the first
 * half of a block keyed with the result. The nonce carries the chunk's length and position so
 * that inputs differing only in zero padding or split points do not collide. */
static void absorb_chunk(struct chacha_rng *r, const uint8_t *chunk, size_t n, uint32_t index,
			 uint32_t total)
{
	const uint32_t nonce[3] = { NONCE_MIX | (uint32_t)n, index, total };

	xor_into_key(r->key, chunk, n);
	chacha20_halves(r->key, r->counter, nonce, r->key, NULL);
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
		if (r->pos >= CHACHA_OUT_BYTES)
			refill(r);
		*dst++ = r->buf[r->pos];
		r->buf[r->pos++] = 0;
		len--;
	}
}

uint64_t chacha_rng_u64(struct chacha_rng *r)
{
	uint8_t b[8];
	uint64_t v;

	/* Eight bytes still buffered (the usual case): take them as one little-endian word (see
	 * load_le32) and clear them in place, a load and a store where a byte loop ran 8 rounds
	 * for every draw (a layout sample makes three or four). */
	if (r->pos <= CHACHA_OUT_BYTES - 8) {
		uint8_t *p = r->buf + r->pos;

		v = load_u64_unaligned(p);
		store_u64_unaligned(p, 0);
		r->pos += 8;
		return v;
	}
	chacha_rng_bytes(r, b, sizeof(b));
	v = load_u64_unaligned(b);
	chacha_wipe(b, sizeof(b));
	return v;
}
