/* lib/path.c: path_clean on absolute and relative names, "." and "..", slashes, sizes. */
#include "lib_under_test.h"
#include <lib/path.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

struct path_case {
	const char *dir, *path, *want;
	bool slash;
};

static const struct path_case cases[] = {
	{ "/", "/", "/", true },
	{ "/", "", "/", false },
	{ "/", "bin/hello", "/bin/hello", false },
	{ "/bin", "hello", "/bin/hello", false },
	{ "/bin", "/proc//self/./maps", "/proc/self/maps", false },
	{ "/proc/sys", "vm/", "/proc/sys/vm", true },
	{ "/proc/sys", "../..", "/", false },
	{ "/", "../../..", "/", false },
	{ "/a/b", "../c/./d/..", "/a/c", false },
	{ "/", "...", "/...", false },
	{ "/", ".hidden/..x", "/.hidden/..x", false },
};

static void test_cases(void **state)
{
	char out[64];
	bool slash;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(path_clean(cases[i].dir, cases[i].path, out, sizeof(out), &slash), 0);
		assert_string_equal(out, cases[i].want);
		assert_int_equal(slash, cases[i].slash);
	}
}

/* The result must fit with its NUL: exactly fitting works, one byte less is ENAMETOOLONG. */
static void test_sizes(void **state)
{
	char out[16];
	bool slash;

	(void)state;
	assert_int_equal(path_clean("/", "abcdefghijklmn", out, 16, &slash), 0); /* 15 + NUL */
	assert_string_equal(out, "/abcdefghijklmn");
	assert_int_equal(path_clean("/", "abcdefghijklmno", out, 16, &slash), -ENAMETOOLONG);
	assert_int_equal(path_clean("/abcdefgh", "ijklmnop", out, 16, &slash), -ENAMETOOLONG);
	assert_int_equal(path_clean("/", "x", out, 1, &slash), -ENAMETOOLONG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_sizes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
