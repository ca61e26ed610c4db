/* The uname(2) release rndbits reports (kernel/sys_proc.c), also printed in the task line of
 * Linux-style register dumps (dump_stack_print_info's "Not tainted RELEASE #1"). */
#ifndef RNDBITS_UTSNAME_H
#define RNDBITS_UTSNAME_H

#define UTS_RELEASE "6.1.0-rndbits"
#define UTS_VERSION_BUILD "#1" /* the version's first word */

#endif
