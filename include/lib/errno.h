/* Linux's errno numbers (asm-generic/errno-base.h values) and their strerror texts. */
#ifndef RNDBITS_LIB_ERRNO_H
#define RNDBITS_LIB_ERRNO_H

#define EPERM 1
#define ENOENT 2
#define ESRCH 3
#define EINTR 4
#define EIO 5
#define E2BIG 7
#define ENOEXEC 8
#define EBADF 9
#define ECHILD 10
#define EAGAIN 11
#define ENOMEM 12
#define EACCES 13
#define EFAULT 14
#define EBUSY 16
#define EEXIST 17
#define ENOTDIR 20
#define EISDIR 21
#define EINVAL 22
#define ENOSPC 28
#define ERANGE 34
#define ENOSYS 38

/* "Invalid argument" etc.; "Unknown error N" style text for numbers it does not know. */
const char *strerror(int err);

#endif
