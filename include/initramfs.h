/* The initramfs: cpio "newc" archives unpacked into the read-only file namespace at boot, the
 * one built into the image (the built-in programs) and the one a boot loader passed. */
#ifndef RNDBITS_INITRAMFS_H
#define RNDBITS_INITRAMFS_H

#include <types.h>

/* Add the files of the archive at data (size bytes, in kernel memory, kept) to the namespace.
 * `what` names it for the boot line ("built-in", "initrd"). 0, or -errno after printing one
 * line that says why the archive was refused (the kernel goes on without it). */
int initramfs_unpack(const void *data, size_t size, const char *what);

#endif
