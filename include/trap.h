/* Generic trap handling (kernel/trap.c) and the two places user traps go. */
#ifndef RNDBITS_TRAP_H
#define RNDBITS_TRAP_H

#include <arch/trap.h>

const char *trap_access_name(enum trap_access a);

/* A syscall from user mode: read the number and arguments through the arch accessors, set the
 * result in the frame, or end the task with arch_user_exit(). (kernel/syscall.c) */
void syscall_dispatch(struct trap_info *ti);

/* A fault from user mode: demand paging resolves it and returns, or the task ends with the
 * segfault line. (kernel/proc.c) */
void user_fault(struct trap_info *ti);

/* The console's receive interrupt, taken in user mode: the bytes go to the console, and a
 * Ctrl-C ends the task `run` started as SIGINT's default action ends it. (kernel/proc.c) */
void user_console_input(void);

#endif
