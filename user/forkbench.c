/* The process `bench fork` times (issue 17): a 1 MiB heap, every page of it written, then
 *   forkbench N      N times fork, the child exits at once, the parent waits for it
 *                    (N = 0: the exec and the heap alone, which the kernel subtracts)
 *   forkbench hold   sleep until killed: the kernel forks its address space itself (mm_fork)
 *                    and counts the frames that takes before anyone writes
 * Exits 0 if every fork and wait went as Linux's would. */
#include <user.h>
#include <sysnr.h>

#define HEAP_BYTES (1024 * 1024)

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
		long pid = fork();
		if (pid == 0)
			exit_group(0);
		int status = -1;
		if (pid < 0 || wait4(pid, &status, 0, NULL) != pid || status != 0) {
			printf("forkbench: fork %lu: pid %ld, status %#x\n", i, pid, status);
			return 1;
		}
	}
	return 0;
}

static __noreturn void hold(void)
{
	long ts[2] = { 1000, 0 };

	for (;;)
		__syscall(__NR_nanosleep, (long)ts, 0, 0, 0, 0, 0);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		printf("usage: forkbench N | hold\n");
		return 2;
	}
	if (touch_heap()) {
		printf("forkbench: sbrk failed\n");
		return 3;
	}
	if (strcmp(argv[1], "hold") == 0)
		hold();
	return fork_exit_wait(strtoul(argv[1], NULL, 10));
}
