/* strerror() with the texts glibc prints on Linux, so that messages such as
 * "sysctl: setting key \"vm.mmap_rnd_bits\": Invalid argument" read exactly as on a real system. */
#include <lib/errno.h>

#include <lib/types.h>

static const char *const error_texts[] = {
	[0] = "Success",
	[EPERM] = "Operation not permitted",
	[ENOENT] = "No such file or directory",
	[ESRCH] = "No such process",
	[EINTR] = "Interrupted system call",
	[EIO] = "Input/output error",
	[ENXIO] = "No such device or address",
	[E2BIG] = "Argument list too long",
	[ENOEXEC] = "Exec format error",
	[EBADF] = "Bad file descriptor",
	[ECHILD] = "No child processes",
	[EAGAIN] = "Resource temporarily unavailable",
	[ENOMEM] = "Cannot allocate memory",
	[EACCES] = "Permission denied",
	[EFAULT] = "Bad address",
	[ENOTBLK] = "Block device required",
	[EBUSY] = "Device or resource busy",
	[EEXIST] = "File exists",
	[EXDEV] = "Invalid cross-device link",
	[ENODEV] = "No such device",
	[ENOTDIR] = "Not a directory",
	[EISDIR] = "Is a directory",
	[EINVAL] = "Invalid argument",
	[ENFILE] = "Too many open files in system",
	[EMFILE] = "Too many open files",
	[ENOTTY] = "Inappropriate ioctl for device",
	[ETXTBSY] = "Text file busy",
	[EFBIG] = "File too large",
	[ENOSPC] = "No space left on device",
	[ESPIPE] = "Illegal seek",
	[EROFS] = "Read-only file system",
	[EMLINK] = "Too many links",
	[EPIPE] = "Broken pipe",
	[EDOM] = "Numerical argument out of domain",
	[ERANGE] = "Numerical result out of range",
	[EDEADLK] = "Resource deadlock avoided",
	[ENAMETOOLONG] = "File name too long",
	[ENOLCK] = "No locks available",
	[ENOSYS] = "Function not implemented",
	[ENOTEMPTY] = "Directory not empty",
	[ELOOP] = "Too many levels of symbolic links",
	[EOVERFLOW] = "Value too large for defined data type",
	[EOPNOTSUPP] = "Operation not supported",
};

/* "Unknown error -123" needs room for the prefix, a sign, ten digits and the NUL. */
static char unknown_text[32];

static const char *unknown_error(int err)
{
	static const char prefix[] = "Unknown error ";
	char digits[12];
	unsigned n = 0, i, len = 0;
	/* Negate in unsigned arithmetic: -INT_MIN does not fit in an int. */
	unsigned v = err < 0 ? 0u - (unsigned)err : (unsigned)err;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; prefix[i]; i++)
		unknown_text[len++] = prefix[i];
	if (err < 0)
		unknown_text[len++] = '-';
	while (n)
		unknown_text[len++] = digits[--n];
	unknown_text[len] = '\0';
	return unknown_text;
}

const char *strerror(int err)
{
	if (err >= 0 && (unsigned)err < ARRAY_SIZE(error_texts) && error_texts[err])
		return error_texts[err];
	return unknown_error(err);
}
