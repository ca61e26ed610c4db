/* Readiness of open files for poll, ppoll, select and pselect6 (kernel/poll.c). Each kind of
 * file answers what it is ready for now (struct file_ops' poll); a waiter sleeps until a file
 * may have changed (poll_notify) and asks again. */
#ifndef RNDBITS_KERNEL_POLL_H
#define RNDBITS_KERNEL_POLL_H

/* The event bits of struct pollfd, Linux's values (the same on every ISA here). */
#define POLLIN 0x0001
#define POLLPRI 0x0002
#define POLLOUT 0x0004
#define POLLERR 0x0008
#define POLLHUP 0x0010
#define POLLNVAL 0x0020
#define POLLRDNORM 0x0040
#define POLLRDBAND 0x0080
#define POLLWRNORM 0x0100
#define POLLWRBAND 0x0200

/* A file that never waits for anything: reads and writes go through at once (Linux's
 * DEFAULT_POLLMASK, for files without a poll of their own). */
#define POLL_ALWAYS_READY (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)

/* A file's readiness may have changed (bytes in or out of a pipe, an end closed): waiters in
 * poll and select look again. */
void poll_notify(void);

#endif
