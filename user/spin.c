/* A program that never ends by itself, for Ctrl-C: `spin` loops without a system call (only
 * the console's receive interrupt can stop it), `spin syscall` loops calling getpid (the
 * Ctrl-C may arrive while the kernel runs the call). It says so first, so that a test knows
 * when the loop runs. */
#include <user.h>

int main(int argc, char **argv)
{
	bool syscalls = argc > 1 && strcmp(argv[1], "syscall") == 0;

	if (argc > 1 && !syscalls) {
		dprintf(STDERR_FILENO, "usage: spin [syscall]\n");
		return 2;
	}
	printf("spin: looping%s\n", syscalls ? " on getpid" : "");
	for (;;) {
		if (syscalls)
			getpid();
		else
			__asm__ volatile("" : : : "memory"); /* keep the empty loop a loop */
	}
}
