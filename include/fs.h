/* A very small file namespace for the shell: /proc/sys (sysctl entries as files) and whatever
 * other read-only directories register (e.g. /bin). Enough for `cat`, `ls` and `>`. */
#ifndef RNDBITS_FS_H
#define RNDBITS_FS_H

#include <types.h>

struct sysctl_entry;

/* A regular file of the file namespace that exec and mmap can use: its bytes lie in
 * contiguous, page-aligned kernel memory (read-only, like a file in the page cache). */
struct fs_file {
	const char *path;     /* "/bin/hello" */
	const char *name;     /* its last component, "hello" */
	const uint8_t *data;  /* page aligned */
	size_t size;
	unsigned mode;        /* st_mode: S_IFREG | permissions */
	uint32_t ino;         /* inode number, unique per file */
};

#define FS_BIN_PATH_MAX 64 /* "/bin32/" and a program's name */

/* The regular file at an absolute, clean path ("/bin/hello"), or NULL. */
const struct fs_file *fs_file_lookup(const char *path);

/* Is the absolute, clean path (no trailing slash) a directory of the namespace? */
bool fs_is_directory(const char *path);

/* The sysctl entry a /proc/sys path names ("/proc/sys/vm/mmap_rnd_bits", clean: no "//", "."
 * or trailing slash), or NULL. */
const struct sysctl_entry *fs_sysctl_file(const char *path);

/* Read a whole file into buf (as user uid). Returns its length or -errno (-ENOENT, -EACCES,
 * -EISDIR, -ENOTDIR for a file named with a trailing slash). */
long fs_read(const char *path, unsigned uid, char *buf, size_t size);
/* One write of len bytes at position 0. Returns bytes consumed or -errno. */
long fs_write(const char *path, unsigned uid, const char *buf, size_t len);

/* Extra directories: a name list provider registered in the fs_dirs linker section. */
struct fs_dir {
	const char *path; /* "/bin" */
	/* Call emit(name) for each entry, in order. */
	void (*list)(void (*emit)(const char *name));
};
#define FS_DIR(ident, dir_path, fn)                                                      \
	static const struct fs_dir fs_dir_##ident __section("fs_dirs") __used              \
		__aligned(sizeof(void *)) = { .path = dir_path, .list = fn }

#endif
