/* Pipes and descriptors as Linux 6.1 has them (pipe, pipe2, dup, dup2, dup3, fcntl's F_DUPFD,
 * F_DUPFD_CLOEXEC, F_GETFD/F_SETFD, F_GETFL/F_SETFL), one case per argument:
 *   pipes pipe      one process: bytes through, short reads, EOF, EAGAIN, EPIPE (SIGPIPE
 *                   ignored), fstat's S_IFIFO, capacity and PIPE_BUF atomicity with O_NONBLOCK
 *   pipes dup       shared offsets and status flags, FD_CLOEXEC per descriptor, dup errors,
 *                   close really closing (the lowest free descriptor is reused)
 *   pipes sigpipe   a write with no reader and SIGPIPE at its default: killed by SIGPIPE
 *   pipes fork      a producer child and a consumer parent: 1 MiB through, checked; two
 *                   children's PIPE_BUF writes never interleaved; EOF when the writers exit;
 *                   a child killed by SIGPIPE; an inherited descriptor sharing the offset
 *   pipes intr      a signal with a handler ends a waiting read: EINTR without SA_RESTART,
 *                   restarted (the data arrives) with it
 *   pipes cloexec   execve closes the FD_CLOEXEC descriptors (dup3's, pipe2's, F_SETFD's) and
 *                   keeps the others, offset included
 * Each check prints one line; a failed one says FAIL and the program exits 1. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

static void case_pipe(void)
{
	int p[2];
	char buf[64];
	struct stat st, st2;

	check(pipe(p) == 0 && p[0] == 3 && p[1] == 4, "pipe gives the two lowest descriptors");
	check(fcntl(p[0], F_GETFL) == O_RDONLY && fcntl(p[1], F_GETFL) == O_WRONLY,
	      "read end O_RDONLY, write end O_WRONLY");
	check(fstat(p[0], &st) == 0 && fstat(p[1], &st2) == 0 && S_ISFIFO(st.st_mode) &&
	      (st.st_mode & 0777) == 0600 && st.st_ino == st2.st_ino, "fstat: one FIFO, mode 0600");
	char l3[64] = "", l4[64] = "", want[64];
	snprintf(want, sizeof(want), "pipe:[%lu]", (unsigned long)st.st_ino);
	check(readlink("/proc/self/fd/3", l3, sizeof(l3) - 1) > 0 &&
	      readlink("/proc/self/fd/4", l4, sizeof(l4) - 1) > 0 && strcmp(l3, want) == 0 &&
	      strcmp(l4, want) == 0, "/proc/self/fd/3 and 4 link to pipe:[its inode]");
	check(write(p[1], "hello, ", 7) == 7 && write(p[1], "pipe", 4) == 4, "two writes");
	check(read(p[0], buf, 5) == 5 && memcmp(buf, "hello", 5) == 0, "a short read");
	check(read(p[0], buf, sizeof(buf)) == 6 && memcmp(buf, ", pipe", 6) == 0,
	      "read returns what is there");
	check_err(write(p[0], "x", 1), EBADF, "write to the read end");
	check_err(read(p[1], buf, 1), EBADF, "read from the write end");
	check_err(lseek(p[0], 0, SEEK_CUR), ESPIPE, "lseek");
	check(fcntl(p[0], F_SETFL, O_NONBLOCK) == 0, "F_SETFL O_NONBLOCK");
	check_err(read(p[0], buf, 1), EAGAIN, "empty, O_NONBLOCK read");
	close(p[1]);
	check(read(p[0], buf, sizeof(buf)) == 0, "no writer left: end of file");
	close(p[0]);

	check_err(pipe2(p, O_APPEND), EINVAL, "pipe2(O_APPEND)");
	check(pipe2(p, O_NONBLOCK | O_CLOEXEC) == 0, "pipe2(O_NONBLOCK | O_CLOEXEC)");
	check(fcntl(p[0], F_GETFD) == FD_CLOEXEC && fcntl(p[1], F_GETFD) == FD_CLOEXEC &&
	      (fcntl(p[1], F_GETFL) & O_NONBLOCK), "both ends FD_CLOEXEC and O_NONBLOCK");
	/* Fill it a byte at a time: the capacity. */
	long cap = 0;
	while (write(p[1], "x", 1) == 1)
		cap++;
	check(errno == EAGAIN, "full: EAGAIN");
	printf("capacity %ld\n", cap);
	/* Make room for less than PIPE_BUF: a PIPE_BUF write is all or nothing, a longer one
	 * goes in part. */
	static char big[PIPE_BUF + 1000];
	check(read(p[0], big, PIPE_BUF - 1) == PIPE_BUF - 1, "room for PIPE_BUF - 1");
	check_err(write(p[1], big, PIPE_BUF), EAGAIN, "PIPE_BUF bytes, atomic");
	/* A longer one: what fits here (a byte stream); Linux's page-sized slots take nothing
	 * (EAGAIN) when none is free. */
	long r = write(p[1], big, PIPE_BUF + 1);
	check(r == PIPE_BUF - 1 || (r == -1 && errno == EAGAIN), "PIPE_BUF + 1 bytes: what fits");
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	check_err(write(p[1], "x", 1), EPIPE, "no reader left, SIGPIPE ignored");
	close(p[1]);
	int *volatile bad = (int *)8; /* hidden from the compiler's bounds checks */
	check_err(pipe(bad), EFAULT, "pipe to a bad pointer");
	int fd = dup(0);
	check(fd == 3, "and closed both ends again");
	close(fd);
}

static void case_dup(void)
{
	const char *self = "/proc/self/exe";
	char buf[8];
	int fd = open(self, O_RDONLY);

	check(fd == 3, "open");
	int d = dup(fd);
	check(d == 4, "dup: the lowest free descriptor");
	check(read(fd, buf, 4) == 4 && memcmp(buf, "\177ELF", 4) == 0, "read 4 bytes");
	check(lseek(d, 0, SEEK_CUR) == 4, "the duplicate's offset moved too");
	check(lseek(d, 1, SEEK_SET) == 1 && read(fd, buf, 3) == 3 && memcmp(buf, "ELF", 3) == 0,
	      "and the other way");
	check(dup2(fd, 10) == 10 && lseek(10, 0, SEEK_CUR) == 4, "dup2 to 10 shares it");
	check(dup2(fd, fd) == fd, "dup2 onto itself");
	check_err(dup2(9, 11), EBADF, "dup2 of a closed descriptor");
	check_err(dup2(fd, 100000), EBADF, "dup2 beyond RLIMIT_NOFILE");
	check_err(dup3(fd, fd, 0), EINVAL, "dup3 onto itself");
	check_err(dup3(fd, 11, O_NONBLOCK), EINVAL, "dup3 with O_NONBLOCK");
	check(dup3(fd, 11, O_CLOEXEC) == 11 && fcntl(11, F_GETFD) == FD_CLOEXEC &&
	      fcntl(fd, F_GETFD) == 0, "dup3(O_CLOEXEC): FD_CLOEXEC on the new one only");
	check(fcntl(fd, F_DUPFD, 10) == 12, "F_DUPFD 10: the lowest free from 10");
	check(fcntl(fd, F_DUPFD_CLOEXEC, 0) == 5 && fcntl(5, F_GETFD) == FD_CLOEXEC,
	      "F_DUPFD_CLOEXEC");
	check(fcntl(5, F_SETFD, 0) == 0 && fcntl(5, F_GETFD) == 0, "F_SETFD 0");
	check_err(fcntl(fd, F_DUPFD, -1), EINVAL, "F_DUPFD -1");
	check(fcntl(d, F_SETFL, O_NONBLOCK) == 0 && (fcntl(fd, F_GETFL) & O_NONBLOCK),
	      "O_NONBLOCK set through one is the other's");
	int saved = dup(1);
	int ok = dup2(fd, 1) == 1 && lseek(1, 0, SEEK_CUR) == 4;
	dup2(saved, 1); /* stdout back before the line is printed */
	close(saved);
	check(ok, "dup2 over stdout");
	check(close(10) == 0 && close(10) == -1 && dup(fd) == 6, "close really closes");
	close(0);
	check(open(self, O_RDONLY) == 0, "close(0): the next open gets 0");
	check(dup2(2, 0) == 0 && fcntl(0, F_GETFL) == fcntl(2, F_GETFL), "dup2 of stderr onto 0");
}

static void case_sigpipe(void)
{
	int p[2];

	if (pipe(p))
		return;
	close(p[0]);
	printf("writing with no reader\n");
	fflush(stdout);
	write(p[1], "x", 1);
	printf("survived SIGPIPE: FAIL\n");
	exit(1);
}

static int wait_status(pid_t pid)
{
	int st = -1;

	return waitpid(pid, &st, 0) == pid ? st : -1;
}

#define STREAM (1 << 20)

static unsigned char pattern(long i)
{
	return (unsigned char)(i * 7 + (i >> 12));
}

static void producer(int fd)
{
	static unsigned char chunk[3000]; /* not a divisor of the capacity: wrap-around */
	long sent = 0;

	while (sent < STREAM) {
		long n = STREAM - sent < (long)sizeof(chunk) ? STREAM - sent : (long)sizeof(chunk);
		for (long i = 0; i < n; i++)
			chunk[i] = pattern(sent + i);
		long w = write(fd, chunk, n);
		if (w <= 0)
			_exit(2);
		sent += w;
	}
	_exit(0);
}

static void case_fork(void)
{
	int p[2];
	static unsigned char buf[8192];

	/* 1 MiB through the pipe from a child, in odd-sized pieces both ways. */
	check(pipe(p) == 0, "pipe");
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		producer(p[1]);
	}
	close(p[1]);
	long got = 0, bad = 0, n, reads = 0;
	while ((n = read(p[0], buf, 1 + (reads * 997) % sizeof(buf))) > 0) {
		for (long i = 0; i < n; i++)
			bad += buf[i] != pattern(got + i);
		got += n;
		reads++;
	}
	check(n == 0 && got == STREAM && bad == 0, "1 MiB from a child, every byte right, then EOF");
	check(wait_status(pid) == 0, "the producer exited 0");
	close(p[0]);

	/* Two writers of PIPE_BUF records: each record arrives whole. */
	check(pipe(p) == 0, "pipe");
	pid_t w[2];
	for (int k = 0; k < 2; k++) {
		w[k] = fork();
		if (w[k] == 0) {
			static char rec[PIPE_BUF];
			close(p[0]);
			memset(rec, 'A' + k, sizeof(rec));
			for (int i = 0; i < 64; i++)
				if (write(p[1], rec, sizeof(rec)) != sizeof(rec))
					_exit(2);
			_exit(0);
		}
	}
	close(p[1]);
	long records = 0, torn = 0;
	static char rec[PIPE_BUF];
	for (;;) {
		long have = 0;
		while (have < PIPE_BUF && (n = read(p[0], rec + have, PIPE_BUF - have)) > 0)
			have += n;
		if (have == 0)
			break;
		for (long i = 1; i < have; i++)
			torn += rec[i] != rec[0];
		records++;
	}
	check(records == 128 && torn == 0, "two writers' PIPE_BUF records never interleave");
	check(wait_status(w[0]) == 0 && wait_status(w[1]) == 0, "both writers exited 0");
	close(p[0]);

	/* A child writing to a pipe nobody reads: killed by SIGPIPE. */
	signal(SIGPIPE, SIG_DFL);
	check(pipe(p) == 0, "pipe");
	close(p[0]);
	pid = fork();
	if (pid == 0) {
		write(p[1], "x", 1);
		_exit(0);
	}
	int st = wait_status(pid);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGPIPE, "a writer with no reader: SIGPIPE");
	close(p[1]);

	/* The reader blocks until the child writes. */
	check(pipe(p) == 0, "pipe");
	pid = fork();
	if (pid == 0) {
		usleep(50000);
		write(p[1], "late", 4);
		_exit(0);
	}
	close(p[1]);
	check(read(p[0], buf, sizeof(buf)) == 4 && memcmp(buf, "late", 4) == 0,
	      "a read waits for the writer");
	check(read(p[0], buf, sizeof(buf)) == 0, "then EOF");
	wait_status(pid);
	close(p[0]);

	/* A descriptor inherited across fork shares its offset with the parent's. */
	int fd = open("/proc/self/exe", O_RDONLY);
	pid = fork();
	if (pid == 0)
		_exit(read(fd, buf, 100) == 100 ? 0 : 1);
	check(wait_status(pid) == 0 && lseek(fd, 0, SEEK_CUR) == 100,
	      "the child's read moved the parent's offset");
	close(fd);
}

static volatile sig_atomic_t handled;

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
}

/* A child signals its parent, which waits in read, 50 ms on; with restart it then writes. */
static void interrupted_read(int flags, const char *what)
{
	int p[2];
	char buf[8];

	handle(SIGUSR1, on_usr1, flags);
	handled = 0;
	if (pipe(p))
		return;
	pid_t parent = getpid(), pid = fork();
	if (pid == 0) {
		usleep(50000);
		kill(parent, SIGUSR1);
		usleep(50000);
		write(p[1], "data", 4);
		_exit(0);
	}
	long r = read(p[0], buf, sizeof(buf));
	if (flags & SA_RESTART)
		check(r == 4 && handled == 1, what);
	else
		check(r == -1 && errno == EINTR && handled == 1, what);
	wait_status(pid);
	close(p[0]);
	close(p[1]);
}

static void case_intr(void)
{
	interrupted_read(0, "a handler ends a waiting read: EINTR");
	interrupted_read(SA_RESTART, "with SA_RESTART the read goes on");
}

/* Before the exec: 3 a file read 10 bytes into, 4 its FD_CLOEXEC duplicate, 5 and 6 a pipe2
 * (O_CLOEXEC), 7 a pipe's read end with FD_CLOEXEC cleared by F_SETFD (its write end 8 set). */
static void case_cloexec(void)
{
	char buf[16];
	int p[2], q[2];

	check(open("/proc/self/exe", O_RDONLY) == 3 && read(3, buf, 10) == 10, "open, read 10");
	check(dup3(3, 4, O_CLOEXEC) == 4, "dup3 O_CLOEXEC");
	check(pipe2(p, O_CLOEXEC) == 0 && p[0] == 5 && p[1] == 6, "pipe2 O_CLOEXEC");
	check(pipe2(q, O_CLOEXEC) == 0 && fcntl(q[0], F_SETFD, 0) == 0 && q[0] == 7, "F_SETFD 0");
	check(pipe(p) == 0 && fcntl(p[1], F_SETFD, FD_CLOEXEC) == 0 && p[1] == 10, "F_SETFD 1");
	char *argv[] = { "pipes", "after-exec", NULL };
	execv("/proc/self/exe", argv);
	printf("execv: FAIL (%s)\n", errname(errno));
	exit(1);
}

static void case_after_exec(void)
{
	check(fcntl(3, F_GETFD) == 0 && lseek(3, 0, SEEK_CUR) == 10, "3 kept, its offset too");
	check_err(fcntl(4, F_GETFD), EBADF, "4 (dup3 O_CLOEXEC) closed");
	check_err(fcntl(5, F_GETFD), EBADF, "5 (pipe2 O_CLOEXEC) closed");
	check_err(fcntl(6, F_GETFD), EBADF, "6 (pipe2 O_CLOEXEC) closed");
	check(fcntl(7, F_GETFD) == 0, "7 (F_SETFD 0) kept");
	check(fcntl(9, F_GETFD) == 0, "9 (a pipe's read end) kept");
	check_err(fcntl(10, F_GETFD), EBADF, "10 (F_SETFD FD_CLOEXEC) closed");
	char c;
	check(read(9, &c, 1) == 0, "its write end gone with the exec: EOF");
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IONBF, 0); /* children's lines in order */
	if (strcmp(what, "pipe") == 0)
		case_pipe();
	else if (strcmp(what, "dup") == 0)
		case_dup();
	else if (strcmp(what, "sigpipe") == 0)
		case_sigpipe();
	else if (strcmp(what, "fork") == 0)
		case_fork();
	else if (strcmp(what, "intr") == 0)
		case_intr();
	else if (strcmp(what, "cloexec") == 0)
		case_cloexec();
	else if (strcmp(what, "after-exec") == 0)
		case_after_exec();
	else {
		fprintf(stderr, "usage: pipes pipe|dup|sigpipe|fork|intr|cloexec\n");
		return 2;
	}
	char name[32];
	snprintf(name, sizeof(name), "pipes %s", what);
	return check_summary(name);
}
