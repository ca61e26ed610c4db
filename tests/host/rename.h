/* Force-included (-include) into every rndbits source compiled for a host test: the freestanding
 * library uses the C library's own names (memcpy, snprintf, strerror...), which would clash with
 * glibc in a host program. Renaming them lets a test link both and compare one with the other.
 * Test files see the renamed declarations through lib_under_test.h. */
#ifndef RNDBITS_HOST_RENAME_H
#define RNDBITS_HOST_RENAME_H

#define memcpy lib_memcpy
#define memmove lib_memmove
#define memset lib_memset
#define memcmp lib_memcmp
#define strlen lib_strlen
#define strnlen lib_strnlen
#define strcmp lib_strcmp
#define strncmp lib_strncmp
#define strchr lib_strchr
#define strrchr lib_strrchr
#define strstr lib_strstr
#define strlcpy lib_strlcpy
#define strlcat lib_strlcat
#define vsnprintf lib_vsnprintf
#define snprintf lib_snprintf
#define vcbprintf lib_vcbprintf
#define strerror lib_strerror

#endif
