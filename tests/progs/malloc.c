/* malloc's two sources of memory and the map that shows them: 1 MiB (above glibc's and musl's
 * mmap threshold: a mapping of its own) and 100 small blocks (glibc: the brk heap; musl: brk or
 * its own mappings), then the process's own /proc/self/maps, which must show them all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SMALL 100
#define PER_LINE 10

static int print_own_maps(void)
{
	char buf[512];
	size_t n;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f) {
		perror("malloc: /proc/self/maps");
		return 1;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stdout);
	fclose(f);
	return 0;
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
	int rc = print_own_maps();
	for (int i = 0; i < SMALL; i++)
		free(small[i]);
	free(big);
	return rc;
}
