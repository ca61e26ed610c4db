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
 * and, where CONFIG_COMPAT_ENABLED (a 32-bit task on a 64-bit kernel):
 *   TASK_SIZE_COMPAT, STACK_TOP_COMPAT, STACK_RND_MASK_COMPAT
 * which are defined below on the other presets too, so that code under
 * `if (CONFIG_COMPAT_ENABLED)` compiles everywhere (and the compiler drops it where it is 0).
 */
#ifndef RNDBITS_ARCH_MEMORY_H
#define RNDBITS_ARCH_MEMORY_H

#include <lib/types.h>
#include <asm/memory.h>

#ifndef TASK_SIZE_COMPAT /* no compat tasks: the only 32-bit tasks are the native ones */
#define TASK_SIZE_COMPAT TASK_SIZE
#define STACK_TOP_COMPAT STACK_TOP
#define STACK_RND_MASK_COMPAT STACK_RND_MASK
#endif

#endif
