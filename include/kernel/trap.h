/* Generic trap handling (kernel/trap.c) and where user traps go: system calls here, faults to
 * mm/fault.c (include/mm/fault.h). */
#ifndef RNDBITS_TRAP_H
#define RNDBITS_TRAP_H

#include <arch/trap.h>

/* A syscall from user mode: read the number and arguments through the arch accessors, set the
 * result in the frame, or end the task with process_exit(). (kernel/syscall.c) */
void syscall_dispatch(struct trap_info *ti);

#endif
