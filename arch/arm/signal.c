/* 32-bit ARM (EABI) signal frames, in Linux 6.1's layout (arch/arm/kernel/signal.c, uapi
 * asm/sigcontext.h and asm/ucontext.h); AArch32 tasks on arm64 get the same frame
 * (arch/arm64/signal32.c):
 *
 *   sigframe:    ucontext (744 bytes), retcode[2]                      at (sp - 752) & ~7
 *   rt_sigframe: siginfo (128), then the same sigframe                 at (sp - 880) & ~7
 *   ucontext: uc_flags (0x5ac3c35a for a sigframe, 0 for rt), uc_link, uc_stack, then at 20
 *   the sigcontext (trap_no, error_code, oldmask, r0-r10, fp, ip, sp, lr, pc, cpsr,
 *   fault_address), uc_sigmask at 104, unused words, uc_regspace at 232: the VFP record
 *   (magic 0x56465001, size 288: d0-d31, fpscr, fpexc, fpinst, fpinst2) and a zero end word.
 *
 * The handler starts with r0 = signal (r1 = &info, r2 = &uc for rt), sp = the frame, lr =
 * sa_restorer, or the [sigpage]'s return code (at 0x200, arch/arm/vdso.c) for the handler's
 * ARM or Thumb state; the two words of that code are also written into retcode, as Linux
 * does. The condition flags and IT bits are cleared, FPSCR's vector length and stride too.
 * The VFP registers are read and written live (the kernel never uses them). */
#include <arch/signal.h>
#include <asm/trap_frame.h>
#include <kernel/kernel.h>
#include <kernel/proc.h>
#include <kernel/signal.h>
#include <lib/errno.h>
#include <lib/string.h>
#include <mm/mm.h>

#define VFP_MAGIC 0x56465001u
#define SIGFRAME_UC_FLAGS 0x5ac3c35au /* a value sc.trap_no never has: a non-rt frame */
#define SIGRETURN_OFFSET 0x200        /* the codes' place in [sigpage] (arch/arm/vdso.c) */
#define FPSCR_LEN_STRIDE 0x00370000u
#define PSR_FLAGS 0xff000000u         /* PSR_f: N Z C V Q, IT[1:0], J */
#define PSR_E (1u << 9)
#define PSR_IT 0x0600fc00u

struct arm_sigcontext {
	uint32_t trap_no, error_code, oldmask;
	uint32_t r[16]; /* r0-r10, fp, ip, sp, lr, pc */
	uint32_t cpsr, fault_address;
};

struct arm_vfp_sigframe {
	uint32_t magic, size;
	uint64_t fpregs[32];
	uint32_t fpscr, pad;
	uint32_t fpexc, fpinst, fpinst2, pad2;
};

struct arm_ucontext {
	uint32_t uc_flags, uc_link;
	uint8_t uc_stack[12];
	struct arm_sigcontext uc_mcontext;
	uint32_t uc_sigmask[2];
	uint32_t unused[30];
	uint32_t uc_regspace[128] __aligned(8);
};

struct arm_sigframe {
	struct arm_ucontext uc;
	uint32_t retcode[2];
};

struct arm_rt_sigframe {
	uint8_t info[128];
	struct arm_sigframe sig;
};

_Static_assert(sizeof(struct arm_sigcontext) == 84, "sigcontext");
_Static_assert(sizeof(struct arm_vfp_sigframe) == 288, "vfp_sigframe");
_Static_assert(__builtin_offsetof(struct arm_ucontext, uc_sigmask) == 104, "uc_sigmask");
_Static_assert(__builtin_offsetof(struct arm_ucontext, uc_regspace) == 232, "uc_regspace");
_Static_assert(sizeof(struct arm_sigframe) == 752, "sigframe");
_Static_assert(sizeof(struct arm_rt_sigframe) == 880, "rt_sigframe");

/* Linux's sigreturn_codes: ARM sigreturn, its OABI swi, Thumb sigreturn, then rt_sigreturn. */
static const uint32_t sigreturn_codes[] = {
	0xe3a07077, 0xef900077, 0xdf002777, 0xe3a070ad, 0xef9000ad, 0xdf0027ad,
};

static struct arm_rt_sigframe frame_buf;

static void vfp_save(struct arm_vfp_sigframe *v)
{
	uint32_t fpscr, fpexc;
	uint64_t *regs = v->fpregs;

	/* The asm advances the address it is given: an in-out operand, or the compiler may use
	 * the register afterwards as if it still held v->fpregs. */
	__asm__ volatile(".fpu neon\n\t"
			 "vstmia %2, {d0-d15}\n\t"
			 "add %2, %2, #128\n\t"
			 "vstmia %2, {d16-d31}\n\t"
			 "vmrs %0, fpscr\n\t"
			 "vmrs %1, fpexc"
			 : "=&r"(fpscr), "=&r"(fpexc), "+r"(regs) : : "memory");
	v->fpscr = fpscr;
	v->fpexc = fpexc;
}

static void vfp_load(const uint64_t *fpregs, uint32_t fpscr)
{
	__asm__ volatile(".fpu neon\n\t"
			 "vldmia %0, {d0-d15}\n\t"
			 "add %0, %0, #128\n\t"
			 "vldmia %0, {d16-d31}\n\t"
			 "vmsr fpscr, %1"
			 : "+r"(fpregs) : "r"(fpscr) : "memory");
}

uint64_t arch_signal_user_sp(const struct trap_frame *f, bool compat)
{
	(void)compat;
	return f->sp;
}

/* thread.trap_no as Linux's ARM handlers set it: 14 for an abort (__do_user_fault), 6 for an
 * undefined instruction, 1 for a breakpoint. */
static uint32_t linux_trap_no(int sig)
{
	switch (sig) {
	case SIGSEGV: case SIGBUS: return 14;
	case SIGILL: return 6;
	case SIGTRAP: return 1;
	default: return 0;
	}
}

static void fill_sigcontext(struct arm_sigframe *sf, const struct trap_frame *f,
			    const struct signal_delivery *d)
{
	struct arm_sigcontext *sc = &sf->uc.uc_mcontext;
	static struct arm_vfp_sigframe vfp __aligned(8);

	memcpy(sc->r, f->r, sizeof(f->r));
	sc->r[13] = f->sp;
	sc->r[14] = f->lr;
	sc->r[15] = f->pc;
	sc->cpsr = f->cpsr;
	sc->trap_no = d->info.fault ? linux_trap_no(d->info.signo) : 0;
	sc->error_code = d->info.fault ? (uint32_t)d->info.syndrome : 0;
	sc->fault_address = d->info.fault ? (uint32_t)d->info.addr : 0;
	sc->oldmask = (uint32_t)d->oldmask;
	sf->uc.uc_sigmask[0] = (uint32_t)d->oldmask;
	sf->uc.uc_sigmask[1] = (uint32_t)(d->oldmask >> 32);

	memset(&vfp, 0, sizeof(vfp));
	vfp_save(&vfp);
	vfp.magic = VFP_MAGIC;
	vfp.size = sizeof(vfp);
	memcpy(sf->uc.uc_regspace, &vfp, sizeof(vfp)); /* the end word after it stays 0 */
	/* The handler runs without a short-vector length or stride (vfp_preserve_user_clear_
	 * hwstate). */
	vfp_load(vfp.fpregs, vfp.fpscr & ~FPSCR_LEN_STRIDE);
}

int arch_setup_signal_frame(struct trap_frame *f, bool compat, const struct signal_delivery *d)
{
	struct process *p = current_process();
	bool rt = d->flags & SA_SIGINFO;
	uint64_t sp_top = d->on_altstack ? d->ss_sp + d->ss_size : f->sp;
	size_t size = rt ? sizeof(struct arm_rt_sigframe) : sizeof(struct arm_sigframe);
	uint64_t frame = (sp_top - size) & ~7ull;
	struct arm_sigframe *sf = &frame_buf.sig;
	uint32_t handler = (uint32_t)d->handler;
	unsigned thumb = handler & 1;
	unsigned idx = (thumb << 1) + (rt ? 3 : 0);

	(void)compat;
	memset(&frame_buf, 0, sizeof(frame_buf));
	if (rt) {
		signal_fill_siginfo(frame_buf.info, &d->info, false);
		signal_fill_stack_t(sf->uc.uc_stack, d, f->sp, false);
	} else {
		sf->uc.uc_flags = SIGFRAME_UC_FLAGS;
	}
	uint64_t retcode;
	if (d->flags & SA_RESTORER) {
		retcode = (uint32_t)d->restorer;
	} else {
		sf->retcode[0] = sigreturn_codes[idx];
		sf->retcode[1] = sigreturn_codes[idx + 1];
		uint64_t page = signal_special_mapping(&p->mm, "[sigpage]");
		retcode = page ? page + SIGRETURN_OFFSET + idx * 4 + thumb : 0;
	}
	fill_sigcontext(sf, f, d);
	const void *src = rt ? (const void *)&frame_buf : (const void *)sf;
	if (frame >> 32 || copy_to_user(&p->mm, frame, src, size))
		return -EFAULT;

	uint32_t cpsr = f->cpsr & ~(PSR_FLAGS | PSR_E | PSR_IT);
	cpsr = thumb ? cpsr | ARM_PSR_T : cpsr & ~ARM_PSR_T;
	f->r[0] = (uint32_t)d->info.signo;
	if (rt) {
		f->r[1] = (uint32_t)(frame + __builtin_offsetof(struct arm_rt_sigframe, info));
		f->r[2] = (uint32_t)(frame + __builtin_offsetof(struct arm_rt_sigframe, sig.uc));
	}
	f->sp = (uint32_t)frame;
	f->lr = (uint32_t)retcode;
	f->pc = handler & ~1u;
	f->cpsr = cpsr;
	return 0;
}

int arch_sigreturn(struct trap_frame *f, bool compat, bool rt, struct signal_return *r)
{
	struct process *p = current_process();
	uint64_t frame = f->sp;
	struct arm_sigframe *sf = &frame_buf.sig;

	(void)compat;
	if (frame & 7)
		return -EFAULT;
	if (rt ? copy_from_user(&p->mm, &frame_buf, frame, sizeof(frame_buf)) :
		 copy_from_user(&p->mm, sf, frame, sizeof(*sf)))
		return -EFAULT;
	const struct arm_sigcontext *sc = &sf->uc.uc_mcontext;
	/* Linux's valid_user_regs: user mode with the interrupt masks user mode runs with. */
	uint32_t control = ARM_MODE_MASK | ARM_PSR_I | ARM_PSR_F | ARM_PSR_A;
	if ((sc->cpsr & control) != (f->cpsr & control))
		return -EFAULT;
	static struct arm_vfp_sigframe vfp __aligned(8);
	memcpy(&vfp, sf->uc.uc_regspace, sizeof(vfp));
	if (vfp.magic != VFP_MAGIC || vfp.size != sizeof(vfp))
		return -EFAULT;
	memcpy(f->r, sc->r, sizeof(f->r));
	f->sp = sc->r[13];
	f->lr = sc->r[14];
	f->pc = sc->r[15];
	f->cpsr = sc->cpsr;
	vfp_load(vfp.fpregs, vfp.fpscr);
	r->mask = sf->uc.uc_sigmask[0] | (uint64_t)sf->uc.uc_sigmask[1] << 32;
	if (rt)
		signal_read_stack_t(sf->uc.uc_stack, false, r);
	r->ret = (long)f->r[0];
	return 0;
}
