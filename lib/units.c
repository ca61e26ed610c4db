/* Sizes and durations in the unit a reader expects (include/lib/units.h). */
#include <lib/fmt.h>
#include <lib/units.h>

/* value / unit to one decimal, rounded half up, without overflowing for values near 2^64. */
static void tenths(char *buf, size_t n, uint64_t value, uint64_t unit, const char *name)
{
	uint64_t whole = value / unit, rest = value % unit;
	/* rest < unit <= 2^60, so rest * 10 cannot overflow; the carry is folded into whole. */
	uint64_t tenth = (rest * 10 + unit / 2) / unit;

	if (tenth == 10) {
		whole++;
		tenth = 0;
	}
	snprintf(buf, n, "%llu.%llu %s", (unsigned long long)whole, (unsigned long long)tenth, name);
}

void units_bytes(char *buf, size_t n, uint64_t bytes)
{
	static const char *const names[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	unsigned i = 0;

	if (bytes < 1024) {
		snprintf(buf, n, "%llu bytes", (unsigned long long)bytes);
		return;
	}
	/* The largest unit not above the value: 1 KiB << 10 i; and the next one up where the
	 * value rounds to 1024.0 of this one (1 MiB - 1 byte reads "1.0 MiB"). */
	while (i + 1 < sizeof(names) / sizeof(names[0]) && bytes >> (10 * (i + 2)) != 0)
		i++;
	uint64_t unit = 1ULL << (10 * (i + 1));
	if (i + 1 < sizeof(names) / sizeof(names[0]) && (bytes * 10 + unit / 2) / unit >= 10240 &&
	    bytes < (~0ULL) / 10) {
		i++;
		unit <<= 10;
	}
	tenths(buf, n, bytes, unit, names[i]);
}

void units_duration(char *buf, size_t n, uint64_t tenths_of_s)
{
	/* In tenths of a second: from is where a unit starts being used. */
	static const struct { const char *name; uint64_t tenths, from; } units[] = {
		{ "years", 315576000, 315576000 }, { "days", 864000, 3 * 864000 },
		{ "hours", 36000, 36000 }, { "minutes", 600, 600 }, { "seconds", 10, 0 },
	};
	for (unsigned i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (tenths_of_s >= units[i].from) {
			tenths(buf, n, tenths_of_s, units[i].tenths, units[i].name);
			return;
		}
	}
}
