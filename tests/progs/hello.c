/* The smallest program of the corpus: stdio's printf through the libc's start-up code. */
#include <stdio.h>

int main(void)
{
	printf("hello, world\n");
	return 0;
}
