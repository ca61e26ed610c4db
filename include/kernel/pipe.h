/* Pipes (kernel/pipe.c): pipe(2) and pipe2(2) over open files of kind FILE_SPECIAL. */
#ifndef RNDBITS_KERNEL_PIPE_H
#define RNDBITS_KERNEL_PIPE_H

#include <kernel/fd.h>
#include <lib/types.h>

#define PIPE_BUF 4096 /* writes up to this many bytes are atomic */

/* A new pipe on the two lowest free descriptors of t: fds[0] its read end, fds[1] its write
 * end, with FD_CLOEXEC (O_CLOEXEC in flags) and O_NONBLOCK as flags asks. 0, or -ENFILE (no
 * pipe, open file or page frame left), -EMFILE (no descriptor). */
long pipe_create(struct fd_table *t, unsigned flags, int fds[2]);

/* Is f an end of a pipe; its inode number (/proc/PID/fd's "pipe:[N]"), or 0. */
bool file_is_pipe(const struct file *f);
uint64_t pipe_ino(const struct file *f);

#endif
