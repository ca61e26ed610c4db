/* The pure formatters of the fatal-user-fault reports (docs/faults.md): x86's show_opcodes line
 * (arch/x86/signal_fmt.c) and arm64's fault names, ESR classes, pstate decoding and register
 * lines (arch/arm64/signal_fmt.c), against lines written out from Linux 6.1's formats. */
#include "lib_under_test.h"
#include "arch/arm64/signal_fmt.h"
#include "arch/x86/signal_fmt.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static void test_x86_code_line(void **state)
{
	uint8_t code[X86_CODE_BYTES];
	char line[X86_CODE_LINE_MAX];
	char want[X86_CODE_LINE_MAX] = "Code:";

	(void)state;
	for (unsigned i = 0; i < sizeof(code); i++)
		code[i] = (uint8_t)(0xa0 + i);
	/* "%42ph <%02x> %21ph": the byte at ip in angle brackets, single spaces between bytes. */
	for (unsigned i = 0; i < sizeof(code); i++) {
		char b[8];
		sprintf(b, i == X86_CODE_PROLOGUE ? " <%02x>" : " %02x", code[i]);
		strcat(want, b);
	}
	int n = x86_format_code_line(line, sizeof(line), code, 0x401000);
	assert_string_equal(line, want);
	assert_int_equal(n, (int)strlen(want));
	assert_int_equal(n, 6 + 42 * 3 - 1 + 6 + 21 * 3 - 1);
}

static void test_x86_code_unreadable(void **state)
{
	char line[X86_CODE_LINE_MAX];

	(void)state;
	/* ip 0: the prologue wraps, and Linux prints the wrapped address. */
	x86_format_code_line(line, sizeof(line), NULL, (uintptr_t)0 - 42);
	assert_string_equal(line, "Code: Unable to access opcode bytes at 0xffffffffffffffd6.");
}

static void test_arm64_fault_names(void **state)
{
	static const struct { uint64_t esr; const char *name; } cases[] = {
		{ 0x92000006, "level 2 translation fault" },
		{ 0x92000007, "level 3 translation fault" },
		{ 0x9200004f, "level 3 permission fault" },
		{ 0x8200000f, "level 3 permission fault" },
		{ 0x92000004, "level 0 translation fault" },
		{ 0x92000000, "ttbr address size fault" },
		{ 0x92000001, "level 1 address size fault" },
		{ 0x92000008, "unknown 8" },
		{ 0x9200000b, "level 3 access flag fault" },
		{ 0x9200000c, "unknown 12" },
		{ 0x92000010, "synchronous external abort" },
		{ 0x92000012, "unknown 18" },
		{ 0x92000015, "level 1 (translation table walk)" },
		{ 0x9200001f, "level 3 synchronous parity error (translation table walk)" },
		{ 0x96000021, "alignment fault" },
		{ 0x92000030, "TLB conflict abort" },
		{ 0x92000031, "Unsupported atomic hardware update fault" },
		{ 0x9200003f, "unknown 63" },
	};
	char buf[ARM64_LINE_MAX];

	(void)state;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(arm64_fault_name(cases[i].esr, buf, sizeof(buf)), cases[i].name);
	assert_string_equal(arm64_esr_class(0x92000006), "DABT (lower EL)");
	assert_string_equal(arm64_esr_class(0x8200000f), "IABT (lower EL)");
	assert_string_equal(arm64_esr_class(0x8a000000), "PC Alignment");
	assert_string_equal(arm64_esr_class(0xf2000000), "BRK (AArch64)");
	assert_string_equal(arm64_esr_class(0x04000000), "UNRECOGNIZED EC");
}

static void test_arm64_pstate(void **state)
{
	char buf[ARM64_LINE_MAX];

	(void)state;
	arm64_format_pstate(buf, sizeof(buf), 0x80001000);
	assert_string_equal(buf, "pstate: 80001000 (Nzcv daif -PAN -UAO -TCO -DIT +SSBS BTYPE=--)");
	arm64_format_pstate(buf, sizeof(buf), 0x20000b40);
	assert_string_equal(buf, "pstate: 20000b40 (nzCv DAiF -PAN -UAO -TCO -DIT -SSBS BTYPE=-c)");
	arm64_format_pstate(buf, sizeof(buf), 0x63400000);
	assert_string_equal(buf, "pstate: 63400000 (nZCv daif +PAN -UAO +TCO +DIT -SSBS BTYPE=--)");
	/* AArch32 user mode (M = 0x10), Thumb, Q set. */
	arm64_format_pstate(buf, sizeof(buf), 0x68000030);
	assert_string_equal(buf, "pstate: 68000030 (nZCv Q T32 LE aif -DIT -SSBS)");
	arm64_format_pstate(buf, sizeof(buf), 0x60000150);
	assert_string_equal(buf, "pstate: 60000150 (nZCv q A32 LE AiF -DIT -SSBS)");
}

static void test_arm64_reg_lines(void **state)
{
	uint64_t x[31];
	char buf[ARM64_LINE_MAX];
	int i;

	(void)state;
	for (unsigned r = 0; r < 31; r++)
		x[r] = 0x1000 + r;
	i = arm64_format_reg_line(buf, sizeof(buf), x, 29);
	assert_string_equal(buf, "x29: 000000000000101d x28: 000000000000101c x27: 000000000000101b");
	assert_int_equal(i, 26);
	i = arm64_format_reg_line(buf, sizeof(buf), x, 11);
	assert_string_equal(buf, "x11: 000000000000100b x10: 000000000000100a x9 : 0000000000001009");
	i = arm64_format_reg_line(buf, sizeof(buf), x, 2);
	assert_string_equal(buf, "x2 : 0000000000001002 x1 : 0000000000001001 x0 : 0000000000001000");
	assert_int_equal(i, -1);
	/* A compat task starts at x12, alone on its line. */
	i = arm64_format_reg_line(buf, sizeof(buf), x, 12);
	assert_string_equal(buf, "x12: 000000000000100c");
	assert_int_equal(i, 11);
	/* 29 down to 0 is ten lines. */
	int lines = 0;
	for (i = 29; i >= 0; lines++)
		i = arm64_format_reg_line(buf, sizeof(buf), x, i);
	assert_int_equal(lines, 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_code_line),
		cmocka_unit_test(test_x86_code_unreadable),
		cmocka_unit_test(test_arm64_fault_names),
		cmocka_unit_test(test_arm64_pstate),
		cmocka_unit_test(test_arm64_reg_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
