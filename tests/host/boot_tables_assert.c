/* Assertions shared by the build-time page-table tests (boot_tables_assert.h). */
#include <mm/pgtable.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "boot_tables_assert.h"

void assert_tables_built(const char *why, const char *what)
{
	if (why)
		fail_msg("%s: %s", what ? what : "", why);
}

void assert_tables_refused(const char *why, const char *what, const char *why_has,
			   const char *want_what)
{
	assert_non_null(why);
	assert_non_null(strstr(why, why_has));
	assert_non_null(what);
	if (want_what)
		assert_string_equal(what, want_what);
}

void assert_table_maps(phys_addr_t root, uint64_t va, phys_addr_t pa, unsigned prot,
		       unsigned leaf_level)
{
	struct pt_walk_result w;

	pt_walk(root, va, &w);
	if (!w.mapped || w.pa != pa || w.prot != prot ||
	    w.steps[w.nr_steps - 1].level != leaf_level)
		fail_msg("%#llx: mapped %d pa %#llx prot %#x at L%u, "
			 "expected pa %#llx prot %#x at L%u",
			 (unsigned long long)va, w.mapped, (unsigned long long)w.pa, w.prot,
			 w.steps[w.nr_steps - 1].level, (unsigned long long)pa, prot, leaf_level);
}

unsigned assert_table_unmapped(phys_addr_t root, uint64_t va)
{
	struct pt_walk_result w;

	pt_walk(root, va, &w);
	if (w.mapped)
		fail_msg("%#llx: mapped to %#llx, expected nothing", (unsigned long long)va,
			 (unsigned long long)w.pa);
	return w.nr_steps;
}
