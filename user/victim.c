/* The victim of `aslr attack` (the Stagefright scenario): it keeps a secret in the page of its
 * first mmap, then follows the attacker's guessed pointer. A right guess reads the secret and
 * exits 0; a wrong one touches unmapped memory and the kernel kills it, as a real exploit attempt
 * would crash a real service. Quiet, because it runs hundreds of thousands of times. */
#include <user.h>

#define SECRET 0x5ec2e7u

int main(int argc, char **argv)
{
	if (argc < 2) {
		printf("usage: victim GUESS   (hex address)\n");
		return 2;
	}
	unsigned long guess = strtoul(argv[1], NULL, 16);
	volatile unsigned *secret = mmap(NULL, USER_PAGE_SIZE, PROT_READ | PROT_WRITE,
					 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (secret == MAP_FAILED)
		return 3;
	*secret = SECRET;
	/* The attacker's read: faults unless the guess lands on a mapped page. */
	unsigned value = *(volatile unsigned *)(uintptr_t)guess;
	return value == SECRET ? 0 : 1;
}
