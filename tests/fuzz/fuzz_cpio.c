/* lib/cpio.c under libFuzzer. The input is the archive, in memory of exactly its size.
 *
 * Checked: no read outside the archive (ASan), every walk ends, every entry handed out has a
 * non-empty name that ends inside the archive and data inside it at a 4-byte offset, entries
 * come in increasing offsets, and a failed or ended reader stays so. */
#include "lib_under_test.h"
#include <lib/cpio.h>

#include <string.h>

#include "fuzz.h"

static volatile uint8_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cpio_reader r;
	struct cpio_entry e;
	size_t last = 0;
	int n;

	cpio_init(&r, data, size);
	while ((n = cpio_next(&r, &e)) > 0) {
		const uint8_t *name = (const uint8_t *)e.name;
		FUZZ_CHECK(name > data && e.namesize <= (size_t)(data + size - name));
		FUZZ_CHECK(name[0] != 0 && name[e.namesize - 1] == 0);
		FUZZ_CHECK(e.data >= data && e.size <= (size_t)(data + size - e.data));
		FUZZ_CHECK((e.data - data) % 4 == 0);
		FUZZ_CHECK(e.offset >= last && e.offset % 4 == 0);
		last = e.offset + 1;
		for (size_t i = 0; i < e.size; i++)
			sink ^= e.data[i];
	}
	FUZZ_CHECK(n == 0 ? r.error == NULL : n == -EINVAL && r.error != NULL);
	FUZZ_CHECK(cpio_next(&r, &e) == n);
	return 0;
}
