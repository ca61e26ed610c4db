/* Signals delivered to handlers, as on Linux (issue 17): a process signalling itself. Each
 * check prints one line, the same on every ABI and C library (but the trampoline line on
 * x86_64); "FAIL" marks a difference from Linux's behaviour. With an argument it does one
 * thing: `term` (raise SIGTERM, not caught: status 143), `abort` (abort(): SIGABRT, 134),
 * `segv` (a write to a read-only page with no handler: 139), `kill` (SIGKILL: 137), `ignored`
 * (SIGCHLD, SIGURG, SIGWINCH, SIGCONT by default, SIGUSR1 when SIG_IGN: exits 0),
 * `norestorer` (a handler without SA_RESTORER: returns, but on x86_64 SIGSEGV, 139), `fpe`
 * (7 / 0 with a SIGFPE handler: x86 traps, si_code FPE_INTDIV 1; 32-bit ARM has no divide
 * instruction for armv7-a and libgcc raise()s SIGFPE, SI_TKILL; arm64 does not trap) and
 * `fpe-uncaught` (x86: 136). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static int failures;

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAIL", what);
	if (!ok)
		failures++;
}

static volatile sig_atomic_t got_sig, got_code, got_pid_self, handler_runs;
static volatile int usr2_blocked_inside, usr1_blocked_inside;

static void is_blocked_now(void)
{
	sigset_t cur;

	sigprocmask(SIG_BLOCK, NULL, &cur);
	usr1_blocked_inside = sigismember(&cur, SIGUSR1);
	usr2_blocked_inside = sigismember(&cur, SIGUSR2);
}

static void info_handler(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_sig = sig == si->si_signo ? sig : -1;
	got_code = si->si_code;
	got_pid_self = si->si_pid == getpid();
	handler_runs++;
	is_blocked_now();
}

static void plain_handler(int sig)
{
	got_sig = sig;
	handler_runs++;
	is_blocked_now();
}

static void install(int sig, void (*fn)(int, siginfo_t *, void *), int flags, int also_block)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO | flags;
	sigemptyset(&sa.sa_mask);
	if (also_block)
		sigaddset(&sa.sa_mask, also_block);
	sigaction(sig, &sa, NULL);
}

static void test_kill_and_raise(void)
{
	char line[96];

	install(SIGUSR1, info_handler, 0, SIGUSR2);
	got_sig = 0;
	kill(getpid(), SIGUSR1);
	snprintf(line, sizeof(line), "kill(getpid(), SIGUSR1): handler ran, si_signo %d, si_code %d "
		 "(SI_USER), si_pid is ours", (int)got_sig, (int)got_code);
	check(got_sig == SIGUSR1 && got_code == SI_USER && got_pid_self, line);
	check(usr1_blocked_inside && usr2_blocked_inside,
	      "inside the handler SIGUSR1 and sa_mask's SIGUSR2 are blocked");
	is_blocked_now();
	check(!usr1_blocked_inside && !usr2_blocked_inside, "after sigreturn neither is blocked");

	got_sig = 0;
	raise(SIGUSR1);
	snprintf(line, sizeof(line), "raise(SIGUSR1): si_code %d (SI_TKILL)", (int)got_code);
	check(got_sig == SIGUSR1 && got_code == SI_TKILL && got_pid_self, line);
}

static void test_plain_and_nodefer(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = plain_handler;
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGUSR2, &sa, NULL);
	got_sig = 0;
	raise(SIGUSR2);
	check(got_sig == SIGUSR2 && !usr2_blocked_inside,
	      "a handler without SA_SIGINFO (sigreturn frame), SA_NODEFER: SIGUSR2 not blocked inside");
}

static void test_resethand(void)
{
	struct sigaction old;

	install(SIGUSR2, info_handler, SA_RESETHAND, 0);
	handler_runs = 0;
	raise(SIGUSR2);
	sigaction(SIGUSR2, NULL, &old);
	check(handler_runs == 1 && old.sa_handler == SIG_DFL,
	      "SA_RESETHAND: the handler ran once, the action is SIG_DFL again");
}

static void test_pending(void)
{
	sigset_t set, pend;

	install(SIGUSR1, info_handler, 0, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	got_sig = 0;
	raise(SIGUSR1);
	sigpending(&pend);
	check(got_sig == 0 && sigismember(&pend, SIGUSR1),
	      "blocked SIGUSR1 stays pending (sigpending)");
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	check(got_sig == SIGUSR1, "unblocking it runs the handler");

	sigprocmask(SIG_BLOCK, &set, NULL);
	raise(SIGUSR1);
	got_sig = 0;
	sigset_t none;
	sigemptyset(&none);
	int r = sigsuspend(&none);
	sigset_t after;
	sigprocmask(SIG_BLOCK, NULL, &after);
	check(r == -1 && got_sig == SIGUSR1 && sigismember(&after, SIGUSR1),
	      "sigsuspend: the handler runs, -1 EINTR, the old mask comes back");
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

static volatile char *ro_page;
static long page_size;

static void segv_handler(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_sig = sig;
	got_code = si->si_code;
	got_pid_self = si->si_addr == (void *)ro_page;
	mprotect((void *)ro_page, (size_t)page_size, PROT_READ | PROT_WRITE);
}

static void test_segv_fixup(void)
{
	page_size = sysconf(_SC_PAGESIZE);
	ro_page = mmap(NULL, (size_t)page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	install(SIGSEGV, segv_handler, 0, 0);
	got_sig = 0;
	ro_page[0] = 'w';
	check(got_sig == SIGSEGV && got_code == SEGV_ACCERR && got_pid_self && ro_page[0] == 'w',
	      "SIGSEGV handler: si_addr the page, SEGV_ACCERR; it mprotects and the write is redone");
	signal(SIGSEGV, SIG_DFL);
}

static sigjmp_buf jump;

static void jump_handler(int sig)
{
	siglongjmp(jump, sig);
}

static void test_siglongjmp(void)
{
	signal(SIGUSR2, jump_handler);
	int r = sigsetjmp(jump, 1);
	if (r == 0) {
		raise(SIGUSR2);
		check(0, "siglongjmp out of a handler");
		return;
	}
	sigset_t cur;
	sigprocmask(SIG_BLOCK, NULL, &cur);
	check(r == SIGUSR2 && !sigismember(&cur, SIGUSR2),
	      "siglongjmp out of a handler: back at sigsetjmp, SIGUSR2 unblocked again");
}

static void test_altstack(void)
{
	static char stack[65536];
	stack_t ss = { .ss_sp = stack, .ss_size = sizeof(stack) }, old;
	sigaltstack(&ss, NULL);
	install(SIGUSR1, info_handler, SA_ONSTACK, 0);
	got_sig = 0;
	raise(SIGUSR1);
	sigaltstack(NULL, &old);
	check(got_sig == SIGUSR1 && old.ss_sp == stack && old.ss_flags == 0,
	      "SA_ONSTACK with sigaltstack: the handler ran; the stack is kept, not in use");
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
}

static volatile uintptr_t handler_frame;

static void where_handler(int sig)
{
	char local;
	(void)sig;
	handler_frame = (uintptr_t)&local;
}

static void test_altstack_where(void)
{
	static char stack[65536];
	stack_t ss = { .ss_sp = stack, .ss_size = sizeof(stack) };
	struct sigaction sa;

	sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = where_handler;
	sa.sa_flags = SA_ONSTACK;
	sigaction(SIGUSR2, &sa, NULL);
	raise(SIGUSR2);
	check(handler_frame >= (uintptr_t)stack && handler_frame < (uintptr_t)stack + sizeof(stack),
	      "the SA_ONSTACK handler's locals are on the alternate stack");
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
	signal(SIGUSR2, SIG_DFL);
}

/* FP/SIMD registers across a handler that clobbers them: loaded, then the kill system call
 * from the same asm statement (nothing in between may touch them), then read back. */
#if defined(__aarch64__)
#define FP_REGS 3
static void fp_clobber(void)
{
	double x = 0;
	__asm__ volatile("fmov d8, %d0\n\tmovi v16.2d, #0\n\tmovi v31.2d, #0\n\tmsr fpcr, xzr"
			 : : "w"(x) : "v8", "v16", "v31");
}
static void fp_kill_keep(unsigned long long in[2 * FP_REGS], unsigned long long out[2 * FP_REGS])
{
	long pid = getpid(); /* before the register variables: a call clobbers them */
	register long x8 __asm__("x8") = SYS_kill;
	register long x0 __asm__("x0") = pid;
	register long x1 __asm__("x1") = SIGUSR2;
	__asm__ volatile("ldr q8, [%3]\n\tldr q16, [%3, #16]\n\tldr q31, [%3, #32]\n\t"
			 "svc #0\n\t"
			 "str q8, [%4]\n\tstr q16, [%4, #16]\n\tstr q31, [%4, #32]"
			 : "+r"(x0) : "r"(x8), "r"(x1), "r"(in), "r"(out)
			 : "memory", "v8", "v16", "v31");
}
#elif defined(__x86_64__)
#define FP_REGS 3
static void fp_clobber(void)
{
	__asm__ volatile("pxor %%xmm0, %%xmm0\n\tpxor %%xmm6, %%xmm6\n\tpxor %%xmm15, %%xmm15"
			 : : : "xmm0", "xmm6", "xmm15");
}
static void fp_kill_keep(unsigned long long in[2 * FP_REGS], unsigned long long out[2 * FP_REGS])
{
	long ret;
	__asm__ volatile("movdqu (%4), %%xmm0\n\tmovdqu 16(%4), %%xmm6\n\tmovdqu 32(%4), %%xmm15\n\t"
			 "syscall\n\t"
			 "movdqu %%xmm0, (%5)\n\tmovdqu %%xmm6, 16(%5)\n\tmovdqu %%xmm15, 32(%5)"
			 : "=a"(ret) : "0"((long)SYS_kill), "D"((long)getpid()), "S"((long)SIGUSR2),
			   "r"(in), "r"(out)
			 : "rcx", "r11", "memory", "xmm0", "xmm6", "xmm15");
}
#elif defined(__i386__)
#define FP_REGS 2
static void fp_clobber(void)
{
	/* i686 code never uses the SSE registers itself: no clobbers to declare (or allowed). */
	__asm__ volatile("xorps %%xmm0, %%xmm0\n\txorps %%xmm7, %%xmm7" : : : "memory");
}
static void fp_kill_keep(unsigned long long in[2 * FP_REGS], unsigned long long out[2 * FP_REGS])
{
	long ret;
	int pid = getpid();
	/* ebx holds the pid for int $0x80; it may be the PIC register, so swap it by hand. */
	__asm__ volatile("movups (%3), %%xmm0\n\tmovups 16(%3), %%xmm7\n\t"
			 "xchg %%ebx, %2\n\tint $0x80\n\txchg %%ebx, %2\n\t"
			 "movups %%xmm0, (%4)\n\tmovups %%xmm7, 16(%4)"
			 : "=a"(ret) : "0"((long)SYS_kill), "D"(pid), "S"(in), "d"(out),
			   "c"((long)SIGUSR2)
			 : "memory");
}
#elif defined(__arm__)
#define FP_REGS 2
static void fp_clobber(void)
{
	__asm__ volatile(".fpu neon\n\tvmov.i64 q4, #0\n\tvmov.i64 q8, #0\n\tvmov.i64 q15, #0"
			 : : : "d8", "d9", "d16", "d17", "d30", "d31");
}
static void fp_kill_keep(unsigned long long in[2 * FP_REGS], unsigned long long out[2 * FP_REGS])
{
	long pid = getpid(); /* before the register variables: a call clobbers them */
	register long r7 __asm__("r7") = SYS_kill;
	register long r0 __asm__("r0") = pid;
	register long r1 __asm__("r1") = SIGUSR2;
	__asm__ volatile(".fpu neon\n\tvldm %1, {d8-d9}\n\tadd %1, %1, #16\n\tvldm %1, {d30-d31}\n\t"
			 "svc #0\n\t"
			 "vstm %2, {d8-d9}\n\tadd %2, %2, #16\n\tvstm %2, {d30-d31}"
			 : "+r"(r0), "+r"(in), "+r"(out) : "r"(r7), "r"(r1)
			 : "memory", "d8", "d9", "d30", "d31");
}
#endif

static void fp_handler(int sig)
{
	got_sig = sig;
	fp_clobber();
}

static void test_fp(void)
{
	unsigned long long in[2 * FP_REGS], out[2 * FP_REGS];

	for (int i = 0; i < 2 * FP_REGS; i++) {
		in[i] = 0x0123456789abcdefull * (unsigned)(i + 3);
		out[i] = 0;
	}
	signal(SIGUSR2, fp_handler);
	got_sig = 0;
	fp_kill_keep(in, out);
	check(got_sig == SIGUSR2 && memcmp(in, out, sizeof(in)) == 0,
	      "FP/SIMD registers a handler clobbers are back after sigreturn");
	signal(SIGUSR2, SIG_DFL);
}

/* The kernel's own return trampoline: a handler installed without SA_RESTORER (the raw
 * system call: libc would add its restorer) returns through the vDSO (arm64, i386) or the
 * [sigpage] (ARM, AArch32). x86_64 has none: SA_RESTORER is required (`signals norestorer`). */
struct ksigaction {
	unsigned long handler, flags, restorer;
	unsigned mask[2];
};

static void install_raw(int sig, void (*fn)(int), unsigned long flags)
{
	struct ksigaction ka = { (unsigned long)fn, flags, 0, { 0, 0 } };

	syscall(SYS_rt_sigaction, sig, &ka, NULL, 8);
}

static void test_kernel_restorer(void)
{
#if defined(__x86_64__)
	check(1, "x86_64: no kernel trampoline (SA_RESTORER required, `signals norestorer`)");
#else
	int runs = 0;

	install_raw(SIGUSR2, plain_handler, 0);
	got_sig = 0;
	raise(SIGUSR2);
	runs += got_sig == SIGUSR2;
	install_raw(SIGUSR2, plain_handler, SA_SIGINFO);
	got_sig = 0;
	raise(SIGUSR2);
	runs += got_sig == SIGUSR2;
	signal(SIGUSR2, SIG_DFL);
	check(runs == 2, "without SA_RESTORER both frames return through the kernel's trampoline");
#endif
}

static sigjmp_buf fpe_jump;

static void fpe_handler(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	printf("SIGFPE: si_signo %d, si_code %d\n", si->si_signo, si->si_code);
	siglongjmp(fpe_jump, sig);
}

static int divide(int a, int b)
{
	return a / b;
}

static int (*volatile divide_fn)(int, int) = divide;

static int divide_caught(void)
{
	install(SIGFPE, fpe_handler, 0, 0);
	if (sigsetjmp(fpe_jump, 1) == 0)
		printf("no trap: 7 / 0 = %d\n", divide_fn(7, 0));
	return 0;
}

static void test_ignored_defaults(void)
{
	raise(SIGCHLD);
	raise(SIGURG);
	raise(SIGWINCH);
	raise(SIGCONT);
	signal(SIGUSR1, SIG_IGN);
	raise(SIGUSR1);
	signal(SIGUSR1, SIG_DFL);
	check(1, "SIGCHLD, SIGURG, SIGWINCH, SIGCONT ignored by default, SIGUSR1 with SIG_IGN");
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc > 1) {
		const char *how = argv[1];
		if (strcmp(how, "term") == 0) {
			raise(SIGTERM);
		} else if (strcmp(how, "abort") == 0) {
			abort();
		} else if (strcmp(how, "kill") == 0) {
			kill(getpid(), SIGKILL);
		} else if (strcmp(how, "segv") == 0) {
			volatile char *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
						-1, 0);
			p[0] = 1;
		} else if (strcmp(how, "norestorer") == 0) {
			install_raw(SIGUSR2, plain_handler, SA_SIGINFO);
			raise(SIGUSR2);
			printf("signals: a handler without SA_RESTORER ran and returned\n");
			return 0;
		} else if (strcmp(how, "fpe") == 0) {
			return divide_caught();
		} else if (strcmp(how, "fpe-uncaught") == 0) {
			printf("no trap: 7 / 0 = %d\n", divide_fn(7, 0));
		} else if (strcmp(how, "ignored") == 0) {
			test_ignored_defaults();
			return 0;
		}
		printf("signals: still here after '%s'\n", how);
		return 1;
	}
	test_kill_and_raise();
	test_plain_and_nodefer();
	test_resethand();
	test_pending();
	test_segv_fixup();
	test_siglongjmp();
	test_altstack();
	test_altstack_where();
	test_fp();
	test_kernel_restorer();
	test_ignored_defaults();
	printf("signals: %s\n", failures ? "FAILED" : "all passed");
	return failures ? 1 : 0;
}
