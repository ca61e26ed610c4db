/* The file namespace (include/kernel/fs.h) and the commands that read it: `cat`, `ls` and `echo`
 * (whose output the shell may redirect with `>`).
 *
 *   /                 the initramfs tree (kernel/initramfs.c), dev and proc
 *   /dev              the devices the kernel serves: console, null, tty (devtmpfs)
 *   /proc/sys/...     sysctl entries as files; directories derived from their names, so a new
 *                     sysctl entry appears here without anything to register
 *   /proc/self        a link to /proc/PID of the calling process (none in the shell)
 *   /proc/PID/maps    the running or the kept process's VMAs (kernel/proc_maps.c)
 *   /proc/PID/exe     a link to the file it was exec'd from */
#include <kernel/console.h>
#include <kernel/cred.h>
#include <kernel/fd.h>
#include <kernel/fs.h>
#include <kernel/initramfs.h>
#include <kernel/kernel.h>
#include <lib/errno.h>
#include <lib/fmt.h>
#include <lib/path.h>
#include <lib/string.h>
#include <kernel/proc.h>
#include <kernel/shell.h>
#include <kernel/sysctl.h>

static const char proc_sys[] = "/proc/sys";

#define SYSCTL_TEXT_MAX 256   /* a sysctl file's text ("18\n") */
#define PROC_INO_SYS 2        /* /proc/sys; /proc itself is 1, as on Linux */
#define PROC_INO_SYSCTL 1000  /* + the entry's place in the table (dirs: + 500) */
/* /proc/PID (k 0), its maps (1), exe (2), fd (3) */
#define PROC_INO_PID(pid, k) (100000ull + (uint64_t)(pid) * 4 + (k))
#define PROC_INO_FD_BASE 10000000ull /* /proc/PID/fd/N: + pid * FD_MAX + N */
#define PROC_INO_FD(pid, fd) (PROC_INO_FD_BASE + (uint64_t)(pid) * FD_MAX + (uint64_t)(fd))

/* --- /proc/sys ---------------------------------------------------------------------------- */

/* The sysctl key under /proc/sys for path ("vm/mmap_rnd_bits"), or NULL if path is not below
 * it. The files are named by slashes only: a dot in the key is part of a name no file has
 * (/proc/sys/vm.mmap_rnd_bits does not exist on Linux either). */
static const char *sysctl_key(const char *path)
{
	size_t n = sizeof(proc_sys) - 1;

	if (strncmp(path, proc_sys, n) != 0 || path[n] != '/' || strchr(path + n + 1, '.'))
		return NULL;
	return path + n + 1;
}

const struct sysctl_entry *fs_sysctl_file(const char *path)
{
	const char *key = sysctl_key(path);

	return key ? sysctl_find(key) : NULL;
}

static void dotted_key(const char *key, char *out, size_t size)
{
	strlcpy(out, key, size);
	for (char *p = out; *p; p++)
		if (*p == '/')
			*p = '.';
}

/* Is key ("vm") a proper prefix of some sysctl name, i.e. a directory? Its number (for the
 * inode), else -1. */
static int sysctl_dir_number(const char *key)
{
	char dotted[FS_PATH_MAX];
	int i = 0;

	dotted_key(key, dotted, sizeof(dotted));
	size_t n = strlen(dotted);
	for (const struct sysctl_entry *e = sysctl_next(NULL); e; e = sysctl_next(e), i++)
		if (n && strncmp(e->name, dotted, n) == 0 && e->name[n] == '.')
			return i;
	return -1;
}

static int sysctl_number(const struct sysctl_entry *want)
{
	int i = 0;

	for (const struct sysctl_entry *e = sysctl_next(NULL); e; e = sysctl_next(e), i++)
		if (e == want)
			return i;
	return 0;
}

/* --- /dev -------------------------------------------------------------------------------- */

/* /dev as Debian's Linux 6.1 has it: devtmpfs (st_dev 0:5), each node with the mode devtmpfs
 * gives it (the console 0600; tty and null 0666, their devnode's). Only the devices this kernel
 * serves: the console (fds 0-2 of every process), null, and tty, which no process can open
 * (-ENXIO: nobody has a controlling terminal, as an init on /dev/console has none). Mounted
 * over the initramfs's /dev, as devtmpfs would be. */
struct dev_node {
	const char *name;
	unsigned mode;
	unsigned rdev;
	uint64_t ino;
};

static const struct dev_node dev_nodes[] = { /* in name order, as ls lists them */
	{ "console", S_IFCHR | 0600, FS_RDEV_CONSOLE, 2 },
	{ "null", S_IFCHR | 0666, FS_RDEV_NULL, 4 },
	{ "tty", S_IFCHR | 0666, FS_RDEV_TTY, 3 },
};
#define DEV_INO_ROOT 1

static int resolve_dev(const char *path, struct fs_node *n)
{
	const char *name = path + 4; /* after "/dev" */

	n->dev_minor = FS_DEV_DEVTMPFS_MINOR;
	if (!*name) {
		n->kind = FS_NODE_DIR;
		n->mode = S_IFDIR | 0755;
		n->ino = DEV_INO_ROOT;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(dev_nodes); i++) {
		const struct dev_node *d = &dev_nodes[i];
		size_t len = strlen(d->name);
		if (strncmp(name + 1, d->name, len) != 0)
			continue;
		if (name[1 + len] == '/')
			return -ENOTDIR;
		if (name[1 + len])
			continue;
		n->kind = FS_NODE_DEV;
		n->mode = d->mode;
		n->ino = d->ino;
		n->rdev = d->rdev;
		return 0;
	}
	return -ENOENT;
}

struct lister;
static void list_dev(struct lister *l);

/* --- /proc/PID ----------------------------------------------------------------------------- */

/* The process a pid names: the running one or the kept one. */
static struct process *process_of(int pid)
{
	struct process *cur = current_process();

	if (cur && cur->pid == pid)
		return cur;
	return pid > 0 ? kept_process(pid) : NULL;
}

/* A /proc/NUMBER component ("42" up to the next slash): the pid, or 0. */
static int pid_component(const char *s, const char **rest)
{
	int pid = 0;

	if (*s < '1' || *s > '9')
		return 0;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (pid > 10000000)
			return 0;
		pid = pid * 10 + (*s - '0');
	}
	if (*s && *s != '/')
		return 0;
	*rest = s;
	return pid;
}

/* --- Resolving ----------------------------------------------------------------------------- */

static void set_dir(struct fs_node *n, unsigned perm, uint64_t ino, unsigned dev_minor)
{
	n->kind = FS_NODE_DIR;
	n->mode = S_IFDIR | perm;
	n->ino = ino;
	n->dev_minor = dev_minor;
}

/* /proc/PID/fd/N: a link per open descriptor, its permission bits the access mode's (lr-x,
 * l-wx, lrwx as Linux's), st_size 64 as Linux's. Followed, it is the file the descriptor's
 * open file was opened from: a path, /dev/console, /dev/null; a pipe has no node here
 * (-ENOENT; Linux's magic link reaches the pipe itself). */
static int resolve_fd(struct process *p, const char *name, bool follow, struct fs_node *n)
{
	int fd = 0;

	if (name[0] < '0' || name[0] > '9' || (name[0] == '0' && name[1]))
		return -ENOENT;
	for (; *name >= '0' && *name <= '9' && fd < FD_MAX; name++)
		fd = fd * 10 + (*name - '0');
	struct file *f = fd_get(&p->files, fd);
	if (*name || !f)
		return -ENOENT;
	if (follow) {
		char target[FS_PATH_MAX];
		fd_link_text(f, target, sizeof(target));
		return target[0] == '/' ? fs_resolve(target, true, n) : -ENOENT;
	}
	unsigned acc = f->flags & O_ACCMODE;
	n->kind = FS_NODE_LINK;
	n->mode = S_IFLNK | (acc != O_WRONLY ? 0500 : 0) | (acc != O_RDONLY ? 0300 : 0);
	n->ino = PROC_INO_FD(p->pid, fd);
	n->size = 64;
	return 0;
}

/* path names something under /proc (path is "/proc" or below it): 0 or -ENOENT/-ENOTDIR. */
static int resolve_proc(const char *path, bool follow, struct fs_node *n)
{
	const char *rest = path + 5; /* after "/proc" */

	n->dev_minor = FS_DEV_PROC_MINOR;
	if (!*rest) {
		set_dir(n, 0555, 1, FS_DEV_PROC_MINOR);
		return 0;
	}
	rest++; /* the slash */
	if (strncmp(rest, "sys", 3) == 0 && (rest[3] == '\0' || rest[3] == '/')) {
		const struct sysctl_entry *e = fs_sysctl_file(path);
		const char *key = sysctl_key(path);
		int dir;
		if (e) {
			n->kind = FS_NODE_SYSCTL;
			n->mode = S_IFREG | e->mode;
			n->ino = PROC_INO_SYSCTL + (uint64_t)sysctl_number(e);
			n->sysctl = e;
			return 0;
		}
		if (!key) {
			if (rest[3] == '\0') {
				set_dir(n, 0555, PROC_INO_SYS, FS_DEV_PROC_MINOR);
				return 0;
			}
			return -ENOENT;
		}
		if ((dir = sysctl_dir_number(key)) >= 0) {
			set_dir(n, 0555, PROC_INO_SYSCTL + 500 + (uint64_t)dir, FS_DEV_PROC_MINOR);
			return 0;
		}
		/* Below a sysctl file: ENOTDIR. */
		char prefix[FS_PATH_MAX];
		strlcpy(prefix, path, sizeof(prefix));
		for (char *slash; (slash = strrchr(prefix, '/')) && slash > prefix + 9;) {
			*slash = '\0';
			if (fs_sysctl_file(prefix))
				return -ENOTDIR;
		}
		return -ENOENT;
	}

	int pid;
	const char *after;
	if (strncmp(rest, "self", 4) == 0 && (rest[4] == '\0' || rest[4] == '/')) {
		struct process *cur = current_process();
		if (!cur)
			return -ENOENT;
		if (rest[4] == '\0' && !follow) {
			n->kind = FS_NODE_LINK;
			n->mode = S_IFLNK | 0777;
			n->ino = PROC_INO_PID(0, 0);
			n->pid = cur->pid;
			return 0;
		}
		pid = cur->pid;
		after = rest + 4;
	} else if (!(pid = pid_component(rest, &after))) {
		return -ENOENT;
	}
	struct process *p = process_of(pid);
	if (!p)
		return -ENOENT;
	n->pid = pid;
	snprintf(n->path, sizeof(n->path), "/proc/%d%s", pid, after);
	if (!*after) {
		set_dir(n, 0555, PROC_INO_PID(pid, 0), FS_DEV_PROC_MINOR);
		return 0;
	}
	after++;
	if (strcmp(after, "maps") == 0) {
		n->kind = FS_NODE_MAPS;
		n->mode = S_IFREG | 0444;
		n->ino = PROC_INO_PID(pid, 1);
		return 0;
	}
	if (strcmp(after, "exe") == 0 && p->exe) {
		if (follow)
			return fs_resolve(p->exe->path, true, n);
		n->kind = FS_NODE_LINK;
		n->mode = S_IFLNK | 0777;
		n->ino = PROC_INO_PID(pid, 2);
		return 0;
	}
	if (strcmp(after, "fd") == 0) {
		set_dir(n, 0555, PROC_INO_PID(pid, 3), FS_DEV_PROC_MINOR);
		return 0;
	}
	if (strncmp(after, "fd/", 3) == 0)
		return resolve_fd(p, after + 3, follow, n);
	if (strncmp(after, "maps/", 5) == 0 || strncmp(after, "exe/", 4) == 0)
		return -ENOTDIR;
	return -ENOENT;
}

/* Some proper prefix of path is an initramfs file: ENOTDIR rather than ENOENT. */
static bool below_a_file(const char *path)
{
	char prefix[FS_PATH_MAX];

	strlcpy(prefix, path, sizeof(prefix));
	for (char *slash; (slash = strrchr(prefix, '/')) && slash > prefix;) {
		*slash = '\0';
		if (fs_file_lookup(prefix))
			return true;
	}
	return false;
}

int fs_resolve(const char *path, bool follow, struct fs_node *n)
{
	memset(n, 0, sizeof(*n));
	strlcpy(n->path, path, sizeof(n->path));
	n->dev_minor = FS_DEV_ROOTFS_MINOR;
	if (strcmp(path, "/") == 0) {
		set_dir(n, 0755, 1, FS_DEV_ROOTFS_MINOR);
		return 0;
	}
	if (strncmp(path, "/proc", 5) == 0 && (path[5] == '\0' || path[5] == '/'))
		return resolve_proc(path, follow, n);
	if (strncmp(path, "/dev", 4) == 0 && (path[4] == '\0' || path[4] == '/'))
		return resolve_dev(path, n);
	const struct fs_file *f = ramfs_lookup(path);
	if (!f)
		return below_a_file(path) ? -ENOTDIR : -ENOENT;
	n->file = f;
	n->ino = f->ino;
	n->mode = f->mode;
	if ((f->mode & S_IFMT) == S_IFDIR) {
		n->kind = FS_NODE_DIR;
	} else {
		n->kind = FS_NODE_FILE;
		n->size = f->size;
	}
	return 0;
}

bool fs_is_directory(const char *path)
{
	struct fs_node n;

	return fs_resolve(path, true, &n) == 0 && n.kind == FS_NODE_DIR;
}

/* --- Reading ------------------------------------------------------------------------------- */

/* Bytes [pos, pos + size) of a text produced piece by piece, copied into buf. */
struct window {
	uint64_t pos, at;
	char *buf;
	size_t size, len;
};

static void window_put(void *ctx, const char *s, size_t n)
{
	struct window *w = ctx;
	uint64_t lo = MAX(w->at, w->pos), hi = MIN(w->at + n, w->pos + w->size);

	if (lo < hi) {
		memcpy(w->buf + (lo - w->pos), s + (lo - w->at), (size_t)(hi - lo));
		w->len = (size_t)(hi - w->pos);
	}
	w->at += n;
}

static long slice(const char *text, size_t len, uint64_t pos, char *buf, size_t size)
{
	if (pos >= len)
		return 0;
	size_t n = (size_t)MIN((uint64_t)size, len - pos);
	memcpy(buf, text + pos, n);
	return (long)n;
}

long fs_node_read(const struct fs_node *n, unsigned uid, uint64_t pos, char *buf, size_t size)
{
	switch (n->kind) {
	case FS_NODE_DIR:
		return -EISDIR;
	case FS_NODE_FILE:
		return slice((const char *)n->file->data, n->file->size, pos, buf, size);
	case FS_NODE_SYSCTL: {
		char text[SYSCTL_TEXT_MAX];
		long len = sysctl_read(n->sysctl, uid, text, sizeof(text));
		return len < 0 ? len : slice(text, (size_t)len, pos, buf, size);
	}
	case FS_NODE_MAPS: {
		const struct process *p = process_of(n->pid);
		if (!p)
			return 0; /* it went away: an empty file, as Linux's for a dead task */
		if (!may_inspect_process(p, uid))
			return -EACCES;
		struct window w = { .pos = pos, .buf = buf, .size = size };
		proc_maps_text(p, window_put, &w);
		return (long)w.len;
	}
	case FS_NODE_DEV: /* the console's input is empty, as fd 0's */
		return n->rdev == FS_RDEV_TTY ? -ENXIO : 0;
	default:
		return -EINVAL;
	}
}

long fs_node_readlink(const struct fs_node *n, char *buf, size_t size)
{
	if (n->kind != FS_NODE_LINK)
		return -EINVAL;
	const struct process *p = process_of(n->pid);
	if (!p)
		return -ENOENT;
	int len;
	if (n->ino >= PROC_INO_FD_BASE) { /* /proc/PID/fd/N */
		struct file *f = fd_get((struct fd_table *)&p->files, (long)(n->ino % FD_MAX));
		if (!f)
			return -ENOENT;
		return fd_link_text(f, buf, size);
	}
	if (n->ino == PROC_INO_PID(0, 0)) /* /proc/self */
		len = snprintf(buf, size, "%d", p->pid);
	else
		len = snprintf(buf, size, "%s", p->exe ? p->exe->path : "");
	return MIN((long)len, (long)size - 1);
}

/* --- Directories ---------------------------------------------------------------------------- */

/* A directory listing generated in order: each entry goes to emit, which counts. */
struct lister {
	unsigned want, seen;
	struct fs_dirent *d;
	bool found;
};

static void emit(struct lister *l, const char *name, uint64_t ino, unsigned char type)
{
	if (l->found || l->seen++ != l->want)
		return;
	strlcpy(l->d->name, name, sizeof(l->d->name));
	l->d->ino = ino;
	l->d->type = type;
	l->found = true;
}

static void emit_ramfs(struct lister *l, const struct fs_file *f)
{
	emit(l, f->name, f->ino, (f->mode & S_IFMT) == S_IFDIR ? DT_DIR : DT_REG);
}

/* "/": the initramfs's top-level entries with the mount points dev and proc among them (in
 * their place, hiding an archive's own dev or proc), in name order. */
static void list_root(struct lister *l)
{
	static const char *const mounts[] = { "dev", "proc" };
	static const uint64_t mount_ino[] = { DEV_INO_ROOT, 1 };
	size_t m = 0;

	for (const struct fs_file *f = ramfs_next_child("/", ""); f;
	     f = ramfs_next_child("/", f->name)) {
		for (; m < ARRAY_SIZE(mounts) && strcmp(mounts[m], f->name) <= 0; m++)
			emit(l, mounts[m], mount_ino[m], DT_DIR);
		if (strcmp(f->name, "proc") != 0 && strcmp(f->name, "dev") != 0)
			emit_ramfs(l, f);
	}
	for (; m < ARRAY_SIZE(mounts); m++)
		emit(l, mounts[m], mount_ino[m], DT_DIR);
}

static void list_dev(struct lister *l)
{
	for (size_t i = 0; i < ARRAY_SIZE(dev_nodes); i++)
		emit(l, dev_nodes[i].name, dev_nodes[i].ino, DT_CHR);
}

/* /proc, in Linux's order: its own entries, then self, then the pids in increasing order. */
static void list_proc(struct lister *l)
{
	struct process *cur = current_process(), *kept = kept_process(0);
	int pids[2], n = 0;

	emit(l, "sys", PROC_INO_SYS, DT_DIR);
	if (cur)
		emit(l, "self", PROC_INO_PID(0, 0), DT_LNK);
	if (cur)
		pids[n++] = cur->pid;
	if (kept && (!cur || kept->pid != cur->pid))
		pids[n++] = kept->pid;
	if (n == 2 && pids[0] > pids[1]) {
		int t = pids[0];
		pids[0] = pids[1];
		pids[1] = t;
	}
	for (int i = 0; i < n; i++) {
		char name[16];
		snprintf(name, sizeof(name), "%d", pids[i]);
		emit(l, name, PROC_INO_PID(pids[i], 0), DT_DIR);
	}
}

/* A /proc/sys directory: each distinct next component of the matching keys. */
static void list_sysctl_dir(struct lister *l, const char *key)
{
	char dotted[FS_PATH_MAX], last[64] = "";
	int i = 0;

	dotted_key(key, dotted, sizeof(dotted));
	size_t n = strlen(dotted);
	for (const struct sysctl_entry *e = sysctl_next(NULL); e; e = sysctl_next(e), i++) {
		const char *rest = e->name;
		if (n) {
			if (strncmp(e->name, dotted, n) != 0 || e->name[n] != '.')
				continue;
			rest = e->name + n + 1;
		}
		char part[64];
		strlcpy(part, rest, sizeof(part));
		char *dot = strchr(part, '.');
		if (dot)
			*dot = '\0';
		if (strcmp(part, last) != 0) {
			emit(l, part, PROC_INO_SYSCTL + (dot ? 500u : 0u) + (uint64_t)i,
			     dot ? DT_DIR : DT_REG);
			strlcpy(last, part, sizeof(last));
		}
	}
}

/* /proc/PID/fd: the open descriptors, in increasing order. */
static void list_fds(struct lister *l, int pid)
{
	struct process *p = process_of(pid);

	for (long fd = 0; p && fd < FD_MAX; fd++) {
		char name[8];
		if (!fd_get(&p->files, fd))
			continue;
		snprintf(name, sizeof(name), "%ld", fd);
		emit(l, name, PROC_INO_FD(pid, fd), DT_LNK);
	}
}

static void list_children(const struct fs_node *n, struct lister *l)
{
	const char *path = n->path;

	if (strcmp(path, "/") == 0) {
		list_root(l);
	} else if (n->dev_minor == FS_DEV_DEVTMPFS_MINOR) {
		list_dev(l);
	} else if (strcmp(path, "/proc") == 0) {
		list_proc(l);
	} else if (strcmp(path, proc_sys) == 0) {
		list_sysctl_dir(l, "");
	} else if (sysctl_key(path)) {
		list_sysctl_dir(l, sysctl_key(path));
	} else if (n->pid && n->ino == PROC_INO_PID(n->pid, 3)) {
		list_fds(l, n->pid);
	} else if (n->pid) {
		emit(l, "maps", PROC_INO_PID(n->pid, 1), DT_REG);
		if (process_of(n->pid) && process_of(n->pid)->exe)
			emit(l, "exe", PROC_INO_PID(n->pid, 2), DT_LNK);
		emit(l, "fd", PROC_INO_PID(n->pid, 3), DT_DIR);
	} else {
		for (const struct fs_file *f = ramfs_next_child(path, ""); f;
		     f = ramfs_next_child(path, f->name))
			emit_ramfs(l, f);
	}
}

int fs_node_readdir(const struct fs_node *n, unsigned index, struct fs_dirent *d)
{
	struct lister l = { .want = index, .d = d };

	if (n->kind != FS_NODE_DIR)
		return -ENOTDIR;
	emit(&l, ".", n->ino, DT_DIR);
	emit(&l, "..", 1, DT_DIR); /* the parent's number matters to nobody here */
	list_children(n, &l);
	return l.found ? 0 : -ENOENT;
}

/* --- Whole-file access for the shell ------------------------------------------------------- */

/* path (from "/") resolved, following links: 0, or -errno (a non-directory named with a
 * trailing slash: -ENOTDIR). */
static int resolve_from_root(const char *path, struct fs_node *n)
{
	char clean[FS_PATH_MAX];
	bool slash;

	if (!*path)
		return -ENOENT;
	if (path_clean("/", path, clean, sizeof(clean), &slash))
		return -ENOENT; /* longer than any name here */
	int err = fs_resolve(clean, true, n);
	if (!err && slash && n->kind != FS_NODE_DIR)
		return -ENOTDIR;
	return err;
}

long fs_read(const char *path, unsigned uid, char *buf, size_t size)
{
	struct fs_node n;
	int err = resolve_from_root(path, &n);

	return err ? err : fs_node_read(&n, uid, 0, buf, size);
}

long fs_write(const char *path, unsigned uid, const char *buf, size_t len)
{
	struct fs_node n;
	int err = resolve_from_root(path, &n);

	if (err)
		return err;
	switch (n.kind) {
	case FS_NODE_SYSCTL: return sysctl_write(n.sysctl, uid, buf, len);
	case FS_NODE_DIR: return -EISDIR;
	case FS_NODE_FILE: return -EROFS;
	case FS_NODE_DEV:
		if (n.rdev == FS_RDEV_NULL)
			return (long)len; /* gone, whole */
		return n.rdev == FS_RDEV_TTY ? -ENXIO : -EACCES;
	default: return -EACCES;
	}
}

/* --- Commands ------------------------------------------------------------------------------ */

static int cmd_cat(int argc, char **argv)
{
	char buf[512];
	int status = 0;

	for (int i = 1; i < argc; i++) {
		struct fs_node n;
		long r = resolve_from_root(argv[i], &n);
		for (uint64_t pos = 0; r == 0;) {
			long got = fs_node_read(&n, current_uid(), pos, buf, sizeof(buf));
			if (got <= 0) {
				r = got;
				break;
			}
			console_write(buf, (size_t)got);
			pos += (uint64_t)got;
		}
		if (r < 0) {
			printk("cat: %s: %s\n", argv[i], strerror((int)-r));
			status = 1;
		}
	}
	return status;
}
SHELL_COMMAND(cat, "cat", "cat FILE...          print files (/proc/sys/..., /bin/..., /proc/PID/maps)",
	      cmd_cat);

static void list_directory(const struct fs_node *n)
{
	struct fs_dirent d;

	for (unsigned i = 2; fs_node_readdir(n, i, &d) == 0; i++)
		printk("%s\n", d.name);
}

static int cmd_ls(int argc, char **argv)
{
	int status = 0;
	struct fs_node n;

	if (argc < 2) {
		fs_resolve("/", true, &n);
		list_directory(&n);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		if (argc > 2)
			printk("%s%s:\n", i > 1 ? "\n" : "", argv[i]);
		int err = resolve_from_root(argv[i], &n);
		if (err) {
			printk("ls: cannot access '%s': %s\n", argv[i], strerror(-err));
			status = 2;
		} else if (n.kind == FS_NODE_DIR) {
			list_directory(&n);
		} else {
			printk("%s\n", argv[i]);
		}
	}
	return status;
}
SHELL_COMMAND(ls, "ls", "ls [DIR]...          list a directory (/, /bin, /proc, /proc/sys/vm)", cmd_ls);

static int cmd_echo(int argc, char **argv)
{
	int i = 1;
	bool newline = true;

	if (argc > 1 && strcmp(argv[1], "-n") == 0) {
		newline = false;
		i++;
	}
	for (int first = i; i < argc; i++)
		printk("%s%s", i > first ? " " : "", argv[i]);
	if (newline)
		printk("\n");
	return 0;
}
SHELL_COMMAND(echo, "echo", "echo [-n] [WORD]...  print words (with > FILE: write them to FILE)",
	      cmd_echo);
