/* i386-private interfaces between arch/x86/32/ sources, boot/x86/32/head.S and the linker script. */
#ifndef RNDBITS_ASM_X86_32_H
#define RNDBITS_ASM_X86_32_H

#include <lib/types.h>

struct trap_frame;

/* The 32-bit TSS (Intel SDM vol. 3, 8.2.1). */
struct x86_tss {
	uint16_t link, reserved0;
	uint32_t esp0;
	uint16_t ss0, reserved1;
	uint32_t esp1;
	uint16_t ss1, reserved2;
	uint32_t esp2;
	uint16_t ss2, reserved3;
	uint32_t cr3, eip, eflags;
	uint32_t eax, ecx, edx, ebx, esp, ebp, esi, edi;
	uint16_t es, reserved4, cs, reserved5, ss, reserved6;
	uint16_t ds, reserved7, fs, reserved8, gs, reserved9;
	uint16_t ldt, reserved10;
	uint16_t trap, iomap_base;
} __packed;

/* gdt.c: the TSS in TR (esp0; the CPU saves the interrupted state here on a double fault) and
 * the double-fault task's own. */
extern struct x86_tss x86_tss, x86_doublefault_tss;

/* head.S: the boot (and only) kernel stack and its guard page (the page tables in the image:
 * asm/boot_tables_32.h). */
extern char boot_stack_guard[], boot_stack[], boot_stack_top[];

/* gdt.c: GDT + TSS (esp0 for traps from ring 3) + the double-fault task. */
void x86_gdt_init(void);
void x86_tss_set_esp0(uintptr_t esp0);
void x86_doublefault_set_cr3(uintptr_t cr3);

/* trap.c: GDT, TSS and IDT, before anything else can fault. */
void x86_early_traps_init(void);
/* trap.c, called from entry.S. */
void x86_trap(struct trap_frame *f);
__noreturn void x86_doublefault_task(void);

/* user.c: x87/SSE on, for user tasks only. */
void x86_fpu_init(void);

/* entry.S */
extern const uintptr_t x86_vector_stubs[]; /* entry points for vectors 0..47 and 0x80 */

#endif
