/* Shell commands register themselves next to the code they show, in the shell_cmds linker
 * section; kernel/shell.c finds them there, sorted by name for `help`. */
#ifndef RNDBITS_SHELL_H
#define RNDBITS_SHELL_H

#include <lib/types.h>

#define SHELL_MAX_ARGS 32
/* The most output `CMD > FILE` captures (a page: what a /proc/sys file looks at, and more);
 * longer output is refused with EFBIG. */
#define SHELL_REDIRECT_MAX 4096

struct shell_command {
	const char *name;
	const char *usage;   /* one line for `help`: "uname [-a]  print system information" */
	/* Returns the command's exit status; non-zero statuses are not printed by the shell. */
	int (*run)(int argc, char **argv);
};

#define SHELL_COMMAND(ident, cmd_name, cmd_usage, fn)                                     \
	static const struct shell_command shell_cmd_##ident                                \
		__section("shell_cmds") __used __aligned(sizeof(void *)) = {              \
			.name = cmd_name, .usage = cmd_usage, .run = fn }

/* Run the interactive shell forever. */
__noreturn void shell_main(void);

/* Parse and run one line (also used by tests). Returns the command's status. */
int shell_execute(char *line);


#endif
