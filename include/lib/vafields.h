/* A virtual address cut into its page-table index fields (lib/vafields.c), from the walker's
 * own geometry (struct pt_geometry, arch_pt_geometry()): what `aslr info` draws and `pt walk
 * --compare` marks. Pure arithmetic, host-tested per preset. */
#ifndef RNDBITS_LIB_VAFIELDS_H
#define RNDBITS_LIB_VAFIELDS_H

#include <arch/mmu.h>
#include <lib/types.h>

/* Bits hi..lo (inclusive) of an address: the index into the table of walker level `level`
 * (0 = the root, as `pt walk` numbers them), or the offset in the page (level VA_OFFSET). */
#define VA_OFFSET (-1)
struct va_field {
	unsigned hi, lo;
	int level;
};
#define VA_FIELDS_MAX (PT_MAX_LEVELS + 1)

/* Width of the addresses the tables translate (the root's top index bit + 1): 32, 36..48. */
unsigned va_width(const struct pt_geometry *geo);

/* The fields of an address of va_bits bits (va_width(geo), or 32 for a compat task on a 64-bit
 * table: a level whose index lies wholly above va_bits is left out, one that straddles it is
 * cut), from the top: one per level, then the offset. Returns their number. */
unsigned va_fields(const struct pt_geometry *geo, unsigned va_bits, struct va_field *out);

/* Which of the n fields bits lo..hi touch: bit i set for out[i]. 0 when lo > hi. */
unsigned va_fields_touched(const struct va_field *f, unsigned n, unsigned lo, unsigned hi);

/* Which fields differ between two addresses: bit i set when out[i]'s bits differ. */
unsigned va_fields_differ(const struct va_field *f, unsigned n, uint64_t a, uint64_t b);

/* The value of field f in va. */
uint64_t va_field_value(const struct va_field *f, uint64_t va);

/* The fields from the top down, as "47..39 L0 | ... | 11..0 offset", into buf (128 bytes hold
 * any geometry's). */
void va_fields_layout(const struct va_field *f, unsigned n, char *buf, size_t size);

/* The bits of a field set, as "L2,L3" (levels) and "offset", into buf; "-" when none. */
void va_fields_names(const struct va_field *f, unsigned n, unsigned set, char *buf, size_t size);

/* The bits that range equally likely values take: ceil(log2(range)) (0 for range <= 1). An
 * offset below range, shifted left by lo, sets bits lo .. lo + bits - 1. */
unsigned va_bits_of_range(uint64_t range);

/* The tables (below and including the root) a process needs to map one page at each of the n
 * addresses: one root, and at each lower level one table per distinct region that an entry of
 * the level above covers. Their memory is *bytes (table_bytes of each level). */
unsigned va_tables_needed(const struct pt_geometry *geo, const uint64_t *va, unsigned n,
			  uint64_t *bytes);

#endif
