/* kernel/shell.c's shell_execute (tokenizer, quotes, `>` redirection, command lookup) under
 * libFuzzer, with stub commands registered in the same shell_cmds linker section the kernel
 * uses (the host linker provides __start_/__stop_shell_cmds as ld does for the kernel), and the
 * real `help`. Output goes through kernel/console.c (printk, capture) to a counting UART.
 *
 * Input: 1 byte of options (uid root or nobody, what fs_write answers), then lines separated by
 * '\n', each run through shell_execute from an exact-size buffer.
 *
 * Checked: argc <= SHELL_MAX_ARGS and argv[argc] == NULL; every word lies inside the line
 * buffer, NUL-terminated there, and has no blank unless the line quoted one; no unquoted `>`
 * and no redirect target is left in argv; a redirect hands fs_write at most the capture buffer;
 * the shell's status is the command's, or 0/1/2/127 for its own outcomes. */
#include "lib_under_test.h"
#include <arch/console.h>
#include <arch/cpu.h>
#include <kernel/console.h>
#include <kernel/cred.h>
#include <kernel/fs.h>
#include <kernel/kernel.h>
#include <lib/errno.h>
#include <kernel/shell.h>

#include <string.h>

#include "fuzz.h"

static struct {
	const char *line;      /* the buffer shell_execute got */
	size_t size;
	bool has_quote, had_redirect;
	unsigned uid;
	long fs_answer;        /* 0: the length written */
	int last_status;       /* what the last stub command returned */
	bool command_ran;
	const char *expect_output; /* what a redirect of this command must write, if known */
	unsigned long uart_bytes;
} S;

void arch_console_putc(char c)
{
	(void)c;
	S.uart_bytes++;
}

int arch_console_getc(void)
{
	return -1;
}

/* The console notes when it took a Ctrl-C (bench ctrl-c); no clock here. */
uint64_t arch_cycles(void)
{
	return 0;
}

void arch_idle(void)
{
	FUZZ_CHECK(!"the shell never waits for input in shell_execute");
}

/* init's reaping between commands: the harness starts no process. */
void proc_reap_orphans(void)
{
}

unsigned current_uid(void)
{
	return S.uid;
}

long fs_write(const char *path, unsigned uid, const char *buf, size_t len)
{
	FUZZ_CHECK(path != NULL && path[0] != '\0');
	FUZZ_CHECK(S.had_redirect);
	FUZZ_CHECK(uid == S.uid);
	FUZZ_CHECK(len <= SHELL_REDIRECT_MAX);
	FUZZ_CHECK(buf != NULL || len == 0);
	if (len && S.expect_output)
		FUZZ_CHECK(len == strlen(S.expect_output) && memcmp(buf, S.expect_output, len) == 0);
	return S.fs_answer ? S.fs_answer : (long)len;
}

static void check_argv(int argc, char **argv)
{
	FUZZ_CHECK(argc >= 1 && argc <= SHELL_MAX_ARGS);
	FUZZ_CHECK(argv[argc] == NULL);
	for (int i = 0; i < argc; i++) {
		const char *w = argv[i];
		FUZZ_CHECK(w >= S.line && w < S.line + S.size);
		size_t room = (size_t)(S.line + S.size - w);
		FUZZ_CHECK(memchr(w, '\0', room) != NULL);
		if (!S.has_quote)
			FUZZ_CHECK(strchr(w, ' ') == NULL && strchr(w, '\t') == NULL &&
				   strchr(w, '>') == NULL);
	}
	S.command_ran = true;
}

static int stub_status(int argc, char **argv, int status)
{
	check_argv(argc, argv);
	S.last_status = status;
	return status;
}

static int cmd_true(int argc, char **argv) { return stub_status(argc, argv, 0); }
static int cmd_false(int argc, char **argv) { return stub_status(argc, argv, 1); }

static int cmd_echo(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		printk("%s%s", argv[i], i + 1 < argc ? " " : "\n");
	return stub_status(argc, argv, 0);
}

/* More output than a redirect can capture. */
static int cmd_yes(int argc, char **argv)
{
	for (int i = 0; i < 100; i++)
		printk("y\n");
	return stub_status(argc, argv, 0);
}

static int cmd_status(int argc, char **argv)
{
	return stub_status(argc, argv, argc > 1 ? (int)strlen(argv[1]) : 42);
}

/* Output around captures of its own, as bench and aslr keep their processes' output: a redirect
 * must get exactly what it printed outside them, and the inner captures exactly their bytes. */
static int cmd_nest(int argc, char **argv)
{
	static char inner[8];

	printk("outer\n");
	console_capture_begin(inner, sizeof(inner));
	printk("more than the inner buffer holds\n");
	FUZZ_CHECK(console_capture_end() == -1);
	console_capture_begin(inner, sizeof(inner));
	printk("in\n");
	FUZZ_CHECK(console_capture_end() == 3 && memcmp(inner, "in\n", 3) == 0);
	printk("after\n");
	S.expect_output = "outer\nafter\n";
	return stub_status(argc, argv, 0);
}

SHELL_COMMAND(fuzz_true, "true", "true", cmd_true);
SHELL_COMMAND(fuzz_false, "false", "false", cmd_false);
SHELL_COMMAND(fuzz_echo, "echo", "echo [WORD...]", cmd_echo);
SHELL_COMMAND(fuzz_yes, "yes", "yes", cmd_yes);
SHELL_COMMAND(fuzz_status, "status", "status [WORD]", cmd_status);
SHELL_COMMAND(fuzz_nest, "nest", "nest", cmd_nest);

static const long fs_answers[] = { 0, -ENOENT, -EISDIR, -EACCES, -ENOSPC };

static void run_line(const uint8_t *p, size_t n)
{
	char *line = malloc(n + 1);
	memcpy(line, p, n);
	line[n] = '\0';
	size_t len = strlen(line); /* an embedded NUL ends the line, as in a C string */

	S.line = line;
	S.size = n + 1;
	S.has_quote = memchr(line, '\'', len) || memchr(line, '"', len);
	S.had_redirect = memchr(line, '>', len) != NULL;
	S.command_ran = false;
	S.expect_output = NULL;
	S.last_status = -1;
	int status = shell_execute(line);
	if (S.command_ran && status != 1)
		FUZZ_CHECK(status == S.last_status);
	else if (!S.command_ran)
		FUZZ_CHECK(status == 0 || status == 2 || status == 127 ||
			   (status == 1 && S.had_redirect && (S.fs_answer != 0 || S.has_quote)));
	/* A status of 1 may be the redirect's write error (of a stub or of the real `help`), or a
	 * target that could not be opened before the command ran: fs_write refused it, or it was
	 * an empty quoted name (`> ''`), which names nothing. */
	free(line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	S.uid = data[0] & 1 ? 65534 : 0;
	S.fs_answer = fs_answers[(data[0] >> 1) % ARRAY_SIZE(fs_answers)];
	data++, size--;
	while (size) {
		const uint8_t *nl = memchr(data, '\n', size);
		size_t n = nl ? (size_t)(nl - data) : size;
		run_line(data, n);
		n += nl != NULL;
		data += n, size -= n;
	}
	return 0;
}
