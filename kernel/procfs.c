/* /proc/sys as files, and the commands that touch files: `cat`, `ls` and `echo` (whose output
 * the shell may redirect with `>`). Directories are derived from the sysctl names, so a new
 * sysctl entry appears here without anything to register. */
#include <console.h>
#include <cred.h>
#include <fs.h>
#include <kernel.h>
#include <lib/errno.h>
#include <lib/fmt.h>
#include <lib/string.h>
#include <shell.h>
#include <sysctl.h>

extern const struct fs_dir __start_fs_dirs[], __stop_fs_dirs[];

static const char proc_sys[] = "/proc/sys";

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

/* path without its trailing slashes (kept if it is all slashes), in buf; true if it had any. */
static bool strip_trailing_slashes(const char *path, char *buf, size_t size)
{
	strlcpy(buf, path, size);
	size_t n = strlen(buf);
	bool had = n > 1 && buf[n - 1] == '/';

	while (n > 1 && buf[n - 1] == '/')
		buf[--n] = '\0';
	return had;
}

/* Is dir (without trailing slash) a directory: "/", "/proc", "/proc/sys", a sysctl prefix like
 * "/proc/sys/vm", or a registered one? */
bool fs_is_directory(const char *dir)
{
	if (strcmp(dir, "/") == 0 || strcmp(dir, "/proc") == 0 || strcmp(dir, proc_sys) == 0)
		return true;
	for (const struct fs_dir *d = __start_fs_dirs; d < __stop_fs_dirs; d++)
		if (strcmp(d->path, dir) == 0)
			return true;
	const char *key = sysctl_key(dir);
	if (!key || !*key)
		return false;
	size_t n = strlen(key);
	for (const struct sysctl_entry *e = sysctl_next(NULL); e; e = sysctl_next(e)) {
		char dotted[64];
		strlcpy(dotted, key, sizeof(dotted));
		for (char *p = dotted; *p; p++)
			if (*p == '/')
				*p = '.';
		if (strncmp(e->name, dotted, n) == 0 && e->name[n] == '.')
			return true;
	}
	return false;
}

/* The file at path, or NULL with *err set: a file named with a trailing slash is ENOTDIR, a
 * directory EISDIR, anything else ENOENT. */
static const struct sysctl_entry *file_at(const char *path, long *err)
{
	char clean[128];
	bool slash = strip_trailing_slashes(path, clean, sizeof(clean));
	const struct sysctl_entry *e = fs_sysctl_file(clean);

	if (e && !slash)
		return e;
	*err = e ? -ENOTDIR : fs_is_directory(clean) ? -EISDIR : -ENOENT;
	return NULL;
}

long fs_read(const char *path, unsigned uid, char *buf, size_t size)
{
	long err;
	const struct sysctl_entry *e = file_at(path, &err);

	return e ? sysctl_read(e, uid, buf, size) : err;
}

long fs_write(const char *path, unsigned uid, const char *buf, size_t len)
{
	long err;
	const struct sysctl_entry *e = file_at(path, &err);

	return e ? sysctl_write(e, uid, buf, len) : err;
}

static int cmd_cat(int argc, char **argv)
{
	char buf[256];
	int status = 0;

	for (int i = 1; i < argc; i++) {
		long n = fs_read(argv[i], current_uid(), buf, sizeof(buf));
		if (n < 0) {
			printk("cat: %s: %s\n", argv[i], strerror((int)-n));
			status = 1;
			continue;
		}
		console_write(buf, (size_t)n);
	}
	return status;
}
SHELL_COMMAND(cat, "cat", "cat FILE...          print files (/proc/sys/...)", cmd_cat);

static void emit_line(const char *name)
{
	printk("%s\n", name);
}

/* The entries of a /proc/sys directory: each distinct next component of the matching keys. */
static void list_sysctl_dir(const char *key)
{
	size_t n = strlen(key);
	char last[64] = "";

	for (const struct sysctl_entry *e = sysctl_next(NULL); e; e = sysctl_next(e)) {
		const char *rest = e->name;
		if (n) {
			if (strncmp(e->name, key, n) != 0 || e->name[n] != '.')
				continue;
			rest = e->name + n + 1;
		}
		char part[64];
		strlcpy(part, rest, sizeof(part));
		char *dot = strchr(part, '.');
		if (dot)
			*dot = '\0';
		if (strcmp(part, last) != 0) {
			emit_line(part);
			strlcpy(last, part, sizeof(last));
		}
	}
}

/* "/" holds proc and the registered top-level directories, listed in name order. */
static void list_root(void)
{
	const char *last = "";

	for (;;) {
		const char *next = strcmp("proc", last) > 0 ? "proc" : NULL;
		for (const struct fs_dir *d = __start_fs_dirs; d < __stop_fs_dirs; d++) {
			const char *name = d->path + 1;
			if (strchr(name, '/') || strcmp(name, last) <= 0)
				continue;
			if (!next || strcmp(name, next) < 0)
				next = name;
		}
		if (!next)
			return;
		emit_line(next);
		last = next;
	}
}

static void list_directory(const char *dir)
{
	if (strcmp(dir, "/") == 0) {
		list_root();
		return;
	}
	if (strcmp(dir, "/proc") == 0) {
		emit_line("sys");
		return;
	}
	for (const struct fs_dir *d = __start_fs_dirs; d < __stop_fs_dirs; d++)
		if (strcmp(d->path, dir) == 0) {
			d->list(emit_line);
			return;
		}
	char dotted[64];
	const char *key = strcmp(dir, proc_sys) == 0 ? "" : sysctl_key(dir);
	strlcpy(dotted, key, sizeof(dotted));
	for (char *p = dotted; *p; p++)
		if (*p == '/')
			*p = '.';
	list_sysctl_dir(dotted);
}

static int cmd_ls(int argc, char **argv)
{
	int status = 0;

	if (argc < 2) {
		list_directory("/");
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		char dir[128];
		strip_trailing_slashes(argv[i], dir, sizeof(dir));
		if (argc > 2)
			printk("%s%s:\n", i > 1 ? "\n" : "", argv[i]);
		if (fs_is_directory(dir)) {
			list_directory(dir);
			continue;
		}
		/* As root: ls names a file it cannot read. */
		char buf[64];
		long r = fs_read(argv[i], UID_ROOT, buf, sizeof(buf));
		if (r >= 0) {
			printk("%s\n", argv[i]);
		} else {
			printk("ls: cannot access '%s': %s\n", argv[i], strerror((int)-r));
			status = 2;
		}
	}
	return status;
}
SHELL_COMMAND(ls, "ls", "ls [DIR]...          list a directory (/, /proc/sys/vm, /bin)", cmd_ls);

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
