/* One preset's configuration as its generated config.h states it (preset_limits.c is compiled
 * once per preset with that preset's config.h force-included). */
#ifndef RNDBITS_HOST_PRESET_LIMITS_H
#define RNDBITS_HOST_PRESET_LIMITS_H

#include <stdbool.h>

struct preset_limits {
	const char *preset;
	const char *isa;
	int bits;
	int page_shift;
	int va_bits;               /* 0 when config.h has none */
	unsigned long long page_offset; /* 0 when config.h has none */
	int rnd_min, rnd_max, rnd_default;
	bool compat;
	int compat_min, compat_max, compat_default;
};

#endif
