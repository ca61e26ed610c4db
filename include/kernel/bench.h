/* `bench` subcommands that live in files of their own (kernel/bench.c dispatches to them). */
#ifndef RNDBITS_KERNEL_BENCH_H
#define RNDBITS_KERNEL_BENCH_H

/* `bench fork N [-32]` (kernel/bench_fork.c): fork+exit+wait per second of a process with a
 * 1 MiB touched heap, and the frames a fork costs before any write. */
int bench_fork(int argc, char **argv);

/* `bench ctrl-c [N] [-32] [syscall]` (kernel/bench_ctrlc.c): N times spin in the foreground
 * until Ctrl-C; the guest time from the ^C's receive interrupt to spin reaped. */
int bench_ctrlc(int argc, char **argv);

#endif
