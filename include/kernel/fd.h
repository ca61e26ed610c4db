/* File descriptors of a process (kernel/fd.c) over the file namespace (include/kernel/fs.h): 0-2 are
 * the console, 3 and up opened files and directories. The system calls of kernel/fs_syscalls.c
 * work through these. */
#ifndef RNDBITS_KERNEL_FD_H
#define RNDBITS_KERNEL_FD_H

#include <kernel/fs.h>
#include <mm/mm.h>
#include <lib/types.h>

#define AT_FDCWD (-100)
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_EACCESS 0x200
#define AT_EMPTY_PATH 0x1000

/* The open(2) flags every ISA numbers alike (asm/fcntl.h has the others). */
#define O_ACCMODE 03
#define O_RDONLY 00
#define O_WRONLY 01
#define O_RDWR 02
#define O_CREAT 0100
#define O_EXCL 0200
#define O_NOCTTY 0400
#define O_TRUNC 01000
#define O_APPEND 02000
#define O_NONBLOCK 04000
#define O_CLOEXEC 02000000

#define FD_MAX 16       /* RLIMIT_NOFILE for this kernel: open beyond it is -EMFILE */
#define FD_CONSOLE_FDS 3 /* 0, 1, 2 */
#define NFILE 256        /* open files in the whole system (file-max): beyond, -ENFILE */

struct file;
struct kstat;

/* What a file other than the console or a namespace node does (a pipe's ends, kernel/pipe.c;
 * /dev/null). read and write get the whole checked request (count <= MAX_RW_COUNT); write's
 * bytes are the user's at ubuf in mm, or (sendfile) the kernel's at kbuf when it is not NULL.
 * release runs when the last descriptor naming the file closes. Optional: release; stat (NULL:
 * the node the file was opened from, f->node); llseek (NULL: -ESPIPE, as Linux's no_llseek). */
struct file_ops {
	long (*read)(struct file *f, struct mm *mm, uint64_t ubuf, uint64_t count);
	long (*write)(struct file *f, struct mm *mm, uint64_t ubuf, const char *kbuf,
		      uint64_t count);
	void (*release)(struct file *f);
	void (*stat)(const struct file *f, struct kstat *k);
	/* The new offset for lseek(off, whence), whence already checked (<= SEEK_HOLE). */
	int64_t (*llseek)(struct file *f, int64_t off, unsigned whence);
	/* What /proc/PID/fd/N links to ("pipe:[20001]"), into buf: snprintf's result. */
	int (*name)(const struct file *f, char *buf, size_t size);
	/* What a read or write would not wait for now: POLLIN, POLLOUT, POLLHUP, POLLERR
	 * (include/kernel/poll.h). NULL: always ready, as /dev/null. */
	unsigned (*poll)(const struct file *f);
};

enum file_kind {
	FILE_NODE,    /* a node of the namespace: a file, directory, /proc or sysctl file */
	FILE_CONSOLE, /* the console (fds 0-2 at the start, and their duplicates) */
	FILE_SPECIAL, /* ops says what it is (a pipe end, /dev/null) */
};

/* An open file description, as Linux's struct file: what open() or pipe() made, shared by
 * every descriptor dup, dup2, F_DUPFD and fork made from it, in any process, so they share the
 * offset and the status flags (O_APPEND, O_NONBLOCK). It lives until the last descriptor
 * naming it is closed (refs). FD_CLOEXEC is the descriptor's, not the file's: struct
 * fd_table holds it. */
struct file {
	unsigned refs;        /* descriptors naming it; 0: a free slot of the pool */
	enum file_kind kind;
	unsigned flags;       /* what F_GETFL reports: access mode, O_APPEND, O_NONBLOCK */
	uint64_t pos;         /* a file's offset; a directory's next entry number */
	struct fs_node node;  /* FILE_NODE; a device's node (/dev/null, an opened /dev/console) */
	const struct file_ops *ops; /* FILE_SPECIAL */
	void *priv;           /* FILE_SPECIAL: the ops' own (a pipe) */
};

/* One process's descriptors and working directory (part of struct process). */
struct fd_table {
	struct file *fd[FD_MAX]; /* NULL: not open */
	uint32_t cloexec;        /* FD_CLOEXEC, one bit per descriptor */
	char cwd[FS_PATH_MAX];
};

/* The first process's table: the console on 0-2, one open file for reading and writing (as
 * Linux's init gets /dev/console), cwd "/". At exit: every descriptor closed. */
void fd_table_init(struct fd_table *t);
void fd_table_release(struct fd_table *t);
/* fork: the child gets every descriptor of the parent, naming the same open files (a shared
 * offset), with the same FD_CLOEXEC bits, and the cwd. 0 (it cannot fail: nothing is
 * allocated; the int is for a future limit). */
int fd_table_fork(struct fd_table *child, const struct fd_table *parent);
/* A successful execve: the FD_CLOEXEC descriptors close, the others stay as they are. */
void fd_table_exec(struct fd_table *t);

/* A new open file (refs 1) of kind, flags (F_GETFL's), or NULL when all NFILE are in use. */
struct file *file_alloc(enum file_kind kind, unsigned flags);
/* Put f on the lowest free descriptor >= min (FD_CLOEXEC if cloexec), taking over the
 * caller's reference: the descriptor, or -EMFILE (the reference is then dropped). */
long fd_install(struct fd_table *t, struct file *f, long min, bool cloexec);
void file_put(struct file *f);

/* The open file on fd, or NULL (-EBADF for the caller). */
struct file *fd_get(struct fd_table *t, long fd);

/* What the user path at upath names, seen from dirfd (AT_FDCWD: the cwd), into *n: 0, or
 * -EFAULT, -ENAMETOOLONG, -ENOENT (also for ""), -ENOTDIR, -EBADF. follow: the last component
 * may be a link to follow. empty_ok: "" names dirfd itself (AT_EMPTY_PATH). */
long fd_lookup_at(struct mm *mm, struct fd_table *t, long dirfd, uint64_t upath, bool follow,
		  bool empty_ok, struct fs_node *n);

/* May uid access node n for want (4 read, 2 write, 1 execute/search)? 0 or -EACCES / -EROFS. */
long fs_node_permission(const struct fs_node *n, unsigned uid, unsigned want);

long fd_open(struct mm *mm, struct fd_table *t, long dirfd, uint64_t upath, unsigned long flags);
/* read(2) and write(2) as vfs_read/vfs_write: the whole user buffer [ubuf, ubuf + count) is
 * checked first (-EFAULT, so count -1 is refused, not shortened), then count is capped at
 * MAX_RW_COUNT. */
#define MAX_RW_COUNT 0x7ffff000u /* Linux's INT_MAX & PAGE_MASK, with 4K pages */
long fd_read(struct mm *mm, struct fd_table *t, long fd, uint64_t ubuf, uint64_t count);
long fd_write(struct mm *mm, struct fd_table *t, long fd, uint64_t ubuf, uint64_t count);
/* write(2) of len kernel bytes to the open file f (sendfile's output side): the console, or a
 * sysctl file under write's rules. Bytes written, or -errno. */
long fd_write_kernel(struct file *f, const char *buf, size_t len);
long fd_close(struct fd_table *t, long fd);
/* F_DUPFD: the lowest free descriptor >= min naming fd's open file, or -EBADF, -EINVAL (min
 * beyond the limit), -EMFILE. */
long fd_dup(struct fd_table *t, long fd, long min, bool cloexec);
/* dup2 and dup3: newfd made to name oldfd's open file, closing what it named. dup2 (dup3
 * false) of a descriptor onto itself is a no-op; dup3 refuses it (-EINVAL). newfd or -EBADF. */
long fd_dup_to(struct fd_table *t, long oldfd, long newfd, bool cloexec, bool dup3);
/* The target of /proc/PID/fd/N for the open file f: the path of a namespace node,
 * "/dev/console", "pipe:[INODE]". Its length (cut to size - 1). */
long fd_link_text(const struct file *f, char *buf, size_t size);
/* FD_CLOEXEC of an open descriptor. */
bool fd_cloexec(const struct fd_table *t, long fd);
void fd_set_cloexec(struct fd_table *t, long fd, bool on);

#endif
