/* attack: file descriptors do not outlive their process. One run exits with files open; the
 * next, possibly with the same pid, must find none of them: the kernel closes a process's files
 * at exit and a new process starts with 0, 1 and 2 only. */
#include "attack.h"

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
