/* Embedded user programs (built from user/ per preset, linked into the kernel image) and exec. */
#ifndef RNDBITS_EXEC_H
#define RNDBITS_EXEC_H

#include <types.h>

/* One embedded ELF image. The build (user/CMakeLists.txt) emits one of these per program and
 * ABI into the user_programs linker section (linker/tables.ld), pointing at the image bytes. */
struct user_program {
	const char *name;          /* "probe" */
	const uint8_t *image;      /* the ELF file */
	const uint8_t *image_end;
	uintptr_t compat;          /* non-zero: a 32-bit image for the compat path (arm64, x86_64) */
};

/* Find a program by name for the native (compat = false) or the 32-bit ABI. */
const struct user_program *user_program_find(const char *name, bool compat);

#endif
