/* sysctl: a table of named kernel integers (entries register beside the code they control, in
 * the sysctl_table linker section), read and written with Linux's proc_dointvec_minmax rules, as
 * `sysctl`, /proc/sys files and the kernel command line see them. */
#ifndef RNDBITS_SYSCTL_H
#define RNDBITS_SYSCTL_H

#include <lib/types.h>

struct sysctl_entry;

/* A handler turns text into the value (write) and the value into text (read), as the
 * /proc/sys file does. Writes return the bytes consumed or -errno; reads the length. */
typedef long (*sysctl_handler)(const struct sysctl_entry *e, bool write, char *buf, size_t len);

struct sysctl_entry {
	const char *name;   /* dotted, as `sysctl` prints it: "vm.mmap_rnd_bits" */
	int *data;
	unsigned mode;      /* 0600, 0644: owner root, group root */
	int min, max;
	int default_value;  /* what the build configured, for `aslr info` */
	sysctl_handler handler;
};

/* Register an int in [lo, hi] whose build-time value is def. */
#define SYSCTL_INT_MINMAX(ident, entry_name, ptr, entry_mode, lo, hi, def)                  \
	static const struct sysctl_entry sysctl_##ident                                      \
		__section("sysctl_table") __used __aligned(sizeof(void *)) = {               \
			.name = entry_name, .data = ptr, .mode = entry_mode, .min = lo,         \
			.max = hi, .default_value = def, .handler = proc_dointvec_minmax }

/* Linux's proc_dointvec_minmax for one int. Write: leading whitespace skipped, then an optional
 * '-', then a number in C notation (0x hex, 0 octal) of at most 20 characters, which must be
 * followed by space, tab, newline or the end; a second number is ignored; nothing but
 * whitespace, out of [min, max] or out of int range is -EINVAL and leaves the value unchanged.
 * Only the first 4095 bytes are looked at. Read: "%d\n". */
long proc_dointvec_minmax(const struct sysctl_entry *e, bool write, char *buf, size_t len);

/* The same write rule as a pure function: returns bytes consumed (>= 0) and stores the value,
 * or -EINVAL. */
long dointvec_minmax_parse(const char *buf, size_t len, int min, int max, int *value);

/* Find an entry by "vm.mmap_rnd_bits" or "vm/mmap_rnd_bits"; NULL if none. */
const struct sysctl_entry *sysctl_find(const char *name);
/* Entries in name order: first with prev = NULL, NULL after the last. */
const struct sysctl_entry *sysctl_next(const struct sysctl_entry *prev);

/* Access as user uid (root = 0) with Linux's mode test. -EACCES when the mode forbids it.
 * Read fills buf with the file's text ("18\n"); write passes buf to the handler. */
long sysctl_read(const struct sysctl_entry *e, unsigned uid, char *buf, size_t size);
long sysctl_write(const struct sysctl_entry *e, unsigned uid, const char *buf, size_t len);

/* Apply every sysctl.NAME=VALUE on the kernel command line (Linux 5.8+), logging failures. */
void sysctl_apply_cmdline(const char *cmdline);

#endif
