/* The C library's number parsing and program break calls, on top of lib/parse.c and sys_brk. */
#include <user.h>

#define ULONG_MAX (~0UL)

static bool is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* strtoul as C specifies it: leading white space, an optional sign (a '-' negates the result
 * modulo ULONG_MAX + 1), base 0 or 2..36; ERANGE and ULONG_MAX on overflow. parse_u64 does the
 * digits, without the sign and white space handling it leaves to its callers. */
unsigned long strtoul(const char *s, char **end, int base)
{
	const char *p = s, *digits_end;
	bool negative = false;
	uint64_t v;
	bool ok;

	while (is_space(*p))
		p++;
	if (*p == '+' || *p == '-')
		negative = *p++ == '-';
	if (base < 0) {
		errno = EINVAL;
		if (end)
			*end = (char *)s;
		return 0;
	}
	ok = parse_u64(p, &digits_end, (unsigned)base, &v);
	if (digits_end == p) { /* no digits at all: nothing consumed, not even the sign */
		if (end)
			*end = (char *)s;
		return 0;
	}
	if (end)
		*end = (char *)digits_end;
	if (!ok || (unsigned long)v != v) {
		errno = ERANGE;
		return ULONG_MAX;
	}
	return negative ? -(unsigned long)v : (unsigned long)v;
}

/* Linux's brk returns the break it ended up with; the C library turns a refusal into ENOMEM. */
int brk(void *addr)
{
	if (sys_brk((unsigned long)(uintptr_t)addr) != (unsigned long)(uintptr_t)addr) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void *sbrk(long increment)
{
	unsigned long old = sys_brk(0);

	if (increment == 0)
		return (void *)(uintptr_t)old;
	if (brk((void *)(uintptr_t)(old + (unsigned long)increment)) < 0)
		return (void *)-1;
	return (void *)(uintptr_t)old;
}
