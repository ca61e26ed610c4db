/* Shared by the host fuzz harnesses (tests/fuzz): each harness defines LLVMFuzzerTestOneInput
 * and checks the invariants the kernel code promises, aborting on a violation so libFuzzer (or
 * the CTest corpus replay) reports it like a crash. Include after lib_under_test.h. */
#ifndef RNDBITS_FUZZ_H
#define RNDBITS_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)                                                                    \
	do {                                                                                \
		if (!(cond)) {                                                              \
			fprintf(stderr, "%s:%d: invariant violated: %s\n", __FILE__,         \
				__LINE__, #cond);                                           \
			abort();                                                            \
		}                                                                           \
	} while (0)

/* Known findings not fixed yet (listed in docs/quality.md) are tolerated by the harnesses so that
 * fuzzing goes on finding new ones; FUZZ_STRICT=1 in the environment turns the tolerance off.
 * The fuzz-known.<name> CTest tests replay tests/fuzz/known/<name>/ strictly and expect every
 * input there to fail still: once the code is fixed, move the input to corpus/<name>/. */
static inline bool fuzz_strict(void)
{
	static int strict = -1;

	if (strict < 0) {
		const char *s = getenv("FUZZ_STRICT");
		strict = s && *s && *s != '0';
	}
	return strict;
}

/* A little-endian cursor over the fuzz input, for harnesses that take parameters (task size,
 * page size...) from its first bytes and the payload from the rest. */
struct fuzz_input {
	const uint8_t *data;
	size_t size;
};

static inline uint64_t fuzz_take(struct fuzz_input *in, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < bytes && in->size; i++, in->data++, in->size--)
		v |= (uint64_t)in->data[0] << (8 * i);
	return v;
}

#endif
