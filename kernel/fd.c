/* A process's file descriptors over the file namespace of kernel/procfs.c (fs_read, fs_write):
 * enough for a program to open /proc/sys/vm/mmap_rnd_bits and read or write it the way it would
 * on Linux, with Linux's errors. Descriptors 0, 1 and 2 are the console (0 reads as an empty
 * file, like </dev/null); 3 and up are opened files.
 *
 * Each process has its own table (struct process's `files`): empty at exec, closed at exit, so
 * a later process that gets the same pid (the counter wraps) finds nothing open. */
#include <cred.h>
#include <fs.h>
#include <kernel.h>
#include <lib/errno.h>
#include <lib/fmt.h>
#include <lib/string.h>
#include <sysctl.h>

#include <fd.h>

#define FD_FIRST 3
#define USER_PATH_MAX 4096 /* Linux's PATH_MAX: a name this long is -ENAMETOOLONG */
#define FILE_TEXT_MAX 256  /* a sysctl file's text ("18\n") */
/* proc_dointvec looks at the first PAGE_SIZE - 1 bytes of a write; so do we. */
#define WRITE_MAX 4095

#define O_ACCMODE 03
#define O_RDONLY 00
#define O_WRONLY 01
#define O_RDWR 02

void fd_table_init(struct fd_table *t)
{
	memset(t, 0, sizeof(*t));
}

void fd_table_release(struct fd_table *t)
{
	/* An open file holds nothing but its path and position: closing is forgetting. */
	memset(t, 0, sizeof(*t));
}

/* Linux's access_ok: the whole range must lie below the task's TASK_SIZE and not wrap. */
static bool access_ok(const struct mm *mm, uint64_t uaddr, uint64_t len)
{
	return uaddr + len >= uaddr && uaddr + len <= mm->geo.task_size;
}

/* strncpy_from_user into raw (FD_PATH_MAX bytes): -EFAULT for an unreadable name,
 * -ENAMETOOLONG at PATH_MAX, -ENOENT for "" or a name longer than any that exists here. */
static long copy_path(struct mm *mm, uint64_t upath, char *raw)
{
	size_t n = 0;

	for (;; n++) {
		char c;
		if (n == USER_PATH_MAX)
			return -ENAMETOOLONG;
		if (copy_from_user(mm, &c, upath + n, 1))
			return -EFAULT;
		if (c == '\0')
			break;
		if (n < FD_PATH_MAX - 1)
			raw[n] = c;
	}
	/* Below PATH_MAX but longer than any name here: nothing by that name exists. */
	if (n >= FD_PATH_MAX - 1 || n == 0)
		return -ENOENT;
	raw[n] = '\0';
	return 0;
}

/* The absolute, cleaned-up form of path as seen from the directory dir (an absolute path
 * itself): duplicate slashes and "." components go; a trailing slash is reported (a file named
 * so is ENOTDIR). -ENOENT when the result is longer than any name that exists here. */
static long resolve_path(const char *dir, const char *path, char *out, size_t size,
			 bool *trailing_slash)
{
	char joined[2 * FD_PATH_MAX];

	if (path[0] == '/')
		strlcpy(joined, path, sizeof(joined));
	else
		snprintf(joined, sizeof(joined), "%s/%s", dir, path);
	*trailing_slash = path[strlen(path) - 1] == '/';

	size_t o = 0;
	for (const char *s = joined; *s;) {
		while (*s == '/')
			s++;
		const char *end = s;
		while (*end && *end != '/')
			end++;
		size_t len = (size_t)(end - s);
		if (len == 0 || (len == 1 && s[0] == '.')) {
			s = end;
			continue;
		}
		if (o + 1 + len + 1 > size)
			return -ENOENT;
		out[o++] = '/';
		memcpy(out + o, s, len);
		o += len;
		s = end;
	}
	if (o == 0)
		out[o++] = '/';
	out[o] = '\0';
	return 0;
}

/* Linux's sysctl permission test (test_perm): root gets the owner bits, everyone else the
 * "other" bits (nobody is in no group of these root-owned files). */
static bool may(const struct sysctl_entry *e, unsigned uid, unsigned want)
{
	unsigned mode = uid == UID_ROOT ? e->mode >> 6 : e->mode;

	return (want & ~mode & 07) == 0;
}

static unsigned wanted_access(unsigned acc)
{
	switch (acc) {
	case O_RDONLY: return 04;
	case O_WRONLY: return 02;
	default: return 06;
	}
}

/* What open(2) says about path for uid: 0 (a file), 1 (a directory), or -errno. */
static long lookup(const char *path, bool trailing_slash, unsigned uid, unsigned acc)
{
	const struct sysctl_entry *e = fs_sysctl_file(path);
	char text[FILE_TEXT_MAX];

	if (e && trailing_slash) /* "file/" fails in the path walk, before any permission test */
		return -ENOTDIR;
	if (e)
		return may(e, uid, wanted_access(acc)) ? 0 : -EACCES;
	/* Not a file: fs_read tells a directory from nothing at all. */
	long r = fs_read(path, uid, text, sizeof(text));
	if (r == -EISDIR)
		return acc == O_RDONLY ? 1 : -EISDIR;
	return r < 0 ? r : -ENOENT;
}

static struct file *file_of(struct fd_table *t, long fd)
{
	struct file *files = t->files;

	if (fd < FD_FIRST || fd >= FD_MAX || !files[fd].used)
		return NULL;
	return &files[fd];
}

/* Where openat's relative path starts: "/" (every process's cwd) for AT_FDCWD, else the
 * directory dirfd names; an absolute path ignores dirfd, as on Linux. The errors are those of
 * Linux's path walk: -EBADF for a descriptor that is not open, -ENOTDIR for one that is not a
 * directory (the console's 0-2 included). */
static long start_dir(struct fd_table *t, long dirfd, const char *path, const char **dir)
{
	*dir = "/";
	if (path[0] == '/' || dirfd == AT_FDCWD)
		return 0;
	if (dirfd >= 0 && dirfd < FD_FIRST)
		return -ENOTDIR;
	struct file *f = file_of(t, dirfd);
	if (!f)
		return -EBADF;
	if (!f->dir)
		return -ENOTDIR;
	*dir = f->path;
	return 0;
}

long fd_open(struct mm *mm, struct fd_table *t, long dirfd, uint64_t upath, unsigned long flags)
{
	struct file *files = t->files;
	char raw[FD_PATH_MAX], path[FD_PATH_MAX];
	bool trailing_slash = false;
	long err = copy_path(mm, upath, raw);

	if (err)
		return err;
	const char *dir;
	err = start_dir(t, dirfd, raw, &dir);
	if (!err)
		err = resolve_path(dir, raw, path, sizeof(path), &trailing_slash);
	if (err)
		return err;
	unsigned acc = (unsigned)(flags & O_ACCMODE);
	long kind = lookup(path, trailing_slash, current_uid(), acc);
	if (kind < 0)
		return kind;
	for (int fd = FD_FIRST; fd < FD_MAX; fd++) {
		struct file *f = &files[fd];
		if (f->used)
			continue;
		memset(f, 0, sizeof(*f));
		f->used = true;
		f->dir = kind == 1;
		f->acc = acc;
		strlcpy(f->path, path, sizeof(f->path));
		return fd;
	}
	return -EMFILE;
}

long fd_read(struct mm *mm, struct fd_table *t, long fd, uint64_t ubuf, uint64_t count)
{
	char text[FILE_TEXT_MAX];

	/* Linux's read checks the buffer (access_ok) before the file's own read, so even the
	 * console's empty fd 0 refuses a kernel or wrapping buffer. */
	if (fd == 0)
		return access_ok(mm, ubuf, count) ? 0 : -EFAULT;
	struct file *f = file_of(t, fd);
	if (!f || f->acc == O_WRONLY)
		return -EBADF;
	if (f->dir)
		return -EISDIR;
	if (!access_ok(mm, ubuf, count))
		return -EFAULT;
	long n = fs_read(f->path, current_uid(), text, sizeof(text));
	if (n < 0)
		return n;
	if (f->pos >= (uint64_t)n || count == 0)
		return 0;
	size_t len = (size_t)MIN(count, (uint64_t)n - f->pos);
	if (copy_to_user(mm, ubuf, text + f->pos, len))
		return -EFAULT;
	f->pos += len;
	return (long)len;
}

/* In Linux's order: a descriptor not open for writing (EBADF), a bad buffer (EFAULT), then the
 * file's own permission test for the writer (EACCES), and only then the sysctl rules: an empty
 * write, or one past the start of the file (sysctl_writes_strict = 1), is accepted and ignored. */
long fd_write(struct mm *mm, struct fd_table *t, long fd, uint64_t ubuf, uint64_t count)
{
	static char buf[WRITE_MAX];

	struct file *f = file_of(t, fd);
	if (!f || f->acc == O_RDONLY)
		return -EBADF;
	if (!access_ok(mm, ubuf, count))
		return -EFAULT;
	const struct sysctl_entry *e = fs_sysctl_file(f->path);
	if (e && !may(e, current_uid(), 02))
		return -EACCES;
	if (count == 0 || f->pos != 0)
		return 0;
	size_t len = (size_t)MIN(count, (uint64_t)WRITE_MAX);
	if (copy_from_user(mm, buf, ubuf, len))
		return -EFAULT;
	long r = fs_write(f->path, current_uid(), buf, len);
	if (r < 0)
		return r;
	f->pos += (uint64_t)r;
	return r;
}

long fd_close(struct fd_table *t, long fd)
{
	if (fd >= 0 && fd < FD_FIRST)
		return 0;
	struct file *f = file_of(t, fd);
	if (!f)
		return -EBADF;
	f->used = false;
	return 0;
}
