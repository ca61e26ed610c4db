/* i386 signal frames, for i386 tasks and ia32 tasks on x86_64 alike, in Linux 6.1's layout
 * (arch/x86/include/asm/sigframe.h, uapi asm/sigcontext.h):
 *
 *   sigframe (732 bytes): pretcode, sig, sigcontext (88), an unused _fpstate_32 (624),
 *     extramask (the mask's high word), retcode[8]
 *   rt_sigframe (268): pretcode, sig, pinfo, puc, siginfo (128), ucontext (uc_flags, uc_link,
 *     uc_stack, sigcontext, uc_sigmask), retcode[8]
 *   below the interrupted esp (or the alternate stack's top): the FPU state, an fsave-format
 *     header (112 bytes: control, status, tag words, pointers, st0-st7, status, magic 0 =
 *     "FXSR data follows") then FXSAVE's 512 bytes 64-byte aligned; the frame under it with
 *     ((sp + 4) & -16) - 4, so the handler sees esp + 4 16-byte aligned as after a call.
 *
 * The handler starts with eax = sig, edx = &info, ecx = &uc (rt; 0 otherwise: -mregparm=3),
 * returning to sa_restorer (SA_RESTORER: glibc's and musl's), the vDSO's __kernel_sigreturn or
 * __kernel_rt_sigreturn, or the retcode on the stack. sigcontext's fpstate points at the
 * header; sigreturn reads the header's environment and registers back over FXSAVE's, as
 * Linux's convert_to_fxsr does. */
#include <arch/signal.h>
#include <asm/signal_ia32.h>
#include <kernel/kernel.h>
#include <kernel/proc.h>
#include <lib/errno.h>
#include <lib/string.h>
#include <mm/mm.h>

#define FP_XSTATE_MAGIC1 0x46505853u
#define FP_XSTATE_MAGIC2_SIZE 4
#define XFEATURE_MASK_FPSSE 3u
#define X86_FXSR_MAGIC 0x0000
#define FSAVE_HEADER 112

struct ia32_sigcontext {
	uint16_t gs, gsh, fs, fsh, es, esh, ds, dsh;
	uint32_t edi, esi, ebp, esp, ebx, edx, ecx, eax;
	uint32_t trapno, err, eip;
	uint16_t cs, csh;
	uint32_t eflags, esp_at_signal;
	uint16_t ss, ssh;
	uint32_t fpstate, oldmask, cr2;
};

struct ia32_ucontext {
	uint32_t uc_flags, uc_link;
	uint8_t uc_stack[12];
	struct ia32_sigcontext uc_mcontext;
	uint32_t uc_sigmask[2];
};

struct ia32_sigframe {
	uint32_t pretcode;
	int32_t sig;
	struct ia32_sigcontext sc;
	uint8_t fpstate_unused[FSAVE_HEADER + 512];
	uint32_t extramask;
	uint8_t retcode[8];
};

struct ia32_rt_sigframe {
	uint32_t pretcode;
	int32_t sig;
	uint32_t pinfo, puc;
	uint8_t info[128];
	struct ia32_ucontext uc;
	uint8_t retcode[8];
};

_Static_assert(sizeof(struct ia32_sigcontext) == 88, "sigcontext_32");
_Static_assert(sizeof(struct ia32_ucontext) == 116, "ucontext_ia32");
_Static_assert(sizeof(struct ia32_sigframe) == 732, "sigframe_ia32");
_Static_assert(sizeof(struct ia32_rt_sigframe) == 268, "rt_sigframe_ia32");

/* The return code Linux still writes for old debuggers: popl %eax; movl $119, %eax;
 * int $0x80 — and movl $173, %eax; int $0x80. */
static const uint8_t sigreturn_code[8] = { 0x58, 0xb8, 0x77, 0, 0, 0, 0xcd, 0x80 };
static const uint8_t rt_sigreturn_code[8] = { 0xb8, 0xad, 0, 0, 0, 0xcd, 0x80, 0 };

/* ---- FPU ---- */

static uint8_t fx_buf[512] __aligned(64);

static bool fxsr_enabled(void)
{
	unsigned long cr4;

	__asm__ volatile("mov %%cr4, %0" : "=r"(cr4));
	return cr4 & (1u << 9); /* CR4.OSFXSR */
}

static void fxsave_live(void)
{
#ifdef CONFIG_64BIT
	__asm__ volatile("fxsave64 %0" : "=m"(fx_buf));
#else
	__asm__ volatile("fxsave %0" : "=m"(fx_buf));
#endif
}

static void fxrstor_live(void)
{
#ifdef CONFIG_64BIT
	__asm__ volatile("fxrstor64 %0" : : "m"(fx_buf));
#else
	__asm__ volatile("fxrstor %0" : : "m"(fx_buf));
#endif
}

bool x86_fpu_save_sigframe(uint8_t fx[512], unsigned extra)
{
	if (!fxsr_enabled())
		return false;
	fxsave_live();
	uint32_t sw[12] = { FP_XSTATE_MAGIC1, 512 + FP_XSTATE_MAGIC2_SIZE + extra,
			    XFEATURE_MASK_FPSSE, 0, 512 }; /* magic1, extended_size, xfeatures
							    * (64 bits), xstate_size */
	memcpy(fx_buf + 464, sw, sizeof(sw));
	memcpy(fx, fx_buf, 512);
	return true;
}

void x86_fpu_restore_sigframe(const uint8_t fx[512])
{
	uint32_t mxcsr, mask;

	if (!fxsr_enabled())
		return;
	fxsave_live(); /* the CPU's MXCSR_MASK, at 28 */
	memcpy(&mask, fx_buf + 28, 4);
	if (!mask)
		mask = 0xffbf;
	memcpy(fx_buf, fx, 464);
	memcpy(&mxcsr, fx_buf + 24, 4);
	mxcsr &= mask;
	memcpy(fx_buf + 24, &mxcsr, 4);
	fxrstor_live();
}

void x86_fpu_reset_sigframe(void)
{
	if (!fxsr_enabled())
		return;
	memset(fx_buf, 0, sizeof(fx_buf));
	fx_buf[0] = 0x7f, fx_buf[1] = 0x03; /* FCW 0x37f */
	fx_buf[24] = 0x80, fx_buf[25] = 0x1f; /* MXCSR 0x1f80 */
	fxrstor_live();
}

/* The fsave header from FXSAVE's image (convert_from_fxsr): the full tag word is rebuilt from
 * the abridged one and each register's class. */
static unsigned fsave_tag(const uint8_t *fx)
{
	unsigned abridged = fx[4], top = (fx[2] | fx[3] << 8) >> 11 & 7, tag = 0;

	for (unsigned i = 0; i < 8; i++) {
		unsigned t = 3; /* empty */
		if (abridged & (1u << i)) {
			const uint8_t *st = fx + 32 + ((i - top) & 7) * 16;
			unsigned exp = (st[8] | st[9] << 8) & 0x7fff;
			uint64_t mant;
			memcpy(&mant, st, 8);
			if (exp == 0x7fff)
				t = 2;
			else if (exp == 0)
				t = mant ? 2 : 1;
			else
				t = mant >> 63 ? 0 : 2;
		}
		tag |= t << (2 * i);
	}
	return tag;
}

static void fsave_header(uint8_t out[FSAVE_HEADER], const uint8_t *fx)
{
	uint16_t cwd, swd, fop, fcs, fos;
	uint32_t fip, foo;

	memcpy(&cwd, fx, 2);
	memcpy(&swd, fx + 2, 2);
	memcpy(&fop, fx + 6, 2);
	memcpy(&fip, fx + 8, 4);
	memcpy(&fcs, fx + 12, 2);
	memcpy(&foo, fx + 16, 4);
	memcpy(&fos, fx + 20, 2);
	uint32_t env[7] = { 0xffff0000u | cwd, 0xffff0000u | swd, 0xffff0000u | fsave_tag(fx),
			    fip, fcs | (uint32_t)(fop & 0x7ff) << 16, foo, 0xffff0000u | fos };
	memset(out, 0, FSAVE_HEADER);
	memcpy(out, env, sizeof(env));
	for (int i = 0; i < 8; i++)
		memcpy(out + 28 + i * 10, fx + 32 + i * 16, 10);
	memcpy(out + 108, &swd, 2);          /* status */
	out[110] = out[111] = X86_FXSR_MAGIC; /* magic: FXSR data follows */
}

/* convert_to_fxsr: the header's environment and registers over the FXSAVE image. */
static void fxsr_from_header(uint8_t *fx, const uint8_t *hdr)
{
	uint32_t env[7];
	unsigned abridged = 0;

	memcpy(env, hdr, sizeof(env));
	uint16_t cwd = (uint16_t)env[0], swd = (uint16_t)env[1], fop = (uint16_t)(env[4] >> 16);
	uint16_t fcs = (uint16_t)env[4], fos = (uint16_t)env[6];
	for (unsigned i = 0; i < 8; i++)
		if (((env[2] >> (2 * i)) & 3) != 3)
			abridged |= 1u << i;
	memcpy(fx, &cwd, 2);
	memcpy(fx + 2, &swd, 2);
	fx[4] = (uint8_t)abridged;
	memcpy(fx + 6, &fop, 2);
	memcpy(fx + 8, &env[3], 4);
	memcpy(fx + 12, &fcs, 2);
	memcpy(fx + 16, &env[5], 4);
	memcpy(fx + 20, &fos, 2);
	for (int i = 0; i < 8; i++)
		memcpy(fx + 32 + i * 16, hdr + 28 + i * 10, 10);
}

/* ---- Frames ---- */

static union {
	struct ia32_sigframe sig;
	struct ia32_rt_sigframe rt;
} frame_buf;
static uint8_t fpstate_buf[FSAVE_HEADER + 512];

static void fill_sigcontext(struct ia32_sigcontext *sc, const struct ia32_regs *r,
			    uint32_t fpstate, const struct signal_delivery *d)
{
	const struct signal_info *fault = d->info.fault ? &d->info : NULL;

	*sc = (struct ia32_sigcontext){
		.gs = (uint16_t)r->gs, .fs = (uint16_t)r->fs, .es = (uint16_t)r->es,
		.ds = (uint16_t)r->ds, .edi = r->edi, .esi = r->esi, .ebp = r->ebp,
		.esp = r->esp, .ebx = r->ebx, .edx = r->edx, .ecx = r->ecx, .eax = r->eax,
		.trapno = fault ? fault->trapno : 0, .err = fault ? (uint32_t)fault->syndrome : 0,
		.eip = r->eip, .cs = (uint16_t)r->cs, .eflags = r->eflags, .esp_at_signal = r->esp,
		.ss = (uint16_t)r->ss, .fpstate = fpstate, .oldmask = (uint32_t)d->oldmask,
		.cr2 = fault ? (uint32_t)fault->addr : 0,
	};
}

int ia32_setup_frame(struct ia32_regs *r, const struct signal_delivery *d, const uint8_t *vdso,
		     uint32_t cs, uint32_t ds)
{
	struct process *p = current_process();
	uint64_t sigreturn = signal_vdso_symbol(&p->mm, vdso, "__kernel_sigreturn");
	uint64_t rt_sigreturn = signal_vdso_symbol(&p->mm, vdso, "__kernel_rt_sigreturn");
	bool rt = d->flags & SA_SIGINFO;
	uint64_t sp = d->on_altstack ? d->ss_sp + d->ss_size : r->esp;
	uint64_t fpstate = 0;

	/* The FPU state: FXSAVE's image 64-byte aligned, the fsave header right below it. */
	if (x86_fpu_save_sigframe(fpstate_buf + FSAVE_HEADER, FSAVE_HEADER)) {
		uint64_t fx = (sp - 512) & ~63ull;
		fpstate = fx - FSAVE_HEADER;
		fsave_header(fpstate_buf, fpstate_buf + FSAVE_HEADER);
		sp = fpstate;
	}
	size_t size = rt ? sizeof(frame_buf.rt) : sizeof(frame_buf.sig);
	uint64_t frame = ((sp - size + 4) & ~15ull) - 4;

	memset(&frame_buf, 0, sizeof(frame_buf));
	uint32_t restorer;
	if (rt) {
		struct ia32_rt_sigframe *f = &frame_buf.rt;
		restorer = (uint32_t)(d->flags & SA_RESTORER ? d->restorer :
				      rt_sigreturn ? rt_sigreturn :
				      frame + __builtin_offsetof(struct ia32_rt_sigframe, retcode));
		f->pretcode = restorer;
		f->sig = d->info.signo;
		f->pinfo = (uint32_t)(frame + __builtin_offsetof(struct ia32_rt_sigframe, info));
		f->puc = (uint32_t)(frame + __builtin_offsetof(struct ia32_rt_sigframe, uc));
		signal_fill_siginfo(f->info, &d->info, false);
		signal_fill_stack_t(f->uc.uc_stack, d, r->esp, false);
		fill_sigcontext(&f->uc.uc_mcontext, r, (uint32_t)fpstate, d);
		f->uc.uc_sigmask[0] = (uint32_t)d->oldmask;
		f->uc.uc_sigmask[1] = (uint32_t)(d->oldmask >> 32);
		memcpy(f->retcode, rt_sigreturn_code, sizeof(f->retcode));
	} else {
		struct ia32_sigframe *f = &frame_buf.sig;
		restorer = (uint32_t)(d->flags & SA_RESTORER ? d->restorer :
				      sigreturn ? sigreturn :
				      frame + __builtin_offsetof(struct ia32_sigframe, retcode));
		f->pretcode = restorer;
		f->sig = d->info.signo;
		fill_sigcontext(&f->sc, r, (uint32_t)fpstate, d);
		f->extramask = (uint32_t)(d->oldmask >> 32);
		memcpy(f->retcode, sigreturn_code, sizeof(f->retcode));
	}
	if (frame >> 32 || (fpstate && copy_to_user(&p->mm, fpstate, fpstate_buf,
						     sizeof(fpstate_buf))) ||
	    copy_to_user(&p->mm, frame, &frame_buf, size))
		return -EFAULT;

	r->esp = (uint32_t)frame;
	r->eip = (uint32_t)d->handler;
	r->eax = (uint32_t)d->info.signo;
	r->edx = rt ? frame_buf.rt.pinfo : 0;
	r->ecx = rt ? frame_buf.rt.puc : 0;
	r->ds = r->es = r->ss = ds;
	r->cs = cs;
	r->eflags &= ~(X86_EFLAGS_DF | X86_EFLAGS_RF | X86_EFLAGS_TF);
	return 0;
}

int ia32_restore_frame(struct ia32_regs *r, bool rt, struct signal_return *out)
{
	struct process *p = current_process();
	const struct ia32_sigcontext *sc;
	uint64_t frame;

	if (rt) {
		frame = (uint32_t)(r->esp - 4);
		if (copy_from_user(&p->mm, &frame_buf.rt, frame, sizeof(frame_buf.rt)))
			return -EFAULT;
		sc = &frame_buf.rt.uc.uc_mcontext;
		out->mask = frame_buf.rt.uc.uc_sigmask[0] |
			    (uint64_t)frame_buf.rt.uc.uc_sigmask[1] << 32;
		signal_read_stack_t(frame_buf.rt.uc.uc_stack, false, out);
	} else {
		frame = (uint32_t)(r->esp - 8);
		if (copy_from_user(&p->mm, &frame_buf.sig, frame, sizeof(frame_buf.sig)))
			return -EFAULT;
		sc = &frame_buf.sig.sc;
		out->mask = sc->oldmask | (uint64_t)frame_buf.sig.extramask << 32;
	}
	if (sc->fpstate) {
		if (copy_from_user(&p->mm, fpstate_buf, sc->fpstate, sizeof(fpstate_buf)))
			return -EFAULT;
		fxsr_from_header(fpstate_buf + FSAVE_HEADER, fpstate_buf);
	}
	r->ebx = sc->ebx, r->ecx = sc->ecx, r->edx = sc->edx, r->esi = sc->esi;
	r->edi = sc->edi, r->ebp = sc->ebp, r->eax = sc->eax, r->esp = sc->esp;
	r->eip = sc->eip;
	r->cs = sc->cs | 3u, r->ss = sc->ss | 3u;
	r->ds = sc->ds, r->es = sc->es, r->fs = sc->fs, r->gs = sc->gs;
	r->eflags = (r->eflags & ~X86_FIX_EFLAGS) | (sc->eflags & X86_FIX_EFLAGS);
	if (sc->fpstate)
		x86_fpu_restore_sigframe(fpstate_buf + FSAVE_HEADER);
	else
		x86_fpu_reset_sigframe();
	out->ret = (long)r->eax;
	return 0;
}
