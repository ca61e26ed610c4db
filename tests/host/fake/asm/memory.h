/* Host stand-in for <asm/memory.h>, for the host tests and tools/boot_tables: "physical"
 * memory is a block the test (test_pmm.c) or the tool (the image's .boot_tables section) owns,
 * and __va/__pa translate between it and its pretend physical addresses.
 * __va checks its argument, so code that computes the linear address of something that is not
 * RAM fails the test instead of scribbling on the host heap. */
#ifndef RNDBITS_HOST_FAKE_ASM_MEMORY_H
#define RNDBITS_HOST_FAKE_ASM_MEMORY_H

#include <lib/types.h>

#define PAGE_SHIFT CONFIG_PAGE_SHIFT
#define PAGE_SIZE (1UL << PAGE_SHIFT)

extern uint8_t *host_ram;        /* host address of physical address host_ram_pa */
extern phys_addr_t host_ram_pa;
extern uint64_t host_ram_size;
void *host_fake_va(phys_addr_t pa);

#define PAGE_OFFSET ((uintptr_t)host_ram)
#define __va(pa) host_fake_va((phys_addr_t)(pa))
#define __pa(va) ((phys_addr_t)((const uint8_t *)(va) - host_ram) + host_ram_pa)

/* Not used by the code under test; defined so that generic headers compile. */
#define TASK_SIZE ((uintptr_t)1 << 39)
#define STACK_TOP TASK_SIZE
#define STACK_RND_MASK 0x3ffffUL

#endif
