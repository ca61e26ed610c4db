/* Number parsing shared by the shell, the command line and sysctl (lib/parse.c). */
#ifndef RNDBITS_LIB_PARSE_H
#define RNDBITS_LIB_PARSE_H

#include <types.h>

/* strtoul-like: base 0 accepts 0x/0 prefixes. Sets *end past the digits; returns false on no
 * digits or overflow (the value saturates). */
bool parse_u64(const char *s, const char **end, unsigned base, uint64_t *out);
/* A whole string as an unsigned number (no trailing characters). */
bool parse_u64_full(const char *s, unsigned base, uint64_t *out);

#endif
