/* printf-style formatting for kernel and user code. One streaming core (vcbprintf) with a sink
 * callback; vsnprintf is a sink that fills a buffer. Conversions follow C99 (the host tests check
 * them against the C library).
 *
 * Why it is shaped the way it is: the boot prints through here, and under QEMU's TCG the first
 * run of any code costs a translation (most of a microsecond per instruction, a few per block),
 * far more than running it. So the code the boot runs is short: characters after '%' are
 * classified by table look-ups, each conversion letter maps to a table row that says how to
 * read and print it, every argument is read through one function, and a conversion with no
 * flags, width or precision (all the boot uses) is written by the same loop as the literal text
 * around it, straight from its digits or its string. Signs and prefixes wait behind one test of
 * the flags, zeros and padding are out of line: the boot translates neither. */
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
	F_LEFT = 1, F_ZERO = 2, F_ALT = 4, F_PLUS = 8, F_SPACE = 16,
	F_ALL = 31,
	/* Not characters: the value is negative (beside '+' and ' ', which it overrides: the three
	 * index sign_chars), the spec has a (non-zero) width, a precision. They are kept with the
	 * flags so that one test tells a bare conversion ("%s", "%llu") from one that needs more. */
	F_NEGATIVE = 32, F_WIDTH = 64, F_PREC = 128,
	F_COUNTS = F_WIDTH | F_PREC,
};

/* In spec_char only, beside the flag characters' F_ALL bits: the character starts a width or a
 * precision (digit, '*' or '.'). */
#define C_NUMERIC 32

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
	/* What '#' puts before a non-zero value: "0x", "0X", or octal's "0" (which makes the first
	 * digit a zero, so the precision's zeros may stand in for it). */
	char alt_prefix[2];
	bool alt_zero; /* octal: '#' asks for a first zero */
} __aligned(16); /* a table row is found with a shift */

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

/* What every integer conversion takes: '-', '0', a width, a precision. */
#define F_INTEGER (F_LEFT | F_ZERO | F_COUNTS)
static const struct conv convs[CONV_COUNT] = {
	[CONV_LITERAL] = { K_LITERAL, 0, 0, LEN_NONE, false, 0, 0, "", false },
	[CONV_D] = { K_INTEGER, F_INTEGER | F_PLUS | F_SPACE, 0, LEN_NONE, true, 0, 0, "", false },
	[CONV_U] = { K_INTEGER, F_INTEGER, 0, LEN_NONE, false, 0, 0, "", false },
	[CONV_LX] = { K_INTEGER, F_INTEGER | F_ALT, 0, LEN_NONE, false, 4, 0, "0x", false },
	[CONV_UX] = { K_INTEGER, F_INTEGER | F_ALT, 0, LEN_NONE, false, 4, 16, "0X", false },
	[CONV_O] = { K_INTEGER, F_INTEGER | F_ALT, 0, LEN_NONE, false, 3, 0, "0", true },
	/* %p is %#x of the pointer, or "(nil)" */
	[CONV_P] = { K_POINTER, F_INTEGER, F_ALT, LEN_PTR, false, 4, 0, "0x", false },
	[CONV_S] = { K_STRING, F_LEFT | F_COUNTS, 0, LEN_PTR, false, 0, 0, "", false },
	[CONV_C] = { K_CHAR, F_LEFT | F_WIDTH, 0, LEN_NONE, false, 0, 0, "", false },
};

struct spec {
	unsigned flags;
	int width;
	int prec; /* -1: none */
	unsigned char length;
	char conv;
};

/* What a conversion with a field prints, left to right: padding, prefix, zeros, the rest of its
 * text, padding. The prefix (a sign, "0x") is the start of the text: an integer's sign, prefix
 * and digits are one piece of text. Where the padding goes is the spec's business (F_LEFT). */
struct field {
	const char *text;
	int len; /* of text, prefix included */
	int nprefix;
	int zeros;
};

struct sink {
	void (*out)(char c, void *ctx);
	void *ctx;
	int count;
};

/* Writes text up to its terminator or the first stop character, counts it, and returns where it
 * stopped. Literal text, strings and numbers all go out through this one loop (out of line, so
 * that its blocks are translated once). */
static __attribute__((noinline, noclone)) const char *emit_until(struct sink *s, const char *p,
								 char stop)
{
	for (; *p && *p != stop; p++) {
		s->out(*p, s->ctx);
		s->count++;
	}
	return p;
}

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

static int positive_part(int n)
{
	return n > 0 ? n : 0;
}

/* Writes a field with its padding and zeros, and counts it. */
static __attribute__((noinline, noclone)) void emit_field(struct sink *s, const struct spec *sp,
							  const struct field *fl)
{
	int len = fl->zeros + fl->len;
	int pad = positive_part(sp->width - len);
	int right = sp->flags & F_LEFT ? pad : 0;

	emit_repeat(s, ' ', pad - right);
	emit_text(s, fl->text, fl->nprefix);
	emit_repeat(s, '0', fl->zeros);
	emit_text(s, fl->text + fl->nprefix, fl->len - fl->nprefix);
	emit_repeat(s, ' ', right);
	s->count += len + pad;
}

/* Digits of v, most significant first, ending at end; returns the first. The base's divisor or
 * shift is chosen once, not per digit. Each loop is entered through its test, after the units
 * digit is written: so its body starts a block of its own, which QEMU translates once (a loop
 * entered from the code above it has its body translated twice). Not always: where the
 * compiler pads the loop's start with an alignment nop, as arm64 builds sometimes do, the block
 * that falls in starts at the nop and holds the body too. */
static char *word_digits(char *p, uint32_t v, const struct conv *c)
{
	if (c->shift == 0) {
		*--p = (char)('0' + v % 10);
		while ((v /= 10) != 0)
			*--p = (char)('0' + v % 10);
	} else {
		const char *digits = hex_digits + c->digit_case;
		unsigned mask = (1u << c->shift) - 1;

		*--p = digits[v & mask];
		while ((v >>= c->shift) != 0)
			*--p = digits[v & mask];
	}
	return p;
}

/* The same for any value, by a division per digit: apart and out of line because on 32-bit ISAs
 * 64-bit arithmetic (above all the division) is long code, and the boot prints no value wider
 * than 32 bits there. */
static __attribute__((noinline, noclone)) char *wide_digits(char *p, uint64_t v,
							     const struct conv *c)
{
	const char *digits = hex_digits + c->digit_case;
	unsigned base = c->shift ? 1u << c->shift : 10;

	*--p = digits[v % base];
	while ((v /= base) != 0)
		*--p = digits[v % base];
	return p;
}

/* Where long is 64 bits (arm64, x86_64, the host) the ISA divides 64-bit values in one
 * instruction, and every value takes the 64-bit loop; elsewhere those that fit in 32 bits take
 * the 32-bit ones. The host tests build this file both ways. */
#ifndef FMT_ONE_WIDE_LOOP
#define FMT_ONE_WIDE_LOOP (sizeof(long) == 8)
#endif

static char *to_digits(char *end, uint64_t v, const struct conv *c)
{
	if (!FMT_ONE_WIDE_LOOP && v <= UINT32_MAX)
		return word_digits(end, (uint32_t)v, c);
	return wide_digits(end, v, c);
}

/* An integer argument of the given length, sign-extended to 64 bits when is_signed. */
static uint64_t integer_arg(va_list *ap, unsigned length, bool is_signed)
{
	if (length_arg[length].wide)
		return va_arg(*ap, unsigned long long);

	/* Keep the value's bits (hh and h have fewer than an int), sign-extending if signed. */
	unsigned above = 32 - length_arg[length].bits;
	unsigned v = va_arg(*ap, unsigned) << above;

	return is_signed ? (uint64_t)(int64_t)((int)v >> above) : v >> above;
}

/* The sign in front of a number: '-' if negative, else what '+' or ' ' asks for ('+' wins).
 * Indexed by flags / F_PLUS & 7, i.e. by the bits negative, ' ', '+'. */
_Static_assert(F_SPACE == 2 * F_PLUS && F_NEGATIVE == 4 * F_PLUS, "sign_chars index");
static const char sign_chars[8] = { 0, '+', ' ', '+', '-', '-', '-', '-' };

/* Puts an integer's sign ('-', or what '+' or ' ' asks for) or the prefix of '#' (%p always has
 * it) in front of its digits at text; returns the new start. A sign and a prefix never meet:
 * only d and i have a sign, only x, X, o and p a prefix. */
static char *integer_prefix(char *text, const struct spec *sp, const struct conv *c, bool zero)
{
	char sign = sign_chars[sp->flags / F_PLUS & 7];

	if (sign)
		*--text = sign;
	if ((sp->flags & F_ALT) && c->alt_prefix[0] && !zero) {
		if (c->alt_prefix[1])
			*--text = c->alt_prefix[1];
		*--text = c->alt_prefix[0];
	}
	return text;
}

/* An integer with a width, a precision or '0': zeros between its prefix and its digits, as many
 * as the precision asks for, and with '0' enough to fill the width (unless '-' or a precision
 * says otherwise). A zero precision drops a lone zero digit. Octal's '#' wants a first zero: its
 * prefix "0" is dropped where the precision's zeros lead, and is all there is of a zero whose
 * digit the precision dropped. */
static __attribute__((noinline, noclone)) void integer_field(struct sink *s, const struct spec *sp,
							     const struct conv *c, const char *text,
							     const char *digits, const char *end,
							     bool zero)
{
	struct field fl;

	if (sp->prec == 0 && zero)
		digits = --end; /* the digit "0" is the last character */
	fl.zeros = positive_part(sp->prec - (int)(end - digits));
	if ((sp->flags & F_ALT) && c->alt_zero) {
		if (fl.zeros > 0)
			text = digits;
		if (text == end)
			fl.zeros = 1;
	}
	fl.text = text;
	fl.len = (int)(end - text);
	fl.nprefix = (int)(digits - text);
	if ((sp->flags & (F_ZERO | F_LEFT)) == F_ZERO && sp->prec < 0)
		fl.zeros = MAX(fl.zeros, sp->width - fl.len);
	emit_field(s, sp, &fl);
}

/* An integer: its digits, sign and prefix are written into buf and go out like a string, unless
 * a width, a precision or '0' ask for a field. */
static void format_integer(struct sink *s, struct spec *sp, const struct conv *c, uint64_t v)
{
	/* At most 22 (octal) digits, a sign or prefix in front and the terminator. */
	char buf[25];
	char *end = buf + sizeof(buf) - 1;
	char *digits, *text;

	if (c->is_signed && (int64_t)v < 0) {
		sp->flags |= F_NEGATIVE;
		v = 0 - v;
	}
	/* The digits are written into buf, not read from it (cppcheck's whole-program pass
	 * thinks otherwise). */
	/* cppcheck-suppress ctuuninitvar */
	digits = to_digits(end, v, c);
	*end = '\0';
	text = sp->flags ? integer_prefix(digits, sp, c, v == 0) : digits;
	if (sp->flags & (F_COUNTS | F_ZERO))
		integer_field(s, sp, c, text, digits, end, v == 0);
	else
		emit_until(s, text, '\0');
}

/* A string: straight out where no width or precision applies, else as a field of the string up
 * to its terminator or the precision. For a null string glibc prints "(null)", or nothing where
 * the precision would cut that. */
static void format_string(struct sink *s, const struct spec *sp, const char *str)
{
	static const char null_string[] = "(null)";
	struct field fl;

	if (!(sp->flags & F_COUNTS)) {
		emit_until(s, str ? str : null_string, '\0');
		return;
	}
	fl.text = str ? str : (unsigned)sp->prec < sizeof(null_string) - 1 ? "" : null_string;
	fl.len = (int)(sp->prec < 0 ? strlen(fl.text) : strnlen(fl.text, (size_t)sp->prec));
	fl.nprefix = 0;
	fl.zeros = 0;
	emit_field(s, sp, &fl);
}

/* %c, %p of a null pointer ("(nil)"), and "%%", an unknown conversion (printed as written: '%'
 * and its letter) or a '%' that ends the format (prints nothing), which are not padded. */
static __attribute__((noinline, noclone)) void format_other(struct sink *s, struct spec *sp,
							     const struct conv *c, uint64_t arg)
{
	struct field fl;
	char buf[2];

	fl.nprefix = 0;
	fl.zeros = 0;
	if (c->kind == K_CHAR) {
		buf[0] = (char)arg;
		fl.text = buf;
		fl.len = 1;
	} else if (c->kind == K_POINTER) {
		fl.text = "(nil)";
		fl.len = 5;
	} else {
		buf[0] = '%';
		buf[1] = sp->conv;
		fl.text = sp->conv == '%' ? buf + 1 : buf;
		fl.len = sp->conv == '%' ? 1 : sp->conv ? 2 : 0;
		sp->width = 0;
	}
	emit_field(s, sp, &fl);
}

static void format_conversion(struct sink *s, struct spec *sp, va_list *ap)
{
	const struct conv *c = &convs[conv_of[(unsigned char)sp->conv]];
	uint64_t arg = 0;

	sp->flags = (sp->flags & c->flags) | c->forced_flags;
	if (c->kind != K_LITERAL)
		arg = integer_arg(ap, c->length ? c->length : sp->length, c->is_signed);
	switch (c->kind) {
	case K_STRING:
		format_string(s, sp, (const char *)(uintptr_t)arg);
		break;
	case K_POINTER:
		if (!arg) { /* "(nil)", with the odd ones out */
			format_other(s, sp, c, arg);
			break;
		}
		/* fall through */
	case K_INTEGER:
		format_integer(s, sp, c, arg);
		break;
	default:
		format_other(s, sp, c, arg);
	}
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
	if (sp->width)
		sp->flags |= F_WIDTH;
	if (*f != '.')
		return f;
	f++;
	if (*f == '*') {
		int64_t prec = (int64_t)integer_arg(ap, LEN_NONE, true);

		sp->prec = prec < 0 ? -1 : clamp_count((uint64_t)prec);
		f++;
	} else {
		f = parse_count(f, &sp->prec);
	}
	if (sp->prec >= 0)
		sp->flags |= F_PREC;
	return f;
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
		f = emit_until(&s, f, '%');
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
