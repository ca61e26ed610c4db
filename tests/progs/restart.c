/* Which blocking calls a signal handler interrupts and which SA_RESTART restarts, as on Linux
 * 6.1 (issue 17): a child sends SIGUSR1 to its parent 50 ms into the parent's wait, then (for
 * the calls it can end) ends the wait 50 ms later: it exits (wait4, waitid), writes to the pipe
 * (read) or drains it (write). Linux's rules, from the code each call returns when a signal
 * ends its wait:
 *   wait4, waitid, read and write on a pipe   -ERESTARTSYS: EINTR, or restarted with SA_RESTART
 *   nanosleep, clock_nanosleep                 -ERESTART_RESTARTBLOCK: EINTR after a handler,
 *                                              SA_RESTART or not (the time left in *rem)
 *   pause, sigsuspend (and ppoll, aarch64's     -ERESTARTNOHAND: EINTR after a handler
 *   pause)
 * and a child's exit that comes with a SIGCHLD handler ends wait4/waitid with the child, not
 * EINTR (the wait looks for a zombie before it looks at signals). Each check prints one line,
 * "FAIL" for a difference from Linux; the same binary prints the same lines on Linux. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define STEP_US 50000 /* between the child's actions: far longer than the parent needs */

static volatile sig_atomic_t handled, chld_handled;

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
}

static void on_chld(int sig)
{
	(void)sig;
	chld_handled++;
}

/* A child that signals the parent after one step, and after another exits with 7. */
static pid_t signal_then_exit(void)
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0) {
		usleep(STEP_US);
		kill(parent, SIGUSR1);
		usleep(STEP_US);
		_exit(7);
	}
	return pid;
}

static void wait4_case(int flags)
{
	int st = 0;

	handle(SIGUSR1, on_usr1, flags);
	handled = 0;
	pid_t pid = signal_then_exit();
	pid_t r = wait4(pid, &st, 0, NULL);
	if (flags & SA_RESTART) {
		check(r == pid && WIFEXITED(st) && WEXITSTATUS(st) == 7 && handled == 1,
		      "wait4, handler with SA_RESTART: restarted, the child's exit status 7");
		return;
	}
	check(r == -1 && errno == EINTR && handled == 1,
	      "wait4, handler without SA_RESTART: EINTR");
	r = wait4(pid, &st, 0, NULL);
	check(r == pid && WEXITSTATUS(st) == 7, "wait4 again: the child's exit status 7");
}

static void waitid_case(int flags)
{
	siginfo_t si;

	handle(SIGUSR1, on_usr1, flags);
	handled = 0;
	pid_t pid = signal_then_exit();
	memset(&si, 0, sizeof(si));
	int r = waitid(P_PID, pid, &si, WEXITED);
	if (flags & SA_RESTART) {
		check(r == 0 && si.si_pid == pid && si.si_code == CLD_EXITED && si.si_status == 7 &&
		      handled == 1, "waitid, handler with SA_RESTART: restarted, CLD_EXITED 7");
		return;
	}
	check(r == -1 && errno == EINTR && handled == 1,
	      "waitid, handler without SA_RESTART: EINTR");
	r = waitid(P_PID, pid, &si, WEXITED);
	check(r == 0 && si.si_pid == pid && si.si_status == 7, "waitid again: CLD_EXITED 7");
}

/* The exit's SIGCHLD (with a handler, no SA_RESTART) wakes the wait, which takes the child. */
static void sigchld_case(void)
{
	int st = 0;
	siginfo_t si;

	handle(SIGCHLD, on_chld, 0);
	chld_handled = 0;
	pid_t pid = fork();
	if (pid == 0) {
		usleep(STEP_US);
		_exit(3);
	}
	pid_t r = wait4(-1, &st, 0, NULL);
	check(r == pid && WEXITSTATUS(st) == 3 && chld_handled == 1,
	      "wait4(-1), the child's exit with a SIGCHLD handler: the child, not EINTR");
	chld_handled = 0;
	pid = fork();
	if (pid == 0) {
		usleep(STEP_US);
		_exit(4);
	}
	memset(&si, 0, sizeof(si));
	int w = waitid(P_ALL, 0, &si, WEXITED);
	check(w == 0 && si.si_pid == pid && si.si_status == 4 && chld_handled == 1,
	      "waitid(P_ALL), the same: the child, not EINTR");
	handle(SIGCHLD, SIG_DFL, 0);
}

/* A child that signals, then after another step writes "data" to fd (or reads n bytes). */
static pid_t signal_then(int fd, int write_it, size_t n)
{
	pid_t parent = getpid(), pid = fork();
	static char buf[1 << 17];

	if (pid == 0) {
		usleep(STEP_US);
		kill(parent, SIGUSR1);
		usleep(STEP_US);
		if (write_it)
			_exit(write(fd, "data", 4) == 4 ? 0 : 1);
		size_t got = 0;
		while (got < n) {
			ssize_t r = read(fd, buf, sizeof(buf));
			if (r <= 0)
				_exit(1);
			got += (size_t)r;
		}
		_exit(0);
	}
	return pid;
}

static void pipe_read_case(int flags)
{
	int p[2];
	char buf[8];

	handle(SIGUSR1, on_usr1, flags);
	handled = 0;
	if (pipe(p))
		return;
	pid_t pid = signal_then(p[1], 1, 0);
	ssize_t r = read(p[0], buf, sizeof(buf));
	if (flags & SA_RESTART)
		check(r == 4 && handled == 1, "pipe read, handler with SA_RESTART: restarted, 4 bytes");
	else
		check(r == -1 && errno == EINTR && handled == 1,
		      "pipe read, handler without SA_RESTART: EINTR");
	waitpid(pid, NULL, 0);
	close(p[0]);
	close(p[1]);
}

/* A full pipe (filled without blocking), then a blocking write of one more byte. */
static void pipe_write_case(int flags)
{
	int p[2];
	static char fill[1 << 16];
	size_t full = 0;
	ssize_t n;

	handle(SIGUSR1, on_usr1, flags);
	handled = 0;
	if (pipe(p))
		return;
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	while ((n = write(p[1], fill, sizeof(fill))) > 0)
		full += (size_t)n;
	fcntl(p[1], F_SETFL, 0);
	pid_t pid = signal_then(p[0], 0, full + 1);
	ssize_t r = write(p[1], "x", 1);
	if (flags & SA_RESTART)
		check(r == 1 && handled == 1, "pipe write, full, handler with SA_RESTART: restarted");
	else
		check(r == -1 && errno == EINTR && handled == 1,
		      "pipe write, full, handler without SA_RESTART: EINTR");
	if (r != 1) /* the child reads one byte more than the pipe held */
		r = write(p[1], "x", 1);
	int st = 0;
	waitpid(pid, &st, 0);
	close(p[0]);
	close(p[1]);
}

/* A child that signals after one step and exits. */
static pid_t signal_only(void)
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0) {
		usleep(STEP_US);
		kill(parent, SIGUSR1);
		_exit(0);
	}
	return pid;
}

static void sleep_cases(void)
{
	handle(SIGUSR1, on_usr1, SA_RESTART);

	handled = 0;
	pid_t pid = signal_only();
	/* Far longer than the child's step, so that however late a loaded host lets the child
	 * signal, the signal ends the sleep (the sleep ends at the signal, so this costs nothing). */
	struct timespec req = { 10, 0 }, rem = { 0, 0 };
	int r = nanosleep(&req, &rem);
	check(r == -1 && errno == EINTR && handled == 1 && (rem.tv_sec > 0 || rem.tv_nsec > 0) &&
	      rem.tv_sec < req.tv_sec, "nanosleep, handler with SA_RESTART: EINTR, time left");
	waitpid(pid, NULL, 0);

	handled = 0;
	pid = signal_only();
	rem.tv_sec = rem.tv_nsec = 0;
	r = clock_nanosleep(CLOCK_MONOTONIC, 0, &req, &rem);
	check(r == EINTR && handled == 1 && (rem.tv_sec > 0 || rem.tv_nsec > 0) &&
	      rem.tv_sec < req.tv_sec,
	      "clock_nanosleep, handler with SA_RESTART: EINTR, time left");
	waitpid(pid, NULL, 0);

	/* aarch64 has no pause system call: glibc's pause() is ppoll(NULL, 0, NULL, NULL) there. */
	handled = 0;
	pid = signal_only();
	r = pause();
	check(r == -1 && errno == EINTR && handled == 1, "pause, handler with SA_RESTART: EINTR");
	waitpid(pid, NULL, 0);

	sigset_t none;
	sigemptyset(&none);
	handled = 0;
	pid = signal_only();
	r = sigsuspend(&none);
	check(r == -1 && errno == EINTR && handled == 1,
	      "sigsuspend, handler with SA_RESTART: EINTR");
	waitpid(pid, NULL, 0);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	wait4_case(0);
	wait4_case(SA_RESTART);
	waitid_case(0);
	waitid_case(SA_RESTART);
	sigchld_case();
	pipe_read_case(0);
	pipe_read_case(SA_RESTART);
	pipe_write_case(0);
	pipe_write_case(SA_RESTART);
	sleep_cases();
	return check_summary("restart");
}
