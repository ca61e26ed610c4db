/* Pipes (pipe(2), pipe2(2)) as Linux 6.1's fs/pipe.c behaves for a program: a byte stream
 * from the write end to the read end through a kernel buffer.
 *
 * - The buffer is one page frame: 4 KiB on the 4K presets, 16 or 64 KiB on arm64's 16K and
 *   64K ones. Linux's default is 16 pages (64 KiB with 4K pages); a program sees the difference
 *   only in how much a writer gets in before it blocks, and in F_GETPIPE_SZ, which reports the
 *   page (F_SETPIPE_SZ cannot grow it: kernel/fs_syscalls.c).
 * - A write of at most PIPE_BUF (4096) bytes is atomic: it waits until all of it fits and lands
 *   in one piece, never interleaved with another writer's. A longer one goes in as room
 *   appears, and may be interleaved.
 * - read returns what is there (up to count) without waiting for more; with nothing there it
 *   waits for a writer, and returns 0 (end of file) once no write end is open.
 * - write with no read end open: -EPIPE and SIGPIPE to the writer.
 * - O_NONBLOCK: -EAGAIN where it would wait (a write of at most PIPE_BUF that does not fit
 *   whole, a longer one when nothing fits).
 * - A wait is interruptible: a signal ends it with the bytes already moved, or with nothing moved
 *   -EINTR (restarted instead after a handler with SA_RESTART, as Linux's -ERESTARTSYS).
 *
 * Each end is an open file (struct file, FILE_SPECIAL) the pipe's ops serve; the pipe goes when
 * both ends are closed, its page back to the frame allocator. */
#include <arch/memory.h>
#include <kernel/cred.h>
#include <kernel/fd.h>
#include <kernel/fs.h>
#include <kernel/kernel.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/syscall.h>
#include <kernel/pipe.h>
#include <kernel/poll.h>
#include <lib/errno.h>
#include <lib/fmt.h>
#include <lib/string.h>
#include <mm/pmm.h>

#define NPIPE 128 /* pipes open at once in the whole system: beyond, -ENFILE */
#define PIPE_SIZE PAGE_SIZE
/* Linux's pipefs: st_dev of every pipe (an anonymous device, 0:12 on a Debian 6.1 kernel), and
 * the inode numbers get_next_ino hands out; we count from a number no /proc node uses. */
#define PIPEFS_MINOR 12
#define PIPE_INO_FIRST 20000
#define S_IFIFO 0010000u
/* A wait a signal ended with nothing moved: Linux's -ERESTARTSYS, which the return to user mode
 * turns into a restart (a handler with SA_RESTART) or -EINTR. Its value is signal.h's (h-signal);
 * before that lands every signal that ends a wait terminates the process. */
#ifndef ERESTARTSYS
#define ERESTARTSYS 512
#endif

struct pipe {
	bool used;
	unsigned readers, writers; /* open files of each end (each is shared by its descriptors) */
	char *buf;                 /* PIPE_SIZE bytes */
	size_t head, len;          /* the first unread byte, and how many are there */
	uint64_t ino;
	unsigned uid;              /* its creator: st_uid */
};

static struct pipe pipes[NPIPE];
static uint64_t next_ino = PIPE_INO_FIRST;

static struct pipe *pipe_of(const struct file *f)
{
	return f->priv;
}

/* Both readers and writers sleep on the pipe itself and re-check their condition when woken;
 * so do poll and select, on their own channel. */
static void wake_all(struct pipe *p)
{
	sched_wakeup(p);
	poll_notify();
}

/* Out of the ring into user memory. n <= p->len. */
static int copy_out(struct pipe *p, struct mm *mm, uint64_t ubuf, size_t n)
{
	size_t first = MIN(n, PIPE_SIZE - p->head);

	if (copy_to_user(mm, ubuf, p->buf + p->head, first))
		return -EFAULT;
	if (n > first && copy_to_user(mm, ubuf + first, p->buf, n - first))
		return -EFAULT;
	p->head = (p->head + n) % PIPE_SIZE;
	p->len -= n;
	return 0;
}

/* Into the ring from user memory at ubuf (mm) or from kbuf. n <= PIPE_SIZE - p->len. */
static int copy_in(struct pipe *p, struct mm *mm, uint64_t ubuf, const char *kbuf, size_t n)
{
	size_t tail = (p->head + p->len) % PIPE_SIZE;
	size_t first = MIN(n, PIPE_SIZE - tail);

	if (kbuf) {
		memcpy(p->buf + tail, kbuf, first);
		memcpy(p->buf, kbuf + first, n - first);
	} else if (copy_from_user(mm, p->buf + tail, ubuf, first) ||
		   (n > first && copy_from_user(mm, p->buf, ubuf + first, n - first))) {
		return -EFAULT;
	}
	p->len += n;
	return 0;
}

static long pipe_read(struct file *f, struct mm *mm, uint64_t ubuf, uint64_t count)
{
	struct pipe *p = pipe_of(f);

	if (count == 0)
		return 0;
	while (p->len == 0) {
		if (p->writers == 0)
			return 0;
		if (f->flags & O_NONBLOCK)
			return -EAGAIN;
		if (sched_sleep_interruptible(p, 0))
			return -ERESTARTSYS;
	}
	size_t n = (size_t)MIN(count, (uint64_t)p->len);
	if (copy_out(p, mm, ubuf, n))
		return -EFAULT;
	wake_all(p); /* room for writers */
	return (long)n;
}

/* No reader: the writer gets SIGPIPE (its default action ends it) and -EPIPE. */
static long broken_pipe(void)
{
	struct process *self = current_process();

	if (self)
		signal_send(self, SIGPIPE);
	return -EPIPE;
}

static long pipe_write(struct file *f, struct mm *mm, uint64_t ubuf, const char *kbuf,
		       uint64_t count)
{
	struct pipe *p = pipe_of(f);
	bool atomic = count <= PIPE_BUF;
	uint64_t done = 0;

	if (p->readers == 0)
		return broken_pipe();
	while (done < count) {
		size_t room = PIPE_SIZE - p->len;
		size_t want = (size_t)MIN(count - done, (uint64_t)PIPE_SIZE);
		if (room == 0 || (atomic && room < want)) {
			if (f->flags & O_NONBLOCK)
				return done ? (long)done : -EAGAIN;
			if (sched_sleep_interruptible(p, 0))
				return done ? (long)done : -ERESTARTSYS;
			if (p->readers == 0)
				return done ? (long)done : broken_pipe();
			continue;
		}
		size_t n = MIN(room, want);
		if (copy_in(p, mm, ubuf + done, kbuf ? kbuf + done : NULL, n))
			return done ? (long)done : -EFAULT;
		done += n;
		wake_all(p); /* bytes for readers */
	}
	return (long)done;
}

static void pipe_release(struct file *f)
{
	struct pipe *p = pipe_of(f);

	if ((f->flags & O_ACCMODE) == O_RDONLY)
		p->readers--;
	else
		p->writers--;
	if (p->readers == 0 && p->writers == 0) {
		pmm_free_page(__pa(p->buf));
		memset(p, 0, sizeof(*p));
		return;
	}
	wake_all(p); /* a reader sees end of file, a writer a broken pipe */
}

/* fstat: a FIFO of pipefs, mode 0600, owned by its creator, st_size 0 (as Linux's). */
static void pipe_stat(const struct file *f, struct kstat *k)
{
	const struct pipe *p = pipe_of(f);

	memset(k, 0, sizeof(*k));
	k->dev_minor = PIPEFS_MINOR;
	k->ino = p->ino;
	k->mode = S_IFIFO | 0600;
	k->nlink = 1;
	k->uid = p->uid;
	k->blksize = 4096;
}

static int pipe_name(const struct file *f, char *buf, size_t size)
{
	return snprintf(buf, size, "pipe:[%llu]", (unsigned long long)pipe_of(f)->ino);
}

/* poll: the read end is readable with bytes in the pipe, and hung up (end of file) once no
 * writer is left; the write end in error once no reader is left, and writable while a buffer
 * slot is free, as Linux's pipe_poll (!pipe_full: fewer buffers in use than the pipe's slots).
 * This pipe is one page, Linux's pipe of one slot (F_SETPIPE_SZ to a page): any byte in it
 * takes the slot, so it is writable only when empty, though a small write would still fit
 * (Linux merges it into the slot's page too). Linux's default pipe has 16 slots and stays
 * writable with a byte in it. */
static unsigned pipe_poll(const struct file *f)
{
	const struct pipe *p = pipe_of(f);
	unsigned mask = 0;

	if ((f->flags & O_ACCMODE) == O_RDONLY) {
		if (p->len)
			mask |= POLLIN | POLLRDNORM;
		if (p->writers == 0)
			mask |= POLLHUP;
	} else {
		if (p->len == 0)
			mask |= POLLOUT | POLLWRNORM;
		if (p->readers == 0)
			mask |= POLLERR;
	}
	return mask;
}

static const struct file_ops pipe_ops = {
	.read = pipe_read,
	.write = pipe_write,
	.release = pipe_release,
	.stat = pipe_stat,
	.name = pipe_name,
	.poll = pipe_poll,
};

bool file_is_pipe(const struct file *f)
{
	return f->kind == FILE_SPECIAL && f->ops == &pipe_ops;
}

uint64_t pipe_ino(const struct file *f)
{
	return file_is_pipe(f) ? pipe_of(f)->ino : 0;
}

static struct pipe *pipe_alloc(void)
{
	for (unsigned i = 0; i < NPIPE; i++) {
		struct pipe *p = &pipes[i];
		if (p->used)
			continue;
		phys_addr_t pa = pmm_alloc_page();
		if (!pa)
			return NULL;
		memset(p, 0, sizeof(*p));
		p->used = true;
		p->buf = __va(pa);
		p->ino = next_ino++;
		p->uid = current_uid();
		return p;
	}
	return NULL;
}

static struct file *pipe_end(struct pipe *p, unsigned acc, unsigned flags)
{
	struct file *f = file_alloc(FILE_SPECIAL, acc | (flags & O_NONBLOCK));

	if (!f)
		return NULL;
	f->ops = &pipe_ops;
	f->priv = p;
	if (acc == O_RDONLY)
		p->readers++;
	else
		p->writers++;
	return f;
}

long pipe_create(struct fd_table *t, unsigned flags, int fds[2])
{
	struct pipe *p = pipe_alloc();
	if (!p)
		return -ENFILE;
	struct file *r = pipe_end(p, O_RDONLY, flags), *w = r ? pipe_end(p, O_WRONLY, flags) : NULL;
	if (!w) {
		if (r)
			file_put(r); /* the last end: the pipe goes with it */
		else {
			pmm_free_page(__pa(p->buf));
			memset(p, 0, sizeof(*p));
		}
		return -ENFILE;
	}
	long rfd = fd_install(t, r, 0, flags & O_CLOEXEC);
	if (rfd < 0) {
		file_put(w);
		return rfd;
	}
	long wfd = fd_install(t, w, 0, flags & O_CLOEXEC);
	if (wfd < 0) {
		fd_close(t, rfd);
		return wfd;
	}
	fds[0] = (int)rfd;
	fds[1] = (int)wfd;
	return 0;
}

/* pipe2(int fds[2], flags): O_CLOEXEC and O_NONBLOCK; Linux's packet mode (O_DIRECT) and
 * notification pipes are not served (-EINVAL). A bad fds pointer: both ends closed again,
 * -EFAULT. */
static long do_pipe(const struct syscall_args *a, unsigned flags)
{
	int fds[2];

	if (flags & ~(unsigned)(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	long err = pipe_create(&a->p->files, flags, fds);
	if (err)
		return err;
	if (copy_to_user(&a->p->mm, a->a[0], fds, sizeof(fds))) {
		fd_close(&a->p->files, fds[0]);
		fd_close(&a->p->files, fds[1]);
		return -EFAULT;
	}
	return 0;
}

long sys_pipe(const struct syscall_args *a)
{
	return do_pipe(a, 0);
}

long sys_pipe2(const struct syscall_args *a)
{
	return do_pipe(a, (unsigned)a->a[1]);
}
