/* kernel/exec_stack.c: the initial stack byte for byte, in Linux 6.1's order (fs/exec.c's
 * strings at the top, create_elf_tables below them), for a 64-bit ABI with arch_align_stack's
 * 16-byte alignment and a 32-bit ARM one without it. Offsets worked out by hand below. */
#include "lib_under_test.h"
#include <kernel/elf.h>
#include <kernel/exec.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static const char *const argv_[] = { "prog", "a", NULL };
static const char *const envp_[] = { "X=1", NULL };
static const uint8_t rnd[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };

static uint64_t word_at(const uint8_t *buf, uint64_t sp, uint64_t addr, unsigned word)
{
	uint64_t v = 0;

	memcpy(&v, buf + (addr - sp), word); /* little endian */
	return v;
}

static void check_auxv(const uint8_t *buf, uint64_t sp, uint64_t at, unsigned word,
		       const uint64_t *expect, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(word_at(buf, sp, at + i * word, word), expect[i]);
}

static void test_64bit(void **state)
{
	uint64_t auxv[] = { AT_HWCAP, 1, AT_PAGESZ, 4096, AT_RANDOM, 0, AT_EXECFN, 0, AT_PLATFORM, 0,
			    AT_NULL, 0 };
	struct exec_stack s = { .top = 0x7fff0000, .word = 8, .top_gap = 8, .align = 16, .argc = 2,
				.argv = argv_, .envc = 1, .envp = envp_, .execfn = "/bin/prog",
				.platform = "aarch64", .random = rnd, .auxv = auxv };
	/* top - 8 = ...fff8; "/bin/prog" at ...ffee; "X=1" at ...ffea; "prog" at ...ffe3, "a" at
	 * ...ffe8; aligned to ...ffe0; "aarch64" at ...ffd8; random at ...ffc8; 18 words below
	 * (6 auxv pairs, argc, 2 argv + NULL, 1 envp + NULL) give ...ff38, 16-aligned ...ff30. */
	assert_int_equal(exec_stack_size(&s), 0xd0);
	uint8_t *buf = malloc(0xd0);
	uint64_t sp = exec_stack_build(&s, buf);
	assert_int_equal(sp, 0x7ffeff30);
	assert_int_equal(word_at(buf, sp, sp, 8), 2);
	assert_int_equal(word_at(buf, sp, sp + 8, 8), 0x7ffeffe3);
	assert_int_equal(word_at(buf, sp, sp + 16, 8), 0x7ffeffe8);
	assert_int_equal(word_at(buf, sp, sp + 24, 8), 0);
	assert_int_equal(word_at(buf, sp, sp + 32, 8), 0x7ffeffea);
	assert_int_equal(word_at(buf, sp, sp + 40, 8), 0);
	const uint64_t expect[] = { AT_HWCAP, 1, AT_PAGESZ, 4096, AT_RANDOM, 0x7ffeffc8,
				    AT_EXECFN, 0x7ffeffee, AT_PLATFORM, 0x7ffeffd8, AT_NULL, 0 };
	check_auxv(buf, sp, sp + 48, 8, expect, 12);
	assert_int_equal(auxv[5], 0x7ffeffc8); /* the caller's copy is filled in too */
	assert_memory_equal(buf + (0x7ffeffc8 - sp), rnd, 16);
	assert_string_equal((char *)buf + (0x7ffeffd8 - sp), "aarch64");
	assert_string_equal((char *)buf + (0x7ffeffe3 - sp), "prog");
	assert_string_equal((char *)buf + (0x7ffeffe8 - sp), "a");
	assert_string_equal((char *)buf + (0x7ffeffea - sp), "X=1");
	assert_string_equal((char *)buf + (0x7ffeffee - sp), "/bin/prog");
	assert_int_equal(word_at(buf, sp, 0x7fff0000 - 8, 8), 0); /* the empty top word */
	free(buf);
}

static void test_32bit_arm(void **state)
{
	uint64_t auxv[] = { AT_PAGESZ, 4096, AT_RANDOM, 0, AT_EXECFN, 0, AT_PLATFORM, 0,
			    AT_NULL, 0 };
	struct exec_stack s = { .top = 0xbf000000, .word = 4, .top_gap = 4, .align = 1, .argc = 2,
				.argv = argv_, .envc = 1, .envp = envp_, .execfn = "/bin/prog",
				.platform = "v7l", .random = rnd, .auxv = auxv };
	/* top - 4 = ...fffc; "/bin/prog" at ...fff2; "X=1" at ...ffee; "prog" at ...ffe7;
	 * no alignment; "v7l" at ...ffe3; random at ...ffd3; 16 words (64 bytes) below: ...ff93,
	 * 16-aligned ...ff90. */
	assert_int_equal(exec_stack_size(&s), 0x70);
	uint8_t *buf = malloc(0x70);
	uint64_t sp = exec_stack_build(&s, buf);
	assert_int_equal(sp, 0xbeffff90);
	assert_int_equal(word_at(buf, sp, sp, 4), 2);
	assert_int_equal(word_at(buf, sp, sp + 4, 4), 0xbeffffe7);
	assert_int_equal(word_at(buf, sp, sp + 8, 4), 0xbeffffec);
	assert_int_equal(word_at(buf, sp, sp + 12, 4), 0);
	assert_int_equal(word_at(buf, sp, sp + 16, 4), 0xbeffffee);
	assert_int_equal(word_at(buf, sp, sp + 20, 4), 0);
	const uint64_t expect[] = { AT_PAGESZ, 4096, AT_RANDOM, 0xbeffffd3, AT_EXECFN, 0xbefffff2,
				    AT_PLATFORM, 0xbeffffe3, AT_NULL, 0 };
	check_auxv(buf, sp, sp + 24, 4, expect, 10);
	assert_string_equal((char *)buf + (0xbeffffe3 - sp), "v7l");
	assert_memory_equal(buf + (0xbeffffd3 - sp), rnd, 16);
	free(buf);
}

/* arch_align_stack's random lowering: everything below the strings moves down by it (then the
 * 16-byte alignment), the strings stay; the strings' size is what setup_arg_pages counts. */
static void test_lowered(void **state)
{
	uint64_t auxv[] = { AT_HWCAP, 1, AT_PAGESZ, 4096, AT_RANDOM, 0, AT_EXECFN, 0, AT_PLATFORM, 0,
			    AT_NULL, 0 };
	struct exec_stack s = { .top = 0x7fff0000, .word = 8, .top_gap = 8, .align = 16, .argc = 2,
				.argv = argv_, .envc = 1, .envp = envp_, .execfn = "/bin/prog",
				.platform = "aarch64", .random = rnd, .auxv = auxv, .lower = 0x1234 };
	/* Strings down to ...ffe3 as in test_64bit; ...ffe3 - 0x1234 = ...edaf, aligned ...eda0;
	 * "aarch64" at ...ed98, random at ...ed88, 18 words: ...ecf8, aligned ...ecf0. */
	assert_int_equal(exec_stack_strings_size(&s), 0x1d);
	assert_int_equal(exec_stack_size(&s), 0x7fff0000 - 0x7ffeecf0);
	uint8_t *buf = malloc(0x2000);
	uint64_t sp = exec_stack_build(&s, buf);
	assert_int_equal(sp, 0x7ffeecf0);
	assert_int_equal(auxv[5], 0x7ffeed88);
	assert_int_equal(auxv[9], 0x7ffeed98);
	assert_int_equal(word_at(buf, sp, sp + 8, 8), 0x7ffeffe3); /* argv[0] did not move */
	assert_string_equal((char *)buf + (0x7ffeffee - sp), "/bin/prog");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_64bit),
		cmocka_unit_test(test_32bit_arm),
		cmocka_unit_test(test_lowered),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
