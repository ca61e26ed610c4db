/* The console: LF -> CRLF on output, and a line editor over the arch's raw UART bytes. Every
 * byte a person (or a fuzzer) can send has a defined effect, and no line ever outgrows its
 * buffer: past the limit the rest of the line is swallowed and the line is refused. */
#include <arch/console.h>
#include <arch/cpu.h>
#include <kernel/console.h>
#include <kernel/kernel.h>
#include <lib/fmt.h>

#define CTRL(c) ((c) & 0x1f)
#define KEY_BACKSPACE 0x7f
#define KEY_ESC 0x1b

/* Bytes taken out of the UART before the line reader wanted them: while a long command polled
 * for Ctrl-C, or by the receive interrupt while a program ran or before the shell got the CPU.
 * The line reader takes them first. 4 KiB, as Linux's N_TTY_BUF_SIZE: a line one past the limit
 * and its Enter (257 bytes) could all arrive before the shell read any, and with room for one
 * line only the Enter was lost and the shell waited for ever. */
#define TYPEAHEAD_SIZE 4096
static char typeahead[TYPEAHEAD_SIZE];
static unsigned typeahead_head, typeahead_len;

/* Captures nest: the shell's `> FILE` takes a command's output, and the command may itself
 * capture the output of the processes it runs (bench, aslr). Bytes go to the innermost capture
 * only; when it ends, what the command prints next goes to the one around it again. The code
 * nests two deep; a capture deeper than the stack has no room at all: its bytes are dropped and
 * its end reports that they did not fit. */
#define CAPTURE_DEPTH 4

struct capture {
	char *buf;
	size_t size, len;
	bool overflow;
};

static struct capture captures[CAPTURE_DEPTH];
static unsigned capture_depth; /* begun and not ended, including any beyond the stack */

void console_capture_begin(char *buf, size_t size)
{
	if (capture_depth < CAPTURE_DEPTH)
		captures[capture_depth] = (struct capture){ .buf = buf, .size = size };
	capture_depth++;
}

long console_capture_end(void)
{
	if (capture_depth == 0 || --capture_depth >= CAPTURE_DEPTH)
		return -1;
	const struct capture *c = &captures[capture_depth];

	return c->overflow ? -1 : (long)c->len;
}

void console_capture_abandon(void)
{
	capture_depth = 0;
}

/* Keep c in the innermost capture; false if nothing is capturing. */
static bool capture_putc(char c)
{
	if (capture_depth == 0)
		return false;
	if (capture_depth > CAPTURE_DEPTH)
		return true;
	struct capture *cap = &captures[capture_depth - 1];
	if (cap->len < cap->size)
		cap->buf[cap->len++] = c;
	else
		cap->overflow = true;
	return true;
}

/* The terminal wants CR LF; the kernel writes '\n' alone. */
void console_putc(char c)
{
	if (capture_putc(c))
		return;
	if (c == '\n')
		arch_console_putc('\r');
	arch_console_putc(c);
}

void console_write(const char *s, size_t n)
{
	while (n--)
		console_putc(*s++);
}

void console_puts(const char *s)
{
	while (*s)
		console_putc(*s++);
}

static void printk_out(char c, void *ctx)
{
	(void)ctx;
	console_putc(c);
}

int vprintk(const char *fmt, va_list ap)
{
	return vcbprintf(printk_out, NULL, fmt, ap);
}

static int next_byte(void)
{
	if (typeahead_len) {
		int c = (unsigned char)typeahead[typeahead_head];
		typeahead_head = (typeahead_head + 1) % sizeof(typeahead);
		typeahead_len--;
		return c;
	}
	return arch_console_getc();
}

/* Give back the byte next_byte() just returned: it is read again first. There is always room,
 * since that byte left the ring or came from the UART while the ring was empty. */
static void unread_byte(int c)
{
	typeahead_head = (typeahead_head + sizeof(typeahead) - 1) % sizeof(typeahead);
	typeahead[typeahead_head] = (char)c;
	typeahead_len++;
}

/* A Ctrl-C received and not yet taken by console_interrupt_pending(), and the guest's counter
 * when console_receive took it out of the UART (`bench ctrl-c` measures from there). */
static bool interrupt_received;
static uint64_t interrupt_cycles;

/* How the shell waits for a key: the scheduler's sched_idle once processes exist (other tasks
 * run meanwhile, background jobs), else the CPU sleeps until an interrupt. A hook, as the
 * console is below the process layer. */
static void (*idle_wait)(void) = arch_idle;

void console_set_idle(void (*idle)(void))
{
	idle_wait = idle;
}

/* The receive interrupt's handler may have taken bytes into typeahead, and a Ctrl-C into
 * interrupt_received: that one is the line reader's when no job is in front. */
static int wait_byte(void)
{
	int c;

	while ((c = next_byte()) < 0) {
		if (interrupt_received) {
			interrupt_received = false;
			return CTRL('C');
		}
		idle_wait();
	}
	return c;
}

void console_receive(void)
{
	int c;

	while ((c = arch_console_getc()) >= 0) {
		if (c == CTRL('C')) {
			if (!interrupt_received)
				interrupt_cycles = arch_cycles();
			interrupt_received = true;
			continue;
		}
		if (typeahead_len < sizeof(typeahead)) {
			typeahead[(typeahead_head + typeahead_len) % sizeof(typeahead)] = (char)c;
			typeahead_len++;
		}
	}
}

uint64_t console_interrupt_cycles(void)
{
	return interrupt_cycles;
}

bool console_interrupt_pending(void)
{
	bool pending;

	console_receive();
	pending = interrupt_received;
	interrupt_received = false;
	return pending;
}

static void erase_chars(size_t n)
{
	while (n--)
		console_puts("\b \b");
}

/* After an ESC: swallow the escape sequence an arrow or function key sends (ESC [ params final,
 * or ESC O x). A byte that does not start one follows a lone Escape key press; it is given back
 * to be handled as typed, not eaten with the ESC. */
static void skip_escape_sequence(void)
{
	int c = wait_byte();

	if (c != '[' && c != 'O') {
		unread_byte(c);
		return;
	}
	do {
		c = wait_byte();
	} while (c >= 0x20 && c < 0x40);
}

enum console_read_result console_read_line(char *buf, size_t size)
{
	size_t len = 0;
	bool overflow = false;
	static bool last_was_cr;

	interrupt_received = false; /* meant for a command that ended before it looked */

	for (;;) {
		int c = wait_byte();

		if (c == '\n' && last_was_cr) { /* the LF of a CRLF pair */
			last_was_cr = false;
			continue;
		}
		last_was_cr = (c == '\r');
		switch (c) {
		case '\r':
		case '\n':
			console_putc('\n');
			buf[len] = '\0';
			return overflow ? CONSOLE_TOO_LONG : CONSOLE_LINE;
		case CTRL('C'):
			console_puts("^C\n");
			buf[0] = '\0';
			return CONSOLE_INTERRUPTED;
		case CTRL('U'):
			erase_chars(len);
			len = 0;
			overflow = false;
			continue;
		case KEY_BACKSPACE:
		case '\b':
			if (len && !overflow) {
				len--;
				erase_chars(1);
			}
			continue;
		case KEY_ESC:
			skip_escape_sequence();
			continue;
		case '\t':
			c = ' ';
			break;
		default:
			break;
		}
		if (c < 0x20 || c >= 0x7f) /* other control and 8-bit bytes have no meaning here */
			continue;
		if (len + 1 >= size) {
			overflow = true;
			continue;
		}
		if (overflow)
			continue;
		buf[len++] = (char)c;
		console_putc((char)c);
	}
}
