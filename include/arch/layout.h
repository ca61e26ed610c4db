/* Arch interface: the numbers of a user address space that Linux's arch code supplies, which the
 * generic layout policy (mm/layout.c) and exec (kernel/exec.c) use. Generic code includes this
 * header, never <asm/layout.h> directly: this is the list of what every arch must define there
 * (a missing one fails the build here, not in some distant caller).
 *
 *   ELF_MACHINE                       e_machine of a native executable (EM_AARCH64, EM_ARM, ...)
 *   ELF_MACHINE_COMPAT                e_machine of a 32-bit compat executable; 0 without compat
 *   TASK_UNMAPPED_BASE_FOR(task_size) where bottom-up (legacy) mmap starts
 *   ELF_ET_DYN_BASE_FOR(compat)       where a PIE executable is loaded before randomization
 *   BRK_RND_RANGE(compat)             how far arch_randomize_brk may move the heap's start
 *   MMAP_LEGACY_IF_UNLIMITED_STACK    1 where an unlimited stack rlimit selects the bottom-up
 *                                     layout (mmap_is_legacy), 0 where only the sysctl does
 *
 * and <asm/memory.h> (through it) TASK_SIZE, PAGE_SIZE and friends. The vm.mmap_rnd_bits ranges
 * come from arch/<isa>/limits.cmake into config.h: CONFIG_ARCH_MMAP_RND_BITS_MIN/_MAX and, always
 * defined (0 without compat), CONFIG_ARCH_MMAP_RND_COMPAT_BITS_MIN/_MAX; CONFIG_COMPAT_ENABLED
 * is 1 where 32-bit tasks run beside native ones. */
#ifndef RNDBITS_ARCH_LAYOUT_H
#define RNDBITS_ARCH_LAYOUT_H

#include <asm/layout.h>

#ifndef ELF_MACHINE_COMPAT
#define ELF_MACHINE_COMPAT 0 /* no compat tasks: no executable is one */
#endif

#if !defined(ELF_MACHINE) || !defined(TASK_UNMAPPED_BASE_FOR) || !defined(ELF_ET_DYN_BASE_FOR) || \
	!defined(BRK_RND_RANGE) || !defined(MMAP_LEGACY_IF_UNLIMITED_STACK)
#error "<asm/layout.h> must define everything include/arch/layout.h lists"
#endif

#endif
