/* attack: /proc/sys/vm/mmap_rnd_bits through system calls (open, read, write), as root and as
 * nobody. */
#include "attack.h"

int sysctl_read_case(const struct attack *a)
{
	char buf[32];
	long fd = sys_open(RND_BITS_FILE, O_RDONLY);

	show("openat(\"" RND_BITS_FILE "\", O_RDONLY)", fd);
	if (is_err(fd))
		return 1;
	long n = sys_read(fd, (uintptr_t)buf, sizeof(buf) - 1);
	show("read", n);
	if (!is_err(n)) {
		buf[n] = '\0';
		printf("attack: mmap_rnd_bits = %s", buf);
	}
	show("read at the end", sys_read(fd, (uintptr_t)buf, sizeof(buf) - 1));
	sys_close(fd);
	return 0;
}

int sysctl_write_case(const struct attack *a)
{
	const char *value = a->arg;
	char text[32];
	long fd = sys_open(RND_BITS_FILE, O_WRONLY);

	show("openat(\"" RND_BITS_FILE "\", O_WRONLY)", fd);
	if (is_err(fd))
		return 1;
	int n = snprintf(text, sizeof(text), "%s\n", value);
	long r = __syscall(SYS_write, fd, (long)text, n, 0, 0, 0);
	show("write", r);
	show("write again (past the start: ignored)", __syscall(SYS_write, fd, (long)text, n, 0, 0, 0));
	show("read on O_WRONLY", sys_read(fd, (uintptr_t)text, sizeof(text)));
	sys_close(fd);
	return is_err(r) ? 1 : 0;
}

/* As uid 65534: the 0600 knob can be neither opened for writing nor for reading; the 0644 ones
 * can be read but not written. */
int sysctl_nobody_case(const struct attack *a)
{
	printf("attack: uid %u\n", getuid());
	show("openat(\"" RND_BITS_FILE "\", O_WRONLY)", sys_open(RND_BITS_FILE, O_WRONLY));
	show("openat(\"" RND_BITS_FILE "\", O_RDWR)", sys_open(RND_BITS_FILE, O_RDWR));
	show("openat(\"" RND_BITS_FILE "\", O_RDONLY)", sys_open(RND_BITS_FILE, O_RDONLY));
	show("openat(\"//proc/./sys/vm//mmap_rnd_bits\", O_WRONLY)",
	     sys_open("//proc/./sys/vm//mmap_rnd_bits", O_WRONLY));
#ifdef SYS_open
	show("open(\"" RND_BITS_FILE "\", O_WRONLY)",
	     __syscall(SYS_open, (long)RND_BITS_FILE, O_WRONLY, 0, 0, 0, 0));
#else
	printf("attack: open: aarch64 has openat only\n");
#endif
	show("openat(\"/proc/sys/kernel/randomize_va_space\", O_WRONLY)",
	     sys_open("/proc/sys/kernel/randomize_va_space", O_WRONLY));
	long fd = sys_open("/proc/sys/kernel/randomize_va_space", O_RDONLY);
	show("openat(\"/proc/sys/kernel/randomize_va_space\", O_RDONLY)", fd);
	show("write(fd, \"0\\n\", 2) on O_RDONLY", __syscall(SYS_write, fd, (long)"0\n", 2, 0, 0, 0));
	sys_close(fd);
	return 0;
}

/* Exit with two files open, the writable one already written (its position is past the start):
 * the kernel closes them at exit, and a later process with the same pid must not get them. */
int fds_leave_case(const struct attack *a)
{
	char text[32];
	int n = snprintf(text, sizeof(text), "%s\n", a->arg);

	printf("attack: pid %d\n", getpid());
	long w = sys_open(RND_BITS_FILE, O_WRONLY);
	show("openat(\"" RND_BITS_FILE "\", O_WRONLY)", w);
	show("write", __syscall(SYS_write, w, (long)text, n, 0, 0, 0));
	show("openat(\"" RND_BITS_FILE "\", O_RDONLY)", sys_open(RND_BITS_FILE, O_RDONLY));
	return 0;
}

/* A fresh process has only 0, 1 and 2: fds 3 and 4 are EBADF whatever ran before it. */
int fds_inherited_case(const struct attack *a)
{
	char buf[16];

	(void)a;
	printf("attack: pid %d uid %u\n", getpid(), getuid());
	show("write(3, \"8\\n\", 2)", __syscall(SYS_write, 3, (long)"8\n", 2, 0, 0, 0));
	show("read(4, buf, 15)", sys_read(4, (uintptr_t)buf, sizeof(buf) - 1));
	show("close(3)", sys_close(3));
	show("close(4)", sys_close(4));
	return 0;
}
