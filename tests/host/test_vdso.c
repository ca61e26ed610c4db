/* kernel/vdso_place.c: x86_64's vdso_addr and 32-bit ARM's sigpage_addr (Linux 6.1), with a
 * scripted random draw. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <kernel/vdso.h>

#define PAGE 4096ull
#define MAP_WINDOW ((1ull << 47) - PAGE)

static uint64_t next_draw, last_n;

static uint64_t scripted(uint64_t n)
{
	last_n = n;
	return next_draw < n ? next_draw : n - 1;
}

/* 6 pages (4 vvar + 2 vdso) above a stack ending 0x7ffd12345000: a random page between the
 * stack and the end of its 2 MiB region, minus the length. */
static void test_vdso_addr_room_above_stack(void **state)
{
	(void)state;
	uint64_t len = 6 * PAGE, start = 0x7ffd12345000ull;
	uint64_t end = 0x7ffd12400000ull - len;

	next_draw = 0;
	assert_int_equal(vdso_addr_x86_64(start - 0x230, len, MAP_WINDOW, PAGE, scripted), start);
	assert_int_equal(last_n, (end - start) / PAGE + 1);
	next_draw = ~0ull;
	assert_int_equal(vdso_addr_x86_64(start - 0x230, len, MAP_WINDOW, PAGE, scripted), end);
}

/* Randomization off: the stack ends at the top of the map window, no room: the start itself
 * (the hint that get_unmapped_area then refuses). */
static void test_vdso_addr_no_room(void **state)
{
	(void)state;
	last_n = 0;
	assert_int_equal(vdso_addr_x86_64(MAP_WINDOW - 0x230, 6 * PAGE, MAP_WINDOW, PAGE, scripted),
			 MAP_WINDOW);
	assert_int_equal(last_n, 0); /* nothing drawn */
}

/* A stack that ends exactly on a 2 MiB boundary: the next region's first pages. */
static void test_vdso_addr_pmd_boundary(void **state)
{
	(void)state;
	uint64_t start = 0x7ffd12400000ull, len = 6 * PAGE;

	next_draw = ~0ull;
	assert_int_equal(vdso_addr_x86_64(start - 8, len, MAP_WINDOW, PAGE, scripted),
			 0x7ffd12600000ull - len);
}

/* 32-bit ARM, 3G split: TASK_SIZE 0xbf000000, 3 pages (sigpage, vvar, vdso). */
static void test_sigpage_addr(void **state)
{
	(void)state;
	uint64_t task = 0xbf000000ull, last = task - 3 * PAGE;

	next_draw = 5;
	assert_int_equal(sigpage_addr_arm(0xbe900e40ull, 3, task, PAGE, scripted), 0xbe906000ull);
	assert_int_equal(last_n, (last - 0xbe901000ull) / PAGE + 1);
	/* No randomization: the strings end right at TASK_SIZE, no room: 0 (top-down). */
	assert_int_equal(sigpage_addr_arm(task - 0x100, 3, task, PAGE, scripted), 0);
	/* Exactly enough room: that page, nothing drawn. */
	last_n = 0;
	assert_int_equal(sigpage_addr_arm(last - 0x100, 3, task, PAGE, scripted), last);
	assert_int_equal(last_n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vdso_addr_room_above_stack),
		cmocka_unit_test(test_vdso_addr_no_room),
		cmocka_unit_test(test_vdso_addr_pmd_boundary),
		cmocka_unit_test(test_sigpage_addr),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
