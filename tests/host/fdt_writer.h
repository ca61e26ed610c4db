/* A tiny flattened-device-tree writer for host tests: enough to build the blobs QEMU hands
 * the kernel (nodes, properties, a strings block, one empty reservation entry), so that the
 * FDT tests need no dtc. Sizes are fixed; the writer fails the test if a blob outgrows them. */
#ifndef RNDBITS_HOST_FDT_WRITER_H
#define RNDBITS_HOST_FDT_WRITER_H

#include <stddef.h>
#include <stdint.h>

struct fdtw {
	uint8_t structs[8192];
	size_t struct_len;
	char strings[2048];
	size_t strings_len;
};

void fdtw_init(struct fdtw *w);
void fdtw_begin_node(struct fdtw *w, const char *name);
void fdtw_end_node(struct fdtw *w);
void fdtw_nop(struct fdtw *w);
void fdtw_prop(struct fdtw *w, const char *name, const void *value, size_t len);
void fdtw_prop_u32(struct fdtw *w, const char *name, uint32_t v);
/* Cells: n 32-bit values, big-endian. */
void fdtw_prop_cells(struct fdtw *w, const char *name, const uint32_t *cells, size_t n);
void fdtw_prop_str(struct fdtw *w, const char *name, const char *s);
/* Raw 32-bit token (for corrupt blobs). */
void fdtw_raw_u32(struct fdtw *w, uint32_t v);
/* Append FDT_END and lay out header, reservation block, structure and strings into a new
 * malloc'd buffer of exactly totalsize bytes (so ASan flags any read past it). */
uint8_t *fdtw_finish(struct fdtw *w, size_t *size);

/* Header field offsets, for tests that corrupt them. */
enum {
	FDTW_MAGIC = 0, FDTW_TOTALSIZE = 4, FDTW_OFF_STRUCT = 8, FDTW_OFF_STRINGS = 12,
	FDTW_OFF_RSVMAP = 16, FDTW_VERSION = 20, FDTW_LAST_COMP = 24, FDTW_BOOT_CPU = 28,
	FDTW_SIZE_STRINGS = 32, FDTW_SIZE_STRUCT = 36,
};
void fdtw_put_be32(uint8_t *p, uint32_t v);
uint32_t fdtw_get_be32(const uint8_t *p);

#endif
