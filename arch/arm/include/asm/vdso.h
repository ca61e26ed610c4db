/* The vvar pages below [vdso]: 32-bit ARM maps one (arch/arm/kernel/vdso.c). */
#ifndef RNDBITS_ASM_VDSO_H
#define RNDBITS_ASM_VDSO_H

#define ARCH_VVAR_PAGES 1

#endif
