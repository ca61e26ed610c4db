/* Pure formatting for x86's fatal-trap report (see signal_fmt.h). */
#include <lib/fmt.h>
#include "signal_fmt.h"

/* "%*ph": bytes as two lower-case hex digits each, separated by single spaces. */
static int hex_bytes(char *buf, size_t size, const uint8_t *bytes, unsigned n)
{
	int len = 0;

	for (unsigned i = 0; i < n; i++)
		len += snprintf(buf + len, size - (size_t)len, i ? " %02x" : "%02x", bytes[i]);
	return len;
}

int x86_format_code_line(char *buf, size_t size, const uint8_t *code, uintptr_t prologue)
{
	if (!code)
		return snprintf(buf, size, "Code: Unable to access opcode bytes at 0x%lx.",
				(unsigned long)prologue);
	int len = snprintf(buf, size, "Code: ");
	len += hex_bytes(buf + len, size - (size_t)len, code, X86_CODE_PROLOGUE);
	len += snprintf(buf + len, size - (size_t)len, " <%02x> ", code[X86_CODE_PROLOGUE]);
	len += hex_bytes(buf + len, size - (size_t)len, code + X86_CODE_PROLOGUE + 1,
			 X86_CODE_EPILOGUE);
	return len;
}
