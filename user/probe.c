/* Reports where things landed in this process: one anonymous page from mmap (written and read
 * back, so the mapping is real), a stack variable, the program break and main; then it grows
 * the heap by a page and uses it. With -q it only does the work and prints nothing. */
#include <user.h>

#define PROBE_LEN 4096

/* A pattern that differs per word and per address, so a stale or shared page cannot pass. */
static unsigned long pattern(volatile unsigned long *p, size_t i)
{
	return (unsigned long)(uintptr_t)p ^ (i * 0x9e3779b9UL) ^ 0x5a5a5a5aUL;
}

static bool write_and_check(void *page)
{
	volatile unsigned long *w = page;
	size_t n = PROBE_LEN / sizeof(*w);

	for (size_t i = 0; i < n; i++)
		w[i] = pattern(w, i);
	for (size_t i = 0; i < n; i++)
		if (w[i] != pattern(w, i))
			return false;
	return true;
}

int main(int argc, char **argv)
{
	volatile int local = 0;
	bool quiet = argc > 1 && strcmp(argv[1], "-q") == 0;
	void *page = mmap(NULL, PROBE_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (page == MAP_FAILED) {
		printf("probe: mmap: %s\n", strerror(errno));
		return 1;
	}
	if (!write_and_check(page)) {
		printf("probe: readback failed\n");
		return 1;
	}
	unsigned long brk_start = sys_brk(0);
	if (!quiet)
		printf("probe: pid=%d mmap=0x%lx stack=0x%lx brk=0x%lx text=0x%lx\n", getpid(),
		       (unsigned long)(uintptr_t)page, (unsigned long)(uintptr_t)&local,
		       brk_start, (unsigned long)(uintptr_t)&main);
	/* One page of heap, used, so that a kept probe shows every kind of mapping: [heap] too. */
	void *heap = sbrk(PROBE_LEN);
	if (heap == (void *)-1 || !write_and_check(heap)) {
		printf("probe: heap failed\n");
		return 1;
	}
	return 0;
}
