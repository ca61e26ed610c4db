#include "fdt_assert.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

void assert_same_fdt_item(const struct fdt_item *got, const struct fdt_item *want)
{
	assert_int_equal(got->kind, want->kind);
	assert_int_equal(got->depth, want->depth);
	assert_ptr_equal(got->name, want->name);
	if (got->kind == FDT_ITEM_NODE) {
		assert_int_equal(got->node, want->node);
	} else {
		assert_ptr_equal(got->value, want->value);
		assert_int_equal(got->len, want->len);
	}
}
