/* Symbols every arch linker script (linker/<isa>.ld) defines around the kernel image. The
 * boundaries of text, rodata and data are page aligned so each can get its own permissions. */
#ifndef RNDBITS_SECTIONS_H
#define RNDBITS_SECTIONS_H

extern char __kernel_start[], __kernel_end[];
extern char __text_start[], __text_end[];
extern char __rodata_start[], __rodata_end[];
extern char __data_start[], __data_end[];
extern char __bss_start[], __bss_end[];

/* Linker-section tables (linker/tables.ld, kept inside rodata): shell commands, sysctl entries,
 * extra directories, embedded user programs. Each is an array of one struct type. */
extern const char __start_shell_cmds[], __stop_shell_cmds[];
/* __start_/__stop_ of sysctl_table, fs_dirs and user_programs are declared with their element
 * types by the one file that walks each table (kernel/sysctl.c, kernel/procfs.c, kernel/exec.c). */

#endif
