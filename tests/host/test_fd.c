/* kernel/fd.c: a process's descriptor table, with the file namespace (procfs) and user memory
 * stubbed: user addresses are host pointers, and one 0600 file exists. What is checked is the
 * table's own logic: Linux's order of checks in write(2) (EBADF, EFAULT, then the file's
 * permission for the writer, and only then "past the start: ignored"), and that a released
 * table (a process's exit) leaves nothing open for the next process. */
#include "lib_under_test.h"
#include <kernel/cred.h>
#include <kernel/fd.h>
#include <kernel/fs.h>
#include <kernel/sysctl.h>
#include <asm/fcntl.h>
#include <kernel/console.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define KNOB_PATH "/proc/sys/vm/mmap_rnd_bits"

static int knob_value = 18;
static const struct sysctl_entry knob = { .name = "vm.mmap_rnd_bits", .data = &knob_value,
					  .mode = 0600, .min = 8, .max = 33 };
static unsigned uid;
static unsigned fs_writes;

unsigned current_uid(void) { return uid; }

/* The namespace: "/", "/proc", "/proc/sys", "/proc/sys/vm" directories, the knob and
 * /dev/null. */
int fs_resolve(const char *path, bool follow, struct fs_node *n)
{
	(void)follow;
	memset(n, 0, sizeof(*n));
	lib_strlcpy(n->path, path, sizeof(n->path));
	if (strcmp(path, "/dev/null") == 0) {
		n->kind = FS_NODE_DEV;
		n->mode = S_IFCHR | 0666;
		n->rdev = FS_RDEV_NULL;
		return 0;
	}
	if (strcmp(path, KNOB_PATH) == 0) {
		n->kind = FS_NODE_SYSCTL;
		n->mode = S_IFREG | knob.mode;
		n->sysctl = &knob;
		return 0;
	}
	if (strcmp(path, "/") == 0 || strcmp(path, "/proc") == 0 || strcmp(path, "/proc/sys") == 0 ||
	    strcmp(path, "/proc/sys/vm") == 0) {
		n->kind = FS_NODE_DIR;
		n->mode = S_IFDIR | 0555;
		return 0;
	}
	return strncmp(path, KNOB_PATH "/", sizeof(KNOB_PATH)) == 0 ? -ENOTDIR : -ENOENT;
}

bool fs_is_directory(const char *path)
{
	struct fs_node n;
	return fs_resolve(path, true, &n) == 0 && n.kind == FS_NODE_DIR;
}

long fs_node_read(const struct fs_node *n, unsigned u, uint64_t pos, char *buf, size_t size)
{
	char text[16];
	if (n->kind == FS_NODE_DIR)
		return -EISDIR;
	if (u != UID_ROOT)
		return -EACCES;
	size_t len = (size_t)lib_snprintf(text, sizeof(text), "%d\n", knob_value);
	if (pos >= len)
		return 0;
	size_t k = len - pos < size ? len - pos : size;
	memcpy(buf, text + pos, k);
	return (long)k;
}

long sysctl_write(const struct sysctl_entry *e, unsigned u, const char *buf, size_t len)
{
	(void)e, (void)buf;
	if (u != UID_ROOT)
		return -EACCES;
	fs_writes++;
	return (long)len;
}

void console_write(const char *s, size_t n)
{
	(void)s, (void)n;
}

int copy_from_user(struct mm *mm, void *dst, uint64_t src, size_t len)
{
	(void)mm;
	memcpy(dst, (const void *)(uintptr_t)src, len);
	return 0;
}

int copy_to_user(struct mm *mm, uint64_t dst, const void *src, size_t len)
{
	(void)mm;
	memcpy((void *)(uintptr_t)dst, src, len);
	return 0;
}

static struct mm mm = { .geo = { .task_size = UINT64_MAX } };
static struct fd_table files;

static uint64_t user(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static long write_text(long fd, const char *text)
{
	return fd_write(&mm, &files, fd, user(text), strlen(text));
}

static void test_write_checks_permission_before_position(void **state)
{
	(void)state;
	uid = UID_ROOT;
	fd_table_init(&files);
	long fd = fd_open(&mm, &files, AT_FDCWD, user(KNOB_PATH), 1 /* O_WRONLY */);
	assert_int_equal(fd, 3);
	assert_int_equal(write_text(fd, "20\n"), 3);
	/* Past the start, the writer who may write gets Linux's "accepted, ignored". */
	assert_int_equal(write_text(fd, "21\n"), 0);
	/* One who may not write gets EACCES first, though the position alone would say 0. */
	uid = UID_NOBODY;
	assert_int_equal(write_text(fd, "21\n"), -EACCES);
	assert_int_equal(fd_write(&mm, &files, fd, user("x"), 0), -EACCES);
	/* EBADF and EFAULT come before the permission test, as in vfs_write. */
	assert_int_equal(write_text(7, "21\n"), -EBADF);
	mm.geo.task_size = 0x1000;
	assert_int_equal(fd_write(&mm, &files, fd, 0x800, 0x1000), -EFAULT);
	mm.geo.task_size = UINT64_MAX;
	assert_int_equal(fs_writes, 1);
	fd_table_release(&files);
}

static void test_release_closes_everything(void **state)
{
	char buf[8];

	(void)state;
	uid = UID_ROOT;
	fd_table_init(&files);
	assert_int_equal(fd_open(&mm, &files, AT_FDCWD, user(KNOB_PATH), 1), 3);
	assert_int_equal(fd_open(&mm, &files, AT_FDCWD, user(KNOB_PATH), 0), 4);
	fd_table_release(&files);
	/* The next process (same table, as `running` is reused; perhaps the same pid) has 0-2. */
	fd_table_init(&files);
	assert_int_equal(write_text(3, "20\n"), -EBADF);
	assert_int_equal(fd_read(&mm, &files, 4, user(buf), sizeof(buf)), -EBADF);
	assert_int_equal(fd_close(&files, 3), -EBADF);
	assert_int_equal(fd_close(&files, 4), -EBADF);
	assert_int_equal(fd_open(&mm, &files, AT_FDCWD, user(KNOB_PATH), 0), 3);
	fd_table_release(&files);
}

/* openat's dirfd counts only for a relative path, as in Linux's path walk: AT_FDCWD is "/",
 * a directory descriptor is where the walk starts, anything else is EBADF (not open) or
 * ENOTDIR (open, but not a directory: the console's 0-2 too). An absolute path ignores it. */
static void test_openat_dirfd(void **state)
{
	(void)state;
	uid = UID_ROOT;
	fd_table_init(&files);
	long dir = fd_open(&mm, &files, AT_FDCWD, user("/proc/sys/vm"), 0);
	assert_int_equal(dir, 3);
	assert_int_equal(fd_open(&mm, &files, dir, user("mmap_rnd_bits"), 0), 4);
	assert_int_equal(fd_open(&mm, &files, dir, user("./mmap_rnd_bits"), 0), 5);
	assert_int_equal(fd_open(&mm, &files, AT_FDCWD, user("proc/sys/vm/mmap_rnd_bits"), 0), 6);
	assert_int_equal(fd_open(&mm, &files, -1, user("proc/sys/vm/mmap_rnd_bits"), 0), -EBADF);
	assert_int_equal(fd_open(&mm, &files, 9, user("mmap_rnd_bits"), 0), -EBADF);
	assert_int_equal(fd_open(&mm, &files, 4, user("mmap_rnd_bits"), 0), -ENOTDIR);
	assert_int_equal(fd_open(&mm, &files, 1, user("mmap_rnd_bits"), 0), -ENOTDIR);
	assert_int_equal(fd_open(&mm, &files, -1, user(KNOB_PATH), 0), 7);
	/* The name is copied and checked first: an empty one is ENOENT whatever dirfd is. */
	assert_int_equal(fd_open(&mm, &files, -1, user(""), 0), -ENOENT);
	fd_table_release(&files);
}

/* read(2) checks the buffer before the file reads anything (vfs_read's access_ok): the
 * console's fd 0, an empty file, still refuses a buffer outside the task. */
static void test_read_checks_buffer_first(void **state)
{
	char buf[8];

	(void)state;
	fd_table_init(&files);
	assert_int_equal(fd_read(&mm, &files, 0, user(buf), sizeof(buf)), 0);
	mm.geo.task_size = 0x1000;
	assert_int_equal(fd_read(&mm, &files, 0, 0x800, 0x1000), -EFAULT);
	assert_int_equal(fd_read(&mm, &files, 0, UINT64_MAX - 4, 8), -EFAULT);
	mm.geo.task_size = UINT64_MAX;
	fd_table_release(&files);
}

/* open's checks in Linux's order: O_DIRECTORY on a file, a directory for writing, creating in
 * the read-only namespace (EROFS where the directory exists, else ENOENT); a trailing slash on
 * a file; cwd-relative names; F_DUPFD's lowest free descriptor. */
static void test_open_flags(void **state)
{
	char buf[8];

	(void)state;
	uid = UID_ROOT;
	fd_table_init(&files);
	assert_int_equal(fd_open(&mm, &files, AT_FDCWD, user(KNOB_PATH), O_DIRECTORY), -ENOTDIR);
	assert_int_equal(fd_open(&mm, &files, AT_FDCWD, user("/proc/sys"), O_WRONLY), -EISDIR);
	assert_int_equal(fd_open(&mm, &files, AT_FDCWD, user("/proc/sys/new"), O_CREAT | O_WRONLY),
			 -EROFS);
	assert_int_equal(fd_open(&mm, &files, AT_FDCWD, user("/nope/new"), O_CREAT | O_WRONLY),
			 -ENOENT);
	assert_int_equal(fd_open(&mm, &files, AT_FDCWD, user(KNOB_PATH), O_CREAT | O_EXCL), -EEXIST);
	assert_int_equal(fd_open(&mm, &files, AT_FDCWD, user(KNOB_PATH "/"), 0), -ENOTDIR);
	assert_int_equal(fd_open(&mm, &files, AT_FDCWD, user(KNOB_PATH "/x"), 0), -ENOTDIR);
	lib_strlcpy(files.cwd, "/proc/sys", sizeof(files.cwd));
	assert_int_equal(fd_open(&mm, &files, AT_FDCWD, user("vm/../vm/mmap_rnd_bits"), 0), 3);
	assert_int_equal(fd_read(&mm, &files, 3, user(buf), sizeof(buf)), 3);
	assert_int_equal(fd_read(&mm, &files, 3, user(buf), sizeof(buf)), 0);
	assert_int_equal(fd_close(&files, 4), -EBADF);
	assert_int_equal(fd_dup(&files, 3, 0, false), 4);
	assert_int_equal(fd_dup(&files, 1, 10, true), 10);
	assert_true(fd_get(&files, 10) == fd_get(&files, 1) && fd_cloexec(&files, 10));
	assert_false(fd_cloexec(&files, 1));
	assert_int_equal(fd_dup(&files, 9, 0, false), -EBADF);
	/* close really closes, the console's descriptors too; the next open takes the lowest. */
	assert_int_equal(fd_close(&files, 1), 0);
	assert_null(fd_get(&files, 1));
	assert_int_equal(fd_open(&mm, &files, AT_FDCWD, user(KNOB_PATH), 0), 1);
	fd_table_release(&files);
}

/* Descriptors share open files: a dup's offset moves with the original's, in a forked table
 * too; exec closes the FD_CLOEXEC ones only; dup2/dup3's rules; and every open file goes back
 * to the pool (NFILE of them can be had again afterwards). */
static void test_shared_files(void **state)
{
	static struct fd_table child;
	char buf[8];

	(void)state;
	uid = UID_ROOT;
	fd_table_init(&files);
	assert_int_equal(fd_open(&mm, &files, AT_FDCWD, user(KNOB_PATH), 0), 3);
	assert_int_equal(fd_dup_to(&files, 3, 7, true, true), 7);
	assert_int_equal(fd_read(&mm, &files, 3, user(buf), 1), 1);
	assert_int_equal(fd_get(&files, 7)->pos, 1);
	assert_int_equal(fd_dup_to(&files, 3, 3, false, true), -EINVAL);
	assert_int_equal(fd_dup_to(&files, 3, 3, false, false), 3);
	assert_int_equal(fd_dup_to(&files, 5, 6, false, false), -EBADF);
	assert_int_equal(fd_dup_to(&files, 3, FD_MAX, false, false), -EBADF);
	assert_int_equal(fd_table_fork(&child, &files), 0);
	assert_int_equal(fd_read(&mm, &child, 3, user(buf), 1), 1);
	assert_int_equal(fd_get(&files, 3)->pos, 2);
	assert_true(fd_cloexec(&child, 7));
	fd_table_exec(&child);
	assert_null(fd_get(&child, 7));
	assert_non_null(fd_get(&child, 3));
	assert_non_null(fd_get(&files, 7));
	/* dup2 over an open descriptor closes what it named. */
	assert_int_equal(fd_dup_to(&child, 0, 3, false, false), 3);
	assert_true(fd_get(&child, 3) == fd_get(&child, 0));
	fd_table_release(&child);
	assert_int_equal(fd_get(&files, 3)->refs, 2);
	fd_table_release(&files);

	/* /dev/null: a device node; reads end, writes vanish, name/ is not a directory. */
	fd_table_init(&files);
	assert_int_equal(fd_open(&mm, &files, AT_FDCWD, user("/dev/null"), O_RDWR), 3);
	assert_int_equal(fd_read(&mm, &files, 3, user(buf), sizeof(buf)), 0);
	assert_int_equal(fd_write(&mm, &files, 3, user("gone"), 4), 4);
	assert_int_equal(fd_open(&mm, &files, AT_FDCWD, user("/dev/null/"), 0), -ENOTDIR);
	fd_table_release(&files);

	struct file *got[NFILE];
	for (int i = 0; i < NFILE; i++)
		assert_non_null(got[i] = file_alloc(FILE_NODE, 0));
	assert_null(file_alloc(FILE_NODE, 0));
	for (int i = 0; i < NFILE; i++)
		file_put(got[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_checks_permission_before_position),
		cmocka_unit_test(test_release_closes_everything),
		cmocka_unit_test(test_openat_dirfd),
		cmocka_unit_test(test_read_checks_buffer_first),
		cmocka_unit_test(test_open_flags),
		cmocka_unit_test(test_shared_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
