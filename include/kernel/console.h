/* The console layer: output with LF -> CRLF, and an editing line reader (echo, backspace,
 * Ctrl-U, Ctrl-C, a hard length limit) over the arch's raw UART bytes. */
#ifndef RNDBITS_CONSOLE_H
#define RNDBITS_CONSOLE_H

#include <lib/types.h>

#define CONSOLE_LINE_MAX 256

void console_putc(char c);
void console_write(const char *s, size_t n);
void console_puts(const char *s);

enum console_read_result {
	CONSOLE_LINE,        /* a complete line is in buf (NUL-terminated, without the newline) */
	CONSOLE_INTERRUPTED, /* Ctrl-C: the line was abandoned */
	CONSOLE_TOO_LONG,    /* the line passed CONSOLE_LINE_MAX - 1 characters and was discarded */
};

/* Read one line, echoing and editing, waiting (arch_idle) while no input is pending. */
enum console_read_result console_read_line(char *buf, size_t size);

/* Redirect console output into buf (a shell `>`, or a command keeping its processes' output),
 * until console_capture_end(), which returns the bytes captured, or -1 if they did not fit.
 * Nothing reaches the UART meanwhile. Captures nest: the innermost one takes the bytes, and
 * ending it gives the output back to the one around it. */
void console_capture_begin(char *buf, size_t size);
long console_capture_end(void);
/* The kernel is going down (a panic, an exception it cannot survive): every capture is dropped
 * so that the report reaches the UART, not a buffer nobody will read. */
void console_capture_abandon(void);

/* Move what the UART received into the type-ahead ring for the line reader; a Ctrl-C is not
 * kept there but noted for console_interrupt_pending(). (The receive interrupt a user program
 * takes.) A Ctrl-C still noted when the next line is read is dropped. */
void console_receive(void);

/* Non-blocking check used by long-running commands: true once if Ctrl-C arrived. */
bool console_interrupt_pending(void);

/* The guest's counter (arch_cycles) when console_receive last took a Ctrl-C out of the UART,
 * one not preceded by another still noted; 0 before the first. The receive interrupt's handler
 * calls console_receive first thing, so for a Ctrl-C that raised the interrupt this is the
 * moment the kernel took it, give or take the handler's entry (`bench ctrl-c`). */
uint64_t console_interrupt_cycles(void);

/* What the line reader calls while no byte is there (arch_idle until the process layer sets
 * its scheduler's: kernel/proc.c). */
void console_set_idle(void (*idle)(void));

#endif
