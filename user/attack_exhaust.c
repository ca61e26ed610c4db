/* attack: resource exhaustion (file descriptors, frames through mmap and brk, VMAs): the
 * kernel refuses or kills the process, and gets everything back. */
#include "attack.h"

int fds_case(const struct attack *a)
{
	long fd, first = -1, last = -1;
	int opened = 0;

	while (!is_err(fd = sys_open(RND_BITS_FILE, O_RDONLY))) {
		if (first < 0)
			first = fd;
		last = fd;
		opened++;
	}
	printf("attack: opened %d files (fd %ld to %ld), then -%s\n", opened, first, last,
	       err_name(-fd));
	int closed = 0;
	for (long i = first; i <= last; i++)
		closed += sys_close(i) == 0;
	printf("attack: closed %d\n", closed);
	show("openat after closing", sys_open(RND_BITS_FILE, O_RDONLY));
	return 0;
}

/* Touch every page of fresh mappings until the kernel has no frame left for the next one: the
 * process is then killed ("out of memory"); if the address space runs out first, say so. */
int oom_case(const struct attack *a)
{
	const unsigned long chunk = 4UL << 20;
	unsigned long pages = 0;

	printf("attack: touching mmap pages until memory runs out\n");
	for (;;) {
		volatile char *p = mmap(NULL, chunk, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			printf("attack: mmap: %s after %lu pages\n", strerror(errno), pages);
			return 1;
		}
		for (unsigned long off = 0; off < chunk; off += PAGE, pages++)
			p[off] = 1;
	}
}

int brk_oom_case(const struct attack *a)
{
	unsigned long pages = 0;

	printf("attack: growing the heap until memory runs out\n");
	for (;;) {
		volatile char *p = sbrk((long)PAGE);
		if (p == (void *)-1) {
			printf("attack: brk: %s after %lu pages\n", strerror(errno), pages);
			return 1;
		}
		*p = 1;
		pages++;
	}
}

/* One-page mappings, alternating protections so that no kernel could merge them, until mmap
 * says ENOMEM (the per-process VMA limit); then all are unmapped again. */
int vmas_case(const struct attack *a)
{
	static uintptr_t maps[4096];
	unsigned n = 0;
	long r = 0;

	while (n < 4096) {
		r = sys_mmap(0, PAGE, n & 1 ? PROT_READ : PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS);
		if (is_err(r))
			break;
		maps[n++] = (uintptr_t)r;
	}
	printf("attack: %u mappings, then -%s\n", n, is_err(r) ? err_name(-r) : "none");
	unsigned freed = 0;
	for (unsigned i = 0; i < n; i++)
		freed += munmap((void *)maps[i], PAGE) == 0;
	printf("attack: unmapped %u\n", freed);
	long again = sys_mmap(0, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS);
	printf("attack: mmap after unmapping: %s\n", is_err(again) ? err_name(-again) : "ok");
	return 0;
}
