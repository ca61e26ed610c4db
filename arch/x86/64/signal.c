/* x86_64's signal frames: the native rt_sigframe here, in Linux 6.1's layout (arch/x86/
 * include/asm/sigframe.h, uapi asm/sigcontext.h), and ia32 tasks' i386 frames through
 * arch/x86/signal_ia32.c.
 *
 *   128 bytes of red zone below the interrupted rsp (not on the alternate stack)
 *   the FPU state: FXSAVE's 512 bytes 64-byte aligned, Linux's software bytes at 464
 *     (FP_XSTATE_MAGIC1, no XSAVE: uc_flags has no UC_FP_XSTATE)
 *   rt_sigframe (440 bytes) at round_down(.., 16) - 8, as after a call: pretcode (the
 *     restorer: x86_64 requires SA_RESTORER), ucontext (uc_flags UC_SIGCONTEXT_SS |
 *     UC_STRICT_RESTORE_SS, uc_link, uc_stack, sigcontext: r8-r15, rdi, rsi, rbp, rbx, rdx,
 *     rax, rcx, rsp, rip, eflags, cs, gs, fs, ss, err, trapno, oldmask, cr2, fpstate, and
 *     uc_sigmask), siginfo (128)
 *
 * The handler starts with rdi = sig, rsi = &info, rdx = &uc, rax = 0. rt_sigreturn finds the
 * frame at rsp - 8 (the handler's ret popped pretcode). A frame whose cs, ss or rip the CPU
 * would refuse at iretq is a bad frame here (Linux lets iret fault and sends SIGSEGV). */
#include <arch/signal.h>
#include <asm/segment.h>
#include <asm/signal_ia32.h>
#include <asm/trap_frame.h>
#include <kernel/kernel.h>
#include <kernel/proc.h>
#include <lib/errno.h>
#include <lib/string.h>
#include <mm/mm.h>

#define UC_SIGCONTEXT_SS 0x2
#define UC_STRICT_RESTORE_SS 0x4
#define REDZONE 128

struct x64_sigcontext {
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
	uint64_t rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp, rip, eflags;
	uint16_t cs, gs, fs, ss;
	uint64_t err, trapno, oldmask, cr2, fpstate;
	uint64_t reserved1[8];
};

struct x64_ucontext {
	uint64_t uc_flags, uc_link;
	uint8_t uc_stack[24];
	struct x64_sigcontext uc_mcontext;
	uint64_t uc_sigmask;
};

struct x64_rt_sigframe {
	uint64_t pretcode;
	struct x64_ucontext uc;
	uint8_t info[128];
};

_Static_assert(sizeof(struct x64_sigcontext) == 256, "sigcontext_64");
_Static_assert(sizeof(struct x64_ucontext) == 304, "ucontext");
_Static_assert(sizeof(struct x64_rt_sigframe) == 440, "rt_sigframe");

extern const uint8_t vdso_ia32_start[];

static struct x64_rt_sigframe frame_buf;
static uint8_t fx[512];

uint64_t arch_signal_user_sp(const struct trap_frame *f, bool compat)
{
	return compat ? (uint32_t)f->rsp : f->rsp;
}

static int x64_setup_frame(struct trap_frame *f, const struct signal_delivery *d)
{
	struct process *p = current_process();
	uint64_t sp = d->on_altstack ? d->ss_sp + d->ss_size : f->rsp - REDZONE;
	uint64_t fpstate = 0;

	if (!(d->flags & SA_RESTORER))
		return -EFAULT; /* x86_64 has no kernel trampoline */
	if (x86_fpu_save_sigframe(fx, 0)) {
		fpstate = (sp - sizeof(fx)) & ~63ull;
		sp = fpstate;
	}
	uint64_t frame = ((sp - sizeof(frame_buf)) & ~15ull) - 8;

	memset(&frame_buf, 0, sizeof(frame_buf));
	frame_buf.pretcode = d->restorer;
	frame_buf.uc.uc_flags = UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS;
	signal_fill_stack_t(frame_buf.uc.uc_stack, d, f->rsp, true);
	frame_buf.uc.uc_sigmask = d->oldmask;
	frame_buf.uc.uc_mcontext = (struct x64_sigcontext){
		.r8 = f->r8, .r9 = f->r9, .r10 = f->r10, .r11 = f->r11, .r12 = f->r12,
		.r13 = f->r13, .r14 = f->r14, .r15 = f->r15, .rdi = f->rdi, .rsi = f->rsi,
		.rbp = f->rbp, .rbx = f->rbx, .rdx = f->rdx, .rax = f->rax, .rcx = f->rcx,
		.rsp = f->rsp, .rip = f->rip, .eflags = f->rflags, .cs = (uint16_t)f->cs,
		.ss = (uint16_t)f->ss, .err = d->info.fault ? d->info.syndrome : 0,
		.trapno = d->info.fault ? d->info.trapno : 0, .oldmask = d->oldmask,
		.cr2 = d->info.fault ? d->info.addr : 0, .fpstate = fpstate,
	};
	if (d->flags & SA_SIGINFO)
		signal_fill_siginfo(frame_buf.info, &d->info, true);
	if ((fpstate && copy_to_user(&p->mm, fpstate, fx, sizeof(fx))) ||
	    copy_to_user(&p->mm, frame, &frame_buf, sizeof(frame_buf)))
		return -EFAULT;

	f->rdi = (uint64_t)d->info.signo;
	f->rsi = frame + __builtin_offsetof(struct x64_rt_sigframe, info);
	f->rdx = frame + __builtin_offsetof(struct x64_rt_sigframe, uc);
	f->rax = 0;
	f->rsp = frame;
	f->rip = d->handler;
	f->cs = USER_CS;
	f->ss = USER_DS;
	f->rflags &= ~(uint64_t)(X86_EFLAGS_DF | X86_EFLAGS_RF | X86_EFLAGS_TF);
	return 0;
}

/* iretq faults in the kernel on a non-canonical rip (48-bit virtual addresses). */
static bool canonical(uint64_t va)
{
	return (uint64_t)((int64_t)(va << 16) >> 16) == va;
}

static int x64_sigreturn(struct trap_frame *f, struct signal_return *r)
{
	struct process *p = current_process();
	uint64_t frame = f->rsp - 8;

	if (copy_from_user(&p->mm, &frame_buf, frame, sizeof(frame_buf)))
		return -EFAULT;
	const struct x64_sigcontext *sc = &frame_buf.uc.uc_mcontext;
	uint64_t cs = sc->cs | 3u, ss = sc->ss | 3u;
	if ((cs != USER_CS && cs != USER32_CS) || ss != USER_DS || !canonical(sc->rip))
		return -EFAULT;
	if (sc->fpstate && copy_from_user(&p->mm, fx, sc->fpstate, sizeof(fx)))
		return -EFAULT;
	f->r8 = sc->r8, f->r9 = sc->r9, f->r10 = sc->r10, f->r11 = sc->r11;
	f->r12 = sc->r12, f->r13 = sc->r13, f->r14 = sc->r14, f->r15 = sc->r15;
	f->rdi = sc->rdi, f->rsi = sc->rsi, f->rbp = sc->rbp, f->rbx = sc->rbx;
	f->rdx = sc->rdx, f->rax = sc->rax, f->rcx = sc->rcx, f->rsp = sc->rsp;
	f->rip = sc->rip;
	f->cs = cs;
	f->ss = ss;
	f->rflags = (f->rflags & ~(uint64_t)X86_FIX_EFLAGS) | (sc->eflags & X86_FIX_EFLAGS);
	if (sc->fpstate)
		x86_fpu_restore_sigframe(fx);
	else
		x86_fpu_reset_sigframe();
	r->mask = frame_buf.uc.uc_sigmask;
	signal_read_stack_t(frame_buf.uc.uc_stack, true, r);
	r->ret = (long)f->rax;
	return 0;
}

/* ---- ia32 tasks: the trap frame's registers as struct ia32_regs and back. The data
 * segment registers are not in the trap frame (the kernel never reloads them): the frame
 * records their live values and sigreturn leaves them alone. ---- */

/* The selector in segment register `seg` (ds, es, fs or gs): a mov names its register in
 * the instruction, hence a macro rather than a function with an argument. */
#define read_seg(seg)                                                   \
	({                                                              \
		uint32_t v_;                                            \
		__asm__ volatile("mov %%" #seg ", %0" : "=r"(v_));      \
		v_ & 0xffff;                                            \
	})

static void to_ia32(const struct trap_frame *f, struct ia32_regs *r)
{
	*r = (struct ia32_regs){
		.eax = (uint32_t)f->rax, .ebx = (uint32_t)f->rbx, .ecx = (uint32_t)f->rcx,
		.edx = (uint32_t)f->rdx, .esi = (uint32_t)f->rsi, .edi = (uint32_t)f->rdi,
		.ebp = (uint32_t)f->rbp, .esp = (uint32_t)f->rsp, .eip = (uint32_t)f->rip,
		.eflags = (uint32_t)f->rflags, .cs = (uint32_t)f->cs, .ss = (uint32_t)f->ss,
		.ds = read_seg(ds), .es = read_seg(es), .fs = read_seg(fs), .gs = read_seg(gs),
	};
}

static void from_ia32(struct trap_frame *f, const struct ia32_regs *r)
{
	f->rax = r->eax, f->rbx = r->ebx, f->rcx = r->ecx, f->rdx = r->edx;
	f->rsi = r->esi, f->rdi = r->edi, f->rbp = r->ebp, f->rsp = r->esp;
	f->rip = r->eip;
	f->rflags = (f->rflags & ~0xffffffffull) | r->eflags;
	f->cs = r->cs;
	f->ss = r->ss;
}

static int ia32_setup(struct trap_frame *f, const struct signal_delivery *d)
{
	struct ia32_regs r;

	to_ia32(f, &r);
	if (ia32_setup_frame(&r, d, vdso_ia32_start, USER32_CS, USER_DS))
		return -EFAULT;
	from_ia32(f, &r);
	return 0;
}

static int ia32_sigreturn(struct trap_frame *f, bool rt, struct signal_return *out)
{
	struct ia32_regs r;

	to_ia32(f, &r);
	if (ia32_restore_frame(&r, rt, out))
		return -EFAULT;
	if ((r.cs != USER32_CS && r.cs != USER_CS) || r.ss != USER_DS)
		return -EFAULT;
	from_ia32(f, &r);
	return 0;
}

int arch_setup_signal_frame(struct trap_frame *f, bool compat, const struct signal_delivery *d)
{
	return compat ? ia32_setup(f, d) : x64_setup_frame(f, d);
}

int arch_sigreturn(struct trap_frame *f, bool compat, bool rt, struct signal_return *r)
{
	if (compat)
		return ia32_sigreturn(f, rt, r);
	return rt ? x64_sigreturn(f, r) : -EFAULT; /* x86_64 has no sigreturn */
}
