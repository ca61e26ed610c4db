/* A process's file descriptors over the file namespace (include/kernel/fs.h), with Linux's errors in
 * Linux's order: the console on 0 (reading it gives end of file, like </dev/null), 1 and 2
 * (writing prints), then opened files and directories.
 *
 * Each process has its own table (struct process's `files`): the console only at exec, all
 * closed at exit, so a later process that gets the same pid (the counter wraps) finds nothing
 * open. The console descriptors cannot be closed for good: close(0..2) succeeds and leaves
 * them open, so a program that closes stdout cannot lose the kernel's only output. */
#include <asm/fcntl.h>
#include <kernel/console.h>
#include <kernel/cred.h>
#include <kernel/fs.h>
#include <kernel/kernel.h>
#include <lib/errno.h>
#include <lib/fmt.h>
#include <lib/path.h>
#include <lib/string.h>
#include <kernel/sysctl.h>

#include <kernel/fd.h>

#define USER_PATH_MAX 4096 /* Linux's PATH_MAX: a name this long is -ENAMETOOLONG */
/* proc_dointvec looks at the first PAGE_SIZE - 1 bytes of a write; so do we. */
#define WRITE_MAX 4095
#define CONSOLE_CHUNK 256

void fd_table_init(struct fd_table *t)
{
	memset(t, 0, sizeof(*t));
	for (int fd = 0; fd < FD_CONSOLE_FDS; fd++) {
		t->files[fd].used = true;
		t->files[fd].console = true;
		/* stdin for reading, stdout and stderr for writing (a write to 0 is EBADF, so
		 * nothing a program does with fd 0 reaches the console). */
		t->files[fd].flags = fd == 0 ? O_RDONLY : O_WRONLY;
	}
	strlcpy(t->cwd, "/", sizeof(t->cwd));
}

void fd_table_release(struct fd_table *t)
{
	/* An open file holds nothing but its node and position: closing is forgetting. */
	memset(t, 0, sizeof(*t));
}

struct file *fd_get(struct fd_table *t, long fd)
{
	if (fd < 0 || fd >= FD_MAX || !t->files[fd].used)
		return NULL;
	return &t->files[fd];
}

/* Linux's access_ok: the whole range must lie below the task's TASK_SIZE and not wrap. */
static bool access_ok(const struct mm *mm, uint64_t uaddr, uint64_t len)
{
	return uaddr + len >= uaddr && uaddr + len <= mm->geo.task_size;
}

/* strncpy_from_user into raw (FS_PATH_MAX bytes): -EFAULT for an unreadable name,
 * -ENAMETOOLONG at PATH_MAX, 1 for a name longer than any that exists here, 0. */
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
		if (n < FS_PATH_MAX - 1)
			raw[n] = c;
	}
	raw[MIN(n, (size_t)FS_PATH_MAX - 1)] = '\0';
	return n >= FS_PATH_MAX - 1 ? 1 : 0;
}

/* Where a relative path starts: the cwd for AT_FDCWD, else the directory dirfd names. The
 * errors are those of Linux's path walk: -EBADF for a descriptor that is not open, -ENOTDIR for
 * one that is not a directory (the console's included). */
static long start_dir(struct fd_table *t, long dirfd, const char **dir)
{
	if (dirfd == AT_FDCWD) {
		*dir = t->cwd;
		return 0;
	}
	struct file *f = fd_get(t, dirfd);
	if (!f)
		return -EBADF;
	if (f->console || f->node.kind != FS_NODE_DIR)
		return -ENOTDIR;
	*dir = f->node.path;
	return 0;
}

/* Does the name end in a "." or ".." component ("/proc/self/.")? Then, as for a trailing
 * slash, the component before it is walked through: a link there is followed, though the
 * lexical clean-up leaves the link's own name last. */
static bool ends_in_dot(const char *raw)
{
	const char *last = strrchr(raw, '/');

	last = last ? last + 1 : raw;
	return strcmp(last, ".") == 0 || strcmp(last, "..") == 0;
}

/* The user path at upath, seen from dirfd, cleaned into path (FS_PATH_MAX bytes). A name that
 * ends in "." or ".." counts as having a trailing slash. */
static long user_path_at(struct mm *mm, struct fd_table *t, long dirfd, uint64_t upath,
			 char *path, bool *trailing_slash)
{
	char raw[FS_PATH_MAX];
	const char *dir = "/";
	long err = copy_path(mm, upath, raw);

	if (err < 0)
		return err;
	if (err > 0) /* below PATH_MAX but longer than any name here: nothing by that name */
		return -ENOENT;
	if (raw[0] == '\0')
		return -ENOENT;
	if (raw[0] != '/' && (err = start_dir(t, dirfd, &dir)))
		return err;
	if (path_clean(dir, raw, path, FS_PATH_MAX, trailing_slash))
		return -ENOENT;
	*trailing_slash = *trailing_slash || ends_in_dot(raw);
	return 0;
}

/* An empty path with AT_EMPTY_PATH: dirfd itself. */
static long lookup_empty(struct fd_table *t, long dirfd, struct fs_node *n)
{
	if (dirfd == AT_FDCWD)
		return fs_resolve(t->cwd, true, n);
	struct file *f = fd_get(t, dirfd);
	if (!f)
		return -EBADF;
	if (f->console)
		return -ENOENT; /* no node: the callers that take fds handle the console first */
	*n = f->node;
	return 0;
}

long fd_lookup_at(struct mm *mm, struct fd_table *t, long dirfd, uint64_t upath, bool follow,
		  bool empty_ok, struct fs_node *n)
{
	char path[FS_PATH_MAX], c;
	bool trailing_slash;

	if (empty_ok && copy_from_user(mm, &c, upath, 1) == 0 && c == '\0')
		return lookup_empty(t, dirfd, n);
	long err = user_path_at(mm, t, dirfd, upath, path, &trailing_slash);
	if (err)
		return err;
	/* "name/" must be a directory: the walk follows a link to find out. */
	err = fs_resolve(path, follow || trailing_slash, n);
	if (!err && trailing_slash && n->kind != FS_NODE_DIR)
		return -ENOTDIR;
	return err;
}

/* open(O_CREAT) of a name that does not exist: -EROFS if its directory exists (nothing can be
 * created in the read-only namespace), else the walk's error. */
static long create_error(struct mm *mm, struct fd_table *t, long dirfd, uint64_t upath, long err)
{
	char path[FS_PATH_MAX];
	bool trailing_slash = false;

	if (user_path_at(mm, t, dirfd, upath, path, &trailing_slash))
		return err;
	if (trailing_slash)
		return -EISDIR;
	char *slash = strrchr(path, '/');
	if (!slash) /* not an absolute path: no directory to name */
		return err;
	if (slash == path)
		slash[1] = '\0';
	else
		*slash = '\0';
	return fs_is_directory(path) ? -EROFS : err;
}

/* Everything here belongs to root: root passes every read and write test, everyone else gets
 * the "other" bits (nobody is in no group of these files). Execute needs an x bit even for
 * root, as on Linux. Nothing but a sysctl file can be written: the initramfs is read-only. */
long fs_node_permission(const struct fs_node *n, unsigned uid, unsigned want)
{
	unsigned bits = uid == UID_ROOT ? 07 : n->mode & 07;

	if ((want & 01) && !(n->mode & 0111))
		return -EACCES;
	if ((want & ~bits & 06) != 0)
		return -EACCES;
	if ((want & 02) && n->kind == FS_NODE_FILE)
		return -EROFS;
	return 0;
}

static unsigned wanted_access(unsigned acc)
{
	switch (acc) {
	case O_RDONLY: return 04;
	case O_WRONLY: return 02;
	default: return 06;
	}
}

/* open's checks on what the path named, in Linux's order (do_open, may_open). */
static long may_open(const struct fs_node *n, unsigned long flags)
{
	unsigned acc = (unsigned)(flags & O_ACCMODE);

	if ((flags & O_CREAT) && (flags & O_EXCL))
		return -EEXIST;
	if ((flags & O_DIRECTORY) && n->kind != FS_NODE_DIR)
		return -ENOTDIR;
	if (n->kind == FS_NODE_LINK) /* only with O_NOFOLLOW: the link itself */
		return -ELOOP;
	if (n->kind == FS_NODE_DIR && (acc != O_RDONLY || (flags & O_CREAT)))
		return -EISDIR;
	long err = fs_node_permission(n, current_uid(), wanted_access(acc));
	if (err)
		return err;
	if ((flags & O_TRUNC) && acc != O_RDONLY && n->kind == FS_NODE_FILE)
		return -EROFS;
	if (n->kind == FS_NODE_MAPS) {
		/* /proc/PID/maps: the ptrace access check is made at open (-EACCES), and the
		 * file has no write method. */
		struct fs_node probe = *n;
		char c;
		long r = fs_node_read(&probe, current_uid(), 0, &c, 1);
		if (r < 0)
			return r;
		if (acc != O_RDONLY)
			return -EACCES;
	}
	return 0;
}

static long install(struct fd_table *t, const struct file *f, long min)
{
	for (long fd = MAX(min, 0); fd < FD_MAX; fd++) {
		if (t->files[fd].used)
			continue;
		t->files[fd] = *f;
		t->files[fd].used = true;
		return fd;
	}
	return -EMFILE;
}

long fd_open(struct mm *mm, struct fd_table *t, long dirfd, uint64_t upath, unsigned long flags)
{
	struct file f;
	bool follow = !(flags & O_NOFOLLOW);

	memset(&f, 0, sizeof(f));
	long err = fd_lookup_at(mm, t, dirfd, upath, follow, false, &f.node);
	if (err == -ENOENT && (flags & O_CREAT))
		return create_error(mm, t, dirfd, upath, err);
	if (err)
		return err;
	err = may_open(&f.node, flags);
	if (err)
		return err;
	f.flags = (unsigned)(flags & (O_ACCMODE | O_APPEND | O_NONBLOCK));
	f.cloexec = flags & O_CLOEXEC;
	return install(t, &f, FD_CONSOLE_FDS);
}

long fd_dup(struct fd_table *t, long fd, long min, bool cloexec)
{
	struct file *f = fd_get(t, fd);

	if (!f)
		return -EBADF;
	if (min < 0 || min >= FD_MAX)
		return -EINVAL;
	struct file copy = *f;
	copy.cloexec = cloexec;
	return install(t, &copy, min);
}

long fd_read(struct mm *mm, struct fd_table *t, long fd, uint64_t ubuf, uint64_t count)
{
	char buf[512];
	struct file *f = fd_get(t, fd);

	if (!f || (f->flags & O_ACCMODE) == O_WRONLY)
		return -EBADF;
	if (!f->console && f->node.kind == FS_NODE_DIR)
		return -EISDIR;
	/* Linux's read checks the buffer (access_ok) before the file's own read, so even the
	 * console's empty input refuses a kernel or wrapping buffer. */
	if (!access_ok(mm, ubuf, count))
		return -EFAULT;
	count = MIN(count, (uint64_t)MAX_RW_COUNT);
	if (f->console)
		return 0;
	uint64_t done = 0;
	while (done < count) {
		size_t want = (size_t)MIN((uint64_t)sizeof(buf), count - done);
		long n = fs_node_read(&f->node, current_uid(), f->pos, buf, want);
		if (n < 0)
			return done ? (long)done : n;
		if (n == 0)
			break;
		if (copy_to_user(mm, ubuf + done, buf, (size_t)n))
			return done ? (long)done : -EFAULT;
		f->pos += (uint64_t)n;
		done += (uint64_t)n;
		if ((size_t)n < want)
			break;
	}
	return (long)done;
}

/* The console: every byte printed, in chunks; a fault part way returns what was written. */
static long console_write_user(struct mm *mm, uint64_t ubuf, uint64_t count)
{
	char chunk[CONSOLE_CHUNK];
	uint64_t done = 0;

	while (done < count) {
		size_t n = (size_t)MIN((uint64_t)sizeof(chunk), count - done);
		if (copy_from_user(mm, chunk, ubuf + done, n))
			return done ? (long)done : -EFAULT;
		console_write(chunk, n);
		done += n;
	}
	return (long)done;
}

/* A write of the kernel bytes buf to the sysctl file f, whose permission the caller checked: an
 * empty write, or one past the start of the file (sysctl_writes_strict = 1), is accepted and
 * ignored. */
static long sysctl_file_write(struct file *f, const char *buf, size_t len)
{
	if (len == 0 || f->pos != 0)
		return 0;
	long r = sysctl_write(f->node.sysctl, current_uid(), buf, len);
	if (r < 0)
		return r;
	f->pos += (uint64_t)r;
	return r;
}

/* In Linux's order: a descriptor not open for writing (EBADF), a bad buffer (EFAULT), then the
 * file's own permission test for the writer (EACCES), and only then the sysctl rules. */
long fd_write(struct mm *mm, struct fd_table *t, long fd, uint64_t ubuf, uint64_t count)
{
	static char buf[WRITE_MAX];
	struct file *f = fd_get(t, fd);

	if (!f || (f->flags & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (!access_ok(mm, ubuf, count))
		return -EFAULT;
	count = MIN(count, (uint64_t)MAX_RW_COUNT);
	if (f->console)
		return console_write_user(mm, ubuf, count);
	if (f->node.kind != FS_NODE_SYSCTL)
		return -EINVAL; /* nothing else is open for writing (open refused it) */
	long err = fs_node_permission(&f->node, current_uid(), 02);
	if (err)
		return err;
	size_t len = (size_t)MIN(count, (uint64_t)WRITE_MAX);
	if (len && f->pos == 0 && copy_from_user(mm, buf, ubuf, len))
		return -EFAULT;
	return sysctl_file_write(f, buf, len);
}

long fd_write_kernel(struct file *f, const char *buf, size_t len)
{
	if (f->console) {
		console_write(buf, len);
		return (long)len;
	}
	if (f->node.kind != FS_NODE_SYSCTL)
		return -EINVAL;
	long err = fs_node_permission(&f->node, current_uid(), 02);
	if (err)
		return err;
	return sysctl_file_write(f, buf, MIN(len, (size_t)WRITE_MAX));
}

long fd_close(struct fd_table *t, long fd)
{
	struct file *f = fd_get(t, fd);

	if (!f)
		return -EBADF;
	if (fd < FD_CONSOLE_FDS)
		return 0;
	f->used = false;
	return 0;
}
