/* The `aslr` command's pieces (kernel/aslr.c dispatches to them). */
#ifndef RNDBITS_ASLR_H
#define RNDBITS_ASLR_H

#include <types.h>

int aslr_sample(int argc, char **argv);
int aslr_attack(int argc, char **argv);
int aslr_tradeoff(int argc, char **argv);

/* Whether this preset runs 32-bit tasks on a 64-bit kernel. */
bool aslr_has_compat(void);

/* The brk randomization range for a task (BRK_RND_RANGE of the arch). */
uint64_t brk_rnd_range(bool compat);

#endif
