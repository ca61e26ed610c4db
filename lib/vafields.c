/* Page-table index fields of a virtual address (include/lib/vafields.h). */
#include <lib/fmt.h>
#include <lib/string.h>
#include <lib/vafields.h>

static unsigned log2_exact(uint64_t v)
{
	unsigned b = 0;

	while (b < 63 && (1ULL << b) < v)
		b++;
	return b;
}

unsigned va_width(const struct pt_geometry *geo)
{
	return geo->shift[0] + log2_exact(geo->entries[0]);
}

unsigned va_fields(const struct pt_geometry *geo, unsigned va_bits, struct va_field *out)
{
	unsigned n = 0;

	for (unsigned l = 0; l < geo->levels; l++) {
		unsigned lo = geo->shift[l];
		unsigned hi = lo + log2_exact(geo->entries[l]) - 1;

		if (lo >= va_bits)
			continue; /* every index bit lies above the task's addresses: always 0 */
		out[n++] = (struct va_field){ hi < va_bits ? hi : va_bits - 1, lo, (int)l };
	}
	out[n++] = (struct va_field){ geo->shift[geo->levels - 1] - 1, 0, VA_OFFSET };
	return n;
}

unsigned va_fields_touched(const struct va_field *f, unsigned n, unsigned lo, unsigned hi)
{
	unsigned set = 0;

	for (unsigned i = 0; i < n && lo <= hi; i++)
		if (f[i].lo <= hi && lo <= f[i].hi)
			set |= 1u << i;
	return set;
}

uint64_t va_field_value(const struct va_field *f, uint64_t va)
{
	unsigned width = f->hi - f->lo + 1;

	return (va >> f->lo) & (width >= 64 ? ~0ULL : (1ULL << width) - 1);
}

unsigned va_fields_differ(const struct va_field *f, unsigned n, uint64_t a, uint64_t b)
{
	unsigned set = 0;

	for (unsigned i = 0; i < n; i++)
		if (va_field_value(&f[i], a) != va_field_value(&f[i], b))
			set |= 1u << i;
	return set;
}

void va_fields_layout(const struct va_field *f, unsigned n, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < n; i++) {
		const char *sep = i ? " | " : "";
		if (f[i].level == VA_OFFSET)
			len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%s%u..%u offset",
						sep, f[i].hi, f[i].lo);
		else
			len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%s%u..%u L%d",
						sep, f[i].hi, f[i].lo, f[i].level);
	}
}

void va_fields_names(const struct va_field *f, unsigned n, unsigned set, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < n; i++) {
		if (!(set & (1u << i)))
			continue;
		if (f[i].level == VA_OFFSET)
			len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%soffset",
						len ? "," : "");
		else
			len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%sL%d",
						len ? "," : "", f[i].level);
	}
	if (!len)
		snprintf(buf, size, "-");
}

unsigned va_bits_of_range(uint64_t range)
{
	return range <= 1 ? 0 : log2_exact(range);
}

unsigned va_tables_needed(const struct pt_geometry *geo, const uint64_t *va, unsigned n,
			  uint64_t *bytes)
{
	unsigned tables = 1;

	*bytes = geo->table_bytes[0];
	for (unsigned l = 1; l < geo->levels; l++) {
		unsigned shift = geo->shift[l - 1]; /* one entry of level l - 1: one table of level l */
		for (unsigned i = 0; i < n; i++) {
			bool seen = false;
			for (unsigned j = 0; j < i && !seen; j++)
				seen = va[j] >> shift == va[i] >> shift;
			if (!seen) {
				tables++;
				*bytes += geo->table_bytes[l];
			}
		}
	}
	return tables;
}
