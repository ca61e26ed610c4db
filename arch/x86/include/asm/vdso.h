/* The vvar pages below [vdso]: x86 maps four (the vvar, pvclock, hvclock and time-namespace
 * pages: vdso-layout.lds.S). */
#ifndef RNDBITS_ASM_VDSO_H
#define RNDBITS_ASM_VDSO_H

#define ARCH_VVAR_PAGES 4

#endif
