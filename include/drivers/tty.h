/* The console as a terminal: the ioctls of Linux's tty layer that C libraries and shells ask of
 * it (drivers/tty_ioctl.c; Linux answers them in its own drivers/tty/). sys_ioctl passes every
 * command a console file does not answer generically (FIOCLEX, FIONBIO ...) here. */
#ifndef RNDBITS_DRIVERS_TTY_H
#define RNDBITS_DRIVERS_TTY_H

#include <lib/types.h>

struct mm;

/* One terminal ioctl on the console for a task of address space mm, arg its user pointer:
 * 0, -EFAULT for a bad pointer, or -ENOTTY for a command a terminal does not have. */
long tty_ioctl(struct mm *mm, unsigned int cmd, uint64_t arg);

#endif
