/* The file side of the kernel together (kernel/initramfs.c, procfs.c, proc_maps.c, fd.c,
 * fs_syscalls.c over lib/cpio.c and lib/path.c), with the page allocator, the sysctl table,
 * the processes and user memory stubbed (user addresses are host pointers). Archives are
 * written by tools/mkcpio.py at test time.
 *
 * Checked: what initramfs_unpack adds and prints (in place when aligned, copied into frames
 * when not, bare names under /bin, all or nothing with the frames given back), and the system
 * calls a program makes on the result: open/read/lseek, the ABI's stat layouts at Linux's
 * offsets (built twice: arm64's and x86's asm/stat.h), statx, getdents64, getcwd/chdir,
 * readlink of /proc/self/exe, access, ioctl, fcntl, readv/writev, /proc/self/maps. */
#include "lib_under_test.h"
#include <arch/memory.h>
#include <asm/fcntl.h>
#include <asm/stat.h>
#include <kernel/console.h>
#include <kernel/cred.h>
#include <kernel/fd.h>
#include <kernel/fs.h>
#include <kernel/initramfs.h>
#include <kernel/kernel.h>
#include <mm/pgtable.h>
#include <mm/pmm.h>
#include <kernel/proc.h>
#include <kernel/sysctl.h>
#include <kernel/syscall.h>
#include <kernel/vdso.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "host_files.h"

/* --- Stubs ----------------------------------------------------------------------------------- */

static char out[1 << 16];
static size_t out_len;

int vprintk(const char *fmt, va_list ap)
{
	int n = lib_vsnprintf(out + out_len, sizeof(out) - out_len, fmt, ap);
	out_len += (size_t)n;
	return n;
}

void console_write(const char *s, size_t n)
{
	memcpy(out + out_len, s, n);
	out_len += n;
}

static unsigned uid;
unsigned current_uid(void) { return uid; }

static int knob = 18;
static const struct sysctl_entry knob_entry = { .name = "vm.mmap_rnd_bits", .data = &knob,
						.mode = 0600, .min = 8, .max = 33 };
const struct sysctl_entry *sysctl_find(const char *name)
{
	return strcmp(name, "vm/mmap_rnd_bits") == 0 || strcmp(name, "vm.mmap_rnd_bits") == 0
		       ? &knob_entry : NULL;
}
const struct sysctl_entry *sysctl_next(const struct sysctl_entry *prev)
{
	return prev ? NULL : &knob_entry;
}
long sysctl_read(const struct sysctl_entry *e, unsigned u, char *buf, size_t size)
{
	(void)e;
	return u == UID_ROOT ? lib_snprintf(buf, size, "%d\n", knob) : -EACCES;
}
long sysctl_write(const struct sysctl_entry *e, unsigned u, const char *buf, size_t len)
{
	(void)e, (void)buf;
	return u == UID_ROOT ? (long)len : -EACCES;
}

/* The built-in archive the kernel image holds: an empty one here. */
const uint8_t __initramfs_builtin_start[1], __initramfs_builtin_end[1];

/* Frames: host memory, page aligned, counted. */
static long frames_out;
phys_addr_t pmm_alloc_pages(unsigned order)
{
	size_t size = (size_t)PAGE_SIZE << order;
	void *p = aligned_alloc(PAGE_SIZE, size);
	memset(p, 0, size);
	frames_out += 1L << order;
	return __pa(p);
}
void pmm_free_pages(phys_addr_t pa, unsigned order)
{
	(void)pa; /* the tail pages of a block are given back one by one: leak them here */
	frames_out -= 1L << order;
}

static struct process proc;
static struct vma vmas[3];
struct process *current_process(void) { return &proc; }
struct process *kept_process(int pid) { (void)pid; return NULL; }
/* No gate page ([vectors] above TASK_SIZE on ARM) in these processes. */
const struct vma *arch_gate_vma(const struct mm *mm) { (void)mm; return NULL; }
bool may_inspect_process(const struct process *p, unsigned u)
{
	return u == UID_ROOT || u == p->uid;
}

int copy_from_user(struct mm *mm, void *dst, uint64_t src, size_t len)
{
	(void)mm;
	if (src < 4096)
		return -EFAULT;
	memcpy(dst, (const void *)(uintptr_t)src, len);
	return 0;
}
int copy_to_user(struct mm *mm, uint64_t dst, const void *src, size_t len)
{
	(void)mm;
	if (dst < 4096)
		return -EFAULT;
	memcpy((void *)(uintptr_t)dst, src, len);
	return 0;
}

/* kernel/pipe.c is not linked: no file here is a pipe (F_GETPIPE_SZ's test). */
bool file_is_pipe(const struct file *f)
{
	(void)f;
	return false;
}

/* --- Helpers ------------------------------------------------------------------------------- */

static char tmp[64];

/* An archive by tools/mkcpio.py from "DEST=CONTENT" pairs (CONTENT written to a file), loaded
 * into page-aligned memory (as the kernel image holds the built-in one). */
static const uint8_t *archive(size_t *size, const char *opts, ...)
{
	char cmd[2048], path[128];
	va_list ap;
	int n = snprintf(cmd, sizeof(cmd), "/usr/bin/python3 %s %s %s.cpio", MKCPIO, opts, tmp);
	unsigned i = 0;

	va_start(ap, opts);
	for (const char *m; (m = va_arg(ap, const char *));) {
		const char *eq = strchr(m, '=');
		snprintf(path, sizeof(path), "%s.%u", tmp, i++);
		FILE *f = fopen(path, "w");
		fputs(eq + 1, f);
		fclose(f);
		n += snprintf(cmd + n, sizeof(cmd) - (size_t)n, " %.*s=%s", (int)(eq - m), m, path);
	}
	va_end(ap);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s.cpio", tmp);
	uint8_t *raw = host_load_file(path, size);
	uint8_t *aligned = aligned_alloc(PAGE_SIZE, ALIGN_UP(*size, (size_t)PAGE_SIZE));
	memcpy(aligned, raw, *size);
	free(raw);
	return aligned;
}

static void expect_out(const char *want)
{
	out[out_len] = '\0';
	assert_string_equal(out, want);
	out_len = 0;
}

static struct syscall_args args(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4)
{
	struct syscall_args a = { .p = &proc, .compat = false, .a = { a0, a1, a2, a3, a4, 0 } };
	return a;
}

static uint64_t u(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static long call(long (*fn)(const struct syscall_args *), uint64_t a0, uint64_t a1, uint64_t a2,
		 uint64_t a3, uint64_t a4)
{
	struct syscall_args a = args(a0, a1, a2, a3, a4);
	return fn(&a);
}

static uint64_t get(const uint8_t *b, size_t off, unsigned bytes)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < bytes; i++)
		v |= (uint64_t)b[off + i] << (8 * i);
	return v;
}

/* --- Tests --------------------------------------------------------------------------------- */

/* Runs first: the namespace every later test sees. */
static void test_unpack(void **state)
{
	size_t size;
	(void)state;
	const uint8_t *a = archive(&size, "--align 4096", "bin/prog=#!prog\n", "hello=hi there\n",
				   "./etc/conf/x=xx", (const char *)NULL);

	assert_int_equal(initramfs_unpack(a, size, "test"), 0);
	expect_out("initramfs: test: 3 files, 18 bytes\n");
	const struct fs_file *f = fs_file_lookup("/bin/prog");
	assert_non_null(f);
	assert_ptr_equal(f->data, a + (f->data - a)); /* in place: inside the archive */
	assert_true(f->data >= a && f->data < a + size);
	assert_int_equal((uintptr_t)f->data % PAGE_SIZE, 0);
	assert_non_null(fs_file_lookup("/bin/hello")); /* a bare name goes to /bin */
	assert_memory_equal(fs_file_lookup("/bin/hello")->data, "hi there\n", 9);
	assert_true(fs_is_directory("/etc/conf"));
	assert_true(fs_is_directory("/etc"));
	assert_null(fs_file_lookup("/etc"));
	assert_int_equal(frames_out, 0);

	/* Unaligned data is copied into frames; a later archive's file replaces the earlier. */
	a = archive(&size, "", "bin/hello=second\n", (const char *)NULL);
	assert_int_equal(initramfs_unpack(a, size, "test2"), 0);
	expect_out("initramfs: test2: 1 file, 7 bytes\n");
	f = fs_file_lookup("/bin/hello");
	assert_true(f->data < a || f->data >= a + size);
	assert_int_equal((uintptr_t)f->data % PAGE_SIZE, 0);
	assert_memory_equal(f->data, "second\n", 7);
	assert_int_equal(frames_out, 1);
}

/* Refused archives change nothing and give their frames back. */
static void test_refused(void **state)
{
	size_t size;
	(void)state;
	const uint8_t *a = archive(&size, "", "bin/new=x", "bin/other=y", (const char *)NULL);

	size_t trailer = (size_t)((const uint8_t *)memmem(a, size, "TRAILER!!!", 10) - a) - 110;
	assert_int_equal(initramfs_unpack(a, trailer, "cut"), -EINVAL);
	expect_out("initramfs: cut: refused: missing trailer (entry 4)\n");
	assert_int_equal(initramfs_unpack(a, 50, "cut"), -EINVAL);
	expect_out("initramfs: cut: refused: truncated archive (entry 1)\n");
	/* A file where the tree has a directory: found only while adding, then rolled back. */
	a = archive(&size, "", "bin/late=z", "etc/conf=a file", (const char *)NULL);
	assert_int_equal(initramfs_unpack(a, size, "clash"), -EISDIR);
	expect_out("initramfs: clash: refused: a file over a directory (entry 4)\n");
	assert_null(fs_file_lookup("/bin/late"));
	assert_int_equal(frames_out, 1);
	a = archive(&size, "", "etc/hostname/x=z", (const char *)NULL);
	assert_int_equal(initramfs_unpack(a, size, "ok"), 0);
	out_len = 0;
	a = archive(&size, "", "etc/hostname=z", (const char *)NULL);
	assert_int_equal(initramfs_unpack(a, size, "clash2"), -EISDIR);
	out_len = 0;
	assert_int_equal(initramfs_unpack("070701", 6, "short"), -EINVAL);
	expect_out("initramfs: short: refused: truncated archive (entry 1)\n");
}

/* Symbolic links (GNU cpio keeps them): a link to a file is a second name for its bytes, in
 * any order and through chains; a link to a directory or to nothing is passed over. */
static void test_links(void **state)
{
	char cmd[1024], path[128];
	size_t size;
	(void)state;
	snprintf(cmd, sizeof(cmd),
		 "set -e; d=%s.links; rm -rf $d; mkdir -p $d/bin $d/usr/bin; cd $d; "
		 "ln -s ../../bin/box usr/bin/env; printf 'BOX' > bin/box; ln -s box bin/sh; "
		 "ln -s /bin/sh bin/ash; ln -s /nowhere bin/dangling; ln -s /usr bin/usr; ln -s box sh2; "
		 "find usr bin sh2 | cpio --quiet -o -H newc > ../%s.links.cpio",
		 tmp, strrchr(tmp, '/') + 1);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s.links.cpio", tmp);
	uint8_t *a = host_load_file(path, &size);
	out_len = 0;
	long before = frames_out;
	assert_int_equal(initramfs_unpack(a, size, "links"), 0);
	expect_out("initramfs: links: 1 file, 3 bytes, 4 links, 2 skipped "
		   "(not a file, directory or link to a file)\n");
	const struct fs_file *box = fs_file_lookup("/bin/box");
	assert_non_null(box);
	for (const char *const *n = (const char *const[]){ "/bin/sh", "/bin/ash", "/usr/bin/env",
							   "/bin/sh2", NULL }; *n; n++) {
		const struct fs_file *f = fs_file_lookup(*n);
		assert_non_null(f);
		assert_ptr_equal(f->data, box->data);
		assert_int_equal(f->ino, box->ino);
	}
	assert_null(fs_file_lookup("/bin/dangling"));
	assert_null(ramfs_lookup("/bin/usr"));
	assert_int_equal(frames_out, before + 1); /* only the file was copied */
	snprintf(cmd, sizeof(cmd), "rm -rf %s.links %s.links.cpio", tmp, tmp);
	assert_int_equal(system(cmd), 0);
	free(a);
}

static void setup_process(void)
{
	memset(&proc, 0, sizeof(proc));
	proc.pid = 7;
	proc.exe = fs_file_lookup("/bin/prog");
	proc.mm.geo.task_size = UINT64_MAX;
	fd_table_init(&proc.files);
	vmas[0] = (struct vma){ .start = 0x400000, .end = 0x401000, .prot = PT_R | PT_X,
				.kind = VMA_IMAGE, .file = proc.exe, .next = &vmas[1] };
	vmas[1] = (struct vma){ .start = 0x7000000, .end = 0x7002000, .prot = PT_R | PT_W,
				.kind = VMA_ANON, .next = &vmas[2] };
	vmas[2] = (struct vma){ .start = 0x7fff0000, .end = 0x80000000, .prot = PT_R | PT_W,
				.kind = VMA_STACK };
	proc.mm.vmas = &vmas[0];
	uid = UID_ROOT;
}

static void test_open_read_seek(void **state)
{
	char buf[64];
	(void)state;
	setup_process();
	long fd = call(sys_openat, (uint64_t)AT_FDCWD, u("bin/hello"), O_RDONLY, 0, 0);
	assert_int_equal(fd, 3);
	assert_int_equal(call(sys_read, fd, u(buf), 3, 0, 0), 3);
	assert_memory_equal(buf, "sec", 3);
	assert_int_equal(call(sys_lseek, fd, (uint64_t)-2, 2, 0, 0), 5);
	assert_int_equal(call(sys_read, fd, u(buf), sizeof(buf), 0, 0), 2);
	assert_int_equal(call(sys_lseek, fd, (uint64_t)-1, 0, 0, 0), -EINVAL);
	assert_int_equal(call(sys_lseek, fd, 0, 9, 0, 0), -EINVAL);
	assert_int_equal(call(sys_lseek, 1, 0, 0, 0, 0), -ESPIPE);
	assert_int_equal(call(sys_lseek, 9, 0, 0, 0, 0), -EBADF);
	assert_int_equal(call(sys_read, fd, 16, 8, 0, 0), 0); /* at the end: nothing is copied */
	assert_int_equal(call(sys_lseek, fd, 0, 0, 0, 0), 0);
	assert_int_equal(call(sys_read, fd, 16, 8, 0, 0), -EFAULT);
	/* Errors of open. */
	assert_int_equal(call(sys_open, u("/bin/hello"), O_WRONLY, 0, 0, 0), -EROFS);
	assert_int_equal(call(sys_open, u("/bin/hello"), O_RDONLY | O_DIRECTORY, 0, 0, 0), -ENOTDIR);
	assert_int_equal(call(sys_open, u("/bin/hello/"), O_RDONLY, 0, 0, 0), -ENOTDIR);
	assert_int_equal(call(sys_open, u("/bin/new"), O_CREAT | O_WRONLY, 0, 0, 0), -EROFS);
	assert_int_equal(call(sys_open, u("/bin"), O_RDWR, 0, 0, 0), -EISDIR);
	assert_int_equal(call(sys_open, u("/nope"), O_RDONLY, 0, 0, 0), -ENOENT);
	assert_int_equal(call(sys_open, 8, O_RDONLY, 0, 0, 0), -EFAULT);
	assert_int_equal(call(sys_open, u("/proc/self/exe"), O_RDONLY | O_NOFOLLOW, 0, 0, 0), -ELOOP);
	long exe = call(sys_open, u("/proc/self/exe"), O_RDONLY, 0, 0, 0);
	assert_int_equal(call(sys_read, exe, u(buf), sizeof(buf), 0, 0), 7);
	assert_memory_equal(buf, "#!prog\n", 7);
	uid = UID_NOBODY;
	assert_int_equal(call(sys_open, u("/proc/sys/vm/mmap_rnd_bits"), O_RDONLY, 0, 0, 0), -EACCES);
	uid = UID_ROOT;
	/* readv, writev (64-bit iovecs). */
	uint64_t iov[4] = { u(buf), 2, u(buf + 10), 3 };
	assert_int_equal(call(sys_lseek, fd, 0, 0, 0, 0), 0);
	assert_int_equal(call(sys_readv, fd, u(iov), 2, 0, 0), 5);
	assert_memory_equal(buf, "se", 2);
	assert_memory_equal(buf + 10, "con", 3);
	out_len = 0;
	assert_int_equal(call(sys_writev, 1, u(iov), 2, 0, 0), 5);
	expect_out("secon");
	assert_int_equal(call(sys_writev, fd, u(iov), 2, 0, 0), -EBADF);
	assert_int_equal(call(sys_readv, fd, u(iov), 1025, 0, 0), -EINVAL);
	assert_int_equal(call(sys_readv, fd, 8, 1, 0, 0), -EFAULT);
	assert_int_equal(call(sys_close, fd, 0, 0, 0, 0), 0);
	assert_int_equal(call(sys_close, fd, 0, 0, 0, 0), -EBADF);
	fd_table_release(&proc.files);
}

/* /dev: the console, null and tty as devtmpfs nodes (statx's fixed layout: mode at 28, ino at
 * 32, rdev at 128); /dev/null seeks to 0 whatever it is asked, the console and fds 0-2 are the
 * same node, /dev/tty opens nobody's terminal (ENXIO). */
static void test_devices(void **state)
{
	uint8_t sx[256], sx1[256];
	char buf[8];
	(void)state;
	setup_process();
	assert_int_equal(call(sys_statx, (uint64_t)AT_FDCWD, u("/dev/null"), 0, 0x7ff, u(sx)), 0);
	assert_int_equal(get(sx, 28, 2), 020666);
	assert_int_equal(get(sx, 128, 4), 1);
	assert_int_equal(get(sx, 132, 4), 3);
	long fd = call(sys_open, u("/dev/null"), O_RDWR, 0, 0, 0);
	assert_int_equal(fd, 3);
	assert_int_equal(call(sys_lseek, fd, 100, 0, 0, 0), 0);
	assert_int_equal(call(sys_lseek, fd, (uint64_t)-5, 2, 0, 0), 0);
	assert_int_equal(call(sys_lseek, fd, 0, 5, 0, 0), -EINVAL);
	assert_int_equal(call(sys_read, fd, u(buf), sizeof(buf), 0, 0), 0);
	assert_int_equal(call(sys_write, fd, u("gone"), 4, 0, 0), 4);
	assert_int_equal(call(sys_fcntl, fd, 1032, 0, 0, 0), -EBADF); /* F_GETPIPE_SZ */
	assert_int_equal(call(sys_readlink, u("/proc/self/fd/3"), u(tmp), sizeof(tmp), 0, 0), 9);
	assert_memory_equal(tmp, "/dev/null", 9);
	assert_int_equal(call(sys_statx, (uint64_t)AT_FDCWD, u("/dev/console"), 0, 0x7ff, u(sx)), 0);
	assert_int_equal(get(sx, 28, 2), 020600);
	assert_int_equal(call(sys_statx, 1, u(""), AT_EMPTY_PATH, 0x7ff, u(sx1)), 0);
	assert_memory_equal(sx, sx1, sizeof(sx));
	assert_int_equal(call(sys_statx, (uint64_t)AT_FDCWD, u("/proc/self/fd/2"), 0, 0x7ff, u(sx1)), 0);
	assert_memory_equal(sx, sx1, sizeof(sx));
	long con = call(sys_open, u("/dev/console"), O_WRONLY, 0, 0, 0);
	assert_int_equal(con, 4);
	out_len = 0;
	assert_int_equal(call(sys_write, con, u("hi"), 2, 0, 0), 2);
	expect_out("hi");
	assert_int_equal(call(sys_lseek, con, 0, 1, 0, 0), -ESPIPE);
	assert_int_equal(call(sys_open, u("/dev/tty"), O_RDWR, 0, 0, 0), -ENXIO);
	assert_int_equal(call(sys_open, u("/dev/nope"), O_RDWR, 0, 0, 0), -ENOENT);
	assert_int_equal(call(sys_open, u("/dev/null/x"), O_RDWR, 0, 0, 0), -ENOTDIR);
	uid = UID_NOBODY;
	assert_int_equal(call(sys_open, u("/dev/console"), O_WRONLY, 0, 0, 0), -EACCES);
	uid = UID_ROOT;
	fd_table_release(&proc.files);
}

/* sendfile: from the file's position (which moves), or from *offset (stored back, the position
 * untouched), to the console; errors in do_sendfile's order. /bin/hello holds "second\n". */
static void test_sendfile(void **state)
{
	int64_t off = 2;
	(void)state;
	setup_process();
	long fd = call(sys_openat, (uint64_t)AT_FDCWD, u("bin/hello"), O_RDONLY, 0, 0);
	out_len = 0;
	assert_int_equal(call(sys_sendfile, 1, fd, 0, 3, 0), 3);
	expect_out("sec");
	out_len = 0;
	assert_int_equal(call(sys_sendfile, 1, fd, u(&off), 100, 0), 5);
	expect_out("cond\n");
	assert_int_equal(off, 7);
	out_len = 0;
	assert_int_equal(call(sys_sendfile64, 1, fd, 0, 100, 0), 4); /* the position stayed at 3 */
	expect_out("ond\n");
	assert_int_equal(call(sys_sendfile, 1, fd, 0, 100, 0), 0);    /* at the end */
	assert_int_equal(call(sys_sendfile, 1, fd, 8, 1, 0), -EFAULT);
	off = -1;
	assert_int_equal(call(sys_sendfile, 1, fd, u(&off), 1, 0), -EINVAL);
	assert_int_equal(call(sys_sendfile, 1, 9, 0, 1, 0), -EBADF);
	assert_int_equal(call(sys_sendfile, fd, fd, 0, 1, 0), -EBADF); /* output not writable */
	assert_int_equal(call(sys_sendfile, 1, 0, 0, 1, 0), -EINVAL);  /* the console as input */
	long dir = call(sys_open, u("/bin"), O_RDONLY | O_DIRECTORY, 0, 0, 0);
	assert_int_equal(call(sys_sendfile, 1, dir, 0, 1, 0), -EINVAL);
	fd_table_release(&proc.files);
}

static void test_stat(void **state)
{
	uint8_t st[256];
	(void)state;
	setup_process();
	const struct fs_file *f = fs_file_lookup("/bin/hello");

	memset(st, 0xee, sizeof(st));
	assert_int_equal(call(sys_newstat, u("/bin/hello"), u(st), 0, 0, 0), 0);
	/* 64-bit struct stat: st_dev 0:2, st_ino, st_size at 48 on both ISAs. */
	assert_int_equal(get(st, 0, 8), 2);
	assert_int_equal(get(st, 8, 8), f->ino);
	assert_int_equal(get(st, 48, 8), 7);
	if (STAT64BIT_SIZE == 128) { /* arm64 (asm-generic) */
		assert_int_equal(get(st, 16, 4), 0100644);
		assert_int_equal(get(st, 20, 4), 1);
		assert_int_equal(get(st, 56, 4), PAGE_SIZE);
		assert_int_equal(st[128], 0xee);
	} else { /* x86_64 */
		assert_int_equal(get(st, 16, 8), 1);
		assert_int_equal(get(st, 24, 4), 0100644);
		assert_int_equal(get(st, 56, 8), PAGE_SIZE);
		assert_int_equal(st[144], 0xee);
	}
	/* stat64 of the 32-bit ABI: arm pads st_size to 48 (104 bytes), i386 packs it at 44. */
	memset(st, 0xee, sizeof(st));
	struct syscall_args a = args(u("/bin/hello"), u(st), 0, 0, 0);
	a.compat = true;
	assert_int_equal(sys_stat64(&a), 0);
	assert_int_equal(get(st, 0, 8), 2);
	assert_int_equal(get(st, 12, 4), f->ino);
	assert_int_equal(get(st, 16, 4), 0100644);
	if (STAT64_SIZE == 104) {
		assert_int_equal(get(st, 48, 8), 7);
		assert_int_equal(get(st, 96, 8), f->ino);
		assert_int_equal(st[104], 0xee);
	} else {
		assert_int_equal(get(st, 44, 8), 7);
		assert_int_equal(get(st, 88, 8), f->ino);
		assert_int_equal(st[96], 0xee);
	}
	/* The 32-bit struct stat (compat newfstat). */
	memset(st, 0xee, sizeof(st));
	a = args(1, u(st), 0, 0, 0);
	a.compat = true;
	assert_int_equal(sys_newfstat(&a), 0);
	assert_int_equal(get(st, 8, 2), 020600); /* the console: devtmpfs's crw------- */
	assert_int_equal(get(st, 16, 4), 5 << 8 | 1);
	assert_int_equal(st[64], 0xee);
	/* lstat of a link, stat follows it; fstatat flags; errors. */
	assert_int_equal(call(sys_newlstat, u("/proc/self/exe"), u(st), 0, 0, 0), 0);
	assert_int_equal(get(st, STAT64BIT_SIZE == 128 ? 16 : 24, 4), 0120777);
	/* "/proc/self/." is the directory the link leads to, not the link. */
	assert_int_equal(call(sys_newlstat, u("/proc/self/."), u(st), 0, 0, 0), 0);
	assert_int_equal(get(st, STAT64BIT_SIZE == 128 ? 16 : 24, 4), 040555);
	assert_int_equal(call(sys_newlstat, u("/proc/self/exe/."), u(st), 0, 0, 0), -ENOTDIR);
	assert_int_equal(call(sys_newstat, u("/proc/self/exe"), u(st), 0, 0, 0), 0);
	assert_int_equal(get(st, 48, 8), 7);
	assert_int_equal(call(sys_newfstatat, (uint64_t)AT_FDCWD, u("/bin"), u(st), 0, 0), 0);
	assert_int_equal(get(st, STAT64BIT_SIZE == 128 ? 16 : 24, 4), 040755);
	assert_int_equal(call(sys_newfstatat, (uint64_t)AT_FDCWD, u(""), u(st), AT_EMPTY_PATH, 0), 0);
	assert_int_equal(call(sys_newfstatat, 1, u(""), u(st), 0, 0), -ENOENT);
	assert_int_equal(call(sys_newfstatat, 1, u(""), u(st), 0x8000, 0), -EINVAL);
	assert_int_equal(call(sys_newfstatat, 1, u(""), u(st), AT_EMPTY_PATH, 0), 0);
	assert_int_equal(call(sys_newstat, u("/bin/hello"), 8, 0, 0, 0), -EFAULT);
	assert_int_equal(call(sys_newfstat, 12, u(st), 0, 0, 0), -EBADF);
	/* statx */
	memset(st, 0xee, sizeof(st));
	assert_int_equal(call(sys_statx, (uint64_t)AT_FDCWD, u("/bin/hello"), 0, 0x7ff, u(st)), 0);
	assert_int_equal(get(st, 0, 4), 0x7ff);
	assert_int_equal(get(st, 28, 2), 0100644);
	assert_int_equal(get(st, 32, 8), f->ino);
	assert_int_equal(get(st, 40, 8), 7);
	assert_int_equal(get(st, 140, 4), 2);
	assert_int_equal(call(sys_statx, (uint64_t)AT_FDCWD, u("/bin/hello"), 0x6000, 0, u(st)), -EINVAL);
	fd_table_release(&proc.files);
}

static void test_directories(void **state)
{
	uint8_t buf[512];
	char cwd[64];
	(void)state;
	setup_process();
	long fd = call(sys_open, u("/bin"), O_RDONLY | O_DIRECTORY, 0, 0, 0);
	assert_int_equal(fd, 3);
	long n = call(sys_getdents64, fd, u(buf), sizeof(buf), 0, 0);
	const char *want[] = { ".", "..", "hello", "prog" };
	size_t off = 0;
	for (unsigned i = 0; i < 4; i++) {
		assert_true(off < (size_t)n);
		assert_string_equal((char *)buf + off + 19, want[i]);
		assert_int_equal(get(buf, off + 8, 8), i + 1);
		assert_int_equal(buf[off + 18], i < 2 ? DT_DIR : DT_REG);
		off += get(buf, off + 16, 2);
		assert_int_equal(off % 8, 0);
	}
	assert_int_equal(off, (size_t)n);
	assert_int_equal(call(sys_getdents64, fd, u(buf), sizeof(buf), 0, 0), 0);
	assert_int_equal(call(sys_lseek, fd, 0, 0, 0, 0), 0);
	assert_int_equal(call(sys_getdents64, fd, u(buf), 10, 0, 0), -EINVAL);
	assert_int_equal(call(sys_getdents64, 1, u(buf), sizeof(buf), 0, 0), -ENOTDIR);
	assert_int_equal(call(sys_read, fd, u(buf), 8, 0, 0), -EISDIR);
	/* /proc and /proc/self. */
	long p = call(sys_open, u("/proc/self"), O_RDONLY, 0, 0, 0);
	n = call(sys_getdents64, p, u(buf), sizeof(buf), 0, 0);
	assert_true(n > 0);
	assert_string_equal((char *)buf + 24 + 24 + 19, "maps");
	/* cwd */
	assert_int_equal(call(sys_getcwd, u(cwd), sizeof(cwd), 0, 0, 0), 2);
	assert_string_equal(cwd, "/");
	assert_int_equal(call(sys_chdir, u("etc//conf/"), 0, 0, 0, 0), 0);
	assert_int_equal(call(sys_getcwd, u(cwd), sizeof(cwd), 0, 0, 0), 10);
	assert_string_equal(cwd, "/etc/conf");
	assert_int_equal(call(sys_getcwd, u(cwd), 9, 0, 0, 0), -ERANGE);
	assert_int_equal(call(sys_open, u("x"), O_RDONLY, 0, 0, 0), 5);
	assert_int_equal(call(sys_open, u("../../bin/hello"), O_RDONLY, 0, 0, 0), 6);
	assert_int_equal(call(sys_chdir, u("x"), 0, 0, 0, 0), -ENOTDIR);
	assert_int_equal(call(sys_chdir, u("/none"), 0, 0, 0, 0), -ENOENT);
	fd_table_release(&proc.files);
}

static void test_links_access_ioctl_fcntl(void **state)
{
	char buf[64];
	uint8_t t[64];
	(void)state;
	setup_process();
	memset(buf, 0, sizeof(buf));
	assert_int_equal(call(sys_readlink, u("/proc/self/exe"), u(buf), sizeof(buf), 0, 0), 9);
	assert_string_equal(buf, "/bin/prog");
	assert_int_equal(call(sys_readlink, u("/proc/7/exe"), u(buf), 4, 0, 0), 4);
	assert_int_equal(call(sys_readlinkat, (uint64_t)AT_FDCWD, u("/proc/self"), u(buf), 64, 0), 1);
	assert_memory_equal(buf, "7", 1);
	assert_int_equal(call(sys_readlink, u("/bin/prog"), u(buf), 64, 0, 0), -EINVAL);
	assert_int_equal(call(sys_readlink, u("/proc/self/exe"), u(buf), 0, 0, 0), -EINVAL);
	assert_int_equal(call(sys_readlink, u("/proc/8/exe"), u(buf), 64, 0, 0), -ENOENT);
	/* access */
	assert_int_equal(call(sys_access, u("/bin/prog"), 4, 0, 0, 0), 0);
	assert_int_equal(call(sys_access, u("/bin/prog"), 2, 0, 0, 0), -EROFS);
	assert_int_equal(call(sys_access, u("/bin/hello"), 1, 0, 0, 0), -EACCES);
	assert_int_equal(call(sys_access, u("/bin/prog"), 8, 0, 0, 0), -EINVAL);
	assert_int_equal(call(sys_faccessat, (uint64_t)AT_FDCWD, u("bin"), 1, 0, 0), 0);
	uid = UID_NOBODY;
	assert_int_equal(call(sys_access, u("/proc/sys/vm/mmap_rnd_bits"), 4, 0, 0, 0), -EACCES);
	assert_int_equal(call(sys_access, u("/proc/sys/vm/mmap_rnd_bits"), 0, 0, 0, 0), 0);
	uid = UID_ROOT;
	/* ioctl: the console is a terminal, 80x24; a file is not. */
	assert_int_equal(call(sys_ioctl, 1, 0x5401, u(t), 0, 0), 0);
	assert_int_equal(get(t, 12, 4) & 2, 2); /* ICANON */
	assert_int_equal(call(sys_ioctl, 2, 0x5413, u(t), 0, 0), 0);
	assert_int_equal(get(t, 0, 2), 24);
	assert_int_equal(get(t, 2, 2), 80);
	assert_int_equal(call(sys_ioctl, 1, 0x5401, 8, 0, 0), -EFAULT);
	long fd = call(sys_open, u("/bin/prog"), O_RDONLY | O_CLOEXEC, 0, 0, 0);
	assert_int_equal(call(sys_ioctl, fd, 0x5401, u(t), 0, 0), -ENOTTY);
	assert_int_equal(call(sys_ioctl, 15, 0x5401, u(t), 0, 0), -EBADF);
	/* fcntl */
	assert_int_equal(call(sys_fcntl, fd, 1, 0, 0, 0), 1);
	assert_int_equal(call(sys_fcntl, fd, 2, 0, 0, 0), 0);
	assert_int_equal(call(sys_fcntl, fd, 1, 0, 0, 0), 0);
	assert_int_equal(call(sys_fcntl, fd, 3, 0, 0, 0), O_RDONLY);
	assert_int_equal(call(sys_fcntl, 1, 3, 0, 0, 0), O_RDWR); /* fds 0-2: one O_RDWR console */
	assert_int_equal(call(sys_fcntl, fd, 4, O_NONBLOCK, 0, 0), 0);
	assert_int_equal(call(sys_fcntl, fd, 3, 0, 0, 0), O_NONBLOCK);
	assert_int_equal(call(sys_fcntl, fd, 0, 10, 0, 0), 10);
	assert_int_equal(call(sys_fcntl, fd, 1030, 0, 0, 0), 4);
	assert_int_equal(call(sys_fcntl, 4, 1, 0, 0, 0), 1);
	assert_int_equal(call(sys_fcntl, fd, 999, 0, 0, 0), -EINVAL);
	assert_int_equal(call(sys_fcntl, 14, 1, 0, 0, 0), -EBADF);
	/* fd_mmap_file */
	long err;
	assert_ptr_equal(fd_mmap_file(&proc, fd, 1 /* PROT_READ */, 2 /* MAP_PRIVATE */, &err),
			 fs_file_lookup("/bin/prog"));
	/* A shared writable mapping of a file not open for writing: EACCES, as do_mmap. */
	assert_null(fd_mmap_file(&proc, fd, 3 /* PROT_READ | PROT_WRITE */, 1 /* MAP_SHARED */, &err));
	assert_int_equal(err, -EACCES);
	assert_null(fd_mmap_file(&proc, fd, 1, 0 /* no mapping type */, &err));
	assert_int_equal(err, -EINVAL);
	/* The console has no mmap: ENODEV. */
	assert_null(fd_mmap_file(&proc, 1, 1, 2, &err));
	assert_int_equal(err, -ENODEV);
	assert_null(fd_mmap_file(&proc, 13, 1, 2, &err));
	assert_int_equal(err, -EBADF);
	fd_table_release(&proc.files);
}

/* /proc/self/maps through read, in small pieces: Linux's format. */
static void test_maps(void **state)
{
	char text[1024];
	size_t len = 0;
	long n;
	(void)state;
	setup_process();
	long fd = call(sys_open, u("/proc/self/maps"), O_RDONLY, 0, 0, 0);
	while ((n = call(sys_read, fd, u(text + len), 7, 0, 0)) > 0)
		len += (size_t)n;
	text[len] = '\0';
	char want[1024];
	int pad = 25 + 6 * (int)sizeof(void *) - 1;
	const struct fs_file *f = fs_file_lookup("/bin/prog");
	int k = lib_snprintf(want, sizeof(want), "00400000-00401000 r-xp 00000000 00:02 %u", f->ino);
	k += lib_snprintf(want + k, sizeof(want) - (size_t)k, "%*s /bin/prog\n", pad - k, "");
	k += lib_snprintf(want + k, sizeof(want) - (size_t)k,
			  "07000000-07002000 rw-p 00000000 00:00 0 \n");
	int s = k;
	k += lib_snprintf(want + k, sizeof(want) - (size_t)k, "7fff0000-80000000 rw-p 00000000 00:00 0 ");
	lib_snprintf(want + k, sizeof(want) - (size_t)k, "%*s [stack]\n", pad - (k - s), "");
	assert_string_equal(text, want);
	uid = UID_NOBODY;
	proc.uid = UID_ROOT;
	assert_int_equal(call(sys_open, u("/proc/7/maps"), O_RDONLY, 0, 0, 0), -EACCES);
	assert_int_equal(call(sys_open, u("/proc/7/maps"), O_WRONLY, 0, 0, 0), -EACCES);
	uid = UID_ROOT;
	assert_int_equal(call(sys_open, u("/proc/7/maps"), O_WRONLY, 0, 0, 0), -EACCES);
	assert_int_equal(call(sys_open, u("/proc/8/maps"), O_RDONLY, 0, 0, 0), -ENOENT);
	assert_int_equal(call(sys_open, u("/proc/7/maps/x"), O_RDONLY, 0, 0, 0), -ENOTDIR);
	fd_table_release(&proc.files);
}

static int setup(void **state)
{
	(void)state;
	strcpy(tmp, "/tmp/test_files.XXXXXX");
	int fd = mkstemp(tmp);
	close(fd);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unpack),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_open_read_seek),
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_sendfile),
		cmocka_unit_test(test_stat),
		cmocka_unit_test(test_directories),
		cmocka_unit_test(test_links_access_ioctl_fcntl),
		cmocka_unit_test(test_maps),
		cmocka_unit_test(test_links), /* last: it adds to /bin */
	};
	int r = cmocka_run_group_tests(tests, setup, NULL);
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -f %s %s.*", tmp, tmp);
	if (system(cmd))
		return 1;
	return r;
}
