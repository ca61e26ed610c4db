/* The vvar pages below [vdso]: arm64 maps VVAR_NR_PAGES = 2 (the data page and the
 * time-namespace page) for native and AArch32 tasks. */
#ifndef RNDBITS_ASM_VDSO_H
#define RNDBITS_ASM_VDSO_H

#define ARCH_VVAR_PAGES 2

#endif
