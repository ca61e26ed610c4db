/* The smallest program: one line naming the ABI it was built for, exit 0. Also built as
 * hello-pie, a static ET_DYN image, for the loader's position-independent path. */
#include <user.h>

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("hello from rndbits (%s)\n", USER_ABI_NAME);
	return 0;
}
