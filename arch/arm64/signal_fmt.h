/* Pure formatting for arm64's fatal-trap report (arch/arm64/show_signal.c), host-tested. Each
 * follows Linux 6.1's text (arch/arm64/kernel/traps.c, process.c; arch/arm64/mm/fault.c). */
#ifndef RNDBITS_ARM64_SIGNAL_FMT_H
#define RNDBITS_ARM64_SIGNAL_FMT_H

#include <lib/types.h>

#define ARM64_LINE_MAX 128

/* esr_get_class_string: "DABT (lower EL)", "IABT (lower EL)", ... */
const char *arm64_esr_class(uint64_t esr);

/* fault_info[].name of the ESR's fault status code: "level 2 translation fault", ...; may use
 * buf (size bytes). */
const char *arm64_fault_name(uint64_t esr, char *buf, size_t size);

/* print_pstate without its newline: the AArch64 or, with SPSR.M[4] set, the AArch32 form. */
int arm64_format_pstate(char *buf, size_t size, uint64_t pstate);

/* One line of __show_regs' register list starting at x[i] (x29 x28 x27, ..., x2 x1 x0; a
 * compat task's x12 alone, then three to a line): returns the next i to print, -1 after x0. */
int arm64_format_reg_line(char *buf, size_t size, const uint64_t *x, int i);

#endif
