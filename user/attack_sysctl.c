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
