/* exec: the program files a process can be started from. */
#ifndef RNDBITS_EXEC_H
#define RNDBITS_EXEC_H

#include <fs.h>
#include <types.h>

/* The program file NAME of the native (compat = false) or 32-bit ABI: /bin/NAME or
 * /bin32/NAME (the built-in 32-bit builds on a 64-bit preset), or NULL. */
const struct fs_file *bin_lookup(const char *name, bool compat);

#endif
