/* Assertions shared by the FDT host tests (test_fdt.c on built blobs, test_fdt_qemu.c on QEMU's). */
#ifndef RNDBITS_HOST_FDT_ASSERT_H
#define RNDBITS_HOST_FDT_ASSERT_H

#include <lib/fdt.h>

/* The scan handed out the item the full walk found: same kind, depth and name (the same
 * pointer into the blob), and the same node offset, or the same value and length. */
void assert_same_fdt_item(const struct fdt_item *got, const struct fdt_item *want);

#endif
