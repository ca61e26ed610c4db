/* Arch interface: the running preset's address-space constants. Each arch provides them as
 * macros in its <asm/memory.h> (arch/<isa>/include/asm/memory.h); generic code includes this
 * header, never <asm/...> directly.
 *
 *   PAGE_SHIFT, PAGE_SIZE        from CONFIG_PAGE_SHIFT
 *   PAGE_OFFSET                  virtual base of the kernel's linear map of RAM
 *   __va(pa)                     linear-map virtual address of a physical address (void *)
 *   __pa(va)                     physical address of a linear-map or kernel-image address
 *   TASK_SIZE                    end of the native user address space (user half is below it)
 *   STACK_TOP                    top of the native user stack area
 *   STACK_RND_MASK               stack randomization range, in pages
 * and, with CONFIG_COMPAT (a 32-bit task on a 64-bit kernel):
 *   TASK_SIZE_COMPAT, STACK_TOP_COMPAT, STACK_RND_MASK_COMPAT
 */
#ifndef RNDBITS_ARCH_MEMORY_H
#define RNDBITS_ARCH_MEMORY_H

#include <lib/types.h>
#include <asm/memory.h>

#endif
