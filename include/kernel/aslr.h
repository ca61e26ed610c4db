/* The `aslr` command's pieces (kernel/aslr.c dispatches to them). */
#ifndef RNDBITS_ASLR_H
#define RNDBITS_ASLR_H

#include <lib/types.h>

int aslr_sample(int argc, char **argv);
int aslr_attack(int argc, char **argv);
int aslr_tradeoff(int argc, char **argv);
/* `aslr sample N --prog NAME ARGS...`: every object of N execs (kernel/aslr_objects.c). */
int aslr_sample_objects(unsigned n, bool compat, bool csv, int pargc, char **pargv);

struct sysctl_entry;

/* The knobs as the shell's user may use them, by the /proc/sys file's mode (0600 for the
 * mmap_rnd knobs): aslr_may_read_knob is false for a user who may not read it, and
 * aslr_set_knob (a write of value, for a command's own duration) is -EACCES for one who may not
 * write it; both print "aslr: NAME: Permission denied" then. */
bool aslr_may_read_knob(const struct sysctl_entry *e);
int aslr_set_knob(const struct sysctl_entry *e, int value);

/* "aslr: --bits 8 is outside 18..33 on arm64-4k-va48; the 32-bit compat path (-32) allows
 * 11..16": a value for the native (or, with compat, the compat) knob outside its range. */
void aslr_bits_range_error(const char *opt, int value, bool compat);

/* Whether this preset runs 32-bit tasks on a 64-bit kernel. */
bool aslr_has_compat(void);

/* The brk randomization range for a task (BRK_RND_RANGE of the arch). */
uint64_t brk_rnd_range(bool compat);

/* `pt walk --compare`: keep the key addresses of a kept process that is about to be dropped (by
 * the next `run -k`), to compare the next one against (mm/pt_cmd.c). */
struct process;
void pt_compare_remember(const struct process *p);

#endif
