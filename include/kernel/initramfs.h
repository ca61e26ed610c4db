/* The initramfs: cpio "newc" archives unpacked into the read-only file namespace at boot, the
 * one built into the image (the built-in programs) and the one a boot loader passed.
 *
 * The namespace they make is a tree of directories and regular files (struct fs_file, with
 * S_IFDIR or S_IFREG in mode), read-only once booted. A later archive's file replaces an
 * earlier one's at the same path, as Linux's initramfs overwrites. */
#ifndef RNDBITS_INITRAMFS_H
#define RNDBITS_INITRAMFS_H

#include <kernel/fs.h>
#include <lib/types.h>

/* Add the files of the archive at data (size bytes, in kernel memory, kept) to the namespace.
 * `what` names it for the boot line ("built-in", "initrd"). The whole archive is checked before
 * anything is added: 0 after one line "initramfs: WHAT: N files, B bytes", or -errno after one
 * line "initramfs: WHAT: refused: REASON" (the kernel goes on without it).
 *
 * Names: "bin/x", "./bin/x" and "/bin/x" are all /bin/x; a file named with no directory
 * ("hello") goes to /bin (/bin/hello); "." and "./" name the root and are passed over; a name
 * with a ".." component refuses the archive. Directories a path implies exist. A symbolic link
 * to a regular file of the tree becomes a second name for that file's bytes (there are no links
 * in the tree); other links and other entries (devices, fifos) are passed over and counted.
 * A file's data is used in place when it is page aligned, else copied into page frames: exec
 * maps file pages straight into user space. */
int initramfs_unpack(const void *data, size_t size, const char *what);

/* The archive built into the image (the built-in programs, /bin and /bin32): one boot line
 * ("initramfs: built-in: B bytes, unpacked when first used"), and its files join the tree at
 * the first lookup, listing or initramfs_unpack, before any boot loader's archive. Call once,
 * after the page allocator. */
void initramfs_unpack_builtin(void);

/* The file or directory at an absolute, clean path ("/bin", "/bin/hello"; not "/"), or NULL. */
const struct fs_file *ramfs_lookup(const char *path);

/* Directory listing in name order: the entry of directory dir ("/" for the root) whose name
 * comes first after `after` ("" for the first), or NULL after the last. */
const struct fs_file *ramfs_next_child(const char *dir, const char *after);

#endif
