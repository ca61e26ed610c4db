/* See fdt_writer.h. Layout follows the devicetree specification: 40-byte header, the memory
 * reservation block (one terminating zero entry), the structure block, the strings block. */
#include "fdt_writer.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

void fdtw_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

uint32_t fdtw_get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put(struct fdtw *w, const void *data, size_t len)
{
	assert_true(w->struct_len + len + 4 <= sizeof(w->structs));
	memcpy(w->structs + w->struct_len, data, len);
	w->struct_len += len;
	while (w->struct_len & 3)
		w->structs[w->struct_len++] = 0;
}

void fdtw_raw_u32(struct fdtw *w, uint32_t v)
{
	uint8_t b[4];

	fdtw_put_be32(b, v);
	put(w, b, 4);
}

void fdtw_init(struct fdtw *w)
{
	memset(w, 0, sizeof(*w));
}

void fdtw_begin_node(struct fdtw *w, const char *name)
{
	fdtw_raw_u32(w, 1);
	put(w, name, strlen(name) + 1);
}

void fdtw_end_node(struct fdtw *w)
{
	fdtw_raw_u32(w, 2);
}

void fdtw_nop(struct fdtw *w)
{
	fdtw_raw_u32(w, 4);
}

/* Offset of name in the strings block, adding it if new (as dtc shares names). */
static uint32_t string_offset(struct fdtw *w, const char *name)
{
	size_t len = strlen(name) + 1;

	for (size_t off = 0; off < w->strings_len; off += strlen(w->strings + off) + 1)
		if (!strcmp(w->strings + off, name))
			return (uint32_t)off;
	assert_true(w->strings_len + len <= sizeof(w->strings));
	memcpy(w->strings + w->strings_len, name, len);
	w->strings_len += len;
	return (uint32_t)(w->strings_len - len);
}

void fdtw_prop(struct fdtw *w, const char *name, const void *value, size_t len)
{
	fdtw_raw_u32(w, 3);
	fdtw_raw_u32(w, (uint32_t)len);
	fdtw_raw_u32(w, string_offset(w, name));
	if (len)
		put(w, value, len);
}

void fdtw_prop_u32(struct fdtw *w, const char *name, uint32_t v)
{
	fdtw_prop_cells(w, name, &v, 1);
}

void fdtw_prop_cells(struct fdtw *w, const char *name, const uint32_t *cells, size_t n)
{
	uint8_t buf[64];

	assert_true(n * 4 <= sizeof(buf));
	for (size_t i = 0; i < n; i++)
		fdtw_put_be32(buf + 4 * i, cells[i]);
	fdtw_prop(w, name, buf, n * 4);
}

void fdtw_prop_str(struct fdtw *w, const char *name, const char *s)
{
	fdtw_prop(w, name, s, strlen(s) + 1);
}

uint8_t *fdtw_finish(struct fdtw *w, size_t *size)
{
	const size_t off_rsv = 40, off_struct = off_rsv + 16;
	size_t off_strings, total;
	uint8_t *blob;

	fdtw_raw_u32(w, 9);
	off_strings = off_struct + w->struct_len;
	total = off_strings + w->strings_len;
	blob = calloc(1, total);
	assert_non_null(blob);
	fdtw_put_be32(blob + FDTW_MAGIC, 0xd00dfeed);
	fdtw_put_be32(blob + FDTW_TOTALSIZE, (uint32_t)total);
	fdtw_put_be32(blob + FDTW_OFF_STRUCT, (uint32_t)off_struct);
	fdtw_put_be32(blob + FDTW_OFF_STRINGS, (uint32_t)off_strings);
	fdtw_put_be32(blob + FDTW_OFF_RSVMAP, (uint32_t)off_rsv);
	fdtw_put_be32(blob + FDTW_VERSION, 17);
	fdtw_put_be32(blob + FDTW_LAST_COMP, 16);
	fdtw_put_be32(blob + FDTW_BOOT_CPU, 0);
	fdtw_put_be32(blob + FDTW_SIZE_STRINGS, (uint32_t)w->strings_len);
	fdtw_put_be32(blob + FDTW_SIZE_STRUCT, (uint32_t)w->struct_len);
	memcpy(blob + off_struct, w->structs, w->struct_len);
	memcpy(blob + off_strings, w->strings, w->strings_len);
	*size = total;
	return blob;
}
