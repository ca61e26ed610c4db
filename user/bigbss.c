/* bigbss: an image whose bss (160 MiB) is larger than the RAM of every QEMU guest here (128 MiB),
 * so exec must run out of frames while loading it and refuse it cleanly ("exec: bigbss: Cannot
 * allocate memory"), giving back every frame it took. If it ever runs, it says so. */
#include <user.h>

#define BIG (160UL << 20)

/* volatile: a store the compiler could prove unread would take the whole array away. */
static volatile char big[BIG];

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	big[BIG - 1] = 1;
	printf("bigbss: running with %lu MiB of bss\n", BIG >> 20);
	return 0;
}
