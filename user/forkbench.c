/* The process `bench fork` times (issue 17): a 1 MiB heap, every page of it written, then
 *   forkbench N      N times fork, the child exits at once, the parent waits for it
 *                    (N = 0: the exec and the heap alone, which the kernel subtracts)
 *   forkbench cost   the frames one fork takes before anyone writes: sysinfo's free RAM
 *                    before and after fork, the child asleep until killed; the least of 8
 *                    forks, printed as `forkbench: fork cost D frames`
 * Exits 0 if every fork and wait went as Linux's would. */
#include <user.h>
#include <sysnr.h>

#define SIGKILL 9
#define SIGCHLD 17
#define HEAP_BYTES (1024 * 1024)
#define COST_FORKS 8

static long fork_(void)
{
#ifdef __NR_fork
	return __syscall(__NR_fork, 0, 0, 0, 0, 0, 0);
#else
	return __syscall(__NR_clone, SIGCHLD, 0, 0, 0, 0, 0);
#endif
}

static long wait4_(long pid, int *status)
{
	return __syscall(__NR_wait4, pid, (long)status, 0, 0, 0, 0);
}

/* Free RAM in frames: struct sysinfo's freeram (its sixth word on every ABI) in mem_unit =
 * the page size, as rndbits fills it. */
static unsigned long free_frames(void)
{
	unsigned long info[32] = { 0 };

	__syscall(__NR_sysinfo, (long)info, 0, 0, 0, 0, 0);
	return info[5];
}

static int touch_heap(void)
{
	char *heap = sbrk(HEAP_BYTES);

	if (heap == (void *)-1)
		return -1;
	for (unsigned long off = 0; off < HEAP_BYTES; off += USER_PAGE_SIZE)
		heap[off] = 1;
	return 0;
}

static int fork_exit_wait(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		long pid = fork_();
		if (pid == 0)
			exit_group(0);
		int status = -1;
		if (pid < 0 || wait4_(pid, &status) != pid || status != 0) {
			printf("forkbench: fork %lu: pid %ld, status %#x\n", i, pid, status);
			return 1;
		}
	}
	return 0;
}

static int fork_cost(void)
{
	unsigned long least = ~0UL;

	for (int i = 0; i < COST_FORKS; i++) {
		unsigned long before = free_frames();
		long pid = fork_();
		if (pid == 0)
			for (;;)
				__syscall(__NR_sched_yield, 0, 0, 0, 0, 0, 0);
		unsigned long after = free_frames();
		int status = -1;
		if (pid < 0)
			return 1;
		__syscall(__NR_kill, pid, SIGKILL, 0, 0, 0, 0);
		if (wait4_(pid, &status) != pid || status != SIGKILL)
			return 1;
		if (before - after < least)
			least = before - after;
	}
	printf("forkbench: fork cost %lu frames\n", least);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		printf("usage: forkbench N | cost\n");
		return 2;
	}
	if (touch_heap()) {
		printf("forkbench: sbrk failed\n");
		return 3;
	}
	if (strcmp(argv[1], "cost") == 0)
		return fork_cost();
	return fork_exit_wait(strtoul(argv[1], NULL, 10));
}
