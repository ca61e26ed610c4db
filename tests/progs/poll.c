/* poll, ppoll, select and pselect as on Linux 6.1 (issue 17): readiness of pipe ends, /dev/null
 * and a /proc file, timeouts, bad descriptors, a wait a child's write ends, a wait a child's
 * signal ends (EINTR after a handler, SA_RESTART or not), and the temporary signal mask of
 * ppoll and pselect. Each check prints one line, "FAIL" for a difference from Linux; the same
 * binary prints the same lines on Linux (glibc on x86_64, and under qemu-user elsewhere). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define STEP_US 50000 /* the child's delay: far longer than the parent needs to start waiting */

static volatile sig_atomic_t handled;

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* One descriptor's revents after poll with timeout 0, or -1 - errno. */
static int revents(int fd, short events)
{
	struct pollfd p = { fd, events, 0 };
	int r = poll(&p, 1, 0);

	return r < 0 ? -1 - errno : p.revents;
}

static void pipe_cases(void)
{
	int p[2];
	char c;

	if (pipe(p))
		return;
	struct pollfd both[2] = { { p[0], POLLIN, 0 }, { p[1], POLLOUT, 0 } };
	int r = poll(both, 2, 0);
	check(r == 1 && both[0].revents == 0 && both[1].revents == POLLOUT,
	      "poll, empty pipe: the write end POLLOUT, the read end nothing");
	r = write(p[1], "x", 1);
	check(revents(p[0], POLLIN) == POLLIN, "poll, a byte in the pipe: POLLIN");
	check(revents(p[0], POLLIN | POLLRDNORM | POLLOUT) == (POLLIN | POLLRDNORM),
	      "poll, read end, POLLIN|POLLRDNORM|POLLOUT asked: POLLIN|POLLRDNORM");
	close(p[1]);
	check(revents(p[0], POLLIN) == (POLLIN | POLLHUP),
	      "poll, the writer closed with a byte left: POLLIN|POLLHUP");
	r = read(p[0], &c, 1);
	check(revents(p[0], POLLIN) == POLLHUP, "poll, the writer closed, drained: POLLHUP");
	check(revents(p[0], 0) == POLLHUP, "poll, no events asked: POLLHUP still");
	close(p[0]);

	if (pipe(p))
		return;
	close(p[0]);
	check(revents(p[1], POLLOUT) == (POLLOUT | POLLERR), "poll, the reader closed: POLLOUT|POLLERR");
	close(p[1]);

	/* A full pipe: no POLLOUT. */
	static char fill[1 << 16];
	if (pipe(p))
		return;
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	while (write(p[1], fill, sizeof(fill)) > 0)
		;
	while (write(p[1], fill, 1) > 0)
		;
	check(revents(p[1], POLLOUT) == 0, "poll, a full pipe: not writable");
	(void)!read(p[0], fill, sizeof(fill));
	check(revents(p[1], POLLOUT) == POLLOUT, "poll, the full pipe drained: POLLOUT");
	close(p[0]);
	close(p[1]);

	/* Linux's pipe_poll: writable while a buffer slot is free. A pipe of one page (this
	 * kernel's only size; F_SETPIPE_SZ makes Linux's one) has one slot, which a byte takes. */
	long page = sysconf(_SC_PAGESIZE);
	if (pipe(p))
		return;
	check(fcntl(p[1], F_SETPIPE_SZ, page) == page && write(p[1], "x", 1) == 1 &&
	      revents(p[1], POLLOUT) == 0,
	      "poll, a one-page pipe holding a byte: not writable (its one slot taken)");
	(void)!read(p[0], &c, 1);
	check(revents(p[1], POLLOUT) == POLLOUT, "poll, the one-page pipe drained: POLLOUT");
	close(p[0]);
	close(p[1]);
	(void)r;
}

static void other_files(void)
{
	int fd = open("/dev/null", O_RDWR);
	check(revents(fd, POLLIN | POLLOUT) == (POLLIN | POLLOUT),
	      "poll, /dev/null: POLLIN|POLLOUT");
	close(fd);
	fd = open("/proc/self/maps", O_RDONLY);
	check(revents(fd, POLLIN | POLLOUT | POLLPRI) == (POLLIN | POLLOUT),
	      "poll, /proc/self/maps: POLLIN|POLLOUT (always ready)");
	close(fd);

	int p[2];
	if (pipe(p))
		return;
	close(p[1]); /* now a closed descriptor */
	struct pollfd fds[3] = { { p[1], POLLIN, 0 }, { -1, POLLIN, 77 }, { p[0], POLLIN, 0 } };
	int r = poll(fds, 3, 0);
	check(r == 2 && fds[0].revents == POLLNVAL && fds[1].revents == 0 &&
	      fds[2].revents == POLLHUP, "poll, a closed fd: POLLNVAL; a negative fd: revents 0");
	close(p[0]);
}

static void timeout_cases(void)
{
	int p[2];

	if (pipe(p))
		return;
	struct pollfd fd = { p[0], POLLIN, 0 };
	long long t0 = now_ms();
	int r = poll(&fd, 1, 0);
	/* The bounds leave room for a loaded host pausing us between the clock reads. */
	check(r == 0 && now_ms() - t0 < 500, "poll, timeout 0: 0 at once");
	t0 = now_ms();
	r = poll(&fd, 1, 50);
	long long dt = now_ms() - t0;
	check(r == 0 && dt >= 50 && dt < 2000, "poll, timeout 50 ms: 0 after at least 50 ms");

	struct timespec ts = { 0, 50 * 1000000 };
	t0 = now_ms();
	r = ppoll(&fd, 1, &ts, NULL);
	dt = now_ms() - t0;
	check(r == 0 && dt >= 50 && dt < 2000, "ppoll, timeout 50 ms: 0 after at least 50 ms");
	ts.tv_nsec = -1;
	r = ppoll(&fd, 1, &ts, NULL);
	check(r == -1 && errno == EINVAL, "ppoll, tv_nsec -1: EINVAL");
	ts.tv_nsec = 1000000000;
	r = ppoll(&fd, 1, &ts, NULL);
	check(r == -1 && errno == EINVAL, "ppoll, tv_nsec 1e9: EINVAL");

	struct pollfd *volatile unmapped = (struct pollfd *)8; /* hidden from the compiler */
	r = poll(unmapped, 1, 0);
	check(r == -1 && errno == EFAULT, "poll, a bad pointer: EFAULT");

	struct rlimit old, low;
	getrlimit(RLIMIT_NOFILE, &old);
	low = old;
	low.rlim_cur = 8;
	setrlimit(RLIMIT_NOFILE, &low);
	struct pollfd many[9];
	for (int i = 0; i < 9; i++)
		many[i] = (struct pollfd){ -1, 0, 0 };
	r = poll(many, 9, 0);
	check(r == -1 && errno == EINVAL, "poll, nfds 9 over RLIMIT_NOFILE 8: EINVAL");
	r = poll(many, 8, 0);
	check(r == 0, "poll, nfds 8: 0");
	setrlimit(RLIMIT_NOFILE, &old);
	close(p[0]);
	close(p[1]);
}

/* A child that writes a byte to fd after a step (to wake a wait), or signals the parent. */
static pid_t later(int fd)
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0) {
		usleep(STEP_US);
		if (fd >= 0)
			_exit(write(fd, "x", 1) == 1 ? 0 : 1);
		kill(parent, SIGUSR1);
		_exit(0);
	}
	return pid;
}

static void wait_cases(void)
{
	int p[2];

	if (pipe(p))
		return;
	struct pollfd fd = { p[0], POLLIN, 0 };
	pid_t pid = later(p[1]);
	int r = poll(&fd, 1, -1);
	check(r == 1 && fd.revents == POLLIN, "poll, no timeout: a child's write ends it, POLLIN");
	waitpid(pid, NULL, 0);
	char c;
	(void)!read(p[0], &c, 1);

	handle(SIGUSR1, on_usr1, SA_RESTART);
	handled = 0;
	pid = later(-1);
	r = poll(&fd, 1, -1);
	check(r == -1 && errno == EINTR && handled == 1,
	      "poll, a child's signal, handler with SA_RESTART: EINTR");
	waitpid(pid, NULL, 0);

	handled = 0;
	pid = later(-1);
	fd_set in;
	FD_ZERO(&in);
	FD_SET(p[0], &in);
	struct timeval tv = { 5, 0 };
	r = select(p[0] + 1, &in, NULL, NULL, &tv);
	check(r == -1 && errno == EINTR && handled == 1,
	      "select, a child's signal, handler with SA_RESTART: EINTR");
	waitpid(pid, NULL, 0);
	handle(SIGUSR1, SIG_DFL, 0);
	close(p[0]);
	close(p[1]);
}

static void select_cases(void)
{
	int p[2];
	fd_set in, out;

	if (pipe(p))
		return;
	FD_ZERO(&in);
	FD_ZERO(&out);
	FD_SET(p[0], &in);
	FD_SET(p[1], &out);
	struct timeval tv = { 0, 0 };
	int r = select(p[1] + 1, &in, &out, NULL, &tv);
	check(r == 1 && !FD_ISSET(p[0], &in) && FD_ISSET(p[1], &out),
	      "select, empty pipe: the write end only");
	/* One page, as this kernel's pipes: a byte fills its one buffer slot (pipe_cases). */
	fcntl(p[1], F_SETPIPE_SZ, sysconf(_SC_PAGESIZE));
	r = write(p[1], "x", 1);
	FD_SET(p[0], &in);
	FD_SET(p[1], &out);
	r = select(p[1] + 1, &in, &out, NULL, &tv);
	check(r == 1 && FD_ISSET(p[0], &in) && !FD_ISSET(p[1], &out),
	      "select, a byte in a one-page pipe: the read end only, 1");
	int q[2];
	if (pipe(q) == 0) {
		FD_SET(p[0], &in);
		FD_SET(q[1], &out);
		int n = (p[0] > q[1] ? p[0] : q[1]) + 1;
		r = select(n, &in, &out, NULL, &tv);
		check(r == 2 && FD_ISSET(p[0], &in) && FD_ISSET(q[1], &out),
		      "select, that read end and an empty pipe's write end: both, 2");
		close(q[0]);
		close(q[1]);
	}
	char c;
	(void)!read(p[0], &c, 1);

	FD_ZERO(&in);
	FD_SET(p[0], &in);
	tv = (struct timeval){ 0, 50000 };
	long long t0 = now_ms();
	r = select(p[0] + 1, &in, NULL, NULL, &tv);
	long long dt = now_ms() - t0;
	check(r == 0 && !FD_ISSET(p[0], &in) && dt >= 50 && tv.tv_sec == 0 && tv.tv_usec == 0,
	      "select, timeout 50 ms: 0, the set cleared, the time left 0");

	tv = (struct timeval){ 0, -1 };
	FD_SET(p[0], &in);
	r = select(p[0] + 1, &in, NULL, NULL, &tv);
	check(r == -1 && errno == EINVAL, "select, tv_usec -1: EINVAL");

	int bad = dup(p[0]);
	close(bad);
	FD_ZERO(&in);
	FD_SET(bad, &in);
	tv = (struct timeval){ 0, 0 };
	r = select(bad + 1, &in, NULL, NULL, &tv);
	check(r == -1 && errno == EBADF, "select, a closed fd in the set: EBADF");
	r = select(-1, NULL, NULL, NULL, &tv);
	check(r == -1 && errno == EINVAL, "select, n -1: EINVAL");

	struct timespec ts = { 0, 0 };
	FD_ZERO(&in);
	FD_ZERO(&out);
	FD_SET(p[0], &in);
	FD_SET(p[1], &out);
	r = pselect(p[1] + 1, &in, &out, NULL, &ts, NULL);
	check(r == 1 && !FD_ISSET(p[0], &in) && FD_ISSET(p[1], &out),
	      "pselect, empty pipe: the write end only");
	close(p[1]);
	FD_SET(p[0], &in);
	r = pselect(p[0] + 1, &in, NULL, NULL, &ts, NULL);
	check(r == 1 && FD_ISSET(p[0], &in), "pselect, the writer closed: readable");
	close(p[0]);
}

/* A pending SIGUSR1 the caller blocks: the wait's mask keeps it blocked (the timeout ends the
 * wait), or lets it in (EINTR after its handler); the caller's mask is back either way. */
static void sigmask_cases(void)
{
	int p[2];
	sigset_t usr1, none, now;

	if (pipe(p))
		return;
	handle(SIGUSR1, on_usr1, 0);
	sigemptyset(&none);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	handled = 0;
	raise(SIGUSR1);

	struct pollfd fd = { p[0], POLLIN, 0 };
	struct timespec ts = { 0, 20 * 1000000 };
	int r = ppoll(&fd, 1, &ts, &usr1);
	check(r == 0 && handled == 0, "ppoll, a mask blocking the pending signal: timeout, 0");
	ts = (struct timespec){ 5, 0 };
	r = ppoll(&fd, 1, &ts, &none);
	sigprocmask(SIG_BLOCK, NULL, &now);
	check(r == -1 && errno == EINTR && handled == 1 && sigismember(&now, SIGUSR1),
	      "ppoll, an empty mask: EINTR after the handler, the caller's mask back");

	handled = 0;
	raise(SIGUSR1);
	fd_set in;
	FD_ZERO(&in);
	FD_SET(p[0], &in);
	ts = (struct timespec){ 0, 20 * 1000000 };
	r = pselect(p[0] + 1, &in, NULL, NULL, &ts, &usr1);
	check(r == 0 && handled == 0, "pselect, a mask blocking the pending signal: timeout, 0");
	FD_SET(p[0], &in);
	ts = (struct timespec){ 5, 0 };
	r = pselect(p[0] + 1, &in, NULL, NULL, &ts, &none);
	sigprocmask(SIG_BLOCK, NULL, &now);
	check(r == -1 && errno == EINTR && handled == 1 && sigismember(&now, SIGUSR1),
	      "pselect, an empty mask: EINTR after the handler, the caller's mask back");

	sigprocmask(SIG_UNBLOCK, &usr1, NULL);
	handle(SIGUSR1, SIG_DFL, 0);
	close(p[0]);
	close(p[1]);
}

/* Each of the ABI's system calls directly (glibc picks one: the *_time64 calls first on the
 * 32-bit ABIs), a byte in the pipe and timeout 0: every one sees it. */
static void raw_cases(void)
{
	int p[2], bad = 0;
	fd_set in;

	if (pipe(p))
		return;
	if (write(p[1], "x", 1) != 1)
		bad |= 1;
	struct pollfd fd = { p[0], POLLIN, 0 };
	long ts[2] = { 0, 0 }; /* the ABI's timespec and timeval: two longs */
	long long ts64[2] = { 0, 0 };
	(void)ts64;
#ifdef SYS_poll
	bad |= (syscall(SYS_poll, &fd, 1, 0) != 1) << 1;
#endif
#ifdef SYS_ppoll
	bad |= (syscall(SYS_ppoll, &fd, 1, ts, NULL, 8) != 1) << 2;
#endif
#ifdef SYS_ppoll_time64
	bad |= (syscall(SYS_ppoll_time64, &fd, 1, ts64, NULL, 8) != 1) << 3;
#endif
#ifdef SYS__newselect
	FD_ZERO(&in);
	FD_SET(p[0], &in);
	bad |= (syscall(SYS__newselect, p[0] + 1, &in, NULL, NULL, ts) != 1) << 4;
#endif
#if defined(SYS_select) && defined(__i386__)
	/* i386's select (82) is the old one: its five arguments in a block. */
	struct { unsigned long n; void *in, *out, *ex, *tv; } block = { p[0] + 1, &in, 0, 0, ts };
	FD_ZERO(&in);
	FD_SET(p[0], &in);
	bad |= (syscall(SYS_select, &block) != 1) << 5;
#elif defined(SYS_select)
	FD_ZERO(&in);
	FD_SET(p[0], &in);
	bad |= (syscall(SYS_select, p[0] + 1, &in, NULL, NULL, ts) != 1) << 5;
#endif
#ifdef SYS_pselect6
	FD_ZERO(&in);
	FD_SET(p[0], &in);
	bad |= (syscall(SYS_pselect6, p[0] + 1, &in, NULL, NULL, ts, NULL) != 1) << 6;
#endif
#ifdef SYS_pselect6_time64
	FD_ZERO(&in);
	FD_SET(p[0], &in);
	bad |= (syscall(SYS_pselect6_time64, p[0] + 1, &in, NULL, NULL, ts64, NULL) != 1) << 7;
#endif
	if (bad)
		printf("raw calls failing: %#x\n", bad);
	check(!bad, "every poll and select system call of this ABI: the byte, 1");
	close(p[0]);
	close(p[1]);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	pipe_cases();
	other_files();
	timeout_cases();
	wait_cases();
	select_cases();
	sigmask_cases();
	raw_cases();
	return check_summary("poll");
}
