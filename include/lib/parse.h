/* Number parsing shared by the shell, the command line and sysctl (lib/parse.c). */
#ifndef RNDBITS_LIB_PARSE_H
#define RNDBITS_LIB_PARSE_H

#include <lib/types.h>

/* strtoull-like digits: base 0 means "0x"/"0X" + hex digit -> 16, leading "0" -> 8, else 10;
 * base 16 also accepts the "0x" prefix; bases 2..36 otherwise. Unlike strtoull it skips NO
 * leading whitespace and accepts NO sign: callers decide what those mean. Sets *end (if end is
 * not NULL) past the digits, or to s when there are none. Returns false on no digits, a bad
 * base, or overflow; on overflow *out saturates to UINT64_MAX and *end is still past all the
 * digits, as strtoull does. No 64-bit division (safe on 32-bit targets without libgcc). */
bool parse_u64(const char *s, const char **end, unsigned base, uint64_t *out);
/* A whole string as an unsigned number (no trailing characters, not even a newline). */
bool parse_u64_full(const char *s, unsigned base, uint64_t *out);

#endif
