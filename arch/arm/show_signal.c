/* What Linux 6.1 prints on 32-bit ARM when a trap kills a user task: with Debian's armhf
 * kernel (CONFIG_DEBUG_USER not set) nothing at all, so rndbits' own line is the only one.
 * (A kernel built with CONFIG_DEBUG_USER prints __do_user_fault's report when booted with
 * user_debug=; rndbits does not offer that build: see docs/faults.md.) */
#include <fault.h>

void arch_show_unhandled_signal(const struct user_signal *us)
{
	(void)us;
}
