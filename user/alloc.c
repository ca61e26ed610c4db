/* Finds the largest single anonymous mapping the address space can still hold: it doubles the
 * size from one page until mmap fails, then bisects between the last success and the first
 * failure down to one page. Nothing is touched (only address space is asked for) and every
 * successful mapping is unmapped again before the next try. */
#include <user.h>

static bool try_map(unsigned long size, unsigned long *addr)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return false;
	*addr = (unsigned long)(uintptr_t)p;
	munmap(p, size);
	return true;
}

int main(int argc, char **argv)
{
	const unsigned long page = USER_PAGE_SIZE;
	unsigned long good = 0, bad = 0, at = 0, addr;

	(void)argc;
	(void)argv;
	for (unsigned long size = page; size != 0; size <<= 1) {
		if (!try_map(size, &addr)) {
			bad = size;
			break;
		}
		good = size;
		at = addr;
	}
	if (good == 0) {
		printf("alloc: not even one page: %s\n", strerror(errno));
		return 1;
	}
	/* The doubling ran off the end of the word without failing: bisect up to its top page. */
	if (bad == 0)
		bad = -page;
	while (bad - good > page) {
		unsigned long mid = good + ((bad - good) / 2 & ~(page - 1));
		if (try_map(mid, &addr)) {
			good = mid;
			at = addr;
		} else {
			bad = mid;
		}
	}
	printf("alloc: largest mapping 0x%lx bytes (%lu MiB) at 0x%lx\n", good, good >> 20, at);
	return 0;
}
