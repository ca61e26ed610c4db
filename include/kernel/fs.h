/* The file namespace: the initramfs tree (kernel/initramfs.c: /bin, /bin32 and whatever the
 * archives hold), /dev (the devices the kernel serves), /proc/sys (sysctl entries as files) and
 * /proc/PID (maps, exe, fd) of the running and the kept process (kernel/procfs.c). Read-only but for the sysctl files. The shell's `cat`,
 * `ls` and `>` and the file system calls (kernel/fd.c) both go through it. */
#ifndef RNDBITS_FS_H
#define RNDBITS_FS_H

#include <lib/errno.h>
#include <lib/types.h>

struct sysctl_entry;
struct process;

/* A regular file (or directory: S_IFDIR in mode, no data) of the initramfs tree. A regular
 * file's bytes lie in contiguous, page-aligned kernel memory (read-only, like a file in the
 * page cache), so exec and mmap can map them straight into user space. */
struct fs_file {
	const char *path;     /* "/bin/hello" */
	const char *name;     /* its last component, "hello" */
	const uint8_t *data;  /* page aligned */
	size_t size;
	unsigned mode;        /* st_mode: S_IFREG | permissions, or S_IFDIR | permissions */
	uint32_t ino;         /* inode number, unique per node */
};

#define FS_PATH_MAX 256     /* the longest absolute path in the namespace, NUL included */
#define FS_BIN_PATH_MAX 64  /* "/bin32/" and a program's name */

/* st_mode's types and the device numbers st_dev reports (Linux's anonymous block devices:
 * 0:2 the rootfs the initramfs fills, as /proc/PID/maps shows it; devtmpfs on /dev and /proc,
 * their numbers on a Debian 6.1 kernel). */
#define S_IFMT 0170000u
#define S_IFCHR 0020000u
#define S_IFDIR 0040000u
#define S_IFREG 0100000u
#define S_IFLNK 0120000u
#define FS_DEV_ROOTFS_MINOR 2
#define FS_DEV_DEVTMPFS_MINOR 5
#define FS_DEV_PROC_MINOR 21

/* The regular file at an absolute, clean path ("/bin/hello"), or NULL. */
const struct fs_file *fs_file_lookup(const char *path);

/* Is the absolute, clean path (no trailing slash) a directory of the namespace? */
bool fs_is_directory(const char *path);

/* The sysctl entry a /proc/sys path names ("/proc/sys/vm/mmap_rnd_bits", clean: no "//", "."
 * or trailing slash), or NULL. */
const struct sysctl_entry *fs_sysctl_file(const char *path);

/* --- Nodes: what a path names, for the system calls ------------------------------------- */

enum fs_node_kind {
	FS_NODE_DIR,     /* any directory: "/", /proc, /proc/sys/..., /proc/PID, initramfs ones */
	FS_NODE_FILE,    /* an initramfs file (file) */
	FS_NODE_SYSCTL,  /* a /proc/sys file (sysctl) */
	FS_NODE_MAPS,    /* /proc/PID/maps (pid) */
	FS_NODE_LINK,    /* /proc/self, /proc/PID/exe, /proc/PID/fd/N (lstat, readlink) */
	FS_NODE_DEV,     /* a character device under /dev (rdev_major:rdev_minor) */
};

/* The character devices under /dev (major:minor, as Linux numbers them). */
#define FS_RDEV(major, minor) ((major) << 8 | (minor))
#define FS_RDEV_NULL FS_RDEV(1, 3)
#define FS_RDEV_TTY FS_RDEV(5, 0)
#define FS_RDEV_CONSOLE FS_RDEV(5, 1)

struct fs_node {
	enum fs_node_kind kind;
	unsigned mode;      /* st_mode */
	uint64_t ino;
	uint64_t size;      /* st_size: a file's length; 0 for /proc files, as on Linux */
	unsigned dev_minor; /* st_dev is 0:dev_minor */
	char path[FS_PATH_MAX]; /* absolute, clean; links already followed if asked to */
	const struct fs_file *file;         /* FS_NODE_FILE, and initramfs directories */
	const struct sysctl_entry *sysctl;  /* FS_NODE_SYSCTL */
	int pid;                            /* FS_NODE_MAPS, LINK and DIR under /proc/PID */
	unsigned rdev;                      /* FS_NODE_DEV: FS_RDEV(major, minor) */
};

/* What the absolute path names (clean: no "//", "." or trailing slash; ".." is resolved
 * lexically as there are no symlinks but /proc's): 0, or -ENOENT, -ENOTDIR (a component
 * below a file). follow: a final symbolic link (/proc/self, /proc/PID/exe) is followed, as
 * stat and open do; lstat and readlink do not. */
int fs_resolve(const char *path, bool follow, struct fs_node *n);

/* Up to size bytes of the file at pos, as user uid: the count (0 at or past the end), or
 * -EISDIR, -EACCES (sysctl permissions; /proc/PID/maps of another user's process), -EINVAL
 * for a link, -ENXIO for /dev/tty (no controlling terminal). /dev/null and the console read
 * as empty. */
long fs_node_read(const struct fs_node *n, unsigned uid, uint64_t pos, char *buf, size_t size);

/* The entries of a directory, in a fixed order ("." and ".." first): entry number index into
 * *d, 0; or -ENOENT past the last one. */
struct fs_dirent {
	char name[FS_PATH_MAX];
	uint64_t ino;
	unsigned char type; /* DT_DIR, DT_REG, DT_LNK, DT_CHR */
};
#define DT_CHR 2
#define DT_DIR 4
#define DT_REG 8
#define DT_LNK 10
int fs_node_readdir(const struct fs_node *n, unsigned index, struct fs_dirent *d);

/* A link's target ("/bin/hello", "42") into buf (NUL-terminated): its length, or -EINVAL for
 * anything but a link. */
long fs_node_readlink(const struct fs_node *n, char *buf, size_t size);

/* Read a whole small file into buf (as user uid): its length or -errno (-ENOENT, -EACCES,
 * -EISDIR, -ENOTDIR for a file named with a trailing slash). */
long fs_read(const char *path, unsigned uid, char *buf, size_t size);
/* One write of len bytes at position 0. Returns bytes consumed or -errno. */
long fs_write(const char *path, unsigned uid, const char *buf, size_t len);

/* What the stat family reports, before an ABI's layout (asm/stat.h) is applied. */
struct kstat {
	unsigned dev_major, dev_minor;
	uint64_t ino;
	unsigned mode, nlink, uid, gid;
	unsigned rdev_major, rdev_minor;
	int64_t size;
	unsigned blksize;
	int64_t blocks;     /* 512-byte units */
};

/* Linux's new_encode_dev: a dev_t as stat and stat64 carry it. */
static inline uint32_t kstat_encode_dev(unsigned major, unsigned minor)
{
	return (minor & 0xffu) | (major << 8) | ((minor & ~0xffu) << 12);
}

/* Little-endian stores at a byte offset: the stat layouts are written field by field at
 * Linux's offsets, so no compiler's struct padding or packing can move a field. */
static inline void put_u16(uint8_t *b, size_t off, uint16_t v)
{
	b[off] = (uint8_t)v;
	b[off + 1] = (uint8_t)(v >> 8);
}

static inline void put_u32(uint8_t *b, size_t off, uint32_t v)
{
	for (unsigned i = 0; i < 4; i++)
		b[off + i] = (uint8_t)(v >> (8 * i));
}

static inline void put_u64(uint8_t *b, size_t off, uint64_t v)
{
	for (unsigned i = 0; i < 8; i++)
		b[off + i] = (uint8_t)(v >> (8 * i));
}

/* The 32-bit ABIs' struct stat (arm's and i386's are the same, 64 bytes; compat_stat on a
 * 64-bit kernel): -EOVERFLOW for what does not fit, else its size. */
#define STAT32_SIZE 64
static inline long stat32_encode(const struct kstat *k, uint8_t *b)
{
	if (k->size > 0x7fffffff || k->ino > 0xffffffffu || k->nlink > 0xffffu)
		return -EOVERFLOW;
	for (unsigned i = 0; i < STAT32_SIZE; i++)
		b[i] = 0;
	put_u32(b, 0, kstat_encode_dev(k->dev_major, k->dev_minor));
	put_u32(b, 4, (uint32_t)k->ino);
	put_u16(b, 8, (uint16_t)k->mode);
	put_u16(b, 10, (uint16_t)k->nlink);
	put_u16(b, 12, (uint16_t)k->uid);
	put_u16(b, 14, (uint16_t)k->gid);
	put_u32(b, 16, kstat_encode_dev(k->rdev_major, k->rdev_minor));
	put_u32(b, 20, (uint32_t)k->size);
	put_u32(b, 24, k->blksize);
	put_u32(b, 28, (uint32_t)k->blocks);
	return STAT32_SIZE; /* times (32..55) are 0: the archive's files carry none here */
}

/* --- /proc/PID/maps (kernel/proc_maps.c) ------------------------------------------------ */

/* p's maps, in Linux's format, a piece at a time: out(ctx, text, len) in order. */
void proc_maps_text(const struct process *p, void (*out)(void *ctx, const char *s, size_t n),
		    void *ctx);

#endif
