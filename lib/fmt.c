/* printf-style formatting for kernel and user code. One streaming core (vcbprintf) with a sink
 * callback; vsnprintf is a sink that fills a buffer. Conversions follow C99 (the host tests check
 * them against the C library).
 *
 * Why it is shaped the way it is: the boot prints through here, and under QEMU's TCG every
 * distinct basic block executed costs a translation (several microseconds), far more than the
 * instructions in it. So the paths the kernel uses are kept branch-light: characters after '%'
 * are classified by table look-ups instead of chains of compares, each conversion letter maps to
 * a table row that says how to read and print it, every argument is read through one function,
 * every conversion is reduced to one "field" (padding, prefix, zeros, body, padding) that one
 * emitter writes, and the flag logic is arithmetic rather than if/else. Literal text is scanned
 * and written in one loop. */
#include <lib/fmt.h>
#include <lib/string.h>

/* Every argument is read as an unsigned integer of its size: int-sized ones as unsigned, 64-bit
 * ones as unsigned long long, then narrowed and sign-extended as the length modifier says.
 * Every ABI rndbits builds for (and the host's) passes signed and unsigned, long and long long,
 * and pointers and integers of one size alike; one read per size keeps the (on arm64 and x86_64
 * branchy) va_arg code to two copies. */
_Static_assert(sizeof(int) == 4 && sizeof(long long) == 8, "int and long long sizes");
_Static_assert(sizeof(long) == sizeof(int) || sizeof(long) == sizeof(long long), "long size");
_Static_assert(sizeof(void *) == sizeof(int) || sizeof(void *) == sizeof(long long), "pointers");

enum flag {
	F_LEFT = 1, F_ZERO = 2, F_PLUS = 4, F_SPACE = 8, F_ALT = 16,
	F_ALL = 31,
	/* Not a flag: the character starts a width or a precision (digit, '*' or '.'). */
	C_NUMERIC = 32,
};

/* What each character after '%' means before the conversion letter. '0' is a flag where
 * flags are read; later it is a digit of the width. */
static const unsigned char spec_char[256] = {
	['-'] = F_LEFT, ['0'] = F_ZERO, ['+'] = F_PLUS, [' '] = F_SPACE, ['#'] = F_ALT,
	['1'] = C_NUMERIC, ['2'] = C_NUMERIC, ['3'] = C_NUMERIC, ['4'] = C_NUMERIC,
	['5'] = C_NUMERIC, ['6'] = C_NUMERIC, ['7'] = C_NUMERIC, ['8'] = C_NUMERIC,
	['9'] = C_NUMERIC, ['*'] = C_NUMERIC, ['.'] = C_NUMERIC,
};

/* Length modifiers. hh and ll are h and l written twice, so each is its letter's code + 1.
 * LEN_PTR is no modifier: it is how %p and %s read their pointer. */
enum length {
	LEN_NONE, LEN_H, LEN_HH, LEN_L, LEN_LL, LEN_Z, LEN_J, LEN_T, LEN_PTR, LEN_COUNT
};

static const unsigned char length_of[256] = {
	['h'] = LEN_H, ['l'] = LEN_L, ['z'] = LEN_Z, ['j'] = LEN_J, ['t'] = LEN_T,
};

static const bool length_doubles[LEN_COUNT] = { [LEN_H] = true, [LEN_L] = true };

/* How an integer argument of each length is passed (64-bit or int-sized) and how many of its
 * bits are the value (hh and h arguments arrive promoted to int). */
static const struct {
	bool wide;
	unsigned char bits;
} length_arg[LEN_COUNT] = {
	[LEN_NONE] = { false, 32 },
	[LEN_H] = { false, 16 },
	[LEN_HH] = { false, 8 },
	[LEN_L] = { sizeof(long) == 8, 8 * sizeof(long) },
	[LEN_LL] = { true, 64 },
	[LEN_Z] = { sizeof(size_t) == 8, 8 * sizeof(size_t) },
	[LEN_J] = { sizeof(intmax_t) == 8, 8 * sizeof(intmax_t) },
	[LEN_T] = { sizeof(ptrdiff_t) == 8, 8 * sizeof(ptrdiff_t) },
	[LEN_PTR] = { sizeof(void *) == 8, 8 * sizeof(void *) },
};

/* The conversions, by what they read and how they print it. */
enum conv_kind {
	K_LITERAL, /* "%%", an unknown letter, or the end of the format: printed as written */
	K_INTEGER,
	K_POINTER,
	K_STRING,
	K_CHAR,
};

struct conv {
	unsigned char kind;
	unsigned char flags; /* the flags that mean something for this conversion */
	unsigned char forced_flags; /* and those it always has */
	unsigned char length; /* how its argument is read; LEN_NONE: as the spec's length says */
	bool is_signed;
	unsigned char shift; /* log2 of the base for x, X, o; 0 for decimal */
	unsigned char digit_case; /* 0 or 16: where its digits start in hex_digits */
	bool alt_zero; /* '#' makes the first digit a zero (octal) */
	char alt_prefix[2]; /* what '#' puts before a non-zero value, if anything */
};

enum conv_id {
	CONV_LITERAL, CONV_D, CONV_U, CONV_LX, CONV_UX, CONV_O, CONV_P, CONV_S, CONV_C,
	CONV_COUNT
};

static const unsigned char conv_of[256] = {
	['d'] = CONV_D, ['i'] = CONV_D, ['u'] = CONV_U, ['x'] = CONV_LX, ['X'] = CONV_UX,
	['o'] = CONV_O, ['p'] = CONV_P, ['s'] = CONV_S, ['c'] = CONV_C,
};

/* Numbers only, no pointers, in these tables: position-independent user programs must need
 * no relocations. */
static const char hex_digits[] = "0123456789abcdef0123456789ABCDEF";

static const struct conv convs[CONV_COUNT] = {
	[CONV_LITERAL] = { K_LITERAL, 0, 0, LEN_NONE, false, 0, 0, false, "" },
	[CONV_D] = { K_INTEGER, F_ALL & ~F_ALT, 0, LEN_NONE, true, 0, 0, false, "" },
	[CONV_U] = { K_INTEGER, F_LEFT | F_ZERO, 0, LEN_NONE, false, 0, 0, false, "" },
	[CONV_LX] = { K_INTEGER, F_LEFT | F_ZERO | F_ALT, 0, LEN_NONE, false, 4, 0, false, "0x" },
	[CONV_UX] = { K_INTEGER, F_LEFT | F_ZERO | F_ALT, 0, LEN_NONE, false, 4, 16, false, "0X" },
	[CONV_O] = { K_INTEGER, F_LEFT | F_ZERO | F_ALT, 0, LEN_NONE, false, 3, 0, true, "" },
	/* %p is %#x of the pointer, or "(nil)" */
	[CONV_P] = { K_POINTER, F_LEFT | F_ZERO, F_ALT, LEN_PTR, false, 4, 0, false, "0x" },
	[CONV_S] = { K_STRING, F_LEFT, 0, LEN_PTR, false, 0, 0, false, "" },
	[CONV_C] = { K_CHAR, F_LEFT, 0, LEN_NONE, false, 0, 0, false, "" },
};

struct spec {
	unsigned flags;
	int width;
	int prec; /* -1: none */
	unsigned char length;
	char conv;
};

/* What one conversion prints, left to right: padding, prefix, zeros, body, padding. Where the
 * padding goes is the spec's business (F_LEFT). */
struct field {
	char prefix[2]; /* a sign, or "0x" */
	int nprefix;
	int zeros;
	const char *body;
	int nbody;
	char buf[24]; /* the digits of an integer (22 octal digits at most), or a %c character */
};

struct sink {
	void (*out)(char c, void *ctx);
	void *ctx;
	int count;
};

static void emit_repeat(const struct sink *s, char c, int n)
{
	for (; n > 0; n--)
		s->out(c, s->ctx);
}

static void emit_text(const struct sink *s, const char *p, int n)
{
	for (; n > 0; n--)
		s->out(*p++, s->ctx);
}

/* Writes a field: padding, prefix, zeros, body, padding; the caller counts the characters. Out
 * of line (and not specialised per caller) so that all conversions share its blocks; most
 * parts are empty and cost a test. */
static __attribute__((noinline, noclone)) void emit_field_parts(const struct sink *s,
								const struct field *fl, int left,
								int right)
{
	emit_repeat(s, ' ', left);
	emit_text(s, fl->prefix, fl->nprefix);
	emit_repeat(s, '0', fl->zeros);
	emit_text(s, fl->body, fl->nbody);
	emit_repeat(s, ' ', right);
}

static int positive_part(int n)
{
	return n > 0 ? n : 0;
}

static void emit_field(struct sink *s, const struct spec *sp, const struct field *fl)
{
	int len = fl->nprefix + fl->zeros + fl->nbody;
	int pad = positive_part(sp->width - len);
	int right = sp->flags & F_LEFT ? pad : 0;

	emit_field_parts(s, fl, pad - right, right);
	s->count += len + pad;
}

/* Digits of v, most significant first, ending at end; returns how many. The base's divisor or
 * shift is chosen once, not per digit. */
static int to_digits(char *end, uint64_t v, const struct conv *c)
{
	char *p = end;

	if (c->shift == 0) {
		do {
			*--p = (char)('0' + v % 10);
			v /= 10;
		} while (v);
	} else {
		const char *digits = hex_digits + c->digit_case;
		unsigned mask = (1u << c->shift) - 1;

		do {
			*--p = digits[v & mask];
			v >>= c->shift;
		} while (v);
	}
	return (int)(end - p);
}

/* An integer argument of the given length, sign-extended to 64 bits when is_signed. */
static uint64_t integer_arg(va_list *ap, unsigned length, bool is_signed)
{
	uint64_t v = length_arg[length].wide ? va_arg(*ap, unsigned long long)
					     : va_arg(*ap, unsigned);
	unsigned bits = length_arg[length].bits;
	/* Keep the value's bits, then flip and subtract its sign bit: that sign-extends. */
	uint64_t sign_bit = (uint64_t)is_signed << (bits - 1);

	v = v << (64 - bits) >> (64 - bits);
	return (v ^ sign_bit) - sign_bit;
}

/* The sign in front of a number: '-' if negative, else what '+' or ' ' asks for ('+' wins).
 * Indexed by negative * 4 + (flags / F_PLUS & 3), i.e. by the bits negative, ' ', '+'. */
_Static_assert(F_SPACE == 2 * F_PLUS, "sign_chars index");
static const char sign_chars[8] = { 0, '+', ' ', '+', '-', '-', '-', '-' };

/* '#' and '0', apart: most conversions have neither. '#' puts "0x" ("0X") before a non-zero
 * hex value (%p always has it) and makes octal's first digit a zero; '0' pads with zeros after
 * the prefix, unless '-' or a precision says otherwise. */
static void apply_alt_and_zero(struct field *fl, const struct spec *sp, const struct conv *c,
			       uint64_t mag)
{
	bool alt = sp->flags & F_ALT;
	bool hex_prefix = alt & (mag != 0) & (c->alt_prefix[0] != 0);
	int octal_zero = alt & c->alt_zero & ((fl->nbody == 0) | (mag != 0));
	bool zero_pad = ((sp->flags & (F_ZERO | F_LEFT)) == F_ZERO) & (sp->prec < 0);

	/* A sign and "0x" never meet: only d and i have a sign, only x, X and p a prefix (whose
	 * first character is '0'). */
	fl->prefix[0] = (char)(fl->prefix[0] | (hex_prefix ? '0' : 0));
	fl->nprefix += 2 * hex_prefix;
	fl->zeros = MAX(fl->zeros, octal_zero);
	fl->zeros = MAX(fl->zeros, (zero_pad ? sp->width : 0) - fl->nprefix - fl->nbody);
}

/* The field of an integer conversion: its choices (sign, prefix, zeros) are arithmetic on the
 * flags rather than branches. */
static void format_integer(struct field *fl, const struct spec *sp, const struct conv *c,
			   uint64_t v)
{
	unsigned negative = c->is_signed & (unsigned)(v >> 63);
	/* The magnitude: v, or v negated (flipped and incremented) when negative. */
	uint64_t mag = (v ^ (0 - (uint64_t)negative)) + negative;
	char sign = sign_chars[negative * 4 + (sp->flags / F_PLUS & 3)];
	/* Zero is one digit, which an explicit zero precision drops. The digits are written into
	 * fl->buf, not read from it (cppcheck's whole-program pass thinks otherwise). */
	/* cppcheck-suppress ctuuninitvar */
	int ndigits = to_digits(fl->buf + sizeof(fl->buf), mag, c) - ((sp->prec == 0) & (mag == 0));

	fl->body = fl->buf + sizeof(fl->buf) - ndigits;
	fl->nbody = ndigits;
	fl->prefix[0] = sign;
	fl->prefix[1] = c->alt_prefix[1];
	fl->nprefix = sign != 0;
	fl->zeros = positive_part(sp->prec - ndigits);
	if (sp->flags & (F_ALT | F_ZERO))
		apply_alt_and_zero(fl, sp, c, mag);
}

/* The field of a string: the string up to its terminator or the precision. For a null string
 * glibc prints "(null)", or nothing where the precision would cut that. */
static void format_string(struct field *fl, const struct spec *sp, const char *str)
{
	static const char null_string[] = "(null)";
	const char *null_text = (unsigned)sp->prec < sizeof(null_string) - 1 ? "" : null_string;

	fl->body = str ? str : null_text;
	/* strlen where no precision is given: faster, and the boot runs it anyway. */
	fl->nbody = (int)(sp->prec < 0 ? strlen(fl->body) : strnlen(fl->body, (size_t)sp->prec));
}

/* %c, %p of a null pointer ("(nil)"), and "%%", an unknown conversion (printed as written: '%'
 * and its letter) or a '%' that ends the format (prints nothing), which are not padded. */
static void format_other(struct field *fl, struct spec *sp, const struct conv *c, uint64_t arg)
{
	if (c->kind == K_CHAR) {
		fl->buf[0] = (char)arg;
		fl->body = fl->buf;
		fl->nbody = 1;
	} else if (c->kind == K_POINTER) {
		fl->body = "(nil)";
		fl->nbody = 5;
	} else {
		fl->buf[0] = '%';
		fl->buf[1] = sp->conv;
		fl->body = sp->conv == '%' ? fl->buf + 1 : fl->buf;
		fl->nbody = sp->conv == '%' ? 1 : sp->conv ? 2 : 0;
		sp->width = 0;
	}
}

static void format_conversion(struct sink *s, struct spec *sp, va_list *ap)
{
	const struct conv *c = &convs[conv_of[(unsigned char)sp->conv]];
	struct field fl;
	uint64_t arg = 0;

	sp->flags = (sp->flags & c->flags) | c->forced_flags;
	fl.nprefix = 0;
	fl.zeros = 0;
	if (c->kind != K_LITERAL)
		arg = integer_arg(ap, c->length ? c->length : sp->length, c->is_signed);
	/* A null %p prints "(nil)", with the odd ones out. */
	if ((c->kind == K_INTEGER) | ((c->kind == K_POINTER) & (arg != 0)))
		format_integer(&fl, sp, c, arg);
	else if (c->kind == K_STRING)
		format_string(&fl, sp, (const char *)(uintptr_t)arg);
	else
		format_other(&fl, sp, c, arg);
	emit_field(s, sp, &fl);
}

/* Widths and precisions are held below this, so that no sum of them overflows an int (nobody
 * asks for a billion spaces on purpose; glibc refuses such formats). */
#define COUNT_MAX (__INT_MAX__ / 4)

static int clamp_count(uint64_t n)
{
	return n < COUNT_MAX ? (int)n : COUNT_MAX;
}

/* A width or precision written in digits. */
static const char *parse_count(const char *f, int *count)
{
	uint64_t n = 0;

	for (; *f >= '0' && *f <= '9'; f++) {
		n = n * 10 + (unsigned)(*f - '0');
		n = MIN(n, (uint64_t)COUNT_MAX);
	}
	*count = clamp_count(n);
	return f;
}

/* Width and precision, from digits or "*" (a negative width argument means '-', a negative
 * precision none). */
static const char *parse_width_precision(const char *f, struct spec *sp, va_list *ap)
{
	if (*f == '*') {
		int64_t width = (int64_t)integer_arg(ap, LEN_NONE, true);

		if (width < 0)
			sp->flags |= F_LEFT;
		sp->width = clamp_count((uint64_t)(width < 0 ? -width : width));
		f++;
	} else {
		f = parse_count(f, &sp->width);
	}
	if (*f != '.')
		return f;
	f++;
	if (*f == '*') {
		int64_t prec = (int64_t)integer_arg(ap, LEN_NONE, true);

		sp->prec = prec < 0 ? -1 : clamp_count((uint64_t)prec);
		return f + 1;
	}
	return parse_count(f, &sp->prec);
}

/* Parse flags, width, precision and length after a '%'; returns the position of the
 * conversion letter. A bare "%s" or "%llu" takes one branch here: no flags, width, precision. */
static const char *parse_spec(const char *f, struct spec *sp, va_list *ap)
{
	unsigned bits;

	sp->flags = 0;
	sp->width = 0;
	sp->prec = -1;
	if (spec_char[(unsigned char)*f]) {
		while ((bits = spec_char[(unsigned char)*f] & F_ALL) != 0) {
			sp->flags |= bits;
			f++;
		}
		if (spec_char[(unsigned char)*f] & C_NUMERIC)
			f = parse_width_precision(f, sp, ap);
	}
	/* A length letter, maybe doubled (hh, ll); never a branch. */
	unsigned length = length_of[(unsigned char)*f];
	f += length != 0;
	unsigned twice = length_doubles[length] & (*f == f[-1]);
	sp->length = (unsigned char)(length + twice);
	f += twice;
	sp->conv = *f;
	return f;
}

int vcbprintf(void (*out)(char c, void *ctx), void *ctx, const char *fmt, va_list ap_in)
{
	struct sink s = { out, ctx, 0 };
	struct spec sp;
	va_list ap;
	const char *f = fmt;

	va_copy(ap, ap_in);
	for (;;) {
		/* Literal text: scanned and written in one pass. */
		const char *text = f;

		for (; *f && *f != '%'; f++)
			out(*f, ctx);
		s.count += (int)(f - text);
		if (!*f)
			break;
		f = parse_spec(f + 1, &sp, &ap);
		format_conversion(&s, &sp, &ap);
		/* Past the conversion letter, but not past the terminator after a lone '%'. */
		f += *f != '\0';
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
