/* printf to a file descriptor through lib/fmt.c's streaming core. Each call collects its output
 * in a small buffer and writes it with as few write() calls as it can: one for a short line, so
 * that lines from a program never interleave with the kernel's console output mid-line. */
#include <user.h>

struct out_buf {
	int fd;
	size_t len;
	char buf[256];
};

static void out_flush(struct out_buf *o)
{
	const char *p = o->buf;
	size_t left = o->len;

	while (left) {
		long n = write(o->fd, p, left);
		if (n <= 0)
			break; /* nowhere to report it: drop the rest */
		p += n;
		left -= (size_t)n;
	}
	o->len = 0;
}

static void out_char(char c, void *ctx)
{
	struct out_buf *o = ctx;

	o->buf[o->len++] = c;
	if (o->len == sizeof(o->buf))
		out_flush(o);
}

static int vdprintf(int fd, const char *fmt, va_list ap)
{
	struct out_buf o;
	int n;

	o.fd = fd; /* field by field: an initializer would clear the whole buffer first */
	o.len = 0;
	n = vcbprintf(out_char, &o, fmt, ap);

	out_flush(&o);
	return n;
}

int printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vdprintf(STDOUT_FILENO, fmt, ap);
	va_end(ap);
	return n;
}

int dprintf(int fd, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vdprintf(fd, fmt, ap);
	va_end(ap);
	return n;
}

int puts(const char *s)
{
	return printf("%s\n", s);
}
