/* printk for host tests, over the vprintk each test defines (to stdout, or into a buffer it
 * checks): the kernel's own varargs entry is in kernel/console.c, which host tests do not link. */
#include <kernel.h>

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}
