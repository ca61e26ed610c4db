/* mprotect for real: a page written, made read-only, read, then written again. On Linux the
 * second write is a SIGSEGV (the shell's status 139); a kernel that only records the new
 * protection lets it through, and the program says so and exits with 2. */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mprotect: mmap");
		return 1;
	}
	p[0] = 'x';
	if (mprotect((void *)p, (size_t)page, PROT_READ) != 0) {
		perror("mprotect");
		return 1;
	}
	printf("mprotect: page read-only, it reads '%c'; writing to it\n", p[0]);
	fflush(stdout);
	p[0] = 'y';
	printf("mprotect: the write went through: the page is still writable\n");
	return 2;
}
