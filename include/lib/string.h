/* Freestanding string and memory functions (lib/string.c), shared by kernel and user code.
 * Standard names, because gcc may emit calls to memcpy/memset/memmove/memcmp on its own. */
#ifndef RNDBITS_LIB_STRING_H
#define RNDBITS_LIB_STRING_H

#include <lib/types.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *haystack, const char *needle);
/* Copies at most size-1 bytes and always terminates (size > 0); returns strlen(src). */
size_t strlcpy(char *dst, const char *src, size_t size);
size_t strlcat(char *dst, const char *src, size_t size);

#endif
