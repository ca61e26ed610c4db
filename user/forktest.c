/* fork, wait and exec as Linux 6.1 does them (issue 17), one check per mode:
 *   forktest status   wait4's statuses (exit code << 8, the signal), WNOHANG, ECHILD, getppid,
 *                     an orphan reparented to init (pid 1)
 *   forktest cow N    N children, one after the other, each checking that it sees the parent's
 *                     layout and data and then writing its own over an inherited page, the
 *                     bss and the stack; the parent's data unchanged after each
 *   forktest bomb     fork until it fails (EAGAIN), the children asleep; then kill them all
 *   forktest exec     a child execve's /bin/hello with its own argv and envp; ENOENT for none
 *   forktest sleep MS sleep MS milliseconds without a word (a quiet background job)
 * Each prints one line per finding and exits 0 only if every check held. */
#include <user.h>
#include <sysnr.h>

#define SIGKILL 9
#define SIGTERM 15
#define SIGCHLD 17
#define WNOHANG 1

static int failures;

#define CHECK(cond, ...)                                \
	do {                                            \
		if (!(cond)) {                          \
			printf("forktest: FAIL: " __VA_ARGS__); \
			failures++;                     \
		}                                       \
	} while (0)

static long fork_(void)
{
#ifdef __NR_fork
	return __syscall(__NR_fork, 0, 0, 0, 0, 0, 0);
#else
	return __syscall(__NR_clone, SIGCHLD, 0, 0, 0, 0, 0);
#endif
}

static long wait4_(long pid, int *status, long options)
{
	return __syscall(__NR_wait4, pid, (long)status, options, 0, 0, 0);
}

static long kill_(long pid, long sig)
{
	return __syscall(__NR_kill, pid, sig, 0, 0, 0, 0);
}

static long getppid_(void)
{
	return __syscall(__NR_getppid, 0, 0, 0, 0, 0, 0);
}

static void sleep_ms(long ms)
{
	long ts[2] = { ms / 1000, (ms % 1000) * 1000000 };
#ifdef __NR_nanosleep
	__syscall(__NR_nanosleep, (long)ts, 0, 0, 0, 0, 0);
#endif
}

static int mode_status(void)
{
	int status = -1;
	long pid = fork_();

	if (pid == 0)
		exit_group(42);
	CHECK(pid > 0, "fork = %ld\n", pid);
	CHECK(wait4_(pid, &status, 0) == pid, "wait4 of the child\n");
	printf("forktest: exit(42): status %#x\n", status);
	CHECK(status == 42 << 8, "status %#x\n", status);

	pid = fork_();
	if (pid == 0) {
		kill_(getpid(), SIGTERM);
		exit_group(1);
	}
	CHECK(wait4_(-1, &status, 0) == pid, "wait4(-1)\n");
	printf("forktest: kill(self, SIGTERM): status %#x\n", status);
	CHECK(status == SIGTERM, "status %#x\n", status);

	long parent = getpid();
	pid = fork_();
	if (pid == 0) {
		exit_group(getppid_() == parent ? 0 : 1);
	}
	CHECK(wait4_(pid, &status, 0) == pid && status == 0, "the child's getppid\n");
	printf("forktest: getppid in the child: the parent\n");

	pid = fork_();
	if (pid == 0) {
		sleep_ms(50);
		exit_group(0);
	}
	long r = wait4_(pid, &status, WNOHANG);
	printf("forktest: WNOHANG on a running child: %ld\n", r);
	CHECK(r == 0, "WNOHANG\n");
	CHECK(wait4_(pid, &status, 0) == pid, "wait4 after WNOHANG\n");
	r = wait4_(-1, &status, 0);
	printf("forktest: wait4 with no child: %s\n", errno_name((int)-r));
	CHECK(r == -ECHILD, "ECHILD\n");

	/* The orphan: a child forks a grandchild and exits; the grandchild finds init its parent. */
	pid = fork_();
	if (pid == 0) {
		if (fork_() == 0) {
			sleep_ms(30);
			printf("forktest: orphan's parent: %ld\n", getppid_());
			exit_group(0);
		}
		exit_group(0);
	}
	CHECK(wait4_(pid, &status, 0) == pid, "wait4 of the orphan's parent\n");
	sleep_ms(100);
	return failures ? 1 : 0;
}

static char bss_page[4096];
static volatile long data_word = 0x5eed;

static int mode_cow(int n)
{
	char *map = mmap(NULL, USER_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
	char *heap = sbrk(4096);
	char stack_buf[64];

	CHECK(map != MAP_FAILED && heap != (void *)-1, "mmap or sbrk\n");
	memset(map, 'p', USER_PAGE_SIZE);
	memset(bss_page, 'b', sizeof(bss_page));
	memset(heap, 'h', 4096);
	memset(stack_buf, 's', sizeof(stack_buf));
	void *brk_end = sbrk(0);
	for (int i = 0; i < n; i++) {
		long pid = fork_();
		if (pid == 0) {
			/* Same layout: the addresses this image computed are where the data is. */
			int bad = sbrk(0) != brk_end || map[0] != 'p' || map[USER_PAGE_SIZE - 1] != 'p' ||
				  bss_page[100] != 'b' || heap[7] != 'h' || stack_buf[3] != 's' ||
				  data_word != 0x5eed;
			memset(map, 'c', USER_PAGE_SIZE);
			memset(bss_page, 'c', sizeof(bss_page));
			memset(heap, 'c', 4096);
			memset(stack_buf, 'c', sizeof(stack_buf));
			data_word = i;
			exit_group(bad);
		}
		if (pid < 0) {
			printf("forktest: fork %d: %s\n", i, errno_name((int)-pid));
			return 1;
		}
		int status = -1;
		CHECK(wait4_(pid, &status, 0) == pid, "wait4\n");
		CHECK(status == 0, "child %d saw another layout or data (status %#x)\n", i, status);
		CHECK(map[5] == 'p' && bss_page[5] == 'b' && heap[5] == 'h' && stack_buf[5] == 's' &&
		      data_word == 0x5eed, "the parent's data changed after child %d\n", i);
		if (failures)
			return 1;
	}
	printf("forktest: %d children saw the parent's layout and data; the parent's unchanged\n", n);
	return 0;
}

#define BOMB_MAX 1024

static int mode_bomb(void)
{
	static long pids[BOMB_MAX];
	int n = 0;
	long r;

	for (;;) {
		r = fork_();
		if (r == 0) {
			for (;;)
				sleep_ms(1000);
		}
		if (r < 0 || n == BOMB_MAX)
			break;
		pids[n++] = r;
	}
	printf("forktest: bomb: %d children, then fork: %s\n", n, r < 0 ? errno_name((int)-r) : "ok");
	CHECK(r == -EAGAIN, "not EAGAIN\n");
	for (int i = 0; i < n; i++)
		kill_(pids[i], SIGKILL);
	int reaped = 0, status;
	while (wait4_(-1, &status, 0) > 0)
		reaped += status == SIGKILL;
	printf("forktest: bomb: %d children killed by SIGKILL and reaped\n", reaped);
	CHECK(reaped == n, "reaped %d of %d\n", reaped, n);
	return failures ? 1 : 0;
}

static int mode_exec(void)
{
	int status = -1;
	long pid = fork_();

	if (pid == 0) {
		char *argv[] = { "hello", "from", "execve", NULL };
		char *envp[] = { "FORKTEST=1", NULL };
		long r = __syscall(__NR_execve, (long)"/bin/hello", (long)argv, (long)envp, 0, 0, 0);
		printf("forktest: execve failed: %s\n", errno_name((int)-r));
		exit_group(127);
	}
	CHECK(wait4_(pid, &status, 0) == pid, "wait4\n");
	printf("forktest: the exec'd child's status %#x\n", status);
	char *argv[] = { "nosuch", NULL };
	long r = __syscall(__NR_execve, (long)"/bin/nosuch", (long)argv, 0, 0, 0, 0);
	printf("forktest: execve of /bin/nosuch: %s\n", errno_name((int)-r));
	CHECK(r == -ENOENT, "not ENOENT\n");
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "status") == 0)
		return mode_status();
	if (argc > 2 && strcmp(argv[1], "cow") == 0)
		return mode_cow((int)strtoul(argv[2], NULL, 10));
	if (argc > 1 && strcmp(argv[1], "bomb") == 0)
		return mode_bomb();
	if (argc > 1 && strcmp(argv[1], "exec") == 0)
		return mode_exec();
	if (argc > 2 && strcmp(argv[1], "sleep") == 0) {
		sleep_ms((long)strtoul(argv[2], NULL, 10));
		return 0;
	}
	dprintf(STDERR_FILENO, "usage: forktest status|cow N|bomb|exec|sleep MS\n");
	return 2;
}
