/* Runs the kernel out of frames through system calls, then makes the kernel fault in a page
 * where no page table exists yet, so that the table allocation is the one that fails:
 *  1. fill: openat() with a path in an untouched page of a large mapping makes copy_from_user
 *     fault that page in (an empty name: ENOENT), page after page until a fault finds no frame;
 *  2. unmap two of the filled pages (two frames free, their tables stay: other pages use them);
 *  3. openat() with a path in a page far from every other mapping: its frame and the first
 *     table it needs get the two frames, the next table finds none;
 *  4. unmap the far page's mapping and fill again; ROUNDS times.
 * A kernel that leaves the tables of step 3 linked loses them for good (munmap and exit free
 * tables under leaves and VMAs only): `free` before and after many runs shows it. A kernel that
 * kills the process at step 1 (out of memory) must give every frame back too. */
#include <sysnr.h>
#include <user.h>

#define AT_FDCWD (-100)

#define PAGE USER_PAGE_SIZE
#define BIG (512UL << 20) /* more than the guests' RAM (128 MiB) */
#define ROUNDS 15

static char *big;
static unsigned long filled, unmapped;

/* The kernel reads the name at addr (faulting its page in): ENOENT for the empty name, EFAULT
 * when the page could not be had. */
static long open_at(uintptr_t addr)
{
	return __syscall(SYS_openat, AT_FDCWD, (long)addr, 0, 0, 0, 0);
}

/* Step 1: fault pages of big in until the kernel has no frame left. */
static bool fill(void)
{
	while (filled < BIG / PAGE) {
		long r = open_at((uintptr_t)(big + filled * PAGE));
		if (r == -EFAULT)
			return true;
		if (r != -ENOENT) {
			printf("leak: openat: unexpected %ld\n", r);
			return false;
		}
		filled++;
	}
	printf("leak: %lu pages filled and still no EFAULT\n", filled);
	return false;
}

int main(int argc, char **argv)
{
	char here;
	/* Far addresses: 15 points spread over the space below the stack. */
	uintptr_t stride = ((uintptr_t)&here / 16) & ~(uintptr_t)(PAGE - 1);
	unsigned refused = 0;

	(void)argc;
	(void)argv;
	big = mmap(NULL, BIG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (big == MAP_FAILED) {
		printf("leak: mmap: %s\n", strerror(errno));
		return 1;
	}
	printf("leak: filling memory through openat()\n");
	for (unsigned round = 1; round <= ROUNDS; round++) {
		if (!fill())
			return 1;
		munmap(big + unmapped * PAGE, 2 * PAGE);
		unmapped += 2;
		void *far = mmap((void *)(stride * round), PAGE, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (far == MAP_FAILED) {
			printf("leak: far mmap: %s\n", strerror(errno));
			return 1;
		}
		if (open_at((uintptr_t)far) == -EFAULT)
			refused++;
		munmap(far, PAGE);
	}
	printf("leak: %u rounds, the far page refused in %u\n", ROUNDS, refused);
	return 0;
}
