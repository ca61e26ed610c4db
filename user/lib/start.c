/* What crt0 hands over to: run main and end the process with its result. */
#include <user.h>

__noreturn void __start_main(long argc, char **argv);

__noreturn void __start_main(long argc, char **argv)
{
	exit(main((int)argc, argv));
}
