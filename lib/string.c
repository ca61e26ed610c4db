/* Freestanding string and memory functions. Simple byte loops: the kernel copies little, and
 * gcc (with -ffreestanding -fno-builtin) must not turn these very loops back into calls. */
#include <lib/string.h>

/* Correctness, not speed: without it GCC turns memset's and memcpy's own loops into calls to
 * memset and memcpy, which would call themselves forever. */
#define NO_LIBCALL __attribute__((optimize("no-tree-loop-distribute-patterns")))

/* Word at a time where both pointers allow it: page zeroing and copying dominate exec. */
typedef unsigned long word_t;
#define WORD sizeof(word_t)

static bool word_aligned(const void *p)
{
	return ((uintptr_t)p & (WORD - 1)) == 0;
}

NO_LIBCALL void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (word_aligned(d) && word_aligned(s)) {
		for (; n >= 4 * WORD; n -= 4 * WORD, d += 4 * WORD, s += 4 * WORD) {
			((word_t *)d)[0] = ((const word_t *)s)[0];
			((word_t *)d)[1] = ((const word_t *)s)[1];
			((word_t *)d)[2] = ((const word_t *)s)[2];
			((word_t *)d)[3] = ((const word_t *)s)[3];
		}
		for (; n >= WORD; n -= WORD, d += WORD, s += WORD)
			*(word_t *)d = *(const word_t *)s;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

NO_LIBCALL void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d < s) {
		while (n--)
			*d++ = *s++;
	} else if (d > s) {
		while (n--)
			d[n] = s[n];
	}
	return dst;
}

NO_LIBCALL void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	if (word_aligned(d)) {
		word_t w = (unsigned char)c;
		w |= w << 8;
		w |= w << 16;
		if (WORD == 8)
			w |= (w << 16) << 16;
		for (; n >= 4 * WORD; n -= 4 * WORD, d += 4 * WORD) {
			((word_t *)d)[0] = w;
			((word_t *)d)[1] = w;
			((word_t *)d)[2] = w;
			((word_t *)d)[3] = w;
		}
		for (; n >= WORD; n -= WORD, d += WORD)
			*(word_t *)d = w;
	}
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			break;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *found = NULL;

	for (;; s++) {
		if (*s == (char)c)
			found = s;
		if (!*s)
			return (char *)found;
	}
}

size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;
		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

size_t strlcat(char *dst, const char *src, size_t size)
{
	size_t used = strnlen(dst, size);

	if (used == size)
		return size + strlen(src);
	return used + strlcpy(dst + used, src, size - used);
}

char *strstr(const char *haystack, const char *needle)
{
	size_t n = strlen(needle);

	for (; *haystack; haystack++)
		if (strncmp(haystack, needle, n) == 0)
			return (char *)haystack;
	return n ? NULL : (char *)haystack;
}
