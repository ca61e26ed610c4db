/* Waiting for a signal with rt_sigtimedwait (rt_sigtimedwait_time64 on 32-bit ABIs), as
 * glibc's and musl's sigwaitinfo, sigtimedwait and sigwait make it: the signal taken out of the
 * pending set with its siginfo, the lowest number first, a timeout's EAGAIN, EINTR for a
 * handled signal outside the set, EINVAL for a bad timeout or set size, and the blocked mask
 * the same afterwards. Each check prints one line; a failed one says FAIL and the program exits
 * 1. The same binary prints the same lines on Linux. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static volatile sig_atomic_t handled;

static const char *code_name(int code)
{
	switch (code) {
	case SI_USER: return "SI_USER";
	case SI_TKILL: return "SI_TKILL";
	default: return "another code";
	}
}

static long elapsed_ms(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1000 + (t1.tv_nsec - t0->tv_nsec) / 1000000;
}

static void on_usr2(int sig)
{
	(void)sig;
	handled = 1;
}

/* A child that sends sig to its parent after ms milliseconds, then exits. */
static pid_t signal_parent_later(int sig, int ms)
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0) {
		struct timespec d = { 0, ms * 1000000L };
		nanosleep(&d, NULL);
		kill(parent, sig);
		_exit(0);
	}
	return pid;
}

int main(void)
{
	sigset_t set, both, old, now, pending;
	siginfo_t si;
	char line[160];
	struct timespec zero = { 0, 0 }, t0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	both = set;
	sigaddset(&both, SIGUSR2);
	sigprocmask(SIG_BLOCK, &both, &old);

	/* raise is tgkill: the kernel says SI_TKILL (glibc's sigwaitinfo shows it as SI_USER,
	 * POSIX's code; musl passes it on), our pid. */
	raise(SIGUSR1);
	memset(&si, 0, sizeof(si));
	int sig = sigwaitinfo(&set, &si);
	snprintf(line, sizeof(line), "raise, sigwaitinfo -> %s, si_signo %s, %s, si_pid ours",
		 sig == SIGUSR1 ? "SIGUSR1" : "another", si.si_signo == SIGUSR1 ? "SIGUSR1" : "wrong",
		 si.si_code == SI_TKILL ? "SI_USER" : code_name(si.si_code));
	check(sig == SIGUSR1 && si.si_signo == SIGUSR1 &&
	      (si.si_code == SI_TKILL || si.si_code == SI_USER) && si.si_pid == getpid(), line);
	raise(SIGUSR1);
	memset(&si, 0, sizeof(si));
	long r = syscall(SYS_rt_sigtimedwait, &set, &si, NULL, 8);
	check(r == SIGUSR1 && si.si_code == SI_TKILL && si.si_pid == getpid(),
	      "the system call itself: SI_TKILL for raise");
	sigpending(&pending);
	check(!sigismember(&pending, SIGUSR1), "taken: no longer pending");

	/* kill: SI_USER with the sender's pid and uid; the lowest number first. */
	kill(getpid(), SIGUSR2);
	kill(getpid(), SIGUSR1);
	memset(&si, 0, sizeof(si));
	sig = sigtimedwait(&both, &si, &zero);
	check(sig == SIGUSR1 && si.si_code == SI_USER && si.si_pid == getpid() &&
	      si.si_uid == getuid(), "two pending, kill: SIGUSR1 first, SI_USER, si_pid, si_uid");
	sig = sigtimedwait(&both, &si, &zero);
	check(sig == SIGUSR2, "then SIGUSR2");

	errno = 0;
	sig = sigtimedwait(&set, &si, &zero);
	snprintf(line, sizeof(line), "nothing pending, zero timeout -> %s",
		 sig < 0 ? errname(errno) : "a signal");
	check(sig < 0 && errno == EAGAIN, line);

	struct timespec hundred = { 0, 100000000 };
	clock_gettime(CLOCK_MONOTONIC, &t0);
	sig = sigtimedwait(&set, &si, &hundred);
	long ms = elapsed_ms(&t0);
	snprintf(line, sizeof(line), "100 ms timeout -> %s after at least 100 ms",
		 sig < 0 ? errname(errno) : "a signal");
	check(sig < 0 && errno == EAGAIN && ms >= 100 && ms < 2000, line);

	/* A signal sent while we wait wakes us, with the sender's pid. */
	pid_t child = signal_parent_later(SIGUSR1, 50);
	memset(&si, 0, sizeof(si));
	sig = sigwaitinfo(&set, &si);
	check(sig == SIGUSR1 && si.si_pid == child && si.si_code == SI_USER,
	      "waiting, a child's kill: SIGUSR1 from the child's pid");
	waitpid(child, NULL, 0);

	/* sigwait: the number through its pointer; a signal blocked only in the set's sense. */
	int got = 0;
	raise(SIGUSR1);
	check(sigwait(&set, &got) == 0 && got == SIGUSR1, "sigwait -> 0, SIGUSR1");

	/* A handled signal outside the set ends the wait: EINTR, the handler ran. */
	handle(SIGUSR2, on_usr2, SA_RESTART);
	sigset_t only2;
	sigemptyset(&only2);
	sigaddset(&only2, SIGUSR2);
	sigprocmask(SIG_UNBLOCK, &only2, NULL);
	child = signal_parent_later(SIGUSR2, 50);
	struct timespec five = { 5, 0 };
	errno = 0;
	sig = sigtimedwait(&set, &si, &five);
	snprintf(line, sizeof(line), "a handled signal outside the set -> %s, handler ran: %s",
		 sig < 0 ? errname(errno) : "a signal", handled ? "yes" : "no");
	check(sig < 0 && errno == EINTR && handled, line);
	waitpid(child, NULL, 0);

	/* The blocked mask afterwards is the one before. */
	sigprocmask(SIG_BLOCK, NULL, &now);
	check(sigismember(&now, SIGUSR1) && !sigismember(&now, SIGUSR2),
	      "the mask after the waits: unchanged");

	/* The system call's own checks. */
	struct timespec bad = { 0, 1000000000 };
	errno = 0;
	sig = sigtimedwait(&set, &si, &bad);
	snprintf(line, sizeof(line), "tv_nsec 1e9 -> %s", sig < 0 ? errname(errno) : "a signal");
	check(sig < 0 && errno == EINVAL, line);
	r = syscall(SYS_rt_sigtimedwait, &set, NULL, &zero, 4);
	snprintf(line, sizeof(line), "sigsetsize 4 -> %s", r < 0 ? errname(errno) : "success");
	check(r < 0 && errno == EINVAL, line);
	r = syscall(SYS_rt_sigtimedwait, (void *)16, NULL, &zero, 8);
	snprintf(line, sizeof(line), "a bad set pointer -> %s", r < 0 ? errname(errno) : "success");
	check(r < 0 && errno == EFAULT, line);
	/* No siginfo pointer: just the number. */
	raise(SIGUSR1);
	r = syscall(SYS_rt_sigtimedwait, &set, NULL, &zero, 8);
	check(r == SIGUSR1, "no siginfo pointer -> SIGUSR1");

	sigprocmask(SIG_SETMASK, &old, NULL);
	return check_summary("sigwait");
}
