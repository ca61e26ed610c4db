/* Symbols every arch linker script (linker/<isa>.ld) defines around the kernel image. The
 * boundaries of text, rodata and data are page aligned so each can get its own permissions. */
#ifndef RNDBITS_SECTIONS_H
#define RNDBITS_SECTIONS_H

extern char __kernel_start[], __kernel_end[];
extern char __text_start[], __text_end[];
extern char __rodata_start[], __rodata_end[];
extern char __data_start[], __data_end[];
extern char __bss_start[], __bss_end[];

/* Linker-section tables: shell commands (and later sysctl entries, user program images). */
extern const char __start_shell_cmds[], __stop_shell_cmds[];

#endif
