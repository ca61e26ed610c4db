/* exec: the program files a process can be started from, and the initial stack. */
#ifndef RNDBITS_EXEC_H
#define RNDBITS_EXEC_H

#include <kernel/fs.h>
#include <lib/types.h>

/* The program file NAME of the native (compat = false) or 32-bit ABI: /bin/NAME or
 * /bin32/NAME (the built-in 32-bit builds on a 64-bit preset), or NULL. */
const struct fs_file *bin_lookup(const char *name, bool compat);

/* The file `run` and execve start from PATH: NAME without a slash is /bin/NAME (/bin32/NAME
 * with compat), anything else an absolute path. 0, or -ENOENT (no such file), -EACCES (a
 * directory: Linux's execve refuses it so), -ENAMETOOLONG. */
int exec_lookup(const char *path, bool compat, const struct fs_file **out);

/* Which ABI an image runs under on this kernel: 0 native, 1 compat (a 32-bit task on a 64-bit
 * kernel), or -ENOEXEC when the preset cannot run its class and machine (or it is no ELF). */
int exec_image_abi(const struct fs_file *prog);

/* The environment a program started from the shell gets (there is no parent process to
 * inherit one from): Linux's for init ("HOME=/", "TERM=linux") and a PATH for /bin. */
extern const char *const exec_default_envp[];

/* The initial stack as Linux 6.1's exec and create_elf_tables build it, from its top down:
 * an empty pointer-sized word, the exec file name (AT_EXECFN), the envp strings, the argv
 * strings, then (after arch_align_stack: lowered by a random amount below 8 KiB on x86, below a
 * page on arm64, then aligned) the AT_PLATFORM string, the 16 AT_RANDOM bytes, and at the
 * 16-byte aligned sp: argc, argv[], NULL, envp[], NULL, auxv. */
struct exec_stack {
	uint64_t top;            /* the stack's top (page aligned) */
	unsigned word;           /* the ABI's word: 4 or 8 */
	unsigned top_gap;        /* the kernel's pointer size, left empty at the very top */
	unsigned align;          /* arch_align_stack's alignment below the strings (1: none) */
	uint64_t lower;          /* arch_align_stack's random lowering below the strings, bytes */
	int argc;
	const char *const *argv;
	int envc;
	const char *const *envp;
	const char *execfn;
	const char *platform;    /* NULL: no AT_PLATFORM string */
	const uint8_t *random;   /* 16 bytes */
	/* auxv key/value pairs in order, ending with AT_NULL. The values of AT_RANDOM, AT_EXECFN
	 * and AT_PLATFORM are filled in with the addresses of their strings. */
	uint64_t *auxv;
};

/* The bytes fs/exec.c puts at the top before create_elf_tables runs: the empty word, the file
 * name, the envp and argv strings. Their pages are the stack VMA's first (setup_arg_pages). */
uint64_t exec_stack_strings_size(const struct exec_stack *s);

/* The size of the stack image (top - sp), for the caller to check and allocate. */
uint64_t exec_stack_size(const struct exec_stack *s);

/* Write the image of [sp, top) into buf (exec_stack_size bytes) and return sp. Pure: no kernel
 * state, so the host tests check it byte for byte. */
uint64_t exec_stack_build(const struct exec_stack *s, uint8_t *buf);

/* Where an exec put each object of a process, read from its mm and VMAs by exec_record_take
 * (kernel/exec_record.c) right after the image is built, before the program runs: what `aslr
 * sample` measures. 0 = the object is absent. */
struct exec_record {
	uint64_t text;        /* the first executable image mapping (the PIE base for ET_DYN) */
	uint64_t data;        /* the first writable image mapping */
	uint64_t brk;         /* start_brk */
	uint64_t stack_top;   /* the end of the stack VMA */
	uint64_t sp;          /* the initial stack pointer */
	uint64_t mmap_base;
	uint64_t first_mmap;  /* where the program's first hint-less one-page mmap goes: the
			       * kernel's own get_unmapped_area asked right after exec */
	uint64_t vdso;        /* the [vdso] VMA */
};
struct mm;
void exec_record_take(struct mm *mm, struct exec_record *r);

#endif
