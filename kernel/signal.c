/* Signals (issue 17): a pending set per process, the blocked mask, Linux 6.1's default actions
 * and delivery to user handlers. The frame a handler runs on is the arch's (include/arch/
 * signal.h); here is what every ABI shares: which signal goes first, what the mask becomes,
 * SA_NODEFER, SA_RESETHAND, SA_ONSTACK, and what happens when a frame cannot be written.
 * docs/signals.md describes the behaviour and its limits. */
#include <arch/signal.h>
#include <arch/task.h>
#include <arch/trap.h>
#include <kernel/kernel.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/syscall.h>
#include <lib/errno.h>
#include <lib/string.h>
#include <mm/mm.h>

#define SIG_DFL 0
#define SIG_IGN 1
#define SS_ONSTACK 1
#define SS_DISABLE 2
#define SS_AUTODISARM (1u << 31)
#define MINSIGSTKSZ 2048

static uint64_t sigbit(int sig)
{
	return 1ull << (sig - 1);
}

#define UNBLOCKABLE (sigbit(SIGKILL) | sigbit(SIGSTOP))
/* Linux's SYNCHRONOUS_MASK: a fault's signal is taken before any other pending one. */
#define SYNCHRONOUS (sigbit(SIGSEGV) | sigbit(SIGBUS) | sigbit(SIGILL) | sigbit(SIGTRAP) | \
		     sigbit(SIGFPE) | sigbit(SIGSYS))
/* Default action "ignore" (SIG_KERNEL_IGNORE_MASK); the stop signals (SIG_KERNEL_STOP_MASK)
 * are ignored too until there is job control. */
#define DEFAULT_IGNORE (sigbit(SIGCHLD) | sigbit(SIGCONT) | sigbit(SIGURG) | sigbit(SIGWINCH))
#define DEFAULT_STOP (sigbit(SIGSTOP) | sigbit(SIGTSTP) | sigbit(SIGTTIN) | sigbit(SIGTTOU))

const char *signal_name(int sig)
{
	static const char *const names[] = {
		[SIGHUP] = "SIGHUP", [SIGINT] = "SIGINT", [SIGQUIT] = "SIGQUIT",
		[SIGILL] = "SIGILL", [SIGTRAP] = "SIGTRAP", [SIGABRT] = "SIGABRT",
		[SIGBUS] = "SIGBUS", [SIGFPE] = "SIGFPE", [SIGKILL] = "SIGKILL",
		[SIGUSR1] = "SIGUSR1", [SIGSEGV] = "SIGSEGV", [SIGUSR2] = "SIGUSR2",
		[SIGPIPE] = "SIGPIPE", [SIGALRM] = "SIGALRM", [SIGTERM] = "SIGTERM",
		[16] = "SIGSTKFLT", [SIGCHLD] = "SIGCHLD", [SIGCONT] = "SIGCONT",
		[SIGSTOP] = "SIGSTOP", [SIGTSTP] = "SIGTSTP", [SIGTTIN] = "SIGTTIN",
		[SIGTTOU] = "SIGTTOU", [SIGURG] = "SIGURG", [24] = "SIGXCPU", [25] = "SIGXFSZ",
		[26] = "SIGVTALRM", [27] = "SIGPROF", [SIGWINCH] = "SIGWINCH", [29] = "SIGIO",
		[30] = "SIGPWR", [SIGSYS] = "SIGSYS",
	};

	unsigned i = (unsigned)sig; /* a negative one wraps far past the table */

	if (i >= ARRAY_SIZE(names) || !names[i])
		return "signal";
	return names[i];
}

static bool valid_signal(int sig)
{
	return sig >= 1 && sig <= SYS_NSIG;
}

/* Linux's sig_ignored: dropped at once, unless blocked (the handler may change before it is
 * unblocked). */
static bool ignored_now(const struct process *p, int sig)
{
	uint64_t handler = p->sys.act[sig - 1].handler;

	if (p->sys.sigmask & sigbit(sig))
		return false;
	if (handler == SIG_IGN)
		return sig != SIGKILL;
	return handler == SIG_DFL && (sigbit(sig) & (DEFAULT_IGNORE | DEFAULT_STOP));
}

static void make_pending(struct process *p, const struct signal_info *info)
{
	int sig = info->signo;

	/* Classic signals do not queue: a second one while the first waits merges into it. */
	if (!(p->sys.sigpending & sigbit(sig))) {
		p->sys.siginfo[sig - 1] = (struct sys_siginfo){
			.code = info->code, .pid = info->pid, .uid = info->uid,
			.fault = info->fault, .addr = info->addr, .syndrome = info->syndrome,
			.trapno = info->trapno,
		};
	}
	p->sys.sigpending |= sigbit(sig);
	sched_wake_for_signal(p);
}

void signal_send_info(struct process *p, const struct signal_info *info)
{
	if (!p || !valid_signal(info->signo) || ignored_now(p, info->signo))
		return;
	make_pending(p, info);
}

void signal_send(struct process *p, int sig)
{
	struct signal_info info = { .signo = sig, .code = SI_KERNEL };

	signal_send_info(p, &info);
}

bool signal_pending(const struct process *p)
{
	return p && (p->sys.sigpending & ~p->sys.sigmask) != 0;
}

static bool has_handler(const struct process *p, int sig)
{
	uint64_t handler = p->sys.act[sig - 1].handler;

	return handler != SIG_DFL && handler != SIG_IGN;
}

bool signal_handled(int sig)
{
	const struct process *p = current_process();

	return p && valid_signal(sig) && has_handler(p, sig) && !(p->sys.sigmask & sigbit(sig));
}

/* Linux's force_sig_info: a fault cannot be blocked or ignored away: either the handler runs,
 * or the default action (which for these signals kills). */
void signal_force_fault_info(const struct signal_info *info)
{
	struct process *p = current_process();
	int sig = info->signo;

	if (!p || !valid_signal(sig))
		return;
	struct sys_sigaction *act = &p->sys.act[sig - 1];
	if ((p->sys.sigmask & sigbit(sig)) || act->handler == SIG_IGN) {
		p->sys.sigmask &= ~sigbit(sig);
		act->handler = SIG_DFL;
	}
	make_pending(p, info);
}

void signal_force_fault(int sig, int code, uintptr_t addr)
{
	struct signal_info info = { .signo = sig, .code = code, .addr = addr, .fault = true };

	signal_force_fault_info(&info);
}

/* A frame that could not be written: Linux's force_sigsegv. A SIGSEGV handler that itself
 * cannot get a frame is reset, so the process dies rather than loop. */
static void force_sigsegv(struct process *p, int sig)
{
	struct signal_info info = { .signo = SIGSEGV, .code = SI_KERNEL };

	if (sig == SIGSEGV)
		p->sys.act[SIGSEGV - 1].handler = SIG_DFL;
	signal_force_fault_info(&info);
}

/* sas_ss_flags: SS_DISABLE without an alternate stack, SS_ONSTACK while sp is on it. */
static bool on_altstack(const struct sys_state *s, uint64_t sp)
{
	return s->ss_size && sp > s->ss_sp && sp - s->ss_sp <= s->ss_size;
}

int signal_altstack_flags(const struct process *p, uint64_t sp)
{
	const struct sys_state *s = &p->sys;

	if (!s->ss_size)
		return SS_DISABLE;
	return on_altstack(s, sp) ? SS_ONSTACK : s->ss_flags;
}

long signal_altstack_set(struct process *p, uint64_t ss_sp, uint32_t flags, uint64_t size,
			 uint64_t sp)
{
	struct sys_state *s = &p->sys;
	unsigned mode = flags & ~SS_AUTODISARM;

	if (on_altstack(s, sp))
		return -EPERM;
	if (mode != 0 && mode != SS_DISABLE && mode != SS_ONSTACK)
		return -EINVAL;
	if (mode == SS_DISABLE) {
		ss_sp = size = 0;
	} else if (size < MINSIGSTKSZ) {
		return -ENOMEM;
	}
	s->ss_sp = ss_sp;
	s->ss_size = size;
	s->ss_flags = (int)(flags & SS_AUTODISARM);
	return 0;
}

static int next_signal(uint64_t ready)
{
	uint64_t sync = ready & SYNCHRONOUS;

	return __builtin_ctzll(sync ? sync : ready) + 1;
}

int signal_dequeue(struct process *p, uint64_t set, struct signal_info *info)
{
	uint64_t ready = p->sys.sigpending & set;

	if (!ready)
		return 0;
	int sig = next_signal(ready);
	const struct sys_siginfo *si = &p->sys.siginfo[sig - 1];
	*info = (struct signal_info){
		.signo = sig, .code = si->code, .pid = si->pid, .uid = si->uid, .addr = si->addr,
		.fault = si->fault, .syndrome = si->syndrome, .trapno = si->trapno,
	};
	p->sys.sigpending &= ~sigbit(sig);
	return sig;
}

/* The default action of sig: back (ignored), or the end of the process. The "core" signals
 * (SIGSEGV, SIGABRT, ...) end it too: no core file is written, so the wait status has no core
 * flag (0x80), as on Linux with RLIMIT_CORE 0, its default. */
static void default_action(int sig)
{
	if (sigbit(sig) & (DEFAULT_IGNORE | DEFAULT_STOP))
		return;
	process_exit(sig);
}

/* Run the handler: its frame on the user stack, then the mask it runs with. */
static void handle_signal(struct process *p, struct trap_frame *f, int sig)
{
	struct sys_state *s = &p->sys;
	struct sys_sigaction *act = &s->act[sig - 1];
	const struct sys_siginfo *si = &s->siginfo[sig - 1];
	bool compat = p->mm.compat;
	uint64_t sp = arch_signal_user_sp(f, compat);
	struct signal_delivery d = {
		.info = { .signo = sig, .code = si->code, .pid = si->pid, .uid = si->uid,
			  .addr = si->addr, .fault = si->fault, .syndrome = si->syndrome,
			  .trapno = si->trapno },
		.handler = act->handler, .flags = act->flags, .restorer = act->restorer,
		.oldmask = s->restore_sigmask ? s->saved_sigmask : s->sigmask,
		.ss_sp = s->ss_sp, .ss_size = s->ss_size,
		.ss_flags = s->ss_size ? s->ss_flags : SS_DISABLE,
		.on_altstack = (act->flags & SA_ONSTACK) && s->ss_size && !on_altstack(s, sp),
	};

	if (act->flags & SA_RESETHAND)
		act->handler = SIG_DFL;
	if (arch_setup_signal_frame(f, compat, &d)) {
		force_sigsegv(p, sig);
		return;
	}
	s->restore_sigmask = false;
	s->sigmask |= act->mask;
	if (!(act->flags & SA_NODEFER))
		s->sigmask |= sigbit(sig);
	s->sigmask &= ~UNBLOCKABLE;
	if (d.on_altstack && (s->ss_flags & SS_AUTODISARM))
		s->ss_sp = s->ss_size = 0;
}

void signal_syscall_returned(struct process *p, long ret)
{
	bool restart = ret == -ERESTARTSYS || ret == -ERESTARTNOINTR || ret == -ERESTARTNOHAND;

	/* sigreturn's result is the interrupted code's register, whatever it holds. */
	if (p->sys.sigreturned)
		restart = false;
	p->sys.sigreturned = false;
	p->sys.restart_ret = restart ? ret : 0;
}

/* The handler the next delivery will run, or NULL when none will (nothing pending, or only
 * ignored signals; a fatal default action never returns to the call). */
static const struct sys_sigaction *next_handler(const struct process *p)
{
	uint64_t ready = p->sys.sigpending & ~p->sys.sigmask;

	while (ready) {
		int sig = next_signal(ready);
		const struct sys_sigaction *act = &p->sys.act[sig - 1];
		if (has_handler(p, sig))
			return act;
		ready &= ~sigbit(sig);
	}
	return NULL;
}

/* Linux's do_signal prologue: an interrupted call returns -EINTR to a handler that does not
 * want it restarted, and is rewound otherwise (so the frame saves the rewound registers and the
 * call runs again after sigreturn). */
static void syscall_restart(struct process *p, struct trap_frame *f)
{
	long ret = p->sys.restart_ret;

	if (!ret)
		return;
	p->sys.restart_ret = 0;
	const struct sys_sigaction *act = next_handler(p);
	if (!act || ret == -ERESTARTNOINTR || (ret == -ERESTARTSYS && (act->flags & SA_RESTART)))
		arch_syscall_restart(f);
	else
		arch_syscall_set_return(f, -EINTR);
}

void signal_deliver(struct trap_frame *f)
{
	struct process *p = current_process();

	if (!p)
		return;
	syscall_restart(p, f);
	for (;;) {
		uint64_t ready = p->sys.sigpending & ~p->sys.sigmask;
		if (!ready)
			break;
		int sig = next_signal(ready);
		p->sys.sigpending &= ~sigbit(sig);
		uint64_t handler = p->sys.act[sig - 1].handler;
		if (handler == SIG_IGN)
			continue;
		if (handler == SIG_DFL)
			default_action(sig);
		else
			handle_signal(p, f, sig);
	}
	/* rt_sigsuspend's mask comes back when no handler frame took it. */
	if (p->sys.restore_sigmask) {
		p->sys.sigmask = p->sys.saved_sigmask;
		p->sys.restore_sigmask = false;
	}
}

/* ---- Helpers for the arch frames ---- */

void signal_fill_siginfo(uint8_t out[128], const struct signal_info *info, bool wide)
{
	int32_t head[3] = { info->signo, 0, info->code };
	size_t u = wide ? 16 : 12; /* the union follows, aligned for a pointer */

	memset(out, 0, 128);
	memcpy(out, head, sizeof(head));
	if (info->fault) {
		if (wide) {
			memcpy(out + u, &info->addr, 8);
		} else {
			uint32_t a = (uint32_t)info->addr;
			memcpy(out + u, &a, 4);
		}
		return;
	}
	int32_t pid = info->pid;
	uint32_t uid = info->uid;
	memcpy(out + u, &pid, 4);
	memcpy(out + u + 4, &uid, 4);
}

size_t signal_fill_stack_t(uint8_t *out, const struct signal_delivery *d, uint64_t sp, bool wide)
{
	/* The flags as sigaltstack reports them: ONSTACK while sp is on it, DISABLE without. */
	int flags = d->ss_flags;
	if (d->ss_size && sp > d->ss_sp && sp - d->ss_sp <= d->ss_size)
		flags = SS_ONSTACK;
	if (wide) {
		uint64_t v[3] = { d->ss_sp, (uint32_t)flags, d->ss_size };
		memcpy(out, v, sizeof(v));
		return sizeof(v);
	}
	uint32_t v[3] = { (uint32_t)d->ss_sp, (uint32_t)flags, (uint32_t)d->ss_size };
	memcpy(out, v, sizeof(v));
	return sizeof(v);
}

void signal_read_stack_t(const uint8_t *in, bool wide, struct signal_return *r)
{
	r->ss_valid = true;
	if (wide) {
		uint64_t v[3];
		memcpy(v, in, sizeof(v));
		r->ss_sp = v[0], r->ss_flags = (int)(uint32_t)v[1], r->ss_size = v[2];
		return;
	}
	uint32_t v[3];
	memcpy(v, in, sizeof(v));
	r->ss_sp = v[0], r->ss_flags = (int)v[1], r->ss_size = v[2];
}

uint64_t signal_special_mapping(const struct mm *mm, const char *name)
{
	for (const struct vma *v = mm->vmas; v; v = v->next)
		if (v->name && strcmp(v->name, name) == 0)
			return v->start;
	return 0;
}

/* The vDSO's dynamic symbol table, found as a dynamic loader does (PT_DYNAMIC: DT_SYMTAB,
 * DT_STRTAB, DT_HASH's nchain for the count). The image is linked at 0, so a symbol's value
 * is its offset in [vdso]. ELF32 and ELF64 differ only in field widths. */
struct elf_view {
	const uint8_t *base;
	bool wide;
};

static uint64_t elf_word(const struct elf_view *e, size_t off, bool wide)
{
	if (wide) {
		uint64_t v;
		memcpy(&v, e->base + off, 8);
		return v;
	}
	uint32_t v;
	memcpy(&v, e->base + off, 4);
	return v;
}

static uint64_t elf_half(const struct elf_view *e, size_t off)
{
	uint16_t v;
	memcpy(&v, e->base + off, 2);
	return v;
}

static uint64_t vdso_symbol_offset(const uint8_t *image, const char *name)
{
	struct elf_view e = { image, image[4] == 2 /* ELFCLASS64 */ };
	bool w = e.wide;
	uint64_t phoff = elf_word(&e, w ? 32 : 28, w);
	uint64_t phentsize = elf_half(&e, w ? 54 : 42), phnum = elf_half(&e, w ? 56 : 44);
	uint64_t dyn = 0, symtab = 0, strtab = 0, nsyms = 0;

	if (memcmp(image, "\177ELF", 4) != 0)
		return 0;
	for (uint64_t i = 0; i < phnum; i++) {
		size_t ph = (size_t)(phoff + i * phentsize);
		if (elf_word(&e, ph, false) == 2 /* PT_DYNAMIC */)
			dyn = elf_word(&e, ph + (w ? 8 : 4), w); /* p_offset */
	}
	if (!dyn)
		return 0;
	for (size_t d = (size_t)dyn;; d += w ? 16 : 8) {
		uint64_t tag = elf_word(&e, d, w), val = elf_word(&e, d + (w ? 8 : 4), w);
		if (tag == 0)
			break;
		if (tag == 4) /* DT_HASH: nbucket, nchain */
			nsyms = elf_word(&e, (size_t)val + 4, false);
		else if (tag == 5)
			strtab = val;
		else if (tag == 6)
			symtab = val;
	}
	for (uint64_t i = 0; symtab && strtab && i < nsyms; i++) {
		size_t sym = (size_t)(symtab + i * (w ? 24 : 16));
		uint64_t name_off = elf_word(&e, sym, false);
		uint64_t value = elf_word(&e, sym + (w ? 8 : 4), w);
		if (strcmp((const char *)image + strtab + name_off, name) == 0)
			return value;
	}
	return 0;
}

uint64_t signal_vdso_symbol(const struct mm *mm, const uint8_t *image, const char *name)
{
	uint64_t off;

	if (!mm->vdso)
		return 0;
	off = vdso_symbol_offset(image, name);
	return off ? mm->vdso + off : 0;
}
