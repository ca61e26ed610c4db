/* lib/errno.c: strerror gives glibc's Linux texts for every number include/lib/errno.h defines,
 * and glibc's "Unknown error N" form for numbers without one. */
#include "lib_under_test.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

/* The numbers rndbits defines, spelled with rndbits' own macros (lib_under_test.h included
 * include/lib/errno.h first; glibc's identical definitions changed nothing). */
static const int known[] = {
	EPERM, ENOENT, ESRCH, EINTR, EIO, ENXIO, E2BIG, ENOEXEC, EBADF, ECHILD, EAGAIN, ENOMEM,
	EACCES, EFAULT, ENOTBLK, EBUSY, EEXIST, EXDEV, ENODEV, ENOTDIR, EISDIR, EINVAL, ENFILE,
	EMFILE, ENOTTY, ETXTBSY, EFBIG, ENOSPC, ESPIPE, EROFS, EMLINK, EPIPE, EDOM, ERANGE,
	EDEADLK, ENAMETOOLONG, ENOLCK, ENOSYS, ENOTEMPTY, ELOOP, EOVERFLOW, EOPNOTSUPP,
};

static void test_known(void **state)
{
	assert_string_equal(lib_strerror(0), strerror(0));
	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		assert_string_equal(lib_strerror(known[i]), strerror(known[i]));
	/* The ones the shell and sysctl print, spelled out. */
	assert_string_equal(lib_strerror(EINVAL), "Invalid argument");
	assert_string_equal(lib_strerror(ENOENT), "No such file or directory");
	assert_string_equal(lib_strerror(EACCES), "Permission denied");
	assert_string_equal(lib_strerror(EPERM), "Operation not permitted");
}

static void test_numbers_match_linux(void **state)
{
	assert_int_equal(EINVAL, 22);
	assert_int_equal(ENOENT, 2);
	assert_int_equal(EACCES, 13);
	assert_int_equal(ENOSYS, 38);
	assert_int_equal(EOPNOTSUPP, 95);
	assert_int_equal(EWOULDBLOCK, EAGAIN);
}

static void test_unknown(void **state)
{
	static const int unknown[] = { -1, -22, 41, 58, 4000, INT_MAX, INT_MIN, -INT_MAX };

	for (size_t i = 0; i < ARRAY_SIZE(unknown); i++)
		assert_string_equal(lib_strerror(unknown[i]), strerror(unknown[i]));
	assert_string_equal(lib_strerror(INT_MIN), "Unknown error -2147483648");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_numbers_match_linux),
		cmocka_unit_test(test_unknown),
	};

	return cmocka_run_group_tests_name("errno", tests, NULL, NULL);
}
