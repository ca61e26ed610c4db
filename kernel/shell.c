/* The shell: reads a line, splits it into words, and runs the command registered under the first
 * word. Commands live beside the subsystems they show and register with SHELL_COMMAND(). */
#include <console.h>
#include <cred.h>
#include <fs.h>
#include <kernel.h>
#include <lib/errno.h>
#include <lib/string.h>
#include <sections.h>
#include <shell.h>

static const struct shell_command *commands_begin(void)
{
	return (const struct shell_command *)__start_shell_cmds;
}

static const struct shell_command *commands_end(void)
{
	return (const struct shell_command *)__stop_shell_cmds;
}

static const struct shell_command *find_command(const char *name)
{
	for (const struct shell_command *c = commands_begin(); c < commands_end(); c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* Split line in place into words: blanks separate, '...' and "..." quote (quotes removed).
 * Returns the word count, or -1 if there are more than max words or a quote is unterminated. */
static int split_words(char *line, char **argv, int max)
{
	int argc = 0;
	char *r = line, *w = line;

	for (;;) {
		while (is_space(*r))
			r++;
		if (!*r)
			return argc;
		if (argc == max)
			return -1;
		argv[argc++] = w;
		while (*r && !is_space(*r)) {
			if (*r == '\'' || *r == '"') {
				char q = *r++;
				while (*r && *r != q)
					*w++ = *r++;
				if (!*r)
					return -1;
				r++;
			} else {
				*w++ = *r++;
			}
		}
		if (*r)
			r++;
		*w++ = '\0';
	}
}

/* Take a "> FILE" or ">FILE" out of argv; returns the path, NULL if none, or "" if the '>'
 * has no file after it. */
static const char *take_redirect(int *argc, char **argv)
{
	for (int i = 0; i < *argc; i++) {
		if (argv[i][0] != '>')
			continue;
		const char *path = argv[i][1] ? argv[i] + 1 : (i + 1 < *argc ? argv[i + 1] : "");
		int words = argv[i][1] || i + 1 == *argc ? 1 : 2;
		for (int j = i; j + words < *argc; j++)
			argv[j] = argv[j + words];
		*argc -= words;
		return path;
	}
	return NULL;
}

/* Run cmd with its output captured, then write that output to path in one write, as a shell
 * redirect followed by the command's single write(2) would. */
static int run_redirected(const struct shell_command *cmd, int argc, char **argv, const char *path)
{
	static char out[CONSOLE_LINE_MAX + 64];

	console_capture_begin(out, sizeof(out));
	int status = cmd->run(argc, argv);
	long len = console_capture_end();
	if (len < 0) {
		printk("%s: write error: %s\n", argv[0], strerror(EFBIG));
		return 1;
	}
	long r = fs_write(path, current_uid(), out, (size_t)len);
	if (r == -ENOENT || r == -EISDIR) {
		printk("rndbits: %s: %s\n", path, strerror((int)-r));
		return 1;
	}
	if (r < 0) {
		printk("%s: write error: %s\n", argv[0], strerror((int)-r));
		return 1;
	}
	return status;
}

int shell_execute(char *line)
{
	char *argv[SHELL_MAX_ARGS + 1];
	int argc = split_words(line, argv, SHELL_MAX_ARGS);
	const char *redirect = argc > 0 ? take_redirect(&argc, argv) : NULL;

	if (argc < 0) {
		printk("rndbits: syntax error: unterminated quote or more than %d words\n",
		       SHELL_MAX_ARGS);
		return 2;
	}
	if (redirect && !*redirect) {
		printk("rndbits: syntax error near unexpected token `newline'\n");
		return 2;
	}
	if (argc == 0)
		return 0;
	argv[argc] = NULL;
	const struct shell_command *cmd = find_command(argv[0]);
	if (!cmd) {
		printk("rndbits: %s: command not found\n", argv[0]);
		return 127;
	}
	if (redirect)
		return run_redirected(cmd, argc, argv, redirect);
	return cmd->run(argc, argv);
}

static const char *prompt(void)
{
	return current_uid() == 0 ? "rndbits# " : "rndbits$ ";
}

__noreturn void shell_main(void)
{
	static char line[CONSOLE_LINE_MAX];

	for (;;) {
		console_puts(prompt());
		switch (console_read_line(line, sizeof(line))) {
		case CONSOLE_LINE:
			shell_execute(line);
			break;
		case CONSOLE_TOO_LONG:
			printk("rndbits: line too long (max %d)\n", CONSOLE_LINE_MAX - 1);
			break;
		case CONSOLE_INTERRUPTED:
			break;
		}
	}
}

/* help: one line per command, in name order (the linker section is in link order). */
static int cmd_help(int argc, char **argv)
{
	const struct shell_command *last = NULL;

	for (;;) {
		const struct shell_command *next = NULL;
		for (const struct shell_command *c = commands_begin(); c < commands_end(); c++) {
			if (last && strcmp(c->name, last->name) <= 0)
				continue;
			if (!next || strcmp(c->name, next->name) < 0)
				next = c;
		}
		if (!next)
			return 0;
		printk("%s\n", next->usage);
		last = next;
	}
}
SHELL_COMMAND(help, "help", "help                 list the commands", cmd_help);
