/* kernel/signal.c's rules, with the arch frame and the process's end stubbed: which signal is
 * taken first, the default actions (and their wait status), the mask a handler runs with,
 * SA_NODEFER, SA_RESETHAND, a fault that is blocked or ignored (reset to SIG_DFL, so it
 * kills), a frame that cannot be written (SIGSEGV, a SIGSEGV handler reset), sigaltstack's
 * choice, rt_sigsuspend's mask, the restart of interrupted calls, and siginfo's layout. */
#include "lib_under_test.h"
#include <arch/signal.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define SIG_IGN_H 1
#define bit(s) (1ull << ((s) - 1))

static struct process proc;
struct process *current_process(void) { return &proc; }

/* process_exit ends the delivery: jump back to the test with the status. */
static jmp_buf exit_jump;
static int exit_status;
void process_exit(int wait_status)
{
	exit_status = wait_status;
	longjmp(exit_jump, 1);
}

/* The arch: record each frame (signal, old mask, on the alternate stack?), or refuse one. */
static int frames, frame_sigs[8], fail_frames;
static uint64_t frame_oldmask[8];
static bool frame_altstack[8];
static uint64_t user_sp = 0x7000;
static int restarted, set_returns;
static long set_return_value;

int arch_setup_signal_frame(struct trap_frame *f, bool compat, const struct signal_delivery *d)
{
	(void)f, (void)compat;
	if (fail_frames) {
		fail_frames--;
		return -EFAULT;
	}
	frame_sigs[frames] = d->info.signo;
	frame_oldmask[frames] = d->oldmask;
	frame_altstack[frames] = d->on_altstack;
	frames++;
	return 0;
}

int arch_sigreturn(struct trap_frame *f, bool compat, bool rt, struct signal_return *r)
{
	(void)f, (void)compat, (void)rt, (void)r;
	return -EFAULT;
}

uint64_t arch_signal_user_sp(const struct trap_frame *f, bool compat)
{
	(void)f, (void)compat;
	return user_sp;
}

/* The scheduler's part: a process the test sends to is never asleep. */
void sched_wake_for_signal(struct process *p)
{
	(void)p;
}

void arch_syscall_restart(struct trap_frame *f)
{
	(void)f;
	restarted++;
}

void arch_syscall_set_return(struct trap_frame *f, long value)
{
	(void)f;
	set_returns++;
	set_return_value = value;
}

static int reset(void **state)
{
	(void)state;
	memset(&proc, 0, sizeof(proc));
	proc.pid = 7;
	frames = fail_frames = restarted = set_returns = 0;
	exit_status = -1;
	user_sp = 0x7000;
	return 0;
}

static void handle(int sig, uint64_t flags, uint64_t mask)
{
	proc.sys.act[sig - 1] = (struct sys_sigaction){ 0x1000, flags, 0, mask };
}

/* Deliver; the wait status if the process ended, else -1. */
static int deliver(void)
{
	if (setjmp(exit_jump))
		return exit_status;
	signal_deliver(NULL);
	return -1;
}

static void test_default_actions(void **state)
{
	(void)state;
	signal_send(&proc, SIGCHLD);
	signal_send(&proc, SIGWINCH);
	signal_send(&proc, SIGTSTP);
	assert_int_equal(proc.sys.sigpending, 0); /* ignored ones are dropped at once */
	assert_int_equal(deliver(), -1);
	signal_send(&proc, SIGTERM);
	assert_int_equal(deliver(), SIGTERM);
	signal_send(&proc, SIGABRT);
	assert_int_equal(deliver(), SIGABRT); /* core: no core file, so no 0x80 flag */
	signal_send(&proc, SIGKILL);
	assert_int_equal(deliver(), SIGKILL);
}

static void test_blocked_stays_pending(void **state)
{
	(void)state;
	proc.sys.sigmask = bit(SIGCHLD) | bit(SIGUSR1);
	signal_send(&proc, SIGCHLD); /* ignored but blocked: kept */
	signal_send(&proc, SIGUSR1);
	assert_int_equal(proc.sys.sigpending, bit(SIGCHLD) | bit(SIGUSR1));
	assert_false(signal_pending(&proc));
	assert_int_equal(deliver(), -1);
	proc.sys.sigmask = 0;
	assert_true(signal_pending(&proc));
	assert_int_equal(deliver(), SIGUSR1); /* SIGCHLD dropped, SIGUSR1 terminates */
}

static void test_handler_mask_and_order(void **state)
{
	(void)state;
	handle(SIGUSR1, 0, bit(SIGUSR2));
	handle(SIGSEGV, SA_NODEFER, 0);
	handle(SIGHUP, SA_RESETHAND, 0);
	proc.sys.sigmask = bit(SIGINT);
	signal_send(&proc, SIGUSR1);
	signal_send(&proc, SIGHUP);
	signal_force_fault(SIGSEGV, SEGV_MAPERR, 0x10);
	assert_int_equal(deliver(), -1);
	/* The fault first, then by number; each frame saves the mask before it. */
	assert_int_equal(frames, 3);
	assert_int_equal(frame_sigs[0], SIGSEGV);
	assert_int_equal(frame_sigs[1], SIGHUP);
	assert_int_equal(frame_sigs[2], SIGUSR1);
	assert_int_equal(frame_oldmask[0], bit(SIGINT));
	assert_int_equal(frame_oldmask[1], bit(SIGINT)); /* SA_NODEFER: SIGSEGV not added */
	assert_int_equal(frame_oldmask[2], bit(SIGINT) | bit(SIGHUP));
	assert_int_equal(proc.sys.sigmask,
			 bit(SIGINT) | bit(SIGHUP) | bit(SIGUSR1) | bit(SIGUSR2));
	assert_int_equal(proc.sys.act[SIGHUP - 1].handler, 0); /* SA_RESETHAND */
}

static void test_fault_blocked_or_ignored_kills(void **state)
{
	(void)state;
	handle(SIGSEGV, 0, 0);
	proc.sys.sigmask = bit(SIGSEGV);
	assert_false(signal_handled(SIGSEGV));
	signal_force_fault(SIGSEGV, SEGV_ACCERR, 0x10);
	assert_int_equal(deliver(), SIGSEGV);

	reset(NULL);
	proc.sys.act[SIGBUS - 1].handler = SIG_IGN_H;
	signal_force_fault(SIGBUS, BUS_ADRALN, 0x11);
	assert_int_equal(deliver(), SIGBUS);

	reset(NULL);
	handle(SIGILL, 0, 0);
	assert_true(signal_handled(SIGILL));
}

static void test_frame_fails(void **state)
{
	(void)state;
	handle(SIGUSR1, 0, 0);
	handle(SIGSEGV, 0, 0);
	fail_frames = 2; /* SIGUSR1's frame, then SIGSEGV's */
	signal_send(&proc, SIGUSR1);
	assert_int_equal(deliver(), SIGSEGV);
	assert_int_equal(frames, 0);
}

static void test_altstack(void **state)
{
	(void)state;
	handle(SIGUSR1, SA_ONSTACK, 0);
	assert_int_equal(signal_altstack_set(&proc, 0x10000, 0, 0x1000, user_sp), 0);
	assert_int_equal(signal_altstack_set(&proc, 0x10000, 0, 100, user_sp), -ENOMEM);
	signal_send(&proc, SIGUSR1);
	deliver();
	assert_true(frame_altstack[0]);
	/* While on it: no switch, no change. */
	user_sp = 0x10800;
	assert_int_equal(signal_altstack_flags(&proc, user_sp), 1 /* SS_ONSTACK */);
	assert_int_equal(signal_altstack_set(&proc, 0x20000, 0, 0x1000, user_sp), -EPERM);
	proc.sys.sigmask = 0;
	signal_send(&proc, SIGUSR1);
	deliver();
	assert_false(frame_altstack[1]);
}

static void test_restart(void **state)
{
	(void)state;
	/* No signal: restarted. */
	signal_syscall_returned(&proc, -ERESTARTSYS);
	deliver();
	assert_int_equal(restarted, 1);
	/* A handler without SA_RESTART: -EINTR; with it: restarted; NOHAND: -EINTR. */
	handle(SIGUSR1, 0, 0);
	signal_send(&proc, SIGUSR1);
	signal_syscall_returned(&proc, -ERESTARTSYS);
	deliver();
	assert_int_equal(set_returns, 1);
	assert_int_equal(set_return_value, -EINTR);
	proc.sys.sigmask = 0;
	handle(SIGUSR1, SA_RESTART, 0);
	signal_send(&proc, SIGUSR1);
	signal_syscall_returned(&proc, -ERESTARTSYS);
	deliver();
	assert_int_equal(restarted, 2);
	proc.sys.sigmask = 0;
	signal_send(&proc, SIGUSR1);
	signal_syscall_returned(&proc, -ERESTARTNOHAND);
	deliver();
	assert_int_equal(set_returns, 2);
	/* sigreturn's result is never a restart. */
	proc.sys.sigreturned = true;
	signal_syscall_returned(&proc, -ERESTARTSYS);
	deliver();
	assert_int_equal(restarted, 2);
	/* Other results are left alone. */
	signal_syscall_returned(&proc, -EINTR);
	deliver();
	assert_int_equal(restarted + set_returns, 4);
}

static void test_sigsuspend_mask(void **state)
{
	(void)state;
	handle(SIGUSR1, 0, 0);
	proc.sys.saved_sigmask = bit(SIGUSR1);
	proc.sys.restore_sigmask = true;
	proc.sys.sigmask = 0;
	signal_send(&proc, SIGUSR1);
	deliver();
	assert_int_equal(frame_oldmask[0], bit(SIGUSR1)); /* the frame gives the old mask back */
	assert_false(proc.sys.restore_sigmask);
	/* No handler: the mask comes back at once. */
	proc.sys.saved_sigmask = bit(SIGUSR2);
	proc.sys.restore_sigmask = true;
	proc.sys.sigmask = 0;
	deliver();
	assert_int_equal(proc.sys.sigmask, bit(SIGUSR2));
}

static void test_siginfo_layout(void **state)
{
	uint8_t b[128];
	struct signal_info kill_info = { .signo = SIGUSR1, .code = SI_TKILL, .pid = 42, .uid = 7 };
	struct signal_info fault = { .signo = SIGSEGV, .code = SEGV_MAPERR, .fault = true,
				     .addr = 0x1122334455667788ull };
	int32_t i;
	uint64_t a64;
	uint32_t a32;

	(void)state;
	signal_fill_siginfo(b, &kill_info, true);
	memcpy(&i, b, 4), assert_int_equal(i, SIGUSR1);
	memcpy(&i, b + 8, 4), assert_int_equal(i, SI_TKILL);
	memcpy(&i, b + 16, 4), assert_int_equal(i, 42);
	memcpy(&i, b + 20, 4), assert_int_equal(i, 7);
	signal_fill_siginfo(b, &kill_info, false);
	memcpy(&i, b + 12, 4), assert_int_equal(i, 42);
	signal_fill_siginfo(b, &fault, true);
	memcpy(&a64, b + 16, 8), assert_true(a64 == fault.addr);
	signal_fill_siginfo(b, &fault, false);
	memcpy(&a32, b + 12, 4), assert_int_equal(a32, 0x55667788u);
	assert_string_equal(signal_name(SIGTERM), "SIGTERM");
	assert_string_equal(signal_name(40), "signal");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_default_actions, reset),
		cmocka_unit_test_setup(test_blocked_stays_pending, reset),
		cmocka_unit_test_setup(test_handler_mask_and_order, reset),
		cmocka_unit_test_setup(test_fault_blocked_or_ignored_kills, reset),
		cmocka_unit_test_setup(test_frame_fails, reset),
		cmocka_unit_test_setup(test_altstack, reset),
		cmocka_unit_test_setup(test_restart, reset),
		cmocka_unit_test_setup(test_sigsuspend_mask, reset),
		cmocka_unit_test_setup(test_siginfo_layout, reset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
