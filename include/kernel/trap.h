/* Generic trap handling (kernel/trap.c) and where user traps go: system calls here, faults to
 * mm/fault.c (include/mm/fault.h). */
#ifndef RNDBITS_TRAP_H
#define RNDBITS_TRAP_H

#include <arch/trap.h>

/* A syscall from user mode: read the number and arguments through the arch accessors, set the
 * result in the frame, or end the task with arch_user_exit(). (kernel/syscall.c) */
void syscall_dispatch(struct trap_info *ti);

/* The console's receive interrupt, taken in user mode: the bytes go to the console, and a
 * Ctrl-C ends the task `run` started as SIGINT's default action ends it. (kernel/proc.c) */
void user_console_input(void);

#endif
