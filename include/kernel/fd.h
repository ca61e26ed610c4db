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

struct file {
	bool used;
	bool console;    /* the console (fds 0-2 and their duplicates), else node */
	bool cloexec;    /* FD_CLOEXEC */
	unsigned flags;  /* the open flags F_GETFL reports: access mode, O_APPEND, O_NONBLOCK */
	uint64_t pos;    /* a file's offset; a directory's next entry number */
	struct fs_node node;
};

/* One process's descriptors and working directory (part of struct process). */
struct fd_table {
	struct file files[FD_MAX];
	char cwd[FS_PATH_MAX];
};

/* At exec: the console on 0-2, cwd "/". At exit: every descriptor closed. */
void fd_table_init(struct fd_table *t);
void fd_table_release(struct fd_table *t);

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
/* F_DUPFD: the lowest free descriptor >= min sharing fd's open file description (a copy here:
 * the offset is not shared, which nothing here can tell). */
long fd_dup(struct fd_table *t, long fd, long min, bool cloexec);

#endif
