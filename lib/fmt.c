/* printf-style formatting for kernel and user code. One streaming core (vcbprintf) hands each
 * character to a sink callback; vsnprintf is a sink that fills a buffer. Conversions follow C99
 * (the host tests check them against the C library). parse_spec reads what follows a '%' up to
 * the conversion letter, format_conversion switches on that letter, reads the argument and
 * prints it as one field: [spaces] [prefix: sign or "0x"] [zeros] [text] [spaces with '-']. */
#include <lib/fmt.h>
#include <lib/string.h>

/* '-' pads on the right, '0' pads numbers with zeros after the sign, '#' puts "0x" before hex
 * and a 0 before octal, '+' a sign before positive numbers, ' ' a space in its place. */
enum flag { F_LEFT = 1, F_ZERO = 2, F_ALT = 4, F_PLUS = 8, F_SPACE = 16 };

enum length { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_Z, LEN_J, LEN_T };

struct spec {
	unsigned flags;
	int width, prec; /* no width: 0; no precision: -1 */
	enum length length;
};

struct sink {
	void (*out)(char c, void *ctx);
	void *ctx;
	int count;
};

static void put(struct sink *s, char c)
{
	s->out(c, s->ctx);
	s->count++;
}

/* n characters from p; with step 0, n times the character *p. */
static void put_chars(struct sink *s, const char *p, int step, int n)
{
	for (; n > 0; n--, p += step)
		put(s, *p);
}

/* One field: prefix, zeros and text, padded with spaces to the width (on the left, or on the
 * right with '-'). */
static void put_field(struct sink *s, const struct spec *sp, const char *prefix, int zeros,
		      const char *text, int len)
{
	int nprefix = (int)strlen(prefix);
	int pad = sp->width - nprefix - zeros - len;

	if (!(sp->flags & F_LEFT))
		put_chars(s, " ", 0, pad);
	put_chars(s, prefix, 1, nprefix);
	put_chars(s, "0", 0, zeros);
	put_chars(s, text, 1, len);
	if (sp->flags & F_LEFT)
		put_chars(s, " ", 0, pad);
}

/* An integer argument of the spec's length, zero- or sign-extended to 64 bits. Arguments
 * shorter than int arrive promoted to int and are cut back to their type. */
static uint64_t integer_arg(va_list *ap, enum length length, bool is_signed)
{
	int promoted;

	switch (length) {
	case LEN_HH:
		promoted = va_arg(*ap, int);
		return is_signed ? (uint64_t)(signed char)promoted : (unsigned char)promoted;
	case LEN_H:
		promoted = va_arg(*ap, int);
		return is_signed ? (uint64_t)(short)promoted : (unsigned short)promoted;
	case LEN_L:
		return is_signed ? (uint64_t)va_arg(*ap, long) : va_arg(*ap, unsigned long);
	case LEN_LL:
		return va_arg(*ap, unsigned long long);
	case LEN_Z:
	case LEN_T:
		return is_signed ? (uint64_t)va_arg(*ap, ptrdiff_t) : va_arg(*ap, size_t);
	case LEN_J:
		return va_arg(*ap, uintmax_t);
	default:
		return is_signed ? (uint64_t)va_arg(*ap, int) : va_arg(*ap, unsigned);
	}
}

/* Writes the digits of v backwards from end and returns the first. Values that fit in 32 bits
 * take 32-bit arithmetic: 32-bit ARM has no divide instruction, and the library routine that
 * divides 64-bit values (__aeabi_uldivmod) is slow. There, hex and octal digits are groups of 4
 * and 3 bits, and GCC turns the division by the constant 10 into a multiplication. */
static char *to_digits(char *end, uint64_t v, unsigned base, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char *p = end;
	uint32_t v32;

	while (v > UINT32_MAX) {
		*--p = digits[v % base];
		v /= base;
	}
	v32 = (uint32_t)v;
	do {
		if (base == 10) {
			*--p = digits[v32 % 10];
			v32 /= 10;
		} else {
			*--p = digits[v32 & (base - 1)];
			v32 >>= base == 16 ? 4 : 3;
		}
	} while (v32 != 0);
	return p;
}

/* An integer: its digits, with at least the precision's count of them (zeros in front); a zero
 * precision prints no digit for zero. The prefix (a sign, or "0x" from '#') comes before the
 * zeros. With '0', and neither '-' nor a precision, zeros fill the width. */
static void put_integer(struct sink *s, const struct spec *sp, uint64_t v, unsigned base,
			bool upper, const char *prefix)
{
	char buf[22]; /* 64 bits are at most 22 octal digits */
	char *end = buf + sizeof(buf);
	char *digits = to_digits(end, v, base, upper);
	int ndigits = (int)(end - digits);
	int zeros;

	if (sp->prec == 0 && v == 0)
		ndigits = 0;
	zeros = sp->prec > ndigits ? sp->prec - ndigits : 0;
	/* Octal's '#' makes the first digit a zero, if it is not one already. */
	if ((sp->flags & F_ALT) && base == 8 && zeros == 0 && (ndigits == 0 || *digits != '0'))
		zeros = 1;
	if ((sp->flags & (F_ZERO | F_LEFT)) == F_ZERO && sp->prec < 0)
		zeros = MAX(zeros, sp->width - (int)strlen(prefix) - ndigits);
	put_field(s, sp, prefix, zeros, end - ndigits, ndigits);
}

/* One conversion: the argument it reads and what it prints. As in the C library, '+' and ' '
 * count for d and i only, '#' for x, X and o, '0' for numbers, the precision for them and %s. */
static void format_conversion(struct sink *s, struct spec *sp, char conv, va_list *ap)
{
	const char *prefix = "", *str;
	uint64_t v;
	char c;
	int len;

	switch (conv) {
	case 'd':
	case 'i':
		v = integer_arg(ap, sp->length, true);
		prefix = (int64_t)v < 0 ? "-" : sp->flags & F_PLUS ? "+" : sp->flags & F_SPACE ? " " : "";
		put_integer(s, sp, (int64_t)v < 0 ? 0 - v : v, 10, false, prefix);
		break;
	case 'u':
	case 'o':
		put_integer(s, sp, integer_arg(ap, sp->length, false), conv == 'u' ? 10 : 8, false, "");
		break;
	case 'x':
	case 'X':
		v = integer_arg(ap, sp->length, false);
		if ((sp->flags & F_ALT) && v != 0)
			prefix = conv == 'X' ? "0X" : "0x";
		put_integer(s, sp, v, 16, conv == 'X', prefix);
		break;
	case 'p':
		/* %#x of the pointer; glibc's "(nil)", a plain string, for a null one. */
		v = (uintptr_t)va_arg(*ap, void *);
		if (v != 0)
			put_integer(s, sp, v, 16, false, "0x");
		else
			put_field(s, sp, "", 0, "(nil)", 5);
		break;
	case 's':
		/* glibc's "(null)" for a null string, or nothing where the precision would cut it */
		str = va_arg(*ap, const char *);
		if (!str)
			str = sp->prec >= 0 && sp->prec < 6 ? "" : "(null)";
		len = (int)(sp->prec >= 0 ? strnlen(str, (size_t)sp->prec) : strlen(str));
		put_field(s, sp, "", 0, str, len);
		break;
	case 'c':
		c = (char)integer_arg(ap, sp->length, false); /* even a NUL */
		put_field(s, sp, "", 0, &c, 1);
		break;
	case '\0':
		break; /* a '%' that ends the format prints nothing */
	default:
		/* "%%" is a '%'; an unknown conversion is printed as written, '%' and its letter. */
		put(s, '%');
		if (conv != '%')
			put(s, conv);
		break;
	}
}

/* Widths and precisions are held below this, so that no sum of them overflows an int. */
#define COUNT_MAX (__INT_MAX__ / 4)

/* A width or precision: digits, or "*" to take an int argument. */
static const char *parse_count(const char *f, int64_t *count, va_list *ap)
{
	int64_t n = 0;

	if (*f == '*') {
		*count = va_arg(*ap, int);
		return f + 1;
	}
	for (; *f >= '0' && *f <= '9'; f++)
		n = MIN(n * 10 + (*f - '0'), (int64_t)COUNT_MAX);
	*count = n;
	return f;
}

/* Flags, width, precision and length modifier after a '%'; returns where the conversion letter
 * is. A negative "*" width means '-' and its size, a negative "*" precision none. */
static const char *parse_spec(const char *f, struct spec *sp, va_list *ap)
{
	static const char flag_chars[] = "-0#+ "; /* in the order of their bits in enum flag */
	const char *flag;
	int64_t n;

	for (sp->flags = 0; *f && (flag = strchr(flag_chars, *f)) != NULL; f++)
		sp->flags |= 1u << (flag - flag_chars);
	f = parse_count(f, &n, ap);
	if (n < 0) {
		sp->flags |= F_LEFT;
		n = -n;
	}
	sp->width = (int)MIN(n, (int64_t)COUNT_MAX);
	sp->prec = -1;
	if (*f == '.') {
		f = parse_count(f + 1, &n, ap);
		sp->prec = n < 0 ? -1 : (int)MIN(n, (int64_t)COUNT_MAX);
	}
	sp->length = LEN_NONE;
	if (*f == 'h' || *f == 'l') {
		bool twice = f[1] == *f; /* hh, ll */

		sp->length = *f == 'h' ? (twice ? LEN_HH : LEN_H) : (twice ? LEN_LL : LEN_L);
		f += twice ? 2 : 1;
	} else if (*f == 'z' || *f == 'j' || *f == 't') {
		sp->length = *f == 'z' ? LEN_Z : *f == 'j' ? LEN_J : LEN_T;
		f++;
	}
	return f;
}

int vcbprintf(void (*out)(char c, void *ctx), void *ctx, const char *fmt, va_list ap_in)
{
	struct sink s = { out, ctx, 0 };
	struct spec sp;
	va_list ap;
	const char *f = fmt;

	va_copy(ap, ap_in);
	while (*f) {
		if (*f != '%') {
			put(&s, *f++);
			continue;
		}
		f = parse_spec(f + 1, &sp, &ap);
		format_conversion(&s, &sp, *f, &ap);
		if (*f)
			f++; /* past the conversion letter, not past the end */
	}
	va_end(ap);
	return s.count;
}

struct buf_sink {
	char *buf;
	size_t size;
	size_t pos;
};

static void buf_out(char c, void *ctx)
{
	struct buf_sink *b = ctx;

	if (b->pos + 1 < b->size)
		b->buf[b->pos] = c;
	b->pos++;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct buf_sink b = { buf, size, 0 };
	int n = vcbprintf(buf_out, &b, fmt, ap);

	if (size)
		buf[b.pos < size ? b.pos : size - 1] = '\0';
	return n;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
