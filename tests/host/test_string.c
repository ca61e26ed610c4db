/* lib/string.c against glibc: every offset/length combination in small buffers (so overlap and
 * alignment cases are all covered), signs of comparisons with bytes above 0x7f, and strlcpy /
 * strlcat (not in Debian 12's glibc) against their BSD definition. */
#include "lib_under_test.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define N 48

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

static void fill_pattern(unsigned char *b, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)(seed * 31 + i * 7 + (i >> 3));
}

static void test_memcpy(void **state)
{
	unsigned char src[N], want[N], got[N];

	fill_pattern(src, N, 1);
	for (size_t d = 0; d < 8; d++)
		for (size_t s = 0; s < 8; s++)
			for (size_t n = 0; n + (d > s ? d : s) <= N; n++) {
				memset(want, 0xee, N);
				memset(got, 0xee, N);
				memcpy(want + d, src + s, n);
				assert_ptr_equal(lib_memcpy(got + d, src + s, n), got + d);
				assert_memory_equal(got, want, N);
			}
}

static void test_memmove_overlap(void **state)
{
	unsigned char want[N], got[N];

	/* Every (dst, src, n) inside one buffer: forward, backward and exact overlap. */
	for (size_t d = 0; d < N; d++)
		for (size_t s = 0; s < N; s++)
			for (size_t n = 0; n + (d > s ? d : s) <= N; n++) {
				fill_pattern(want, N, 3);
				fill_pattern(got, N, 3);
				memmove(want + d, want + s, n);
				assert_ptr_equal(lib_memmove(got + d, got + s, n), got + d);
				assert_memory_equal(got, want, N);
			}
}

static void test_memset(void **state)
{
	unsigned char want[N], got[N];
	static const int values[] = { 0, 1, 0x7f, 0x80, 0xff, 0x1ab, -1, -200 };

	for (size_t v = 0; v < ARRAY_SIZE(values); v++)
		for (size_t off = 0; off < 8; off++)
			for (size_t n = 0; off + n <= N; n++) {
				memset(want, 0x11, N);
				memset(got, 0x11, N);
				memset(want + off, values[v], n);
				assert_ptr_equal(lib_memset(got + off, values[v], n), got + off);
				assert_memory_equal(got, want, N);
			}
}

static void test_memcmp(void **state)
{
	unsigned char a[N], b[N];

	fill_pattern(a, N, 5);
	for (size_t n = 0; n <= N; n++)
		for (size_t pos = 0; pos < N; pos++)
			for (int delta = -0x90; delta <= 0x90; delta += 0x30) {
				memcpy(b, a, N);
				b[pos] = (unsigned char)(b[pos] + delta);
				assert_int_equal(sign(lib_memcmp(a, b, n)), sign(memcmp(a, b, n)));
				assert_int_equal(sign(lib_memcmp(b, a, n)), sign(memcmp(b, a, n)));
			}
	/* Unsigned bytes: 0x80 compares above 0x7f. */
	assert_true(lib_memcmp("\x80", "\x7f", 1) > 0);
	assert_true(lib_memcmp("\x01", "\xff", 1) < 0);
}

static const char *const strs[] = {
	"", "a", "b", "ab", "abc", "abd", "abc\x80", "abc\x7f", "\xff", "hello world",
	"mmap_rnd_bits", "mmap_rnd_compat_bits", "vm.mmap_rnd_bits", "/proc/sys/vm/",
};

static void test_strlen_strnlen(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(strs); i++) {
		size_t len = strlen(strs[i]);

		assert_int_equal(lib_strlen(strs[i]), len);
		for (size_t max = 0; max <= len + 2; max++)
			assert_int_equal(lib_strnlen(strs[i], max), strnlen(strs[i], max));
	}
	/* strnlen never reads past max: a buffer without a NUL (ASan watches). */
	char *raw = malloc(5);
	memcpy(raw, "abcde", 5);
	assert_int_equal(lib_strnlen(raw, 5), 5);
	assert_int_equal(lib_strnlen(raw, 3), 3);
	free(raw);
}

static void test_strcmp_strncmp(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(strs); i++)
		for (size_t j = 0; j < ARRAY_SIZE(strs); j++) {
			assert_int_equal(sign(lib_strcmp(strs[i], strs[j])),
					 sign(strcmp(strs[i], strs[j])));
			for (size_t n = 0; n < 16; n++)
				assert_int_equal(sign(lib_strncmp(strs[i], strs[j], n)),
						 sign(strncmp(strs[i], strs[j], n)));
		}
}

static void test_strchr_strrchr(void **state)
{
	static const int chars[] = { 'a', 'b', 'o', 'l', '/', 'z', '\0', 0x80, 0xff, 0x100 + 'a' };

	for (size_t i = 0; i < ARRAY_SIZE(strs); i++)
		for (size_t c = 0; c < ARRAY_SIZE(chars); c++) {
			assert_ptr_equal(lib_strchr(strs[i], chars[c]), strchr(strs[i], chars[c]));
			assert_ptr_equal(lib_strrchr(strs[i], chars[c]), strrchr(strs[i], chars[c]));
		}
}

/* strlcpy: copies min(len, size-1), always terminates when size > 0, returns strlen(src). */
static void test_strlcpy(void **state)
{
	char dst[16];

	for (size_t i = 0; i < ARRAY_SIZE(strs); i++) {
		size_t len = strlen(strs[i]);

		for (size_t size = 0; size <= sizeof(dst); size++) {
			size_t copied = size ? (len < size - 1 ? len : size - 1) : 0;

			memset(dst, '#', sizeof(dst));
			assert_int_equal(lib_strlcpy(dst, strs[i], size), len);
			assert_memory_equal(dst, strs[i], copied);
			if (size) {
				assert_int_equal(dst[copied], '\0');
				for (size_t k = copied + 1; k < sizeof(dst); k++)
					assert_int_equal(dst[k], '#');
			} else {
				for (size_t k = 0; k < sizeof(dst); k++)
					assert_int_equal(dst[k], '#');
			}
		}
	}
	/* The truncating copy of a long name. */
	assert_int_equal(lib_strlcpy(dst, "vm.mmap_rnd_compat_bits", 8), 23);
	assert_string_equal(dst, "vm.mmap");
}

static void test_strlcat(void **state)
{
	char dst[16];

	/* Plenty of room. */
	strcpy(dst, "vm.");
	assert_int_equal(lib_strlcat(dst, "mmap", sizeof(dst)), 7);
	assert_string_equal(dst, "vm.mmap");
	/* Truncated: returns the length it tried to make. */
	assert_int_equal(lib_strlcat(dst, "_rnd_compat_bits", sizeof(dst)), 23);
	assert_string_equal(dst, "vm.mmap_rnd_com");
	/* dst not terminated within size: size + strlen(src), dst untouched. */
	memset(dst, 'q', sizeof(dst));
	assert_int_equal(lib_strlcat(dst, "abc", 4), 7);
	for (size_t k = 0; k < sizeof(dst); k++)
		assert_int_equal(dst[k], 'q');
	/* Every size against the definition. */
	for (size_t size = 0; size <= sizeof(dst); size++) {
		memset(dst, '#', sizeof(dst));
		strcpy(dst, "abc");
		size_t r = lib_strlcat(dst, "defgh", size);
		if (size <= 3) {
			assert_int_equal(r, size + 5);
			assert_memory_equal(dst, "abc", 4);
		} else {
			size_t total = MIN(8, size - 1);
			assert_int_equal(r, 8);
			assert_memory_equal(dst, "abcdefgh", total);
			assert_int_equal(dst[total], '\0');
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memcpy),
		cmocka_unit_test(test_memmove_overlap),
		cmocka_unit_test(test_memset),
		cmocka_unit_test(test_memcmp),
		cmocka_unit_test(test_strlen_strnlen),
		cmocka_unit_test(test_strcmp_strncmp),
		cmocka_unit_test(test_strchr_strrchr),
		cmocka_unit_test(test_strlcpy),
		cmocka_unit_test(test_strlcat),
	};

	return cmocka_run_group_tests_name("string", tests, NULL, NULL);
}
