/* The symbolic names of the errors the test programs meet, the way strace prints a result. */
#include <user.h>

const char *errno_name(int err)
{
	switch (err) {
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EBADF: return "EBADF";
	case ENOMEM: return "ENOMEM";
	case EACCES: return "EACCES";
	case EFAULT: return "EFAULT";
	case EEXIST: return "EEXIST";
	case ENOTDIR: return "ENOTDIR";
	case EISDIR: return "EISDIR";
	case EINVAL: return "EINVAL";
	case EMFILE: return "EMFILE";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case ENOSYS: return "ENOSYS";
	case ESRCH: return "ESRCH";
	case EINTR: return "EINTR";
	case E2BIG: return "E2BIG";
	case ENOEXEC: return "ENOEXEC";
	case ECHILD: return "ECHILD";
	case EAGAIN: return "EAGAIN";
	case ENOTTY: return "ENOTTY";
	case ESPIPE: return "ESPIPE";
	case EROFS: return "EROFS";
	case ERANGE: return "ERANGE";
	case EOVERFLOW: return "EOVERFLOW";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	default: return NULL;
	}
}
