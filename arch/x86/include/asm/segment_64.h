/* x86_64 GDT layout (arch/x86/64/trap.c). The user selectors follow SYSRET's rule: STAR[63:48]
 * = USER32_CS - 3, and the CPU derives USER_DS (+8) and USER_CS (+16) from it. */
#ifndef RNDBITS_ASM_X86_SEGMENT_64_H
#define RNDBITS_ASM_X86_SEGMENT_64_H

#define GDT_ENTRY_KERNEL_CS 1
#define GDT_ENTRY_KERNEL_DS 2
#define GDT_ENTRY_USER32_CS 3 /* ia32 compatibility mode: L = 0, D = 1, DPL 3 */
#define GDT_ENTRY_USER_DS 4
#define GDT_ENTRY_USER_CS 5   /* 64-bit: L = 1, DPL 3 */
#define GDT_ENTRY_TSS 6       /* a 16-byte system descriptor: slots 6 and 7 */
#define GDT_ENTRY_TLS_MIN 8   /* set_thread_area's three slots for ia32 tasks (8..10) */
#define GDT_ENTRY_TLS_ENTRIES 3
#define GDT_ENTRIES 11

#define KERNEL_CS (GDT_ENTRY_KERNEL_CS * 8)
#define KERNEL_DS (GDT_ENTRY_KERNEL_DS * 8)
#define USER32_CS (GDT_ENTRY_USER32_CS * 8 + 3)
#define USER_DS (GDT_ENTRY_USER_DS * 8 + 3)
#define USER_CS (GDT_ENTRY_USER_CS * 8 + 3)
#define TSS_SEL (GDT_ENTRY_TSS * 8)

/* IST slots of the TSS (1-based, as the IDT gate encodes them). */
#define IST_DOUBLE_FAULT 1

/* Pseudo-vector of the SYSCALL instruction in struct trap_frame (real vectors end at 255). */
#define X86_64_VECTOR_SYSCALL 256
#define X86_64_VECTOR_INT80 0x80

#endif
