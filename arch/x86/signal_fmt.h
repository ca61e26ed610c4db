/* Pure formatting for x86's fatal-trap report (arch/x86/show_signal.c), host-tested. */
#ifndef RNDBITS_X86_SIGNAL_FMT_H
#define RNDBITS_X86_SIGNAL_FMT_H

#include <lib/types.h>

/* show_opcodes (Linux 6.1, arch/x86/kernel/dumpstack.c): 42 bytes before ip, the byte at ip,
 * 21 after. */
#define X86_CODE_PROLOGUE 42
#define X86_CODE_EPILOGUE 21
#define X86_CODE_BYTES (X86_CODE_PROLOGUE + 1 + X86_CODE_EPILOGUE)
#define X86_CODE_LINE_MAX 256

/* "Code: 42 bytes <ip byte> 21 bytes" ("%42ph <%02x> %21ph"), or, with code NULL,
 * "Code: Unable to access opcode bytes at 0x<prologue>." Returns the length. */
int x86_format_code_line(char *buf, size_t size, const uint8_t *code, uintptr_t prologue);

#endif
