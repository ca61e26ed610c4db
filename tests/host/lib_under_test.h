/* For host test files: the rndbits library's declarations under their lib_ names (see
 * rename.h), with the C library's names left free for the reference implementation. Include
 * this before any C library header. */
#ifndef RNDBITS_HOST_LIB_UNDER_TEST_H
#define RNDBITS_HOST_LIB_UNDER_TEST_H

#include "rename.h"
#include <lib/chacha20.h>
#include <lib/errno.h>
#include <lib/fdt.h>
#include <lib/fmt.h>
#include <lib/parse.h>
#include <lib/string.h>

#undef memcpy
#undef memmove
#undef memset
#undef memcmp
#undef strlen
#undef strnlen
#undef strcmp
#undef strncmp
#undef strchr
#undef strrchr
#undef strstr
#undef strlcpy
#undef strlcat
#undef vsnprintf
#undef snprintf
#undef vcbprintf
#undef strerror

/* include/lib/errno.h spells its numbers exactly as glibc's <errno.h> does, so a test may
 * include both: identical macro redefinitions are allowed. */

#endif
