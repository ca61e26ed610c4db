/* Device files and descriptors as Linux 6.1 shows them to a program whose standard input and
 * error are the console (an init started on /dev/console): stat, fstat and lseek of /dev/null,
 * /dev/console and /dev/tty, /proc/self/fd's links for each (and a pipe's), a pipe's capacity
 * through fcntl's F_GETPIPE_SZ and F_SETPIPE_SZ, and mmap of files that have no mmap (EACCES
 * for the access mode first, then ENODEV). Each check prints one line with what it saw; a
 * failed one says FAIL and the program exits 1. The same binary prints the same lines on Linux
 * when started as `setsid devfiles-glibc 0</dev/console 2>/dev/console` (no controlling
 * terminal, as the console never becomes one).
 *   devfiles stdio   fds 0, 1 and 2 only: one open file for reading and writing, as init's
 *                    /dev/console (on Linux: `script -qc 'devfiles-glibc stdio' /dev/null`,
 *                    a terminal opened once and dup'ed, prints the same lines) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "check.h"

/* "char 1:3 mode 0666" for a character device, else what it is. */
static void describe(const struct stat *st, char *out, size_t size)
{
	if (S_ISCHR(st->st_mode))
		snprintf(out, size, "char %u:%u mode 0%o", major(st->st_rdev), minor(st->st_rdev),
			 st->st_mode & 07777);
	else if (S_ISFIFO(st->st_mode))
		snprintf(out, size, "fifo mode 0%o", st->st_mode & 07777);
	else
		snprintf(out, size, "mode 0%o", st->st_mode);
}

static int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_mode == b->st_mode &&
	       a->st_rdev == b->st_rdev;
}

/* stat(path) must be a character device major:minor with mode perm. */
static void check_stat(const char *path, unsigned maj, unsigned min, unsigned perm,
		       struct stat *st)
{
	char line[160], what[64];

	if (stat(path, st) != 0) {
		snprintf(line, sizeof(line), "stat %s -> %s", path, errname(errno));
		check(0, line);
		return;
	}
	describe(st, what, sizeof(what));
	snprintf(line, sizeof(line), "stat %s: %s", path, what);
	check(S_ISCHR(st->st_mode) && major(st->st_rdev) == maj && minor(st->st_rdev) == min &&
	      (st->st_mode & 07777) == perm, line);
}

/* /proc/self/fd/FD must link to want (printed as shown), and stat through it must be the file of st. */
static void check_link(int fd, const char *want, const char *shown, const struct stat *st)
{
	char path[64], target[128], line[256];
	struct stat through;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(path, target, sizeof(target) - 1);
	target[n < 0 ? 0 : n] = '\0';
	snprintf(line, sizeof(line), "readlink /proc/self/fd/N -> %s",
		 n < 0 ? errname(errno) : shown);
	check(n >= 0 && strcmp(target, want) == 0, line);
	if (!st)
		return;
	int r = stat(path, &through);
	snprintf(line, sizeof(line), "stat /proc/self/fd/N (%s) -> %s", want,
		 r ? errname(errno) : same_file(&through, st) ? "the same file" : "another file");
	check(r == 0 && same_file(&through, st), line);
}

static void check_lseek(int fd, off_t off, int whence, long want, const char *what)
{
	char line[128];
	off_t r = lseek(fd, off, whence);

	if (want < 0)
		snprintf(line, sizeof(line), "%s -> %s", what, r < 0 ? errname(errno) : "success");
	else
		snprintf(line, sizeof(line), "%s -> %ld", what, (long)r);
	check(want < 0 ? r < 0 && errno == -want : r == want, line);
}

static void case_null(void)
{
	struct stat st, fst;
	char buf[16], line[128];

	check_stat("/dev/null", 1, 3, 0666, &st);
	int fd = open("/dev/null", O_RDWR);
	check(fd >= 0 && fstat(fd, &fst) == 0 && same_file(&st, &fst),
	      "open /dev/null, fstat: the same file as stat's");
	check_link(fd, "/dev/null", "/dev/null", &st);
	check_lseek(fd, 100, SEEK_SET, 0, "lseek /dev/null 100 SEEK_SET");
	check_lseek(fd, -5, SEEK_END, 0, "lseek /dev/null -5 SEEK_END");
	check_lseek(fd, 7, SEEK_CUR, 0, "lseek /dev/null 7 SEEK_CUR");
	check_lseek(fd, 0, 5, -EINVAL, "lseek /dev/null whence 5");
	snprintf(line, sizeof(line), "read /dev/null -> %ld, write 5 bytes -> %ld",
		 (long)read(fd, buf, sizeof(buf)), (long)write(fd, "hello", 5));
	check(strcmp(line, "read /dev/null -> 0, write 5 bytes -> 5") == 0, line);
	struct stat l;
	check(lstat("/dev/null", &l) == 0 && same_file(&l, &st), "lstat /dev/null: the same");
	close(fd);
}

static void case_console(void)
{
	struct stat st, fst;
	char what[64], line[160];

	check_stat("/dev/console", 5, 1, 0600, &st);
	int fd = open("/dev/console", O_WRONLY | O_NOCTTY);
	check(fd >= 0 && fstat(fd, &fst) == 0 && same_file(&st, &fst),
	      "open /dev/console, fstat: the same file as stat's");
	check_link(fd, "/dev/console", "/dev/console", &st);
	check_lseek(fd, 0, SEEK_CUR, -ESPIPE, "lseek /dev/console");
	close(fd);
	for (int i = 0; i <= 2; i += 2) { /* stdin and stderr: the console */
		if (fstat(i, &fst) != 0) {
			check(0, "fstat 0 and 2");
			continue;
		}
		describe(&fst, what, sizeof(what));
		snprintf(line, sizeof(line), "fstat %d: %s, %s", i, what,
			 same_file(&st, &fst) ? "the console" : "not the console");
		check(same_file(&st, &fst), line);
		check_link(i, "/dev/console", "/dev/console", &st);
	}
	check_lseek(0, 0, SEEK_SET, -ESPIPE, "lseek 0");
}

static void case_tty(void)
{
	struct stat st;
	char line[128];

	check_stat("/dev/tty", 5, 0, 0666, &st);
	int fd = open("/dev/tty", O_RDWR);
	snprintf(line, sizeof(line), "open /dev/tty without a controlling terminal -> %s",
		 fd < 0 ? errname(errno) : "success");
	check(fd < 0 && errno == ENXIO, line);
}

static void case_pipe(void)
{
	int p[2];
	long page = sysconf(_SC_PAGESIZE);
	char line[160], target[64];
	struct stat st;

	if (pipe(p) != 0) {
		check(0, "pipe");
		return;
	}
	fstat(p[0], &st);
	snprintf(target, sizeof(target), "pipe:[%lu]", (unsigned long)st.st_ino);
	check_link(p[0], target, "pipe:[its inode]", NULL);
	check_lseek(p[1], 0, SEEK_CUR, -ESPIPE, "lseek on a pipe");
	long size = fcntl(p[0], F_GETPIPE_SZ);
	check(size >= page && (size & (size - 1)) == 0,
	      "F_GETPIPE_SZ of a new pipe: a power of two, at least a page");
	long r = fcntl(p[1], F_SETPIPE_SZ, 1);
	snprintf(line, sizeof(line), "F_SETPIPE_SZ 1 -> %s",
		 r == page ? "the page size" : r < 0 ? errname(errno) : "another size");
	check(r == page, line);
	check(fcntl(p[0], F_GETPIPE_SZ) == page, "F_GETPIPE_SZ then: the page size");
	r = fcntl(p[1], F_SETPIPE_SZ, 0);
	check(r == page, "F_SETPIPE_SZ 0 -> the page size");
	r = fcntl(p[1], F_SETPIPE_SZ, 0x80000001u);
	snprintf(line, sizeof(line), "F_SETPIPE_SZ 2^31 + 1 -> %s",
		 r < 0 ? errname(errno) : "success");
	check(r < 0 && errno == EINVAL, line);
	/* The capacity is what a writer gets in: a page, and no more. */
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	static char big[3 * 65536];
	long in = 0, n;
	while ((n = write(p[1], big, sizeof(big))) > 0)
		in += n;
	snprintf(line, sizeof(line), "a non-blocking writer fills F_GETPIPE_SZ bytes, then %s",
		 errname(errno));
	check(in == page && errno == EAGAIN, line);
	int fd = open("/dev/null", O_RDONLY);
	r = fcntl(fd, F_GETPIPE_SZ);
	snprintf(line, sizeof(line), "F_GETPIPE_SZ of /dev/null -> %s",
		 r < 0 ? errname(errno) : "success");
	check(r < 0 && errno == EBADF, line);
	close(fd);
	close(p[0]);
	close(p[1]);
}

/* mmap of fd with prot and flags must fail with err (do_mmap's order: EACCES for the access
 * mode first, then ENODEV for a file without an mmap operation). */
static void check_mmap(int fd, int prot, int flags, int err, const char *what)
{
	void *m = mmap(NULL, 4096, prot, flags, fd, 0);

	if (m != MAP_FAILED)
		munmap(m, 4096);
	check_err(m == MAP_FAILED ? -1 : 0, err, what);
}

static void case_mmap(void)
{
	int p[2];

	int fd = open("/dev/null", O_RDWR);
	check_mmap(fd, PROT_READ, MAP_PRIVATE, ENODEV, "mmap /dev/null MAP_PRIVATE");
	check_mmap(fd, PROT_READ | PROT_WRITE, MAP_SHARED, ENODEV,
		   "mmap /dev/null MAP_SHARED PROT_WRITE");
	close(fd);
	fd = open("/dev/null", O_WRONLY);
	check_mmap(fd, PROT_READ, MAP_PRIVATE, EACCES, "mmap /dev/null opened O_WRONLY");
	close(fd);
	fd = open("/dev/console", O_RDWR | O_NOCTTY);
	check_mmap(fd, PROT_READ, MAP_SHARED, ENODEV, "mmap /dev/console");
	close(fd);
	fd = open("/dev/console", O_RDONLY | O_NOCTTY);
	check_mmap(fd, PROT_READ | PROT_WRITE, MAP_SHARED, EACCES,
		   "mmap /dev/console opened O_RDONLY, MAP_SHARED PROT_WRITE");
	check_mmap(fd, PROT_READ | PROT_WRITE, MAP_PRIVATE, ENODEV,
		   "mmap /dev/console opened O_RDONLY, MAP_PRIVATE PROT_WRITE");
	close(fd);
	check_mmap(0, PROT_READ, MAP_PRIVATE, ENODEV, "mmap 0 (the console)");
	if (pipe(p) == 0) {
		check_mmap(p[0], PROT_READ, MAP_PRIVATE, ENODEV, "mmap a pipe's read end");
		check_mmap(p[1], PROT_READ, MAP_PRIVATE, EACCES, "mmap a pipe's write end");
		close(p[0]);
		close(p[1]);
	}
	fd = open("/", O_RDONLY | O_DIRECTORY);
	check_mmap(fd, PROT_READ, MAP_PRIVATE, ENODEV, "mmap a directory");
	close(fd);
	fd = open("/proc/self/maps", O_RDONLY);
	check_mmap(fd, PROT_READ, MAP_PRIVATE, ENODEV, "mmap /proc/self/maps");
	close(fd);
	fd = open("/proc/sys/vm/mmap_rnd_bits", O_RDONLY);
	check_mmap(fd, PROT_READ, MAP_PRIVATE, ENODEV, "mmap /proc/sys/vm/mmap_rnd_bits");
	close(fd);
	check_mmap(99, PROT_READ, MAP_PRIVATE, EBADF, "mmap of a descriptor not open");
}

/* fds 0, 1 and 2 as Linux's init has them (console_on_rootfs: /dev/console opened O_RDWR once,
 * then dup'ed twice), and so any program started from a shell on a terminal: one open file
 * description, open for reading and writing. (Run by itself: the other cases need 0 and 2 on
 * the console, 1 where the lines are kept.) */
static void case_stdio(void)
{
	char line[128];
	int fl[3];

	for (int fd = 0; fd <= 2; fd++) {
		fl[fd] = fcntl(fd, F_GETFL);
		snprintf(line, sizeof(line), "F_GETFL %d: %s", fd,
			 fl[fd] < 0 ? errname(errno) :
			 (fl[fd] & O_ACCMODE) == O_RDWR ? "O_RDWR" :
			 (fl[fd] & O_ACCMODE) == O_WRONLY ? "O_WRONLY" : "O_RDONLY");
		check(fl[fd] >= 0 && (fl[fd] & O_ACCMODE) == O_RDWR, line);
	}
	fcntl(0, F_SETFL, fl[0] | O_NONBLOCK);
	check((fcntl(1, F_GETFL) & O_NONBLOCK) && (fcntl(2, F_GETFL) & O_NONBLOCK),
	      "F_SETFL O_NONBLOCK on 0: 1 and 2 show it (one open file)");
	fcntl(2, F_SETFL, fl[0] & ~O_NONBLOCK);
	check(!(fcntl(0, F_GETFL) & O_NONBLOCK) && !(fcntl(1, F_GETFL) & O_NONBLOCK),
	      "F_SETFL without O_NONBLOCK on 2: 0 and 1 show it");
	struct stat st[3];
	int same = 1;
	for (int fd = 0; fd <= 2; fd++) {
		struct stat ln;
		char path[32];
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		same &= fstat(fd, &st[fd]) == 0 && lstat(path, &ln) == 0 &&
			(ln.st_mode & 0777) == 0700 && same_file(&st[fd], &st[0]);
	}
	check(same, "fstat 0, 1, 2: the same file; /proc/self/fd/0-2: lrwx------");
	static const char through0[] = "a line written to fd 0\n";
	long n = write(0, through0, sizeof(through0) - 1);
	check(n == (long)sizeof(through0) - 1, "write to 0: every byte");
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && strcmp(argv[1], "stdio") == 0) {
		case_stdio();
		return check_summary("devfiles stdio");
	}
	case_null();
	case_console();
	case_tty();
	case_pipe();
	case_mmap();
	return check_summary("devfiles");
}
