/* Linux's proc_dointvec_minmax write rules for one int, as a pure function so the host tests
 * can hold it to a table of quirks. What Linux does (kernel/sysctl.c, __do_proc_dointvec):
 * - at most PAGE_SIZE - 1 (4095) bytes of a write are considered;
 * - isspace() characters before the number are skipped; nothing else (only whitespace) -> EINVAL;
 * - an optional '-' (only if more follows), then a digit is required ('+' is not accepted);
 * - the number is read in base 0 (0x.. hex, 0.. octal) from a 21-byte copy: 21 characters of
 *   number mean "too long" -> EINVAL, and overflow of unsigned long -> EINVAL;
 * - the character after the number must be ' ', '\t' or '\n' (not '\r', not NUL) or the end;
 * - the value must fit an int (-2^31 allowed) and lie in [min, max];
 * - with one int, a second number after whitespace is left unread: the write succeeds with the
 *   bytes consumed so far (the number and the whitespace after it). */
#include <lib/errno.h>
#include <lib/fmt.h>
#include <lib/parse.h>
#include <lib/string.h>
#include <kernel/sysctl.h>

#define DOINTVEC_MAX_INPUT 4095 /* PAGE_SIZE - 1 */
#define DOINTVEC_TMPBUF 22      /* TMPBUFLEN: 21 characters and a NUL */

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static bool is_separator(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

static size_t skip_spaces(const char *buf, size_t pos, size_t len)
{
	while (pos < len && is_space(buf[pos]))
		pos++;
	return pos;
}

/* Parse one possibly negative number at buf[0..len); returns its length or -EINVAL. */
static long get_long(const char *buf, size_t len, uint64_t *magnitude, bool *negative)
{
	char tmp[DOINTVEC_TMPBUF];
	size_t n = len < DOINTVEC_TMPBUF - 1 ? len : DOINTVEC_TMPBUF - 1;
	const char *p = tmp, *end;

	memcpy(tmp, buf, n);
	tmp[n] = '\0';
	*negative = tmp[0] == '-' && len > 1;
	if (*negative)
		p++;
	if (*p < '0' || *p > '9')
		return -EINVAL;
	if (!parse_u64(p, &end, 0, magnitude))
		return -EINVAL;
	/* The kernel parses into an unsigned long; on a 32-bit kernel more than 32 bits overflow,
	 * on a 64-bit one the int range check below refuses them. Either way: EINVAL. */
	size_t used = (size_t)(end - tmp);
	if (used == DOINTVEC_TMPBUF - 1)
		return -EINVAL;
	if (used < len && !is_separator(tmp[used]))
		return -EINVAL;
	return (long)used;
}

long dointvec_minmax_parse(const char *buf, size_t len, int min, int max, int *value)
{
	uint64_t magnitude;
	bool negative;
	int64_t v;

	if (len > DOINTVEC_MAX_INPUT)
		len = DOINTVEC_MAX_INPUT;
	size_t pos = skip_spaces(buf, 0, len);
	if (pos == len)
		return -EINVAL;
	long used = get_long(buf + pos, len - pos, &magnitude, &negative);
	if (used < 0)
		return used;
	if (negative) {
		if (magnitude > (uint64_t)INT32_MAX + 1)
			return -EINVAL;
		v = -(int64_t)magnitude;
	} else {
		if (magnitude > INT32_MAX)
			return -EINVAL;
		v = (int64_t)magnitude;
	}
	if (v < min || v > max)
		return -EINVAL;
	*value = (int)v;
	pos = skip_spaces(buf, pos + (size_t)used, len);
	return (long)pos;
}

long proc_dointvec_minmax(const struct sysctl_entry *e, bool write, char *buf, size_t len)
{
	if (!write)
		return snprintf(buf, len, "%d\n", *e->data);
	if (len == 0)
		return 0; /* an empty write changes nothing and succeeds, as in Linux */
	int value;
	long used = dointvec_minmax_parse(buf, len, e->min, e->max, &value);
	if (used >= 0)
		*e->data = value;
	return used;
}
