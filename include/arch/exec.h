/* Arch interface: what exec tells a new program about the CPU, as Linux's ELF_HWCAP,
 * ELF_HWCAP2, ELF_PLATFORM and ARCH_DLINFO do per ABI (arch/<isa>/cpu.c). */
#ifndef RNDBITS_ARCH_EXEC_H
#define RNDBITS_ARCH_EXEC_H

#include <lib/types.h>

struct arch_exec_info {
	uint64_t hwcap, hwcap2;   /* AT_HWCAP, AT_HWCAP2: only what the kernel lets user mode use */
	const char *platform;     /* AT_PLATFORM string */
	uint64_t minsigstksz;     /* AT_MINSIGSTKSZ, where Linux 6.1 passes it; 0: not passed */
	unsigned stack_align;     /* arch_align_stack's alignment of the stack below the strings
				   * (16 on arm64 and x86, 1 on 32-bit ARM, which has none) */
	bool read_implies_exec;   /* a program without PT_GNU_STACK gets READ_IMPLIES_EXEC (and an
				   * executable stack): elf_read_implies_exec for this ABI */
};

/* The values for a native (compat = false) or compat task. */
void arch_exec_info(bool compat, struct arch_exec_info *out);

#endif
