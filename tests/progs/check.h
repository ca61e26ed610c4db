/* What the checking programs of tests/progs (pipes, restart, poll, devfiles, sigwait) share:
 * one printed line per check, "WHAT: ok" or "WHAT: FAIL", errno's names for those lines, a
 * last line "NAME: all ok" (or "NAME: FAILED") that the exit status repeats, and how they
 * install a signal handler. A transcript
 * compares the lines, and the same binary prints them on Linux. Each program is compiled alone
 * (tests/progs/CMakeLists.txt), so everything here is static; the functions are inline so that
 * a program need not use them all under -Werror. */
#ifndef RNDBITS_PROGS_CHECK_H
#define RNDBITS_PROGS_CHECK_H

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static int failures;

static inline void check(int ok, const char *what)
{
	printf("%s: %s\n", what, ok ? "ok" : "FAIL");
	if (!ok)
		failures++;
}

/* The names the lines print: a line says what it saw even when that is not what Linux says. */
static inline const char *errname(int e)
{
	switch (e) {
	case EACCES: return "EACCES";
	case EAGAIN: return "EAGAIN";
	case EBADF: return "EBADF";
	case EFAULT: return "EFAULT";
	case EINTR: return "EINTR";
	case EINVAL: return "EINVAL";
	case EMFILE: return "EMFILE";
	case ENODEV: return "ENODEV";
	case ENOENT: return "ENOENT";
	case ENOEXEC: return "ENOEXEC";
	case ENXIO: return "ENXIO";
	case EPERM: return "EPERM";
	case EPIPE: return "EPIPE";
	case ESPIPE: return "ESPIPE";
	default: return "another error";
	}
}

/* A call that must fail (r == -1) with err: "WHAT -> ENAME", or "WHAT -> success". */
static inline void check_err(long r, int err, const char *what)
{
	char line[160];

	snprintf(line, sizeof(line), "%s -> %s", what, r == -1 ? errname(errno) : "success");
	check(r == -1 && errno == err, line);
}

/* The last line, and main's exit status: 0 when every check passed. */
static inline int check_summary(const char *name)
{
	printf("%s: %s\n", name, failures ? "FAILED" : "all ok");
	return failures ? 1 : 0;
}

/* sigaction(sig) with handler fn (or SIG_DFL, SIG_IGN) and flags (SA_RESTART ...), no mask. */
static inline void handle(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	sigaction(sig, &sa, NULL);
}

#endif
