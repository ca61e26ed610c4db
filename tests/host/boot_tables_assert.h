/* Assertions shared by the tests of the build-time page tables (test_arm_boot_tables.c,
 * test_arm64_boot_tables.c): the builder's verdict, and its tables read back with the kernel's
 * own walker (pt_walk), as `pt walk` reads the live ones. */
#ifndef RNDBITS_HOST_BOOT_TABLES_ASSERT_H
#define RNDBITS_HOST_BOOT_TABLES_ASSERT_H

#include <lib/types.h>

/* The builder returned why (NULL: made) and what (the mapping or table concerned). */
void assert_tables_built(const char *why, const char *what);
/* It refused, with a reason that says why_has, about want_what (NULL: about anything named). */
void assert_tables_refused(const char *why, const char *what, const char *why_has,
			   const char *want_what);

/* va maps to pa with exactly prot, by a leaf at leaf_level, in the tables under root. */
void assert_table_maps(phys_addr_t root, uint64_t va, phys_addr_t pa, unsigned prot,
		       unsigned leaf_level);
/* Nothing maps va; returns how many levels the walk went through. */
unsigned assert_table_unmapped(phys_addr_t root, uint64_t va);

#endif
