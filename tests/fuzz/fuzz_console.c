/* kernel/console.c's line editor under libFuzzer: console_read_line over a fake UART that hands
 * out the input's bytes, with console_interrupt_pending (the type-ahead path) interleaved.
 *
 * Checked against a model terminal that interprets the echo: when a line is returned, the
 * terminal row shows exactly that line (what you see is what the shell gets), the line is
 * NUL-terminated inside the buffer and holds only printable ASCII; a too-long line never
 * overruns (the buffer is an exact-size allocation); Ctrl-C gives an empty buffer.
 *
 * Input: 1 byte picking the buffer size (1, 2, 3, 16 or CONSOLE_LINE_MAX), then bytes typed.
 * A 0xfe byte followed by n means "a command polls for Ctrl-C now over the next n % 80 bytes". */
#include "lib_under_test.h"
#include <arch/console.h>
#include <arch/cpu.h>
#include <kernel/console.h>

#include <setjmp.h>
#include <string.h>

#include "fuzz.h"

static const uint8_t *in_data;
static size_t in_size, in_pos, in_limit;
static jmp_buf input_done;

int arch_console_getc(void)
{
	if (in_pos >= in_size || in_pos >= in_limit)
		return -1;
	return in_data[in_pos++];
}

/* The console notes when it took a Ctrl-C (bench ctrl-c); no clock here. */
uint64_t arch_cycles(void)
{
	return 0;
}

/* The reader waits for input that will never come: the run is over. */
void arch_idle(void)
{
	longjmp(input_done, 1);
}

/* A terminal of one row: printable bytes overwrite at the cursor, '\b' moves left, '\r' to
 * column 0, '\n' finishes the row (kept as `done` for the check). */
#define COLS 4096
static struct {
	char row[COLS + 1], done[COLS + 1];
	unsigned col, len, done_col;
} term;

void arch_console_putc(char c)
{
	if (c == '\b') {
		FUZZ_CHECK(term.col > 0); /* the editor never erases what it did not echo */
		term.col--;
	} else if (c == '\r') {
		term.done_col = term.col;
		term.col = 0;
	} else if (c == '\n') {
		memcpy(term.done, term.row, term.len);
		term.done[term.len] = '\0';
		term.len = term.col = 0;
	} else {
		FUZZ_CHECK((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f);
		if (term.col < COLS) {
			term.row[term.col++] = c;
			if (term.col > term.len)
				term.len = term.col;
		}
	}
}

static void check_line(const char *buf, size_t size, enum console_read_result r)
{
	const char *end = memchr(buf, '\0', size);

	FUZZ_CHECK(end != NULL);
	size_t len = (size_t)(end - buf);
	for (size_t i = 0; i < len; i++)
		FUZZ_CHECK(buf[i] >= 0x20 && buf[i] < 0x7f);
	switch (r) {
	case CONSOLE_LINE:
		/* The row shows the line, then at most blanks left by erasing; cursor at its end. */
		FUZZ_CHECK(term.done_col == len);
		FUZZ_CHECK(memcmp(term.done, buf, len) == 0);
		for (size_t i = len; term.done[i]; i++)
			FUZZ_CHECK(term.done[i] == ' ');
		break;
	case CONSOLE_INTERRUPTED:
		FUZZ_CHECK(len == 0);
		break;
	case CONSOLE_TOO_LONG:
		FUZZ_CHECK(len == size - 1); /* the buffer filled up before the line was refused */
		break;
	default:
		FUZZ_CHECK(!"unknown result");
	}
}

static const size_t sizes[] = { 1, 2, 3, 16, CONSOLE_LINE_MAX };

/* Bring the editor's state (type-ahead, a pending CR) back to empty so that every input runs from
 * the same start: Ctrl-C never enters the type-ahead, so an interrupted read consumed it all. */
static void reset_console(void)
{
	static const uint8_t ctrl_c[256] = { [0 ... 255] = 3 };
	char buf[CONSOLE_LINE_MAX];

	for (;;) {
		in_data = ctrl_c, in_size = in_limit = sizeof(ctrl_c), in_pos = 0;
		if (setjmp(input_done))
			FUZZ_CHECK(!"reset did not end");
		if (console_read_line(buf, sizeof(buf)) == CONSOLE_INTERRUPTED && in_pos == 1)
			break;
	}
	memset(&term, 0, sizeof(term));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static volatile size_t line_size;
	static char *volatile buf;

	if (size == 0)
		return 0;
	reset_console();
	line_size = sizes[data[0] % ARRAY_SIZE(sizes)];
	buf = malloc(line_size);
	in_data = data, in_size = size, in_pos = 1, in_limit = SIZE_MAX;
	if (!setjmp(input_done)) {
		for (;;) {
			if (in_pos + 1 < in_size && in_data[in_pos] == 0xfe) {
				size_t n = in_data[in_pos + 1] % 80;
				in_pos += 2;
				in_limit = in_pos + n;
				(void)console_interrupt_pending();
				in_limit = SIZE_MAX;
			}
			memset(buf, 0x55, line_size);
			enum console_read_result r = console_read_line(buf, line_size);
			check_line(buf, line_size, r);
		}
	}
	free(buf);
	return 0;
}
