/* printf-style formatting (lib/fmt.c): %d %i %u %x %X %o %c %s %p %%, flags "-0 +#", width and
 * precision (also "*"), length modifiers hh h l ll z j t. Output matches the C library's
 * snprintf for those, which the host tests check. */
#ifndef RNDBITS_LIB_FMT_H
#define RNDBITS_LIB_FMT_H

#include <lib/types.h>

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

/* Streaming form: calls out(c, ctx) for each character; returns the count. printk and the
 * user library's printf use it so that no length limit applies. */
int vcbprintf(void (*out)(char c, void *ctx), void *ctx, const char *fmt, va_list ap);

#endif
