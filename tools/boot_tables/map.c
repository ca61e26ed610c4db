/* What both ISAs' parts of tools/boot_tables do alike (boot_tables.h): check where a table
 * lies, and map a list of mappings with the kernel's pt_map, turning its errors into reasons. */
#include <lib/errno.h>
#include <mm/pgtable.h>

#include "boot_tables.h"

bool boot_tables_lies_in(uint64_t section, uint64_t section_end, uint64_t va, uint64_t size,
			 uint64_t align)
{
	return va >= section && va % align == 0 && section_end - va >= size;
}

const char *boot_tables_refusal(int err, const char *pool_dry)
{
	return err == -ENOMEM ? pool_dry : "not page aligned, or overlapping another part";
}

const char *boot_tables_map(phys_addr_t root, const struct boot_mapping *maps, size_t n,
			    const char *pool_dry, const char **what)
{
	for (size_t i = 0; i < n; i++) {
		const struct boot_mapping *m = &maps[i];

		*what = m->what;
		if (m->end <= m->va)
			return "empty, or ends before it starts";
		int err = pt_map(root, m->va, m->pa, m->end - m->va, m->prot, m->flags);
		if (err)
			return boot_tables_refusal(err, pool_dry);
	}
	return NULL;
}
