/* Reading a whole file in host tests (the device trees QEMU dumps at build time). */
#ifndef RNDBITS_HOST_FILES_H
#define RNDBITS_HOST_FILES_H

#include <stddef.h>
#include <stdint.h>

/* The file's bytes in a malloc'd buffer of exactly its size (so ASan flags any read past it);
 * fails the test if it cannot be read. */
uint8_t *host_load_file(const char *path, size_t *size);

#endif
