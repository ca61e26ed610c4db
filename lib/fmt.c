/* printf-style formatting for kernel and user code. One streaming core (vcbprintf) with a sink
 * callback; vsnprintf is a sink that fills a buffer. Conversions follow C99 (the host tests check
 * them against the C library). */
#include <lib/fmt.h>
#include <lib/string.h>

enum {
	F_LEFT = 1, F_ZERO = 2, F_PLUS = 4, F_SPACE = 8, F_ALT = 16,
};

struct spec {
	unsigned flags;
	int width;
	int prec; /* -1: none */
	char length; /* 'H' hh, 'h', 'l', 'L' ll, 'z', 'j', 't', 0 */
	char conv;
};

struct sink {
	void (*out)(char c, void *ctx);
	void *ctx;
	int count;
};

static void emit(struct sink *s, char c)
{
	s->out(c, s->ctx);
	s->count++;
}

static void emit_repeat(struct sink *s, char c, int n)
{
	while (n-- > 0)
		emit(s, c);
}

static void emit_str(struct sink *s, const char *p, int n)
{
	while (n-- > 0)
		emit(s, *p++);
}

/* Digits of v in base, least significant first; returns how many. */
static int to_digits(char *buf, uint64_t v, unsigned base, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	int n = 0;

	do {
		unsigned d;
		if (base == 16) {
			d = v & 15;
			v >>= 4;
		} else if (base == 8) {
			d = v & 7;
			v >>= 3;
		} else {
			d = (unsigned)(v % 10);
			v /= 10;
		}
		buf[n++] = digits[d];
	} while (v);
	return n;
}

static void format_integer(struct sink *s, const struct spec *sp, uint64_t mag, bool negative,
			   unsigned base)
{
	char digits[24];
	char prefix[3];
	int nprefix = 0, ndigits;

	if (sp->prec == 0 && mag == 0)
		ndigits = 0;
	else
		ndigits = to_digits(digits, mag, base, sp->conv == 'X');

	if (negative)
		prefix[nprefix++] = '-';
	else if (sp->flags & F_PLUS && (sp->conv == 'd' || sp->conv == 'i'))
		prefix[nprefix++] = '+';
	else if (sp->flags & F_SPACE && (sp->conv == 'd' || sp->conv == 'i'))
		prefix[nprefix++] = ' ';
	if (sp->flags & F_ALT && base == 16 && mag != 0) {
		prefix[nprefix++] = '0';
		prefix[nprefix++] = sp->conv == 'X' ? 'X' : 'x';
	}

	int zeros = sp->prec > ndigits ? sp->prec - ndigits : 0;
	/* '#' with 'o' forces a leading zero digit, by raising the precision if needed. */
	if (sp->flags & F_ALT && base == 8 && zeros == 0 && (ndigits == 0 || digits[ndigits - 1] != '0'))
		zeros = 1;
	int body = nprefix + zeros + ndigits;
	int pad = sp->width > body ? sp->width - body : 0;

	if (sp->flags & F_ZERO && !(sp->flags & F_LEFT) && sp->prec < 0) {
		zeros += pad;
		pad = 0;
	}
	if (!(sp->flags & F_LEFT))
		emit_repeat(s, ' ', pad);
	emit_str(s, prefix, nprefix);
	emit_repeat(s, '0', zeros);
	while (ndigits--)
		emit(s, digits[ndigits]);
	if (sp->flags & F_LEFT)
		emit_repeat(s, ' ', pad);
}

static void format_string(struct sink *s, const struct spec *sp, const char *str)
{
	int len;

	if (!str)
		str = (sp->prec >= 0 && sp->prec < 6) ? "" : "(null)";
	len = sp->prec >= 0 ? (int)strnlen(str, (size_t)sp->prec) : (int)strlen(str);
	int pad = sp->width > len ? sp->width - len : 0;
	if (!(sp->flags & F_LEFT))
		emit_repeat(s, ' ', pad);
	emit_str(s, str, len);
	if (sp->flags & F_LEFT)
		emit_repeat(s, ' ', pad);
}

static int64_t signed_arg(const struct spec *sp, va_list *ap)
{
	switch (sp->length) {
	case 'H': return (signed char)va_arg(*ap, int);
	case 'h': return (short)va_arg(*ap, int);
	case 'l': return va_arg(*ap, long);
	case 'L': return va_arg(*ap, long long);
	case 'z': return (int64_t)va_arg(*ap, ptrdiff_t); /* ssize_t has ptrdiff_t's width here */
	case 'j': return va_arg(*ap, intmax_t);
	case 't': return va_arg(*ap, ptrdiff_t);
	default: return va_arg(*ap, int);
	}
}

static uint64_t unsigned_arg(const struct spec *sp, va_list *ap)
{
	switch (sp->length) {
	case 'H': return (unsigned char)va_arg(*ap, unsigned);
	case 'h': return (unsigned short)va_arg(*ap, unsigned);
	case 'l': return va_arg(*ap, unsigned long);
	case 'L': return va_arg(*ap, unsigned long long);
	case 'z': return va_arg(*ap, size_t);
	case 'j': return va_arg(*ap, uintmax_t);
	case 't': return (uint64_t)va_arg(*ap, ptrdiff_t);
	default: return va_arg(*ap, unsigned);
	}
}

/* Parse flags, width, precision and length after a '%'; returns the position after them. */
static const char *parse_spec(const char *f, struct spec *sp, va_list *ap)
{
	sp->flags = 0;
	for (;; f++) {
		if (*f == '-') sp->flags |= F_LEFT;
		else if (*f == '0') sp->flags |= F_ZERO;
		else if (*f == '+') sp->flags |= F_PLUS;
		else if (*f == ' ') sp->flags |= F_SPACE;
		else if (*f == '#') sp->flags |= F_ALT;
		else break;
	}
	sp->width = 0;
	if (*f == '*') {
		sp->width = va_arg(*ap, int);
		if (sp->width < 0) {
			sp->flags |= F_LEFT;
			sp->width = -sp->width;
		}
		f++;
	} else {
		while (*f >= '0' && *f <= '9')
			sp->width = sp->width * 10 + (*f++ - '0');
	}
	sp->prec = -1;
	if (*f == '.') {
		f++;
		sp->prec = 0;
		if (*f == '*') {
			sp->prec = va_arg(*ap, int);
			if (sp->prec < 0)
				sp->prec = -1;
			f++;
		} else {
			while (*f >= '0' && *f <= '9')
				sp->prec = sp->prec * 10 + (*f++ - '0');
		}
	}
	sp->length = 0;
	if (f[0] == 'h' && f[1] == 'h') { sp->length = 'H'; f += 2; }
	else if (f[0] == 'l' && f[1] == 'l') { sp->length = 'L'; f += 2; }
	else if (*f == 'h' || *f == 'l' || *f == 'z' || *f == 'j' || *f == 't') sp->length = *f++;
	sp->conv = *f;
	return f;
}

int vcbprintf(void (*out)(char c, void *ctx), void *ctx, const char *fmt, va_list ap_in)
{
	struct sink s = { out, ctx, 0 };
	struct spec sp;
	va_list ap;

	va_copy(ap, ap_in);
	for (const char *f = fmt; *f; f++) {
		if (*f != '%') {
			emit(&s, *f);
			continue;
		}
		f = parse_spec(f + 1, &sp, &ap);
		switch (sp.conv) {
		case 'd':
		case 'i': {
			int64_t v = signed_arg(&sp, &ap);
			uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
			format_integer(&s, &sp, mag, v < 0, 10);
			break;
		}
		case 'u': format_integer(&s, &sp, unsigned_arg(&sp, &ap), false, 10); break;
		case 'x':
		case 'X': format_integer(&s, &sp, unsigned_arg(&sp, &ap), false, 16); break;
		case 'o': format_integer(&s, &sp, unsigned_arg(&sp, &ap), false, 8); break;
		case 'p': {
			void *p = va_arg(ap, void *);
			if (!p) {
				sp.prec = -1;
				format_string(&s, &sp, "(nil)");
				break;
			}
			sp.flags |= F_ALT;
			sp.conv = 'x';
			format_integer(&s, &sp, (uintptr_t)p, false, 16);
			break;
		}
		case 'c': {
			char c = (char)va_arg(ap, int);
			int pad = sp.width > 1 ? sp.width - 1 : 0;
			if (!(sp.flags & F_LEFT))
				emit_repeat(&s, ' ', pad);
			emit(&s, c);
			if (sp.flags & F_LEFT)
				emit_repeat(&s, ' ', pad);
			break;
		}
		case 's': format_string(&s, &sp, va_arg(ap, const char *)); break;
		case '%': emit(&s, '%'); break;
		case '\0': f--; break; /* a lone '%' at the end prints nothing */
		default: /* unknown conversion: print it as written */
			emit(&s, '%');
			emit(&s, sp.conv);
			break;
		}
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
