/* Pure formatting for arm64's fatal-trap report (see signal_fmt.h). */
#include <lib/fmt.h>
#include "signal_fmt.h"

#define ESR_EC(esr) (((esr) >> 26) & 0x3f)

const char *arm64_esr_class(uint64_t esr)
{
	switch (ESR_EC(esr)) {
	case 0x00: return "Unknown/Uncategorized";
	case 0x0e: return "PSTATE.IL";
	case 0x20: return "IABT (lower EL)";
	case 0x21: return "IABT (current EL)";
	case 0x22: return "PC Alignment";
	case 0x24: return "DABT (lower EL)";
	case 0x25: return "DABT (current EL)";
	case 0x26: return "SP Alignment";
	case 0x30: return "Breakpoint (lower EL)";
	case 0x32: return "Software Step (lower EL)";
	case 0x34: return "Watchpoint (lower EL)";
	case 0x38: return "BKPT (AArch32)";
	case 0x3c: return "BRK (AArch64)";
	default: return "UNRECOGNIZED EC";
	}
}

/* Status codes 0x00-0x0f are four kinds by level (the low two bits); Linux names the levels a
 * kind cannot have "unknown N" and level 0 of an address size fault "ttbr". */
const char *arm64_fault_name(uint64_t esr, char *buf, size_t size)
{
	static const char *const kinds[] = { "address size", "translation", "access flag",
					      "permission" };
	unsigned fsc = esr & 0x3f;
	unsigned kind = fsc >> 2, level = fsc & 3;

	if (fsc == 0x00)
		return "ttbr address size fault";
	if (kind < 4 && level == 0 && kind >= 2) {
		snprintf(buf, size, "unknown %u", fsc);
		return buf;
	}
	if (kind < 4) {
		snprintf(buf, size, "level %u %s fault", level, kinds[kind]);
		return buf;
	}
	switch (fsc) {
	case 0x10: return "synchronous external abort";
	case 0x11: return "synchronous tag check fault";
	case 0x18: return "synchronous parity or ECC error";
	case 0x21: return "alignment fault";
	case 0x30: return "TLB conflict abort";
	case 0x31: return "Unsupported atomic hardware update fault";
	}
	if (fsc >= 0x14 && fsc <= 0x17) {
		snprintf(buf, size, "level %u (translation table walk)", fsc - 0x14);
		return buf;
	}
	if (fsc >= 0x1c && fsc <= 0x1f) {
		snprintf(buf, size, "level %u synchronous parity error (translation table walk)",
			 fsc - 0x1c);
		return buf;
	}
	snprintf(buf, size, "unknown %u", fsc);
	return buf;
}

#define BIT(n) (1ull << (n))
#define FLAG(pstate, bit, on, off) (((pstate) & BIT(bit)) ? (on) : (off))

int arm64_format_pstate(char *buf, size_t size, uint64_t p)
{
	static const char *const btypes[] = { "--", "j-", "-c", "jc" };

	if (p & BIT(4)) /* AArch32: N Z C V Q, T (bit 5), E (9), A I F, DIT (21), SSBS (23) */
		return snprintf(buf, size, "pstate: %08llx (%c%c%c%c %c %s %s %c%c%c %cDIT %cSSBS)",
				(unsigned long long)p, FLAG(p, 31, 'N', 'n'),
				FLAG(p, 30, 'Z', 'z'), FLAG(p, 29, 'C', 'c'), FLAG(p, 28, 'V', 'v'),
				FLAG(p, 27, 'Q', 'q'), FLAG(p, 5, "T32", "A32"),
				FLAG(p, 9, "BE", "LE"), FLAG(p, 8, 'A', 'a'), FLAG(p, 7, 'I', 'i'),
				FLAG(p, 6, 'F', 'f'), FLAG(p, 21, '+', '-'), FLAG(p, 23, '+', '-'));
	/* AArch64: N Z C V, D A I F, PAN (22), UAO (23), TCO (25), DIT (24), SSBS (12), BTYPE */
	return snprintf(buf, size,
			"pstate: %08llx (%c%c%c%c %c%c%c%c %cPAN %cUAO %cTCO %cDIT %cSSBS BTYPE=%s)",
			(unsigned long long)p, FLAG(p, 31, 'N', 'n'), FLAG(p, 30, 'Z', 'z'),
			FLAG(p, 29, 'C', 'c'), FLAG(p, 28, 'V', 'v'), FLAG(p, 9, 'D', 'd'),
			FLAG(p, 8, 'A', 'a'), FLAG(p, 7, 'I', 'i'), FLAG(p, 6, 'F', 'f'),
			FLAG(p, 22, '+', '-'), FLAG(p, 23, '+', '-'), FLAG(p, 25, '+', '-'),
			FLAG(p, 24, '+', '-'), FLAG(p, 12, '+', '-'), btypes[(p >> 10) & 3]);
}

/* Lines end after a register whose number is a multiple of three, as __show_regs' loop does. */
int arm64_format_reg_line(char *buf, size_t size, const uint64_t *x, int i)
{
	int len = snprintf(buf, size, "x%-2d: %016llx", i, (unsigned long long)x[i]);

	while (i-- % 3)
		len += snprintf(buf + len, size - (size_t)len, " x%-2d: %016llx", i,
				(unsigned long long)x[i]);
	return i;
}
