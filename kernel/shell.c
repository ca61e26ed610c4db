/* The shell: reads a line, splits it into words, and runs the command registered under the first
 * word. Commands live beside the subsystems they show and register with SHELL_COMMAND(). */
#include <kernel/console.h>
#include <kernel/cred.h>
#include <kernel/fs.h>
#include <kernel/kernel.h>
#include <lib/errno.h>
#include <lib/string.h>
#include <kernel/sections.h>
#include <kernel/proc.h>
#include <kernel/shell.h>

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

/* A command line split into words: the command's argv, and the files of its `>` redirections
 * in the order given. */
struct command_line {
	int argc;
	char *argv[SHELL_MAX_ARGS + 1];
	int nr_redirects;
	const char *redirects[SHELL_MAX_ARGS];
};

enum split_result { SPLIT_OK, SPLIT_BAD_QUOTE_OR_TOO_MANY, SPLIT_REDIRECT_NEWLINE,
		    SPLIT_REDIRECT_REDIRECT };

/* Copy one word from *r to *w (in place, w <= r): blanks and an unquoted '>' end it, '...' and
 * "..." quote (quotes removed; a quoted '>' is a plain character). Returns false for an
 * unterminated quote. */
static bool copy_word(char **r, char **w)
{
	while (**r && !is_space(**r) && **r != '>') {
		if (**r == '\'' || **r == '"') {
			char q = *(*r)++;
			while (**r && **r != q)
				*(*w)++ = *(*r)++;
			if (!**r)
				return false;
			(*r)++;
		} else {
			*(*w)++ = *(*r)++;
		}
	}
	return true;
}

/* Split line in place, as sh does for simple commands: an unquoted '>' (inside a word too, as in
 * `echo x>f`) is an operator whose next word is a file to write. */
static enum split_result split_line(char *line, struct command_line *cl)
{
	char *r = line, *w = line;
	bool want_file = false;
	int words = 0;

	cl->argc = cl->nr_redirects = 0;
	for (;;) {
		while (is_space(*r))
			r++;
		if (!*r)
			return want_file ? SPLIT_REDIRECT_NEWLINE : SPLIT_OK;
		if (*r == '>') {
			if (want_file)
				return SPLIT_REDIRECT_REDIRECT;
			want_file = true;
			r++;
			continue;
		}
		if (words++ == SHELL_MAX_ARGS)
			return SPLIT_BAD_QUOTE_OR_TOO_MANY;
		char *word = w;
		if (!copy_word(&r, &w))
			return SPLIT_BAD_QUOTE_OR_TOO_MANY;
		bool redirect_follows = *r == '>';
		if (*r) /* the blank or '>' that ended the word: consumed before w's NUL can land on it */
			r++;
		*w++ = '\0';
		if (want_file)
			cl->redirects[cl->nr_redirects++] = word;
		else
			cl->argv[cl->argc++] = word;
		want_file = redirect_follows;
	}
}

/* One write to a redirect target; an empty name (`> ''`) names nothing. */
static long write_target(const char *path, const char *buf, size_t len)
{
	return *path ? fs_write(path, current_uid(), buf, len) : -ENOENT;
}

/* What a failed open of a redirect target says, in sh's words. */
static void redirect_error(const char *path, long err)
{
	printk("rndbits: %s: %s\n", path, strerror((int)-err));
}

/* sh opens every target with O_TRUNC before the command runs, and the last one gets the
 * output. A /proc/sys file is not truncated by that open, so here each target is opened by an
 * empty write (which changes nothing): it must exist and be a file, or the line stops before
 * the command runs. Permission is judged at that open too, except for the file the command's
 * output goes to: a refusal there stays the write error it has always been ("echo: write
 * error: Permission denied"). */
static int open_targets(const struct command_line *cl)
{
	for (int i = 0; i < cl->nr_redirects; i++) {
		bool gets_output = cl->argc && i == cl->nr_redirects - 1;
		long r = write_target(cl->redirects[i], "", 0);
		if (r < 0 && !(gets_output && r == -EACCES)) {
			redirect_error(cl->redirects[i], r);
			return 1;
		}
	}
	return 0;
}

/* Run cmd with its output captured, then write that output to path in one write, as a shell
 * redirect followed by the command's single write(2) would. The buffer is a page: the most a
 * /proc/sys file looks at is its first 4095 bytes. */
static int run_redirected(const struct shell_command *cmd, int argc, char **argv, const char *path)
{
	static char out[SHELL_REDIRECT_MAX];

	console_capture_begin(out, sizeof(out));
	int status = cmd->run(argc, argv);
	long len = console_capture_end();
	if (len < 0) {
		printk("%s: write error: %s\n", argv[0], strerror(EFBIG));
		return 1;
	}
	long r = write_target(path, out, (size_t)len);
	if (r == -ENOENT || r == -EISDIR || r == -ENOTDIR) {
		redirect_error(path, r);
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
	struct command_line cl;

	switch (split_line(line, &cl)) {
	case SPLIT_OK:
		break;
	case SPLIT_BAD_QUOTE_OR_TOO_MANY:
		printk("rndbits: syntax error: unterminated quote or more than %d words\n",
		       SHELL_MAX_ARGS);
		return 2;
	case SPLIT_REDIRECT_NEWLINE:
		printk("rndbits: syntax error near unexpected token `newline'\n");
		return 2;
	case SPLIT_REDIRECT_REDIRECT:
		printk("rndbits: syntax error near unexpected token `>'\n");
		return 2;
	}
	/* Without a command (`> FILE` alone) every target is only opened. */
	if (open_targets(&cl))
		return 1;
	if (cl.argc == 0)
		return 0;
	cl.argv[cl.argc] = NULL;
	const struct shell_command *cmd = find_command(cl.argv[0]);
	if (!cmd) {
		printk("rndbits: %s: command not found\n", cl.argv[0]);
		return 127;
	}
	if (cl.nr_redirects)
		return run_redirected(cmd, cl.argc, cl.argv, cl.redirects[cl.nr_redirects - 1]);
	return cmd->run(cl.argc, cl.argv);
}

static const char *prompt(void)
{
	return current_uid() == 0 ? "rndbits# " : "rndbits$ ";
}

__noreturn void shell_main(void)
{
	static char line[CONSOLE_LINE_MAX];

	for (;;) {
		proc_reap_orphans(); /* finished background jobs and orphans: init's to reap */
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
