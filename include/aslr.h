/* The `aslr` command's pieces (kernel/aslr.c dispatches to them). */
#ifndef RNDBITS_ASLR_H
#define RNDBITS_ASLR_H

#include <types.h>

int aslr_sample(int argc, char **argv);
int aslr_attack(int argc, char **argv);
int aslr_tradeoff(int argc, char **argv);

struct sysctl_entry;

/* The knobs as the shell's user may use them, by the /proc/sys file's mode (0600 for the
 * mmap_rnd knobs): aslr_may_read_knob is false for a user who may not read it, and
 * aslr_set_knob (a write of value, for a command's own duration) is -EACCES for one who may not
 * write it; both print "aslr: NAME: Permission denied" then. */
bool aslr_may_read_knob(const struct sysctl_entry *e);
int aslr_set_knob(const struct sysctl_entry *e, int value);

/* Whether this preset runs 32-bit tasks on a 64-bit kernel. */
bool aslr_has_compat(void);

/* The brk randomization range for a task (BRK_RND_RANGE of the arch). */
uint64_t brk_rnd_range(bool compat);

#endif
