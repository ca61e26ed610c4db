/* The fuzz harnesses' <asm/memory.h> (found before any arch's): the physical address space is a
 * window of host memory the multiboot harness fills from its input, so code that reaches boot
 * data through __va() reads the fuzzer's bytes. */
#ifndef RNDBITS_FUZZ_ASM_MEMORY_H
#define RNDBITS_FUZZ_ASM_MEMORY_H

#include <lib/types.h>

#define PAGE_SHIFT 12
#define PAGE_SIZE (1ul << PAGE_SHIFT)

void *fuzz_phys_to_virt(phys_addr_t pa);
#define __va(pa) fuzz_phys_to_virt((phys_addr_t)(pa))

#endif
