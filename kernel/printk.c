/* printk: the varargs entry over vprintk. A file of its own so that host tests link this very
 * code over a vprintk of their own (to stdout, or into a buffer they check), without the
 * console (kernel/console.c), whose vprintk writes to the UART. */
#include <kernel/kernel.h>

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}
