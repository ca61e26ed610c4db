/* File descriptors of a process (kernel/fd.c): 0-2 are the console, 3 and up name
 * /proc/sys files. The system calls behind open/openat/read/write/close. */
#ifndef RNDBITS_KERNEL_FD_H
#define RNDBITS_KERNEL_FD_H

#include <mm.h>
#include <types.h>

#define AT_FDCWD (-100)

#define FD_MAX 16       /* RLIMIT_NOFILE for this kernel: open beyond it is -EMFILE */
#define FD_PATH_MAX 64  /* longer than any /proc/sys path; longer names do not exist */

struct file {
	bool used;
	bool dir;
	unsigned acc;   /* O_RDONLY, O_WRONLY, O_RDWR */
	uint64_t pos;
	char path[FD_PATH_MAX];
};

/* One process's descriptors (part of struct process). */
struct fd_table {
	struct file files[FD_MAX];
};

/* At exec: nothing open. At exit: every descriptor closed. */
void fd_table_init(struct fd_table *t);
void fd_table_release(struct fd_table *t);

long fd_open(struct mm *mm, struct fd_table *t, long dirfd, uint64_t upath, unsigned long flags);
long fd_read(struct mm *mm, struct fd_table *t, long fd, uint64_t ubuf, uint64_t count);
long fd_write(struct mm *mm, struct fd_table *t, long fd, uint64_t ubuf, uint64_t count);
long fd_close(struct fd_table *t, long fd);

#endif
