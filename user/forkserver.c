/* The fork-server victim of `aslr attack --fork` (issue 17): a service that forks a worker per
 * request, as Android's zygote, a pre-forking web server or the servers of the Blind ROP attack
 * do. Like user/victim.c it keeps a secret in the page of its first mmap; every child it forks
 * inherits that layout, follows the attacker's guessed pointer, and exits 0 on the secret or is
 * killed by SIGSEGV (a miss); after each crash the server forks the next child.
 *
 *   forkserver TOP STEP N START     (TOP and STEP in hex)
 *
 * The attacker's guesses reach the server in its argv, as a rule the server follows on the
 * attacker's behalf (one process, no pipe needed): candidate k is TOP - k * STEP for k in
 * 0..N-1, tried in the order START, START + 1, ... (mod N), each at most once. The server knows
 * nothing about where its secret is beyond what the children find. It counts its children and
 * prints `forkserver: hit after C children at ADDR` on a hit (exit 0); if no candidate hits,
 * `forkserver: no hit in N children` (exit 1). Quiet otherwise: it runs thousands of times. */
#include <user.h>
#include <sysnr.h>

#define SECRET 0x5ec2e7u

/* A child's life: the attacker's read at guess; faults unless the guess lands on a mapped page. */
static __noreturn void child_follows(unsigned long guess)
{
	unsigned value = *(volatile unsigned *)(uintptr_t)guess;

	exit_group(value == SECRET ? 0 : 1);
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		printf("usage: forkserver TOP STEP N START   (TOP, STEP in hex)\n");
		return 2;
	}
	unsigned long top = strtoul(argv[1], NULL, 16), step = strtoul(argv[2], NULL, 16);
	unsigned long n = strtoul(argv[3], NULL, 10), start = strtoul(argv[4], NULL, 10);
	volatile unsigned *secret = mmap(NULL, USER_PAGE_SIZE, PROT_READ | PROT_WRITE,
					 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (secret == MAP_FAILED || n == 0)
		return 3;
	*secret = SECRET;
	for (unsigned long i = 0; i < n; i++) {
		unsigned long guess = top - (start + i) % n * step;
		long pid = fork();
		if (pid < 0) {
			printf("forkserver: fork: errno %d\n", errno);
			return 4;
		}
		if (pid == 0)
			child_follows(guess);
		int status = -1;
		if (wait4(pid, &status, 0, NULL) != pid) {
			printf("forkserver: wait4 failed\n");
			return 4;
		}
		if (status == 0) {
			printf("forkserver: hit after %lu children at %#lx\n", i + 1, guess);
			return 0;
		}
		/* A miss: killed by SIGSEGV (11, with or without the core flag 0x80), or exit 1
		 * on another mapping ([vvar], [vdso]). */
		if ((status & 0x7f) != 11 && status != 1 << 8) {
			printf("forkserver: child %lu ended with status %#x\n", i + 1, status);
			return 4;
		}
	}
	printf("forkserver: no hit in %lu children\n", n);
	return 1;
}
