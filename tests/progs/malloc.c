/* malloc's two sources of memory and the map that shows them: 1 MiB (above glibc's and musl's
 * mmap threshold: a mapping of its own) and 100 small blocks (glibc: the brk heap; musl: brk or
 * its own mappings), then the process's own /proc/self/maps, which must show them all.
 * The maps are copied with open/read/write, and nothing is freed, so that the process ends with
 * exactly the mappings it printed: `run -k` then `maps` must show the same lines. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SMALL 100
#define PER_LINE 10

static int print_own_maps(void)
{
	static char buf[4096];
	ssize_t n;
	int fd = open("/proc/self/maps", O_RDONLY);

	if (fd < 0) {
		perror("malloc: /proc/self/maps");
		return 1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		if (write(STDOUT_FILENO, buf, (size_t)n) != n)
			return 1;
	}
	close(fd);
	return n < 0;
}

int main(void)
{
	static void *small[SMALL];
	char *big = malloc(1 << 20);

	if (!big) {
		perror("malloc: 1 MiB");
		return 1;
	}
	memset(big, 0x5a, 1 << 20);
	printf("malloc: 1 MiB at %p\n", (void *)big);
	for (int i = 0; i < SMALL; i++) {
		small[i] = malloc(16 + i);
		if (!small[i]) {
			perror("malloc: small block");
			return 1;
		}
		memset(small[i], i, 16 + i);
	}
	for (int i = 0; i < SMALL; i += PER_LINE) {
		printf("malloc: small %d-%d:", i, i + PER_LINE - 1);
		for (int j = i; j < i + PER_LINE; j++)
			printf(" %p", small[j]);
		printf("\n");
	}
	fflush(stdout);
	return print_own_maps();
}
