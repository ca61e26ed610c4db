/* attack CASE [ARG]: one attack on the kernel's isolation per run, so that a transcript can
 * check exactly how each one ends (tests/serial/attack*.txt, docs/security.md). The cases:
 *
 *   read ADDR, write ADDR, jump ADDR   touch / call a kernel address        -> killed
 *   write-text                         write its own text                   -> killed
 *   exec-stack|exec-heap|exec-mmap|exec-data  call a RET placed in data     -> killed (NX)
 *   map-stack                          MAP_FIXED over its whole used stack  -> allowed, then dies
 *   sys-write ADDR, sys-mmap ADDR, sys-munmap ADDR, sys-brk ADDR, sys-file ADDR
 *                                      kernel pointers and bad ranges passed to system calls:
 *                                      each call's result is printed as Linux would give it
 *   sysctl-read, sysctl-write VALUE, sysctl-nobody   /proc/sys/vm/mmap_rnd_bits by syscalls
 *   fds                                open until EMFILE, then close everything
 *   fds-leave VALUE                    open mmap_rnd_bits for writing (fd 3, written with VALUE)
 *                                      and reading (fd 4), and exit with both open
 *   fds-inherited                      write, read and close fds 3 and 4 it never opened
 *   oom                                mmap and touch until the frames run out  -> killed
 *   brk-oom                            grow the heap with brk and touch it      -> killed
 *   vmas                               one-page mmaps until the VMA limit (ENOMEM), unmap all
 *
 * ADDR is BASE[+OFF]: BASE hex (0x optional) or top-N, 2^W - 2^N in the ABI's word width W; OFF
 * hex (arm64's PAGE_OFFSET is top-VA_BITS, its kernel text top-VA_BITS+0x400000; arm's is
 * PAGE_OFFSET+0x200000). */
#include "attack.h"

/* How a case takes its argument. */
enum attack_arg { NO_ARG, ADDR_ARG, VALUE_ARG };

static const struct {
	const char *name;
	enum attack_arg arg;
	int (*run)(const struct attack *a);
} cases[] = {
	{ "read", ADDR_ARG, attack_access },
	{ "write", ADDR_ARG, attack_access },
	{ "jump", ADDR_ARG, attack_access },
	{ "write-text", NO_ARG, attack_write_text },
	{ "exec-stack", NO_ARG, attack_exec },
	{ "exec-heap", NO_ARG, attack_exec },
	{ "exec-mmap", NO_ARG, attack_exec },
	{ "exec-data", NO_ARG, attack_exec },
	{ "map-stack", NO_ARG, attack_map_stack },
	{ "sys-write", ADDR_ARG, sys_write_case },
	{ "sys-mmap", ADDR_ARG, sys_mmap_case },
	{ "sys-munmap", ADDR_ARG, sys_munmap_case },
	{ "sys-brk", ADDR_ARG, sys_brk_case },
	{ "sys-file", ADDR_ARG, sys_file_case },
	{ "sysctl-read", NO_ARG, sysctl_read_case },
	{ "sysctl-write", VALUE_ARG, sysctl_write_case },
	{ "sysctl-nobody", NO_ARG, sysctl_nobody_case },
	{ "fds", NO_ARG, fds_case },
	{ "fds-leave", VALUE_ARG, fds_leave_case },
	{ "fds-inherited", NO_ARG, fds_inherited_case },
	{ "oom", NO_ARG, oom_case },
	{ "brk-oom", NO_ARG, brk_oom_case },
	{ "vmas", NO_ARG, vmas_case },
};

volatile bool exec_in_progress;

__noreturn void usage(void)
{
	printf("usage: attack read|write|jump ADDR | write-text | exec-stack|exec-heap|exec-mmap|"
	       "exec-data | map-stack | sys-write|sys-mmap|sys-munmap|sys-brk|sys-file ADDR | "
	       "sysctl-read | sysctl-write VALUE | sysctl-nobody | fds | fds-leave VALUE | fds-inherited | "
	       "oom | brk-oom | vmas\n");
	exit(2);
}

const char *err_name(long e)
{
	const char *name = errno_name((int)e);

	return name ? name : "E?";
}

bool is_err(long r)
{
	return (unsigned long)r >= -4095UL;
}

void show(const char *call, long r)
{
	if (is_err(r))
		printf("attack: %s = -%s\n", call, err_name(-r));
	else
		printf("attack: %s = %ld\n", call, r);
}

/* ADDR: BASE[+OFF], BASE hex (0x optional) or top-N (2^W - 2^N in the word width W), OFF hex. */
static uintptr_t parse_addr(const char *s)
{
	char base[32];
	const char *plus = strchr(s, '+');
	size_t n = plus ? (size_t)(plus - s) : strlen(s);
	uint64_t v, off = 0;

	if (n == 0 || n >= sizeof(base))
		usage();
	memcpy(base, s, n);
	base[n] = '\0';
	if (plus && !parse_u64_full(plus + 1, 16, &off))
		usage();
	if (strncmp(base, "top-", 4) == 0) {
		if (!parse_u64_full(base + 4, 10, &v) || v == 0 || v >= 8 * sizeof(uintptr_t))
			usage();
		v = (uintptr_t)(0 - ((uintptr_t)1 << v));
	} else if (!parse_u64_full(base, 16, &v) || v > UINTPTR_MAX) {
		usage();
	}
	if (v + off < v || v + off > UINTPTR_MAX)
		usage();
	return (uintptr_t)(v + off);
}

long sys_mmap(uintptr_t addr, unsigned long len, long prot, long flags)
{
	return __syscall(SYS_mmap_, (long)addr, (long)len, prot, flags, -1, 0);
}

long sys_open(const void *path, long flags)
{
	return __syscall(SYS_openat, AT_FDCWD, (long)path, flags, 0, 0, 0);
}

long sys_read(long fd, uintptr_t buf, unsigned long n)
{
	return __syscall(SYS_read, fd, (long)buf, (long)n, 0, 0, 0);
}

long sys_close(long fd)
{
	return __syscall(SYS_close, fd, 0, 0, 0, 0, 0);
}

int main(int argc, char **argv)
{
	volatile uint32_t stack_insn[4] = { RET_INSN, RET_INSN, RET_INSN, RET_INSN };
	struct attack a = { .argc = argc, .argv = argv, .stack_insn = stack_insn };

	if (exec_in_progress) /* `exec` of main's own text came back here */
		return 0;
	if (argc < 2)
		usage();
	a.name = argv[1];
	a.arg = argc > 2 ? argv[2] : NULL;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		if (strcmp(a.name, cases[i].name) != 0)
			continue;
		if (cases[i].arg != NO_ARG && !a.arg)
			usage();
		if (cases[i].arg == ADDR_ARG)
			a.addr = parse_addr(a.arg);
		return cases[i].run(&a);
	}
	usage();
}
