/* AArch32 (compat) tasks' signal frames on arm64, in Linux 6.1's layout (arch/arm64/kernel/
 * signal32.c), which is 32-bit ARM's (arch/arm/signal.c has the same frame for ARM EABI):
 *
 *   sigframe:    ucontext (744 bytes), retcode[2]                      at (sp - 752) & ~7
 *   rt_sigframe: siginfo (128), then the same sigframe                 at (sp - 880) & ~7
 *   ucontext: uc_flags (0x5ac3c35a for a sigframe, 0 for rt), uc_link, uc_stack, then at 20
 *   the sigcontext (trap_no, error_code, oldmask, r0-r12, sp, lr, pc, cpsr, fault_address),
 *   uc_sigmask at 104, unused words, uc_regspace at 232: the VFP record (magic 0x56465001,
 *   size 288, d0-d31, fpscr, fpexc, fpinst, fpinst2) and a zero end word.
 *
 * The handler starts with r0 = signal (r1 = &info, r2 = &uc for rt), sp = the frame, lr =
 * sa_restorer or the [sigpage]'s ARM or Thumb return code for the handler's state, Thumb when
 * the handler's bit 0 is set, the IT bits and the condition flags clear. AArch32's d0-d31 are
 * the low 128-bit registers v0-v15; FPSCR is FPSR and FPCR together. */
#include <arch/signal.h>
#include <asm/signal32.h>
#include <asm/trap_frame.h>
#include <kernel/kernel.h>
#include <kernel/proc.h>
#include <lib/errno.h>
#include <lib/string.h>
#include <mm/mm.h>

#define VFP_MAGIC 0x56465001u
#define SIGFRAME_UC_FLAGS 0x5ac3c35au /* a value sc.trap_no never has: a non-rt frame */
#define FSR_WRITE (1u << 11)
#define ESR_WNR (1u << 6)
#define VFP_FPSCR_STAT_MASK 0xf800009fu
#define VFP_FPSCR_CTRL_MASK 0x07f79f00u

#define PSR_AA32_T (1u << 5)
#define PSR_AA32_F (1u << 6)
#define PSR_AA32_I (1u << 7)
#define PSR_AA32_A (1u << 8)
#define PSR_AA32_E (1u << 9)
#define PSR_AA32_IT 0x0600fc00u
#define PSR_AA32_FLAGS 0xff000000u /* PSR_f: N Z C V Q, IT[1:0], J */
#define PSR_MODE_MASK 0xfu

struct a32_sigcontext {
	uint32_t trap_no, error_code, oldmask;
	uint32_t r[16]; /* r0-r10, fp, ip, sp, lr, pc */
	uint32_t cpsr, fault_address;
};

struct a32_vfp_sigframe {
	uint32_t magic, size;
	uint64_t fpregs[32];
	uint32_t fpscr, pad;
	uint32_t fpexc, fpinst, fpinst2, pad2;
};

struct a32_ucontext {
	uint32_t uc_flags, uc_link;
	uint8_t uc_stack[12];
	struct a32_sigcontext uc_mcontext;
	uint32_t uc_sigmask[2];
	uint32_t unused[30];
	uint32_t uc_regspace[128] __aligned(8);
};

struct a32_sigframe {
	struct a32_ucontext uc;
	uint32_t retcode[2];
};

struct a32_rt_sigframe {
	uint8_t info[128];
	struct a32_sigframe sig;
};

_Static_assert(sizeof(struct a32_sigcontext) == 84, "sigcontext");
_Static_assert(sizeof(struct a32_vfp_sigframe) == 288, "vfp_sigframe");
_Static_assert(__builtin_offsetof(struct a32_ucontext, uc_sigmask) == 104, "uc_sigmask");
_Static_assert(__builtin_offsetof(struct a32_ucontext, uc_regspace) == 232, "uc_regspace");
_Static_assert(sizeof(struct a32_sigframe) == 752, "sigframe");
_Static_assert(sizeof(struct a32_rt_sigframe) == 880, "rt_sigframe");

static struct a32_rt_sigframe frame_buf;

static void fill_sigcontext(struct a32_sigframe *sf, const struct trap_frame *f,
			    const struct signal_delivery *d)
{
	struct a32_sigcontext *sc = &sf->uc.uc_mcontext;
	static uint64_t v[64];
	uint32_t fpsr, fpcr;

	for (int i = 0; i < 15; i++)
		sc->r[i] = (uint32_t)f->x[i];
	sc->r[15] = (uint32_t)f->pc;
	sc->cpsr = (uint32_t)f->pstate;
	sc->trap_no = 0;
	sc->error_code = d->info.fault && (d->info.syndrome & ESR_WNR) ? FSR_WRITE : 0;
	sc->fault_address = d->info.fault ? (uint32_t)d->info.addr : 0;
	sc->oldmask = (uint32_t)d->oldmask;
	sf->uc.uc_sigmask[0] = (uint32_t)d->oldmask;
	sf->uc.uc_sigmask[1] = (uint32_t)(d->oldmask >> 32);

	struct a32_vfp_sigframe vfp = { .magic = VFP_MAGIC, .size = sizeof(vfp) };
	arm64_fpsimd_save_vregs(v, &fpsr, &fpcr);
	memcpy(vfp.fpregs, v, sizeof(vfp.fpregs)); /* v0-v15 are d0-d31 */
	vfp.fpscr = (fpsr & VFP_FPSCR_STAT_MASK) | (fpcr & VFP_FPSCR_CTRL_MASK);
	vfp.fpexc = 1u << 30; /* FPEXC.EN: arm64 has no FPEXC to report */
	memcpy(sf->uc.uc_regspace, &vfp, sizeof(vfp)); /* the end word after it stays 0 */
}

int a32_setup_signal_frame(struct trap_frame *f, const struct signal_delivery *d)
{
	struct process *p = current_process();
	bool rt = d->flags & SA_SIGINFO;
	uint64_t sp = (uint32_t)f->x[13];
	uint64_t sp_top = d->on_altstack ? d->ss_sp + d->ss_size : sp;
	size_t size = rt ? sizeof(struct a32_rt_sigframe) : sizeof(struct a32_sigframe);
	uint64_t frame = (sp_top - size) & ~7ull;
	struct a32_sigframe *sf = &frame_buf.sig;

	memset(&frame_buf, 0, sizeof(frame_buf));
	if (rt) {
		signal_fill_siginfo(frame_buf.info, &d->info, false);
		signal_fill_stack_t(sf->uc.uc_stack, d, sp, false);
	} else {
		sf->uc.uc_flags = SIGFRAME_UC_FLAGS;
	}
	fill_sigcontext(sf, f, d);
	const void *src = rt ? (const void *)&frame_buf : (const void *)sf;
	if (frame >> 32 || copy_to_user(&p->mm, frame, src, size))
		return -EFAULT;

	uint32_t handler = (uint32_t)d->handler;
	unsigned thumb = handler & 1;
	uint32_t spsr = (uint32_t)f->pstate & ~(PSR_AA32_FLAGS | PSR_AA32_E | PSR_AA32_IT);
	spsr = thumb ? spsr | PSR_AA32_T : spsr & ~PSR_AA32_T;
	uint64_t retcode;
	if (d->flags & SA_RESTORER) {
		retcode = (uint32_t)d->restorer;
	} else {
		/* [sigpage]: ARM sigreturn, (svc), Thumb sigreturn, ARM rt_sigreturn, ... */
		unsigned idx = (thumb << 1) + (rt ? 3 : 0);
		uint64_t page = signal_special_mapping(&p->mm, "[sigpage]");
		retcode = page ? page + idx * 4 + thumb : 0;
	}
	f->x[0] = (uint32_t)d->info.signo;
	if (rt) {
		f->x[1] = frame + __builtin_offsetof(struct a32_rt_sigframe, info);
		f->x[2] = frame + __builtin_offsetof(struct a32_rt_sigframe, sig.uc);
	}
	f->x[13] = frame;
	f->x[14] = retcode;
	f->pc = handler & ~1u;
	f->pstate = spsr;
	return 0;
}

int a32_sigreturn(struct trap_frame *f, bool rt, struct signal_return *r)
{
	struct process *p = current_process();
	uint64_t frame = (uint32_t)f->x[13];
	struct a32_sigframe *sf = &frame_buf.sig;
	static uint64_t v[64];
	uint32_t fpsr, fpcr;

	if (frame & 7)
		return -EFAULT;
	if (rt ? copy_from_user(&p->mm, &frame_buf, frame, sizeof(frame_buf)) :
		 copy_from_user(&p->mm, sf, frame, sizeof(*sf)))
		return -EFAULT;
	const struct a32_sigcontext *sc = &sf->uc.uc_mcontext;
	/* Linux's valid_compat_regs: little-endian AArch32 user mode, with the A, I, F masks user
	 * mode runs with (rndbits keeps A and F set in EL0; only I must be clear). */
	uint32_t cpsr = sc->cpsr & ~PSR_AA32_E;
	uint32_t control = PSR_MODE_MASK | PSR_MODE32 | PSR_AA32_A | PSR_AA32_I | PSR_AA32_F;
	if ((cpsr & control) != ((uint32_t)f->pstate & control))
		return -EFAULT;
	struct a32_vfp_sigframe vfp;
	memcpy(&vfp, sf->uc.uc_regspace, sizeof(vfp));
	if (vfp.magic != VFP_MAGIC || vfp.size != sizeof(vfp))
		return -EFAULT;
	for (int i = 0; i < 15; i++)
		f->x[i] = sc->r[i];
	f->pc = sc->r[15];
	f->pstate = cpsr;
	arm64_fpsimd_save_vregs(v, &fpsr, &fpcr);
	memcpy(v, vfp.fpregs, sizeof(vfp.fpregs));
	arm64_fpsimd_load_vregs(v, vfp.fpscr & VFP_FPSCR_STAT_MASK, vfp.fpscr & VFP_FPSCR_CTRL_MASK);
	r->mask = sf->uc.uc_sigmask[0] | (uint64_t)sf->uc.uc_sigmask[1] << 32;
	if (rt)
		signal_read_stack_t(sf->uc.uc_stack, false, r);
	r->ret = (long)(uint32_t)f->x[0];
	return 0;
}
