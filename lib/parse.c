/* Unsigned number parsing. Deliberately strict about what it skips (nothing): whitespace and
 * signs mean different things to the shell, the command line and sysctl, so each caller deals
 * with them before handing the digits over. */
#include <lib/parse.h>

/* The digit's value in any base up to 36, or 36 for "not a digit". */
static unsigned digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return (unsigned)(c - '0');
	if (c >= 'a' && c <= 'z')
		return (unsigned)(c - 'a' + 10);
	if (c >= 'A' && c <= 'Z')
		return (unsigned)(c - 'A' + 10);
	return 36;
}

static bool has_hex_prefix(const char *s)
{
	return s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && digit_value(s[2]) < 16;
}

/* Resolve base 0 and skip a "0x" prefix the way strtoull does: the prefix only counts when a
 * hex digit follows it, otherwise "0x" is the number 0 followed by an 'x'. */
static const char *skip_prefix(const char *s, unsigned *base)
{
	if (*base == 0) {
		if (has_hex_prefix(s)) {
			*base = 16;
			return s + 2;
		}
		*base = s[0] == '0' ? 8 : 10;
		return s;
	}
	if (*base == 16 && has_hex_prefix(s))
		return s + 2;
	return s;
}

bool parse_u64(const char *s, const char **end, unsigned base, uint64_t *out)
{
	const char *p;
	uint64_t value = 0;
	bool overflow = false;
	unsigned d;

	if (base == 1 || base > 36) {
		if (end)
			*end = s;
		*out = 0;
		return false;
	}
	p = skip_prefix(s, &base);
	if (digit_value(*p) >= base) {
		if (end)
			*end = s;
		*out = 0;
		return false;
	}
	/* Multiply and add with overflow detection instead of comparing against UINT64_MAX / base:
	 * no 64-bit division, which 32-bit targets would have to call libgcc for. */
	for (; (d = digit_value(*p)) < base; p++) {
		if (overflow)
			continue;
		if (__builtin_mul_overflow(value, (uint64_t)base, &value) ||
		    __builtin_add_overflow(value, (uint64_t)d, &value))
			overflow = true;
	}
	if (end)
		*end = p;
	*out = overflow ? UINT64_MAX : value;
	return !overflow;
}

bool parse_u64_full(const char *s, unsigned base, uint64_t *out)
{
	const char *end;

	return parse_u64(s, &end, base, out) && *end == '\0';
}
