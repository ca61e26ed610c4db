/* The console's terminal ioctls (<drivers/tty.h>), with Linux's numbers and structure layouts
 * (the generic ones of <asm-generic/ioctls.h> and <asm-generic/termbits.h>, which every ISA
 * rndbits runs uses). */
#include <drivers/tty.h>
#include <kernel/fs.h>
#include <lib/errno.h>
#include <lib/string.h>
#include <mm/mm.h>

#define TCGETS 0x5401
#define TCSETS 0x5402
#define TCSETSW 0x5403
#define TCSETSF 0x5404
#define TIOCGWINSZ 0x5413

#define TERMIOS_SIZE 36 /* struct termios: four flag words, c_line, 19 control characters */
#define WINSIZE_SIZE 8  /* struct winsize: rows, columns, two pixel sizes */

/* The console as a serial terminal in cooked mode (what a Linux getty leaves): 38400 8N1,
 * ICRNL IXON, OPOST ONLCR, ISIG ICANON ECHO ECHOE ECHOK ECHOCTL ECHOKE IEXTEN, the usual control
 * characters. What matters to a C library is that TCGETS succeeds: stdout is a terminal, so
 * it is line buffered. */
static void console_termios(uint8_t *t)
{
	static const uint8_t cc[19] = { 3, 0x1c, 0x7f, 0x15, 4, 0, 1, 0, 0x11, 0x13, 0x1a, 0,
					0x12, 0x0f, 0x17, 0x16, 0 };

	put_u32(t, 0, 0x500);  /* c_iflag: ICRNL | IXON */
	put_u32(t, 4, 0x5);    /* c_oflag: OPOST | ONLCR */
	put_u32(t, 8, 0x4bf);  /* c_cflag: B38400 | CS8 | CREAD | HUPCL */
	put_u32(t, 12, 0x8a3b); /* c_lflag */
	t[16] = 0;              /* c_line */
	memcpy(t + 17, cc, sizeof(cc));
}

long tty_ioctl(struct mm *mm, unsigned int cmd, uint64_t arg)
{
	uint8_t buf[TERMIOS_SIZE];

	switch (cmd) {
	case TCGETS:
		console_termios(buf);
		return copy_to_user(mm, arg, buf, TERMIOS_SIZE) ? -EFAULT : 0;
	case TCSETS:
	case TCSETSW:
	case TCSETSF: /* accepted: the console's line discipline is the shell's own */
		return copy_from_user(mm, buf, arg, TERMIOS_SIZE) ? -EFAULT : 0;
	case TIOCGWINSZ:
		memset(buf, 0, WINSIZE_SIZE);
		put_u16(buf, 0, 24); /* ws_row */
		put_u16(buf, 2, 80); /* ws_col */
		return copy_to_user(mm, arg, buf, WINSIZE_SIZE) ? -EFAULT : 0;
	default:
		return -ENOTTY;
	}
}
