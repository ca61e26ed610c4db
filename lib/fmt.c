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
	K_INTEGER,
	K_POINTER,
	K_STRING, /* also %p of a null pointer, which prints "(nil)" */
	K_CHAR,
	K_LITERAL, /* "%%", an unknown letter, or the end of the format: printed as written */
};

struct conv {
	unsigned char kind;
	unsigned char flags; /* the flags that mean something for this conversion */
	unsigned char forced_flags; /* and those it always has */
	unsigned char length; /* how its argument is read; LEN_NONE: as the spec's length says */
	bool is_signed;
	unsigned char digit_case; /* 0 or 16: where its digits start in hex_digits */
	/* What '#' puts before a non-zero value, right-aligned in alt_prefix: "0x", "0X", or
	 * octal's "0" (alone of length 1: it makes the first digit a zero, so the precision's
	 * zeros may stand in for it). */
	unsigned char alt_len;
	char alt_prefix[2];
	/* K_STRING: where in null_texts the text for a null pointer starts */
	unsigned char null_text;
	/* The base, and how a 32-bit value is divided by it: (v * word_mul >> 32) >> word_shift,
	 * a multiplication instead of a division (32-bit Arm has no divide instruction). */
	unsigned char base;
	unsigned char word_shift;
	uint32_t word_mul;
} __aligned(16); /* a table row is found with a shift */
_Static_assert(sizeof(struct conv) == 16, "a table row is 16 bytes");

enum conv_id {
	CONV_LITERAL, CONV_D, CONV_U, CONV_LX, CONV_UX, CONV_O, CONV_P, CONV_S, CONV_C,
	CONV_NIL, /* no letter: what %p becomes for a null pointer */
	CONV_COUNT
};

static const unsigned char conv_of[256] = {
	['d'] = CONV_D, ['i'] = CONV_D, ['u'] = CONV_U, ['x'] = CONV_LX, ['X'] = CONV_UX,
	['o'] = CONV_O, ['p'] = CONV_P, ['s'] = CONV_S, ['c'] = CONV_C,
};

/* Numbers only, no pointers, in these tables: position-independent user programs must need
 * no relocations. */
static const char hex_digits[] = "0123456789abcdef0123456789ABCDEF";

/* What a null %s prints (glibc's "(null)") and a null %p. */
static const char null_texts[] = "(null)\0(nil)";
#define NULL_STRING 0
#define NULL_POINTER 7
#define NULL_STRING_LEN 6

/* v / 10 is (v * 0xcccccccd >> 32) >> 3 for every 32-bit v; v / 16 and v / 8 are exact
 * shifts. */
#define DECIMAL .base = 10, .word_mul = 0xcccccccdu, .word_shift = 3
#define HEX .base = 16, .word_mul = 1u << 28, .word_shift = 0
#define OCTAL .base = 8, .word_mul = 1u << 29, .word_shift = 0

/* What every integer conversion takes: '-', '0', a width, a precision. */
#define F_INTEGER (F_LEFT | F_ZERO | F_COUNTS)
static const struct conv convs[CONV_COUNT] = {
	[CONV_LITERAL] = { .kind = K_LITERAL },
	[CONV_D] = { .kind = K_INTEGER, .flags = F_INTEGER | F_PLUS | F_SPACE, .is_signed = true,
		     DECIMAL },
	[CONV_U] = { .kind = K_INTEGER, .flags = F_INTEGER, DECIMAL },
	[CONV_LX] = { .kind = K_INTEGER, .flags = F_INTEGER | F_ALT, .alt_len = 2,
		      .alt_prefix = { '0', 'x' }, HEX },
	[CONV_UX] = { .kind = K_INTEGER, .flags = F_INTEGER | F_ALT, .digit_case = 16,
		      .alt_len = 2, .alt_prefix = { '0', 'X' }, HEX },
	[CONV_O] = { .kind = K_INTEGER, .flags = F_INTEGER | F_ALT, .alt_len = 1,
		     .alt_prefix = { '\0', '0' }, OCTAL },
	/* %p is %#x of the pointer, or "(nil)" */
	[CONV_P] = { .kind = K_POINTER, .flags = F_INTEGER, .forced_flags = F_ALT,
		     .length = LEN_PTR, .alt_len = 2, .alt_prefix = { '0', 'x' }, HEX },
	[CONV_S] = { .kind = K_STRING, .flags = F_LEFT | F_COUNTS, .length = LEN_PTR,
		     .null_text = NULL_STRING },
	/* %c always builds a field: its character may be a NUL */
	[CONV_C] = { .kind = K_CHAR, .flags = F_LEFT | F_WIDTH, .forced_flags = F_WIDTH },
	/* a string that no precision cuts */
	[CONV_NIL] = { .kind = K_STRING, .flags = F_LEFT | F_WIDTH, .null_text = NULL_POINTER },
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
 * stopped. Literal text and every conversion without a field go out through this one loop (out
 * of line, so that its blocks are translated once). */
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

/* The digit loops write the digits of v, most significant last, down from p; they return the
 * first. Each is a function of its own whose first instruction is the top of its loop, so that
 * QEMU translates the loop's body once: the jump back lands on the block it translated at the
 * call (a loop entered from code above it has its body translated twice, once with that code).
 * What they need is worked out by their caller, and the loop is not aligned: the padding
 * before it would be a block of its own that falls into the loop's body (nor is the function
 * aligned for it: that would move the code of the user programs that link this file). */
#define DIGIT_LOOP __attribute__((noinline, noclone, optimize("align-loops=1")))

/* Any value, by a division per digit: on 32-bit ISAs the 64-bit division is long code, which
 * only values wider than 32 bits take (the boot prints none). */
static DIGIT_LOOP char *wide_digits(char *p, uint64_t v, const char *digits, uint64_t base)
{
	do {
		*--p = digits[v % base];
		v /= base;
	} while (v != 0);
	return p;
}

/* A 32-bit value, with a multiplication per digit instead of a division. */
static DIGIT_LOOP char *word_digits(char *p, uint32_t v, const char *digits,
				     const struct conv *c)
{
	do {
		uint32_t q = (uint32_t)((uint64_t)v * c->word_mul >> 32) >> c->word_shift;

		*--p = digits[v - q * c->base];
		v = q;
	} while (v != 0);
	return p;
}

/* Where long is 64 bits (arm64, x86_64, the host) the ISA divides 64-bit values in one
 * instruction, and every value takes the 64-bit loop; elsewhere those that fit in 32 bits take
 * the 32-bit one. The host tests build this file both ways. */
#ifndef FMT_ONE_WIDE_LOOP
#define FMT_ONE_WIDE_LOOP (sizeof(long) == 8)
#endif

static char *to_digits(char *end, uint64_t v, const struct conv *c)
{
	const char *digits = hex_digits + c->digit_case;

	if (!FMT_ONE_WIDE_LOOP && v <= UINT32_MAX)
		return word_digits(end, (uint32_t)v, digits, c);
	return wide_digits(end, v, digits, c->base);
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
 * it) in front of its digits; returns the new start. A sign and a prefix never meet: only d and
 * i have a sign, only x, X, o and p a prefix. Without a branch: the two characters before the
 * digits always get the prefix, and the text starts before them or not; so does the sign. */
static char *integer_prefix(char *digits, unsigned flags, const struct conv *c, bool zero)
{
	char sign = sign_chars[flags / F_PLUS & 7];
	char *text = digits - ((flags & F_ALT) && !zero ? c->alt_len : 0);

	digits[-2] = c->alt_prefix[0];
	digits[-1] = c->alt_prefix[1];
	text[-1] = sign;
	return text - (sign != 0);
}

/* An integer with a width, a precision or '0': zeros between its prefix and its digits, as many
 * as the precision asks for, and with '0' enough to fill the width (unless '-' or a precision
 * says otherwise). A zero precision drops a lone zero digit. Octal's '#' wants a first zero: its
 * prefix "0" is dropped where the precision's zeros lead, and is all there is of a zero whose
 * digit the precision dropped. */
static void integer_field(struct sink *s, const struct spec *sp, const struct conv *c,
			  const char *text, const char *digits, bool zero)
{
	const char *end = digits + strlen(digits);
	struct field fl;

	if (sp->prec == 0 && zero)
		digits = --end; /* the digit "0" is the last character */
	fl.zeros = positive_part(sp->prec - (int)(end - digits));
	if ((sp->flags & F_ALT) && c->alt_len == 1) {
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

/* A conversion with a width, a precision or '0' (and every %c): an integer's as above; a
 * string's is the string up to its terminator or the precision (for a null string glibc
 * prints "(null)", or nothing where the precision would cut that); a character's is that one
 * character, whatever it is. Out of line: the boot builds no field. */
static __attribute__((noinline, noclone)) void format_field(struct sink *s, const struct spec *sp,
							     const struct conv *c,
							     const char *text,
							     const char *digits, bool zero)
{
	struct field fl;

	if (c->kind <= K_POINTER) {
		integer_field(s, sp, c, text, digits, zero);
		return;
	}
	fl.text = text;
	fl.nprefix = 0;
	fl.zeros = 0;
	if (c->kind == K_CHAR) {
		fl.len = 1;
	} else if (sp->flags & F_PREC) {
		if (zero && sp->prec < NULL_STRING_LEN)
			fl.text = "";
		fl.len = (int)strnlen(fl.text, (size_t)sp->prec);
	} else {
		fl.len = (int)strlen(fl.text);
	}
	emit_field(s, sp, &fl);
}

/* The text of %c, or of "%%", an unknown conversion (printed as written: '%' and its letter)
 * or a '%' that ends the format (nothing), in buf. */
static const char *other_text(char *buf, const struct spec *sp, const struct conv *c,
			      uint64_t arg)
{
	if (c->kind == K_CHAR) {
		buf[0] = (char)arg;
		buf[1] = '\0';
		return buf;
	}
	buf[0] = '%';
	buf[1] = sp->conv;
	buf[2] = '\0';
	return buf + (sp->conv == '%' || !sp->conv);
}

/* Every conversion makes a text: an integer's digits behind its sign or prefix, a string (the
 * argument's own), or a character or two; without a width, precision or '0' (all the boot
 * uses) that text goes out as it is, by the loop that writes the literal text around it. */
static void format_conversion(struct sink *s, struct spec *sp, va_list *ap)
{
	const struct conv *c = &convs[conv_of[(unsigned char)sp->conv]];
	/* At most 22 (octal) digits, a sign or prefix in front and the terminator. */
	char buf[25];
	char *end = buf + sizeof(buf) - 1;
	const char *text, *digits = end;
	uint64_t arg = 0;

	if (c->kind != K_LITERAL)
		arg = integer_arg(ap, c->length ? c->length : sp->length, c->is_signed);
	if (c->kind == K_POINTER && !arg)
		c = &convs[CONV_NIL];
	sp->flags = (sp->flags & c->flags) | c->forced_flags;
	*end = '\0';
	if (c->kind == K_STRING) {
		text = arg ? (const char *)(uintptr_t)arg : null_texts + c->null_text;
	} else if (c->kind <= K_POINTER) {
		bool negative = c->is_signed && (int64_t)arg < 0;

		sp->flags |= negative ? F_NEGATIVE : 0;
		/* The digits are written into buf, not read from it (cppcheck's whole-program
		 * pass thinks otherwise). */
		/* cppcheck-suppress ctuuninitvar */
		digits = to_digits(end, negative ? 0 - arg : arg, c);
		text = integer_prefix((char *)digits, sp->flags, c, arg == 0);
	} else {
		text = other_text(buf, sp, c, arg);
	}
	if (sp->flags & (F_COUNTS | F_ZERO))
		format_field(s, sp, c, text, digits, arg == 0);
	else
		emit_until(s, text, '\0');
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
