/* A process's file descriptors over the file namespace (include/kernel/fs.h), with Linux's errors in
 * Linux's order: the console on 0, 1 and 2 (reading it gives end of file, like </dev/null;
 * writing prints), then opened files, directories and pipe ends (kernel/pipe.c).
 *
 * A descriptor names an open file description (struct file) from a pool of NFILE; dup, dup2,
 * F_DUPFD and fork make more descriptors naming the same one, so they share its offset and
 * status flags, as on Linux, and it goes back to the pool when the last of them closes. The
 * console on 0-2 is one open file outside the pool, opened for reading and writing, as Linux
 * opens /dev/console O_RDWR once for init and dups it onto 1 and 2 (console_on_rootfs): every
 * process started from the shell shares it (as a login session shares its terminal's), and its
 * status flags return to the defaults when no descriptor names it any more. exit closes every
 * descriptor, so a later process that gets the same pid (the counter wraps) finds nothing open. */
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

static struct file file_pool[NFILE];
/* fds 0-2 of every process the shell starts: F_GETFL is O_RDWR on each, and O_NONBLOCK set
 * through one shows on the others. */
static struct file console = { .kind = FILE_CONSOLE, .flags = O_RDWR };

struct file *file_alloc(enum file_kind kind, unsigned flags)
{
	for (unsigned i = 0; i < NFILE; i++) {
		struct file *f = &file_pool[i];
		if (f->refs)
			continue;
		memset(f, 0, sizeof(*f));
		f->refs = 1;
		f->kind = kind;
		f->flags = flags;
		return f;
	}
	return NULL;
}

static struct file *file_get(struct file *f)
{
	f->refs++;
	return f;
}

void file_put(struct file *f)
{
	if (--f->refs)
		return;
	if (f->kind == FILE_CONSOLE) {
		/* A program's F_SETFL does not outlive the last descriptor: the next one finds
		 * the console as the kernel left it. */
		f->flags &= O_ACCMODE;
		return;
	}
	if (f->kind == FILE_SPECIAL && f->ops->release)
		f->ops->release(f);
}

void fd_table_init(struct fd_table *t)
{
	memset(t, 0, sizeof(*t));
	for (int fd = 0; fd < FD_CONSOLE_FDS; fd++)
		t->fd[fd] = file_get(&console);
	strlcpy(t->cwd, "/", sizeof(t->cwd));
}

void fd_table_release(struct fd_table *t)
{
	for (int fd = 0; fd < FD_MAX; fd++)
		if (t->fd[fd])
			file_put(t->fd[fd]);
	memset(t, 0, sizeof(*t));
}

int fd_table_fork(struct fd_table *child, const struct fd_table *parent)
{
	*child = *parent;
	for (int fd = 0; fd < FD_MAX; fd++)
		if (child->fd[fd])
			file_get(child->fd[fd]);
	return 0;
}

void fd_table_exec(struct fd_table *t)
{
	for (int fd = 0; fd < FD_MAX; fd++)
		if (t->fd[fd] && (t->cloexec & (1u << fd)))
			fd_close(t, fd);
}

struct file *fd_get(struct fd_table *t, long fd)
{
	if (fd < 0 || fd >= FD_MAX)
		return NULL;
	return t->fd[fd];
}

long fd_link_text(const struct file *f, char *buf, size_t size)
{
	int len;

	if (f->kind == FILE_CONSOLE)
		len = snprintf(buf, size, "/dev/console");
	else if (f->kind == FILE_SPECIAL)
		len = f->ops->name(f, buf, size);
	else
		len = snprintf(buf, size, "%s", f->node.path);
	return MIN((long)len, (long)size - 1);
}

bool fd_cloexec(const struct fd_table *t, long fd)
{
	return fd >= 0 && fd < FD_MAX && (t->cloexec & (1u << fd));
}

void fd_set_cloexec(struct fd_table *t, long fd, bool on)
{
	if (fd < 0 || fd >= FD_MAX)
		return;
	t->cloexec = on ? t->cloexec | 1u << fd : t->cloexec & ~(1u << fd);
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
	if (f->kind != FILE_NODE || f->node.kind != FS_NODE_DIR)
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
	if (f->kind != FILE_NODE)
		return -ENOENT; /* no node: the callers that take fds handle the others first */
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

long fd_install(struct fd_table *t, struct file *f, long min, bool cloexec)
{
	for (long fd = MAX(min, 0); fd < FD_MAX; fd++) {
		if (t->fd[fd])
			continue;
		t->fd[fd] = f;
		fd_set_cloexec(t, fd, cloexec);
		return fd;
	}
	file_put(f);
	return -EMFILE;
}

/* What F_GETFL will report of open's flags. */
static unsigned open_status_flags(unsigned long flags)
{
	return (unsigned)(flags & (O_ACCMODE | O_APPEND | O_NONBLOCK));
}

/* The lowest free descriptor, so that open's -EMFILE comes before the pool's -ENFILE. */
static bool table_full(const struct fd_table *t)
{
	for (long fd = 0; fd < FD_MAX; fd++)
		if (!t->fd[fd])
			return false;
	return true;
}

/* /dev/null: reads end at once, writes vanish whole, and lseek leaves it at 0 whatever it is
 * asked (Linux's null_lseek). A shell sends a background job's stdin there. */
static long null_read(struct file *f, struct mm *mm, uint64_t ubuf, uint64_t count)
{
	(void)f, (void)mm, (void)ubuf, (void)count;
	return 0;
}

static long null_write(struct file *f, struct mm *mm, uint64_t ubuf, const char *kbuf,
		       uint64_t count)
{
	(void)f, (void)mm, (void)ubuf, (void)kbuf;
	return (long)count;
}

static int64_t null_llseek(struct file *f, int64_t off, unsigned whence)
{
	(void)off, (void)whence;
	f->pos = 0;
	return 0;
}

static int null_name(const struct file *f, char *buf, size_t size)
{
	return snprintf(buf, size, "%s", f->node.path);
}

static const struct file_ops null_ops = {
	.read = null_read, .write = null_write, .llseek = null_llseek, .name = null_name,
};

/* open of a device node (may_open has checked the mode): a new open file of the console (its
 * input reads as empty, its output prints, as fds 0-2) or of /dev/null; /dev/tty is -ENXIO
 * (no process has a controlling terminal), checked before the descriptor as Linux's tty_open
 * runs inside the open. */
static long open_device(struct fd_table *t, const struct fs_node *n, unsigned long flags)
{
	if (n->rdev != FS_RDEV_NULL && n->rdev != FS_RDEV_CONSOLE)
		return -ENXIO;
	if (table_full(t))
		return -EMFILE;
	bool console = n->rdev == FS_RDEV_CONSOLE;
	struct file *f = file_alloc(console ? FILE_CONSOLE : FILE_SPECIAL, open_status_flags(flags));
	if (!f)
		return -ENFILE;
	f->node = *n;
	if (!console)
		f->ops = &null_ops;
	return fd_install(t, f, 0, flags & O_CLOEXEC);
}

long fd_open(struct mm *mm, struct fd_table *t, long dirfd, uint64_t upath, unsigned long flags)
{
	struct fs_node node;
	bool follow = !(flags & O_NOFOLLOW);

	memset(&node, 0, sizeof(node));
	long err = fd_lookup_at(mm, t, dirfd, upath, follow, false, &node);
	if (err == -ENOENT && (flags & O_CREAT))
		return create_error(mm, t, dirfd, upath, err);
	if (err)
		return err;
	err = may_open(&node, flags);
	if (err)
		return err;
	if (node.kind == FS_NODE_DEV)
		return open_device(t, &node, flags);
	if (table_full(t))
		return -EMFILE;
	struct file *f = file_alloc(FILE_NODE, open_status_flags(flags));
	if (!f)
		return -ENFILE;
	f->node = node;
	return fd_install(t, f, 0, flags & O_CLOEXEC);
}

long fd_dup(struct fd_table *t, long fd, long min, bool cloexec)
{
	struct file *f = fd_get(t, fd);

	if (!f)
		return -EBADF;
	if (min < 0 || min >= FD_MAX)
		return -EINVAL;
	return fd_install(t, file_get(f), min, cloexec);
}

long fd_dup_to(struct fd_table *t, long oldfd, long newfd, bool cloexec, bool dup3)
{
	struct file *f = fd_get(t, oldfd);

	if (dup3 && oldfd == newfd)
		return -EINVAL;
	if (newfd < 0 || newfd >= FD_MAX)
		return -EBADF;
	if (!f)
		return -EBADF;
	if (oldfd == newfd)
		return newfd;
	/* Take the new reference first: the old file may be the same one. */
	file_get(f);
	if (t->fd[newfd])
		file_put(t->fd[newfd]);
	t->fd[newfd] = f;
	fd_set_cloexec(t, newfd, cloexec);
	return newfd;
}

long fd_read(struct mm *mm, struct fd_table *t, long fd, uint64_t ubuf, uint64_t count)
{
	char buf[512];
	struct file *f = fd_get(t, fd);

	if (!f || (f->flags & O_ACCMODE) == O_WRONLY)
		return -EBADF;
	if (f->kind == FILE_NODE && f->node.kind == FS_NODE_DIR)
		return -EISDIR;
	/* Linux's read checks the buffer (access_ok) before the file's own read, so even the
	 * console's empty input refuses a kernel or wrapping buffer. */
	if (!access_ok(mm, ubuf, count))
		return -EFAULT;
	count = MIN(count, (uint64_t)MAX_RW_COUNT);
	if (f->kind == FILE_CONSOLE)
		return 0;
	if (f->kind == FILE_SPECIAL)
		return f->ops->read(f, mm, ubuf, count);
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
	if (f->kind == FILE_CONSOLE)
		return console_write_user(mm, ubuf, count);
	if (f->kind == FILE_SPECIAL)
		return f->ops->write(f, mm, ubuf, NULL, count);
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
	if (f->kind == FILE_CONSOLE) {
		console_write(buf, len);
		return (long)len;
	}
	if (f->kind == FILE_SPECIAL)
		return f->ops->write(f, NULL, 0, buf, len);
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
	t->fd[fd] = NULL;
	fd_set_cloexec(t, fd, false);
	file_put(f);
	return 0;
}
