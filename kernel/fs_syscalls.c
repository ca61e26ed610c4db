/* The file system calls (include/kernel/syscall.h) over kernel/fd.c and the file namespace, with
 * Linux's semantics and errors. Each handler serves every ABI: where a layout differs by ABI
 * (iovec, the stat structures, off_t) the calling task's ABI picks it. */
#include <asm/fcntl.h>
#include <arch/memory.h>
#include <asm/stat.h>
#include <drivers/tty.h>
#include <kernel/cred.h>
#include <kernel/fd.h>
#include <kernel/fs.h>
#include <kernel/kernel.h>
#include <lib/errno.h>
#include <lib/mman.h>
#include <lib/string.h>
#include <mm/mm.h>
#include <kernel/pipe.h>
#include <kernel/proc.h>
#include <kernel/syscall.h>

#define UIO_MAXIOV 1024
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define SEEK_DATA 3
#define SEEK_HOLE 4
#define F_DUPFD 0
#define F_GETFD 1
#define F_SETFD 2
#define F_GETFL 3
#define F_SETFL 4
#define F_DUPFD_CLOEXEC 1030
#define FD_CLOEXEC 1
#define FIONBIO 0x5421
#define FIONCLEX 0x5450
#define FIOCLEX 0x5451
#define AT_NO_AUTOMOUNT 0x800
#define AT_STATX_SYNC_TYPE 0x6000
#define STATX_BASIC_STATS 0x7ffu
#define STATX__RESERVED 0x80000000u
#define STATX_SIZE 256
#define F_SETPIPE_SZ 1031
#define F_GETPIPE_SZ 1032

/* --- Arguments ------------------------------------------------------------------------------ */

/* A file descriptor argument: Linux declares it `unsigned int fd` (openat's directory `int
 * dfd`), so only the low 32 bits of the register count, for 64-bit tasks too. */
static long fd_arg(const struct syscall_args *a, unsigned i)
{
	return (long)(uint32_t)a->a[i];
}

static long dirfd_arg(const struct syscall_args *a, unsigned i)
{
	return (long)(int32_t)(uint32_t)a->a[i];
}

static int int_arg(const struct syscall_args *a, unsigned i)
{
	return (int)(int32_t)(uint32_t)a->a[i];
}

/* A 32-bit task: compat on a 64-bit kernel, or any task of a 32-bit one. */
static bool task32(const struct syscall_args *a)
{
	return a->compat || sizeof(void *) == 4;
}

static struct mm *mm_of(const struct syscall_args *a)
{
	return &a->p->mm;
}

static struct fd_table *files_of(const struct syscall_args *a)
{
	return &a->p->files;
}

/* --- read, write, readv, writev -------------------------------------------------------------- */

long sys_read(const struct syscall_args *a)
{
	return fd_read(mm_of(a), files_of(a), fd_arg(a, 0), a->a[1], a->a[2]);
}

long sys_write(const struct syscall_args *a)
{
	return fd_write(mm_of(a), files_of(a), fd_arg(a, 0), a->a[1], a->a[2]);
}

struct iov {
	uint64_t base, len;
};

/* import_iovec: iovcnt checked (-EINVAL), the array read (-EFAULT), each length and their sum
 * checked (-EINVAL for a negative one), the sum capped at MAX_RW_COUNT. */
static long import_iov(const struct syscall_args *a, uint64_t uiov, long cnt, struct iov *iov)
{
	unsigned size = task32(a) ? 8 : 16;
	uint64_t total = 0;

	if (cnt < 0 || cnt > UIO_MAXIOV)
		return -EINVAL;
	for (long i = 0; i < cnt; i++) {
		uint8_t raw[16];
		if (copy_from_user(mm_of(a), raw, uiov + (uint64_t)i * size, size))
			return -EFAULT;
		if (size == 8) {
			iov[i].base = (uint64_t)raw[0] | raw[1] << 8 | raw[2] << 16 | (uint64_t)raw[3] << 24;
			uint32_t len = (uint32_t)raw[4] | raw[5] << 8 | raw[6] << 16 | (uint32_t)raw[7] << 24;
			if ((int32_t)len < 0)
				return -EINVAL;
			iov[i].len = len;
		} else {
			memcpy(&iov[i].base, raw, 8);
			memcpy(&iov[i].len, raw + 8, 8);
			if ((int64_t)iov[i].len < 0)
				return -EINVAL;
		}
		iov[i].len = MIN(iov[i].len, (uint64_t)MAX_RW_COUNT - total);
		total += iov[i].len;
	}
	return 0;
}

static long do_rw_vec(const struct syscall_args *a, bool write)
{
	static struct iov iov[UIO_MAXIOV];
	long fd = fd_arg(a, 0), cnt = (long)(uint32_t)a->a[2], done = 0;
	struct file *f = fd_get(files_of(a), fd);
	unsigned acc = f ? f->flags & O_ACCMODE : 0;

	if (!f || acc == (write ? O_RDONLY : O_WRONLY))
		return -EBADF;
	if (cnt > UIO_MAXIOV || (int)cnt < 0)
		return -EINVAL;
	long err = import_iov(a, a->a[1], cnt, iov);
	if (err)
		return err;
	for (long i = 0; i < cnt; i++) {
		if (!iov[i].len)
			continue;
		long n = write ? fd_write(mm_of(a), files_of(a), fd, iov[i].base, iov[i].len)
			       : fd_read(mm_of(a), files_of(a), fd, iov[i].base, iov[i].len);
		if (n < 0)
			return done ? done : n;
		done += n;
		if ((uint64_t)n < iov[i].len)
			break;
	}
	return done;
}

long sys_readv(const struct syscall_args *a)
{
	return do_rw_vec(a, false);
}

long sys_writev(const struct syscall_args *a)
{
	return do_rw_vec(a, true);
}

/* --- sendfile -------------------------------------------------------------------------------- */

/* sendfile(out_fd, in_fd, offset, count) as do_sendfile: count bytes of in_fd's file from
 * *offset (left in place and the new offset stored back) or from its position (which moves),
 * written to out_fd; busybox cat tries it before read and write. off_size is the width of
 * *offset: 4 for the 32-bit ABIs' sendfile (off_t, files below 2 GiB), 8 for sendfile64 and the
 * 64-bit ABIs. The input must be a file with bytes to read (a directory, the console or a pipe:
 * EINVAL, as a file without splice_read). */
static long do_sendfile(const struct syscall_args *a, unsigned off_size)
{
	struct fd_table *t = files_of(a);
	uint64_t uoff = a->a[2], count = task32(a) ? (uint32_t)a->a[3] : a->a[3];
	int64_t pos = 0;

	if (uoff) {
		int32_t off32;
		if (off_size == 4 ? copy_from_user(mm_of(a), &off32, uoff, 4)
				  : copy_from_user(mm_of(a), &pos, uoff, 8))
			return -EFAULT;
		if (off_size == 4)
			pos = off32;
	}
	struct file *in = fd_get(t, fd_arg(a, 1)), *out = fd_get(t, fd_arg(a, 0));
	if (!in || (in->flags & O_ACCMODE) == O_WRONLY)
		return -EBADF;
	if (!uoff)
		pos = (int64_t)in->pos;
	if (pos < 0 || (int64_t)count < 0)
		return -EINVAL;
	if (!out || (out->flags & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (in->kind != FILE_NODE || in->node.kind == FS_NODE_DIR)
		return -EINVAL;
	uint64_t max = off_size == 4 ? INT32_MAX : INT64_MAX;
	if ((uint64_t)pos >= max)
		return -EOVERFLOW;
	count = MIN(MIN(count, (uint64_t)MAX_RW_COUNT), max - (uint64_t)pos);

	char buf[512];
	uint64_t done = 0;
	long err = 0;
	while (done < count) {
		size_t want = (size_t)MIN((uint64_t)sizeof(buf), count - done);
		long n = fs_node_read(&in->node, current_uid(), (uint64_t)pos + done, buf, want);
		if (n <= 0) {
			err = n;
			break;
		}
		long w = fd_write_kernel(out, buf, (size_t)n);
		if (w < 0) {
			err = w;
			break;
		}
		done += (uint64_t)w;
		if (w < n || (size_t)n < want)
			break;
	}
	if (done == 0 && err < 0)
		return err;
	pos += (int64_t)done;
	if (!uoff) {
		in->pos = (uint64_t)pos;
	} else {
		int32_t off32 = (int32_t)pos;
		if (off_size == 4 ? copy_to_user(mm_of(a), uoff, &off32, 4)
				  : copy_to_user(mm_of(a), uoff, &pos, 8))
			return -EFAULT;
	}
	return (long)done;
}

long sys_sendfile(const struct syscall_args *a)
{
	return do_sendfile(a, task32(a) ? 4 : 8);
}

long sys_sendfile64(const struct syscall_args *a)
{
	return do_sendfile(a, 8);
}

/* --- open, close, lseek --------------------------------------------------------------------- */

long sys_open(const struct syscall_args *a)
{
	return fd_open(mm_of(a), files_of(a), AT_FDCWD, a->a[0], (unsigned long)(uint32_t)a->a[1]);
}

long sys_openat(const struct syscall_args *a)
{
	return fd_open(mm_of(a), files_of(a), dirfd_arg(a, 0), a->a[1],
		       (unsigned long)(uint32_t)a->a[2]);
}

long sys_close(const struct syscall_args *a)
{
	return fd_close(files_of(a), fd_arg(a, 0));
}

/* The new offset for lseek on f, or -errno: an unknown whence first (-EINVAL, ksys_lseek);
 * the console and pipes cannot seek (-ESPIPE), /dev/null stays at 0; /proc files (seq_lseek)
 * only from the start or the current offset; SEEK_DATA/SEEK_HOLE on a file whose data has no
 * holes. */
static int64_t seek(struct file *f, int64_t off, unsigned whence)
{
	int64_t base;

	if (whence > SEEK_HOLE)
		return -EINVAL;
	if (f->kind == FILE_SPECIAL && f->ops->llseek)
		return f->ops->llseek(f, off, whence);
	if (f->kind != FILE_NODE)
		return -ESPIPE;
	int64_t size = f->node.kind == FS_NODE_FILE ? (int64_t)f->node.size : 0;
	bool proc = f->node.kind == FS_NODE_SYSCTL || f->node.kind == FS_NODE_MAPS;
	switch (whence) {
	case SEEK_SET: base = 0; break;
	case SEEK_CUR: base = (int64_t)f->pos; break;
	case SEEK_END:
		if (proc || f->node.kind == FS_NODE_DIR)
			return -EINVAL;
		base = size;
		break;
	case SEEK_DATA:
	case SEEK_HOLE:
		if (f->node.kind != FS_NODE_FILE)
			return -EINVAL;
		if (off < 0 || off >= size)
			return -ENXIO;
		return whence == SEEK_DATA ? off : size;
	default:
		return -EINVAL;
	}
	if ((off > 0 && base > INT64_MAX - off) || base + off < 0)
		return -EINVAL;
	return base + off;
}

long sys_lseek(const struct syscall_args *a)
{
	struct file *f = fd_get(files_of(a), fd_arg(a, 0));
	/* off_t: 32 bits in a 32-bit task's register, sign-extended. */
	int64_t off = task32(a) ? (int64_t)(int32_t)(uint32_t)a->a[1] : (int64_t)a->a[1];

	if (!f)
		return -EBADF;
	int64_t pos = seek(f, off, (unsigned)a->a[2]);
	if (pos < 0)
		return (long)pos;
	if (task32(a) && pos > INT32_MAX)
		return -EOVERFLOW;
	f->pos = (uint64_t)pos;
	return (long)pos;
}

/* _llseek(fd, offset_high, offset_low, loff_t *result, whence). */
long sys_llseek(const struct syscall_args *a)
{
	struct file *f = fd_get(files_of(a), fd_arg(a, 0));
	int64_t off = (int64_t)((uint64_t)(uint32_t)a->a[1] << 32 | (uint32_t)a->a[2]);

	if (!f)
		return -EBADF;
	int64_t pos = seek(f, off, (unsigned)a->a[4]);
	if (pos < 0)
		return (long)pos;
	f->pos = (uint64_t)pos;
	uint64_t result = (uint64_t)pos;
	return copy_to_user(mm_of(a), a->a[3], &result, sizeof(result)) ? -EFAULT : 0;
}

/* --- The stat family ------------------------------------------------------------------------ */

static void stat_node(const struct fs_node *n, struct kstat *k)
{
	memset(k, 0, sizeof(*k));
	k->dev_minor = n->dev_minor;
	k->ino = n->ino;
	k->mode = n->mode;
	k->nlink = n->kind == FS_NODE_DIR ? 2 : 1;
	k->rdev_major = n->rdev >> 8;
	k->rdev_minor = n->rdev & 0xff;
	k->size = (int64_t)n->size;
	/* The initramfs is a ramfs and /dev a devtmpfs: page-sized blocks; /proc reports 1024. */
	bool rootfs = n->dev_minor == FS_DEV_ROOTFS_MINOR;
	k->blksize = n->dev_minor == FS_DEV_PROC_MINOR ? 1024 : PAGE_SIZE;
	k->blocks = rootfs ? (int64_t)(ALIGN_UP(n->size, (uint64_t)PAGE_SIZE) / 512) : 0;
}

static long stat_fd(const struct syscall_args *a, long fd, struct kstat *k)
{
	struct file *f = fd_get(files_of(a), fd);

	if (!f)
		return -EBADF;
	if (f->kind == FILE_CONSOLE) { /* fds 0-2 or an opened /dev/console: the same node */
		struct fs_node n;
		long err = fs_resolve("/dev/console", true, &n);
		if (err)
			return err;
		stat_node(&n, k);
	} else if (f->kind == FILE_SPECIAL && f->ops->stat) {
		f->ops->stat(f, k);
	} else {
		stat_node(&f->node, k);
	}
	return 0;
}

/* fstatat's lookup: flags checked (-EINVAL), "" with AT_EMPTY_PATH is dirfd itself. */
static long stat_at(const struct syscall_args *a, long dirfd, uint64_t upath, unsigned flags,
		    struct kstat *k)
{
	struct fs_node n;
	char c;

	if (flags & ~(unsigned)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH | AT_NO_AUTOMOUNT))
		return -EINVAL;
	if ((flags & AT_EMPTY_PATH) && copy_from_user(mm_of(a), &c, upath, 1) == 0 && c == '\0')
		return dirfd == AT_FDCWD ? stat_at(a, AT_FDCWD, 0, 0, k) : stat_fd(a, dirfd, k);
	long err = upath ? fd_lookup_at(mm_of(a), files_of(a), dirfd, upath,
				        !(flags & AT_SYMLINK_NOFOLLOW), false, &n)
			 : fs_resolve(files_of(a)->cwd, true, &n);
	if (err)
		return err;
	stat_node(&n, k);
	return 0;
}

/* "stat" (64-bit tasks: the ISA's struct stat; 32-bit tasks: the old 32-bit struct stat). */
static long put_stat(const struct syscall_args *a, long err, const struct kstat *k, uint64_t ubuf)
{
	uint8_t buf[160];
	long size;

	if (err)
		return err;
#ifdef STAT64BIT_SIZE
	size = task32(a) ? stat32_encode(k, buf) : stat64bit_encode(k, buf);
#else
	size = stat32_encode(k, buf);
#endif
	if (size < 0)
		return size;
	return copy_to_user(mm_of(a), ubuf, buf, (size_t)size) ? -EFAULT : 0;
}

static long put_stat64(const struct syscall_args *a, long err, const struct kstat *k,
		       uint64_t ubuf)
{
	uint8_t buf[STAT64_SIZE];

	if (err)
		return err;
	long size = stat64_encode(k, buf);
	return copy_to_user(mm_of(a), ubuf, buf, (size_t)size) ? -EFAULT : 0;
}

long sys_newfstat(const struct syscall_args *a)
{
	struct kstat k;

	return put_stat(a, stat_fd(a, fd_arg(a, 0), &k), &k, a->a[1]);
}

long sys_newstat(const struct syscall_args *a)
{
	struct kstat k;

	return put_stat(a, stat_at(a, AT_FDCWD, a->a[0], 0, &k), &k, a->a[1]);
}

long sys_newlstat(const struct syscall_args *a)
{
	struct kstat k;

	return put_stat(a, stat_at(a, AT_FDCWD, a->a[0], AT_SYMLINK_NOFOLLOW, &k), &k, a->a[1]);
}

long sys_newfstatat(const struct syscall_args *a)
{
	struct kstat k;

	return put_stat(a, stat_at(a, dirfd_arg(a, 0), a->a[1], (unsigned)a->a[3], &k), &k,
			a->a[2]);
}

long sys_fstat64(const struct syscall_args *a)
{
	struct kstat k;

	return put_stat64(a, stat_fd(a, fd_arg(a, 0), &k), &k, a->a[1]);
}

long sys_stat64(const struct syscall_args *a)
{
	struct kstat k;

	return put_stat64(a, stat_at(a, AT_FDCWD, a->a[0], 0, &k), &k, a->a[1]);
}

long sys_lstat64(const struct syscall_args *a)
{
	struct kstat k;

	return put_stat64(a, stat_at(a, AT_FDCWD, a->a[0], AT_SYMLINK_NOFOLLOW, &k), &k, a->a[1]);
}

long sys_fstatat64(const struct syscall_args *a)
{
	struct kstat k;

	return put_stat64(a, stat_at(a, dirfd_arg(a, 0), a->a[1], (unsigned)a->a[3], &k), &k,
			  a->a[2]);
}

/* statx(dirfd, path, flags, mask, struct statx *): the basic fields, whatever the mask asks. */
long sys_statx(const struct syscall_args *a)
{
	unsigned flags = (unsigned)a->a[2], mask = (unsigned)a->a[3];
	uint8_t b[STATX_SIZE];
	struct kstat k;

	if ((flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE || (mask & STATX__RESERVED))
		return -EINVAL;
	long err = stat_at(a, dirfd_arg(a, 0), a->a[1], flags & ~(unsigned)AT_STATX_SYNC_TYPE, &k);
	if (err)
		return err;
	memset(b, 0, sizeof(b));
	put_u32(b, 0, STATX_BASIC_STATS);
	put_u32(b, 4, k.blksize);
	put_u32(b, 16, k.nlink);
	put_u32(b, 20, k.uid);
	put_u32(b, 24, k.gid);
	put_u16(b, 28, (uint16_t)k.mode);
	put_u64(b, 32, k.ino);
	put_u64(b, 40, (uint64_t)k.size);
	put_u64(b, 48, (uint64_t)k.blocks);
	/* 64..127: atime, btime, ctime, mtime: 0 */
	put_u32(b, 128, k.rdev_major);
	put_u32(b, 132, k.rdev_minor);
	put_u32(b, 136, k.dev_major);
	put_u32(b, 140, k.dev_minor);
	return copy_to_user(mm_of(a), a->a[4], b, sizeof(b)) ? -EFAULT : 0;
}

/* --- ioctl, fcntl --------------------------------------------------------------------------- */

long sys_ioctl(const struct syscall_args *a)
{
	struct file *f = fd_get(files_of(a), fd_arg(a, 0));
	unsigned cmd = (unsigned)a->a[1];
	uint64_t arg = a->a[2];
	int on;

	if (!f)
		return -EBADF;
	/* The commands every file answers (do_vfs_ioctl), before the file's own. */
	switch (cmd) {
	case FIOCLEX:
	case FIONCLEX:
		fd_set_cloexec(files_of(a), fd_arg(a, 0), cmd == FIOCLEX);
		return 0;
	case FIONBIO:
		if (copy_from_user(mm_of(a), &on, arg, sizeof(on)))
			return -EFAULT;
		f->flags = on ? f->flags | O_NONBLOCK : f->flags & ~(unsigned)O_NONBLOCK;
		return 0;
	}
	return f->kind == FILE_CONSOLE ? tty_ioctl(mm_of(a), cmd, arg) : -ENOTTY;
}

/* F_GETPIPE_SZ and F_SETPIPE_SZ (Linux's pipe_fcntl, which takes the argument as an unsigned
 * int): not a pipe, -EBADF. A pipe's buffer here is one page frame (kernel/pipe.c's
 * PIPE_SIZE) and cannot be resized, so the capacity reported is always that page. A new size
 * is rounded as Linux's round_pipe_size does (above 2^31: -EINVAL; below a page: a page; else
 * the next power of two): one page is what the pipe has, and the answer is its size; anything
 * larger is refused with -EPERM, Linux's answer to a size above fs.pipe-max-size, which here is
 * one page for root too (docs/syscalls.md). */
static long pipe_size_fcntl(const struct file *f, bool set, uint32_t arg)
{
	if (!file_is_pipe(f))
		return -EBADF;
	if (set && arg > (1u << 31))
		return -EINVAL;
	if (set && arg > PAGE_SIZE)
		return -EPERM;
	return PAGE_SIZE;
}

long sys_fcntl(const struct syscall_args *a)
{
	long fd = fd_arg(a, 0);
	struct file *f = fd_get(files_of(a), fd);
	unsigned cmd = (unsigned)a->a[1];
	uint64_t arg = a->a[2];

	if (!f)
		return -EBADF;
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		if ((int64_t)(int32_t)(uint32_t)arg < 0 || (uint32_t)arg >= FD_MAX)
			return -EINVAL;
		return fd_dup(files_of(a), fd, (long)(uint32_t)arg, cmd == F_DUPFD_CLOEXEC);
	case F_GETFD:
		return fd_cloexec(files_of(a), fd) ? FD_CLOEXEC : 0;
	case F_SETFD:
		fd_set_cloexec(files_of(a), fd, arg & FD_CLOEXEC);
		return 0;
	case F_GETFL:
		return f->flags;
	case F_SETFL: /* only O_APPEND and O_NONBLOCK can change */
		f->flags = (f->flags & ~(unsigned)(O_APPEND | O_NONBLOCK)) |
			   ((unsigned)arg & (O_APPEND | O_NONBLOCK));
		return 0;
	case F_GETPIPE_SZ:
	case F_SETPIPE_SZ:
		return pipe_size_fcntl(f, cmd == F_SETPIPE_SZ, (uint32_t)arg);
	default:
		return -EINVAL;
	}
}

/* --- dup ------------------------------------------------------------------------------------ */

long sys_dup(const struct syscall_args *a)
{
	return fd_dup(files_of(a), fd_arg(a, 0), 0, false);
}

long sys_dup2(const struct syscall_args *a)
{
	return fd_dup_to(files_of(a), fd_arg(a, 0), fd_arg(a, 1), false, false);
}

long sys_dup3(const struct syscall_args *a)
{
	unsigned flags = (unsigned)a->a[2];

	if (flags & ~(unsigned)O_CLOEXEC)
		return -EINVAL;
	return fd_dup_to(files_of(a), fd_arg(a, 0), fd_arg(a, 1), flags & O_CLOEXEC, true);
}

/* --- Directories ---------------------------------------------------------------------------- */

/* getdents64: struct linux_dirent64 { u64 d_ino; s64 d_off; u16 d_reclen; u8 d_type;
 * char d_name[]; }, each record 8-byte aligned. */
long sys_getdents64(const struct syscall_args *a)
{
	static struct fs_dirent d;
	struct file *f = fd_get(files_of(a), fd_arg(a, 0));
	uint64_t ubuf = a->a[1], count = (uint32_t)a->a[2], used = 0;
	uint8_t rec[FS_PATH_MAX + 32];

	if (!f)
		return -EBADF;
	if (f->kind != FILE_NODE || f->node.kind != FS_NODE_DIR)
		return -ENOTDIR;
	if (ubuf + count < ubuf || ubuf + count > mm_of(a)->geo.task_size)
		return -EFAULT;
	while (fs_node_readdir(&f->node, (unsigned)f->pos, &d) == 0) {
		size_t len = strlen(d.name);
		size_t reclen = ALIGN_UP(19 + len + 1, (size_t)8);
		if (used + reclen > count)
			return used ? (long)used : -EINVAL;
		memset(rec, 0, reclen);
		put_u64(rec, 0, d.ino);
		put_u64(rec, 8, f->pos + 1);
		put_u16(rec, 16, (uint16_t)reclen);
		rec[18] = d.type;
		memcpy(rec + 19, d.name, len);
		if (copy_to_user(mm_of(a), ubuf + used, rec, reclen))
			return -EFAULT;
		used += reclen;
		f->pos++;
	}
	return (long)used;
}

long sys_getcwd(const struct syscall_args *a)
{
	const char *cwd = files_of(a)->cwd;
	uint64_t len = strlen(cwd) + 1;

	if ((uint32_t)a->a[1] < len && (task32(a) || a->a[1] < len))
		return -ERANGE;
	return copy_to_user(mm_of(a), a->a[0], cwd, (size_t)len) ? -EFAULT : (long)len;
}

long sys_chdir(const struct syscall_args *a)
{
	struct fs_node n;
	long err = fd_lookup_at(mm_of(a), files_of(a), AT_FDCWD, a->a[0], true, false, &n);

	if (err)
		return err;
	if (n.kind != FS_NODE_DIR)
		return -ENOTDIR;
	err = fs_node_permission(&n, current_uid(), 01);
	if (err)
		return err;
	strlcpy(files_of(a)->cwd, n.path, sizeof(files_of(a)->cwd));
	return 0;
}

static long do_readlink(const struct syscall_args *a, long dirfd, uint64_t upath, uint64_t ubuf,
			int bufsiz)
{
	struct fs_node n;
	char target[FS_PATH_MAX];

	if (bufsiz <= 0)
		return -EINVAL;
	long err = fd_lookup_at(mm_of(a), files_of(a), dirfd, upath, false, false, &n);
	if (err)
		return err;
	long len = fs_node_readlink(&n, target, sizeof(target));
	if (len < 0)
		return len;
	len = MIN(len, (long)bufsiz);
	return copy_to_user(mm_of(a), ubuf, target, (size_t)len) ? -EFAULT : len;
}

long sys_readlink(const struct syscall_args *a)
{
	return do_readlink(a, AT_FDCWD, a->a[0], a->a[1], int_arg(a, 2));
}

long sys_readlinkat(const struct syscall_args *a)
{
	return do_readlink(a, dirfd_arg(a, 0), a->a[1], a->a[2], int_arg(a, 3));
}

/* access(2): F_OK (0) or any of R_OK 4, W_OK 2, X_OK 1, for the (only) uid. */
static long do_access(const struct syscall_args *a, long dirfd, uint64_t upath, unsigned mode,
		      unsigned flags)
{
	struct fs_node n;

	if (mode & ~7u)
		return -EINVAL;
	long err = fd_lookup_at(mm_of(a), files_of(a), dirfd, upath,
				!(flags & AT_SYMLINK_NOFOLLOW), flags & AT_EMPTY_PATH, &n);
	if (err)
		return err;
	if (n.kind == FS_NODE_DIR && (mode & 02) && n.dev_minor == FS_DEV_ROOTFS_MINOR)
		return -EROFS;
	return mode ? fs_node_permission(&n, current_uid(), mode) : 0;
}

long sys_access(const struct syscall_args *a)
{
	return do_access(a, AT_FDCWD, a->a[0], (unsigned)a->a[1], 0);
}

/* faccessat and faccessat2: the flags word is faccessat2's (AT_EACCESS, AT_SYMLINK_NOFOLLOW,
 * AT_EMPTY_PATH); faccessat has no such argument, so unknown bits are not refused here. */
long sys_faccessat(const struct syscall_args *a)
{
	return do_access(a, dirfd_arg(a, 0), a->a[1], (unsigned)a->a[2],
			 (unsigned)a->a[3] & (AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH));
}

/* --- mmap's view ---------------------------------------------------------------------------- */

/* do_mmap's checks on the file, in Linux's order: a shared writable mapping needs the file open
 * for writing, any mapping needs it open for reading (-EACCES); then the file must have an mmap
 * of its own (-ENODEV without): an archive file has one, the console, /dev/null, a pipe's ends,
 * a directory and /proc's files have none, as Linux's character devices without an mmap
 * operation, pipefs, directories and procfs. A mapping type that is none of the three is
 * -EINVAL, as do_mmap's switch answers before it looks at the file. */
const struct fs_file *fd_mmap_file(struct process *p, long fd, unsigned long prot,
				   unsigned long flags, long *err)
{
	struct file *f = fd_get(&p->files, fd);
	unsigned long type = flags & MAP_TYPE;

	*err = 0;
	if (!f)
		*err = -EBADF;
	else if (type != MAP_SHARED && type != MAP_SHARED_VALIDATE && type != MAP_PRIVATE)
		*err = -EINVAL;
	else if (type != MAP_PRIVATE && (prot & PROT_WRITE) && (f->flags & O_ACCMODE) == O_RDONLY)
		*err = -EACCES;
	else if ((f->flags & O_ACCMODE) == O_WRONLY)
		*err = -EACCES;
	else if (f->kind != FILE_NODE || f->node.kind != FS_NODE_FILE)
		*err = -ENODEV;
	return *err ? NULL : f->node.file;
}
