/* File descriptors of the running process (kernel/fd.c): 0-2 are the console, 3 and up name
 * /proc/sys files. The system calls behind open/openat/read/write/close. */
#ifndef RNDBITS_KERNEL_FD_H
#define RNDBITS_KERNEL_FD_H

#include <mm.h>
#include <types.h>

#define AT_FDCWD (-100)

long fd_open(struct mm *mm, int pid, long dirfd, uint64_t upath, unsigned long flags);
long fd_read(struct mm *mm, int pid, long fd, uint64_t ubuf, uint64_t count);
long fd_write(struct mm *mm, int pid, long fd, uint64_t ubuf, uint64_t count);
long fd_close(int pid, long fd);

#endif
