/* GDT selectors. i386's layout is here (arch/x86/32/gdt.c); x86_64's lives in segment_64.h. */
#ifndef RNDBITS_ASM_X86_SEGMENT_H
#define RNDBITS_ASM_X86_SEGMENT_H

#ifdef CONFIG_64BIT
#include <asm/segment_64.h>
#else

#define GDT_ENTRY_KERNEL_CS 1
#define GDT_ENTRY_KERNEL_DS 2
#define GDT_ENTRY_USER_CS 3
#define GDT_ENTRY_USER_DS 4
#define GDT_ENTRY_TSS 5
#define GDT_ENTRY_DOUBLEFAULT_TSS 6
#define GDT_ENTRY_TLS_MIN 7 /* set_thread_area's three slots (7..9) */
#define GDT_ENTRY_TLS_ENTRIES 3
#define GDT_ENTRIES 10

#define KERNEL_CS (GDT_ENTRY_KERNEL_CS * 8)
#define KERNEL_DS (GDT_ENTRY_KERNEL_DS * 8)
#define USER_CS (GDT_ENTRY_USER_CS * 8 + 3)
#define USER_DS (GDT_ENTRY_USER_DS * 8 + 3)
#define TSS_SEL (GDT_ENTRY_TSS * 8)
#define DOUBLEFAULT_TSS_SEL (GDT_ENTRY_DOUBLEFAULT_TSS * 8)

#endif /* CONFIG_64BIT */

#ifndef __ASSEMBLER__
#include <lib/types.h>
/* The GDT slot of set_thread_area's entry idx (GDT_ENTRY_TLS_MIN <= idx < + ENTRIES): the
 * thread-pointer descriptor a 32-bit task loads into %gs (arch/x86/tls.c). */
uint64_t *x86_gdt_tls_slot(unsigned idx);
#endif
#endif
