/* Where exec put things, as the program sees them: the initial stack pointer (argv sits one
 * word above it), AT_RANDOM's bytes and AT_EXECFN's string, the program break, main, a fresh
 * one-page anonymous mmap, and the whole of /proc/self/maps. Run under rndbits and under Linux 6.1 with the same binary, its
 * output compares the two layouts line by line. With -q it prints one line only. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

static void print_maps(void)
{
	char buf[8192];
	int fd = open("/proc/self/maps", O_RDONLY);
	ssize_t n;

	if (fd < 0) {
		perror("layout: /proc/self/maps");
		return;
	}
	fflush(stdout);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (write(1, buf, (size_t)n) != n)
			break;
	close(fd);
}

int main(int argc, char **argv)
{
	unsigned long sp = (unsigned long)argv - sizeof(long);
	void *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	printf("layout: sp=0x%lx random=0x%lx execfn=0x%lx brk=0x%lx main=0x%lx mmap=0x%lx\n", sp,
	       getauxval(AT_RANDOM), getauxval(AT_EXECFN), (unsigned long)sbrk(0),
	       (unsigned long)&main, (unsigned long)page);
	if (argc > 1 && strcmp(argv[1], "-q") == 0)
		return 0;
	print_maps();
	return 0;
}
