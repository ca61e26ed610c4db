/* x86flags CASE: a user program sets an EFLAGS bit the kernel must not inherit, then enters
 * the kernel with it set (tests/serial/attack-flags-x86*.txt, docs/security.md "Flags at kernel
 * entry"). Built for i386, x86_64 and the ia32 compat ABI. The cases:
 *
 *   F-syscall   write() with flag F set; prints the line, then whether F came back set
 *   F-exit      exit_group(0) with flag F set: the next `run` must still work
 *               (F: nt, ac, df, tf; tf-syscall ends in SIGTRAP, single-stepped after it)
 *   nt-iret     iret with NT set: no task switch on i386, #GP in long mode -> SIGSEGV
 *   nt-sysinsn  the SYSCALL instruction with NT set; from 32-bit code it is not Linux's i386
 *               ABI here -> SIGILL (x86_64: the same as nt-syscall)
 *   nt-sysenter SYSENTER with NT set: no fast entry is set up -> refused in user mode
 *   tf          single-step one instruction -> SIGTRAP
 *   int3        the breakpoint instruction -> SIGTRAP
 *
 * Every system call here is made with the flag still set on the instruction that enters the
 * kernel, and the flag is cleared again before any compiled code runs (the ABI wants DF clear,
 * and printf must not run single-stepped). */
#include <user.h>
#include <sysnr.h>

#define X86_FLAGS_TF (1UL << 8)
#define X86_FLAGS_DF (1UL << 10)
#define X86_FLAGS_NT (1UL << 14)
#define X86_FLAGS_AC (1UL << 18)

struct flag_name {
	const char *name;
	unsigned long bit;
};

static const struct flag_name flag_names[] = {
	{ "nt", X86_FLAGS_NT },
	{ "ac", X86_FLAGS_AC },
	{ "df", X86_FLAGS_DF },
	{ "tf", X86_FLAGS_TF },
};

static __noreturn void usage(void)
{
	printf("usage: x86flags nt-syscall|nt-exit|ac-syscall|ac-exit|df-syscall|df-exit|"
	       "tf-syscall|tf-exit|nt-iret|nt-sysinsn|nt-sysenter|tf|int3\n");
	exit(2);
}

#if defined(__x86_64__)
/* The first 128 bytes below RSP are the ABI's red zone, which a push would overwrite. */
#define SKIP_RED_ZONE "sub $128, %%rsp\n\t"
#define BACK_TO_RED_ZONE "add $128, %%rsp"
#define SP "rsp"

/* The system call instruction of the ABI, with `set` or'ed into RFLAGS just before it. Returns
 * the call's result in *ret and RFLAGS as it came back; clears `set` again before returning. */
static unsigned long syscall3_with_flags(unsigned long set, long nr, long a, long b, long c,
					 long *ret)
{
	unsigned long x = set;

	__asm__ volatile("sub $128, %%rsp\n\t"
			 "pushf\n\t"
			 "or %[x], (%%rsp)\n\t"
			 "popf\n\t"
			 "syscall\n\t"
			 "pushf\n\t"		/* RFLAGS as the kernel gave it back, */
			 "pushf\n\t"		/* and a copy to clear the bits in */
			 "not %[x]\n\t"
			 "and %[x], (%%rsp)\n\t"
			 "popf\n\t"
			 "pop %[x]\n\t"
			 "add $128, %%rsp"
			 : [x] "+r"(x), "+a"(nr)
			 : "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory", "cc");
	*ret = nr;
	return x;
}

/* The SYSCALL instruction itself: on x86_64 that is the ABI's instruction. */
static long sysinsn_with_flags(unsigned long set, long nr, long a, long b, long c)
{
	long r;

	syscall3_with_flags(set, nr, a, b, c, &r);
	return r;
}

/* iretq to the next instruction with NT set: in long mode the CPU refuses (#GP). */
static void iret_with_nt(void)
{
	__asm__ volatile("sub $128, %%rsp\n\t"
			 "mov %%rsp, %%rdx\n\t"
			 "mov %%ss, %%eax\n\t"
			 "push %%rax\n\t"
			 "push %%rdx\n\t"
			 "pushf\n\t"
			 "mov %%cs, %%eax\n\t"
			 "push %%rax\n\t"
			 "lea 1f(%%rip), %%rax\n\t"
			 "push %%rax\n\t"
			 "pushf\n\t"
			 "orq %[nt], (%%rsp)\n\t"
			 "popf\n\t"
			 "iretq\n"
			 "1:\n\t"
			 "add $128, %%rsp"
			 :
			 : [nt] "i"(X86_FLAGS_NT)
			 : "rax", "rdx", "memory", "cc");
}
#elif defined(__i386__)
#define SKIP_RED_ZONE ""
#define BACK_TO_RED_ZONE ""
#define SP "esp"

/* int $0x80 with `set` or'ed into EFLAGS just before it; see the x86_64 version. */
static unsigned long syscall3_with_flags(unsigned long set, long nr, long a, long b, long c,
					 long *ret)
{
	unsigned long x = set;

	__asm__ volatile("pushf\n\t"
			 "or %[x], (%%esp)\n\t"
			 "popf\n\t"
			 "int $0x80\n\t"
			 "pushf\n\t"
			 "pushf\n\t"
			 "not %[x]\n\t"
			 "and %[x], (%%esp)\n\t"
			 "popf\n\t"
			 "pop %[x]"
			 : [x] "+r"(x), "+a"(nr)
			 : "b"(a), "c"(b), "d"(c)
			 : "memory", "cc");
	*ret = nr;
	return x;
}

/* The SYSCALL instruction from 32-bit code (ia32 compat on x86_64 enters through MSR_CSTAR;
 * an i386 kernel has not enabled it). Neither is a system call here: the process gets SIGILL. */
static long sysinsn_with_flags(unsigned long set, long nr, long a, long b, long c)
{
	unsigned long x = set;

	__asm__ volatile("pushf\n\t"
			 "or %[x], (%%esp)\n\t"
			 "popf\n\t"
			 "syscall\n\t"
			 "pushf\n\t"
			 "not %[x]\n\t"
			 "and %[x], (%%esp)\n\t"
			 "popf"
			 : [x] "+r"(x), "+a"(nr)
			 : "b"(a), "c"(b), "d"(c)
			 : "memory", "cc");
	return nr;
}

/* iret to the next instruction with NT set: on i386 that is a return to the task in the TSS's
 * back link (none: #TS); in compatibility mode the CPU refuses (#GP). */
static void iret_with_nt(void)
{
	__asm__ volatile("pushf\n\t"
			 "mov %%cs, %%eax\n\t"
			 "push %%eax\n\t"
			 "push $1f\n\t"
			 "pushf\n\t"
			 "orl %[nt], (%%esp)\n\t"
			 "popf\n\t"
			 "iret\n"
			 "1:"
			 :
			 : [nt] "i"(X86_FLAGS_NT)
			 : "eax", "memory", "cc");
}
#else
#error "x86flags is an x86 program"
#endif

/* SYSENTER: the kernel leaves its MSRs zero (no fast system call entry), so the CPU refuses it
 * in user mode (#GP, or #UD where the CPU does not offer it) before anything reaches the
 * kernel's entry code. */
static void sysenter_with_nt(void)
{
	__asm__ volatile(SKIP_RED_ZONE
			 "pushf\n\t"
			 "or %[nt], (%%" SP ")\n\t"
			 "popf\n\t"
			 "sysenter\n\t"
			 BACK_TO_RED_ZONE
			 :
			 : [nt] "r"(X86_FLAGS_NT)
			 : "memory", "cc");
}

static unsigned long flag_bit(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(flag_names); i++)
		if (strlen(flag_names[i].name) == len && !strncmp(flag_names[i].name, name, len))
			return flag_names[i].bit;
	usage();
}

static void upper(char *dst, const char *src, size_t len)
{
	for (size_t i = 0; i < len; i++)
		dst[i] = src[i] >= 'a' && src[i] <= 'z' ? src[i] - 'a' + 'A' : src[i];
	dst[len] = '\0';
}

/* write() with the flag set: the kernel copies the line from user memory (with DF set, a
 * string copy that trusted the user's DF would run backwards). Linux gives every flag back. */
static int flag_across_syscall(unsigned long bit, const char *name)
{
	char line[64];
	long r;

	snprintf(line, sizeof(line), "x86flags: write() with %s set\n", name);
	unsigned long after = syscall3_with_flags(bit, SYS_write, STDOUT_FILENO, (long)line,
						  (long)strlen(line), &r);
	printf("x86flags: write returned %ld, %s %s after it\n", r, name,
	       after & bit ? "still set" : "cleared");
	return 0;
}

static __noreturn void exit_with_flag(unsigned long bit, const char *name)
{
	long r;

	printf("x86flags: exit_group(0) with %s set\n", name);
	syscall3_with_flags(bit, SYS_exit_group, 0, 0, 0, &r);
	printf("x86flags: exit_group returned %ld\n", r);
	exit(1);
}

static int single_step(void)
{
	printf("x86flags: single-step\n");
	__asm__ volatile(SKIP_RED_ZONE
			 "pushf\n\t"
			 "or %[tf], (%%" SP ")\n\t"
			 "popf\n\t"
			 "nop\n\t"
			 BACK_TO_RED_ZONE
			 :
			 : [tf] "r"(X86_FLAGS_TF)
			 : "memory", "cc");
	return 1;
}

int main(int argc, char **argv)
{
	if (argc != 2)
		usage();
	const char *c = argv[1];
	const char *dash = strchr(c, '-');

	if (!strcmp(c, "nt-iret")) {
		printf("x86flags: iret with NT set\n");
		iret_with_nt();
	} else if (!strcmp(c, "nt-sysinsn")) {
		printf("x86flags: SYSCALL instruction with NT set\n");
		long r = sysinsn_with_flags(X86_FLAGS_NT, SYS_getpid, 0, 0, 0);
		printf("x86flags: SYSCALL returned %ld\n", r);
		return 0;
	} else if (!strcmp(c, "nt-sysenter")) {
		printf("x86flags: SYSENTER with NT set\n");
		sysenter_with_nt();
	} else if (!strcmp(c, "tf")) {
		single_step();
	} else if (!strcmp(c, "int3")) {
		printf("x86flags: int3\n");
		__asm__ volatile("int3" ::: "memory");
	} else if (dash) {
		size_t len = (size_t)(dash - c);
		unsigned long bit = flag_bit(c, len);
		char name[8];

		if (len >= sizeof(name))
			usage();
		upper(name, c, len);
		if (!strcmp(dash + 1, "syscall"))
			return flag_across_syscall(bit, name);
		if (!strcmp(dash + 1, "exit"))
			exit_with_flag(bit, name);
		usage();
	} else {
		usage();
	}
	printf("x86flags: survived\n");
	return 1;
}
