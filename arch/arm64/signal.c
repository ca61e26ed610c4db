/* arm64's signal frame for AArch64 tasks, in Linux 6.1's layout (arch/arm64/kernel/signal.c,
 * uapi asm/sigcontext.h and asm/ucontext.h):
 *
 *   sp_top (the interrupted sp, or the alternate stack's top with SA_ONSTACK)
 *   frame record {x29, x30} at round_down(sp_top - 16, 16): x29 points here for unwinders
 *   struct rt_sigframe {siginfo (128); ucontext} right below it, 16-byte aligned (4688 bytes):
 *     ucontext: uc_flags, uc_link, uc_stack, uc_sigmask, 120 unused bytes, then at 176 the
 *     sigcontext: fault_address, x0-x30, sp, pc, pstate, and __reserved[4096] holding records
 *     {magic, size}: fpsimd_context (fpsr, fpcr, v0-v31), esr_context for a fault, then a
 *     zero {0, 0} end marker.
 *
 * The handler starts with x0 = signal, x1 = &info, x2 = &uc (SA_SIGINFO), sp = the frame, x30
 * = sa_restorer (SA_RESTORER) or the vDSO's __kernel_rt_sigreturn. rt_sigreturn reads it all
 * back. The FP/SIMD registers are read and written live: the kernel never touches them
 * (-mgeneral-regs-only), so in the kernel they still hold the task's values. AArch32 tasks'
 * frames are arch/arm64/signal32.c's. */
#include <arch/signal.h>
#include <asm/signal32.h>
#include <asm/trap_frame.h>
#include <kernel/kernel.h>
#include <kernel/proc.h>
#include <lib/errno.h>
#include <lib/string.h>
#include <mm/mm.h>

#define FPSIMD_MAGIC 0x46508001u
#define ESR_MAGIC 0x45535201u

struct a64_ctx_head {
	uint32_t magic, size;
};

struct a64_fpsimd_context {
	struct a64_ctx_head head;
	uint32_t fpsr, fpcr;
	uint64_t vregs[64] __aligned(16); /* v0-v31, 128 bits each */
};

struct a64_esr_context {
	struct a64_ctx_head head;
	uint64_t esr;
};

struct a64_sigcontext {
	uint64_t fault_address;
	uint64_t regs[31];
	uint64_t sp, pc, pstate;
	uint8_t reserved[4096] __aligned(16);
};

struct a64_ucontext {
	uint64_t uc_flags, uc_link;
	uint8_t uc_stack[24];
	uint64_t uc_sigmask;
	uint8_t unused[1024 / 8 - sizeof(uint64_t)]; /* glibc's sigset_t is 1024 bits */
	struct a64_sigcontext uc_mcontext __aligned(16);
};

struct a64_rt_sigframe {
	uint8_t info[128];
	struct a64_ucontext uc;
};

_Static_assert(sizeof(struct a64_fpsimd_context) == 528, "fpsimd_context");
_Static_assert(__builtin_offsetof(struct a64_ucontext, uc_mcontext) == 176, "uc_mcontext");
_Static_assert(__builtin_offsetof(struct a64_sigcontext, reserved) == 288, "__reserved");
_Static_assert(sizeof(struct a64_rt_sigframe) == 4688, "rt_sigframe");

/* PSTATE bits a return to EL0 may carry (Linux's valid_native_regs): the RES0 ones go, and
 * a mode or D, A, I, F other than those user mode runs with is a bad frame. (rndbits runs EL0
 * with D, A and F masked where Linux clears them; only I must be clear for Ctrl-C.) */
#define PSR_RES0 (0xffffffff00000000ull | (3ull << 26) | (3ull << 22) | (0xffull << 13) | \
		  (1ull << 5))
#define PSR_MODE_MASK 0x1full /* M[4] (AArch32) and M[3:0] (EL0t = 0) */
#define PSR_DAIF (0xfull << 6)
#define PSR_SS (1ull << 21)
#define PSR_BTYPE (3ull << 10)
#define PSR_TCO (1ull << 25)

extern const uint8_t vdso_aarch64_start[];

/* One frame at a time: the kernel is not preemptible and runs one CPU. */
static struct a64_rt_sigframe frame_buf;

static void fpsimd_save(struct a64_fpsimd_context *c)
{
	uint64_t fpsr, fpcr;

	__asm__ volatile(
		"stp q0, q1, [%2, #0]\n\tstp q2, q3, [%2, #32]\n\t"
		"stp q4, q5, [%2, #64]\n\tstp q6, q7, [%2, #96]\n\t"
		"stp q8, q9, [%2, #128]\n\tstp q10, q11, [%2, #160]\n\t"
		"stp q12, q13, [%2, #192]\n\tstp q14, q15, [%2, #224]\n\t"
		"stp q16, q17, [%2, #256]\n\tstp q18, q19, [%2, #288]\n\t"
		"stp q20, q21, [%2, #320]\n\tstp q22, q23, [%2, #352]\n\t"
		"stp q24, q25, [%2, #384]\n\tstp q26, q27, [%2, #416]\n\t"
		"stp q28, q29, [%2, #448]\n\tstp q30, q31, [%2, #480]\n\t"
		"mrs %0, fpsr\n\tmrs %1, fpcr"
		: "=&r"(fpsr), "=&r"(fpcr) : "r"(c->vregs) : "memory");
	c->fpsr = (uint32_t)fpsr;
	c->fpcr = (uint32_t)fpcr;
}

static void fpsimd_load(const uint64_t *vregs, uint64_t fpsr, uint64_t fpcr)
{
	__asm__ volatile(
		"ldp q0, q1, [%0, #0]\n\tldp q2, q3, [%0, #32]\n\t"
		"ldp q4, q5, [%0, #64]\n\tldp q6, q7, [%0, #96]\n\t"
		"ldp q8, q9, [%0, #128]\n\tldp q10, q11, [%0, #160]\n\t"
		"ldp q12, q13, [%0, #192]\n\tldp q14, q15, [%0, #224]\n\t"
		"ldp q16, q17, [%0, #256]\n\tldp q18, q19, [%0, #288]\n\t"
		"ldp q20, q21, [%0, #320]\n\tldp q22, q23, [%0, #352]\n\t"
		"ldp q24, q25, [%0, #384]\n\tldp q26, q27, [%0, #416]\n\t"
		"ldp q28, q29, [%0, #448]\n\tldp q30, q31, [%0, #480]\n\t"
		"msr fpsr, %1\n\tmsr fpcr, %2"
		: : "r"(vregs), "r"(fpsr), "r"(fpcr) : "memory");
}

void arm64_fpsimd_save_vregs(uint64_t vregs[64], uint32_t *fpsr, uint32_t *fpcr)
{
	static struct a64_fpsimd_context c;

	fpsimd_save(&c);
	memcpy(vregs, c.vregs, sizeof(c.vregs));
	*fpsr = c.fpsr;
	*fpcr = c.fpcr;
}

void arm64_fpsimd_load_vregs(const uint64_t vregs[64], uint32_t fpsr, uint32_t fpcr)
{
	static uint64_t v[64] __aligned(16);

	memcpy(v, vregs, sizeof(v));
	fpsimd_load(v, fpsr, fpcr);
}

uint64_t arch_signal_user_sp(const struct trap_frame *f, bool compat)
{
	return compat ? (uint32_t)f->x[13] : f->sp;
}

static int a64_setup_frame(struct trap_frame *f, const struct signal_delivery *d)
{
	struct process *p = current_process();
	struct a64_rt_sigframe *sf = &frame_buf;
	uint64_t sp_top = d->on_altstack ? d->ss_sp + d->ss_size : f->sp;
	uint64_t record = (sp_top - 16) & ~15ull;
	uint64_t frame = record - sizeof(*sf);
	uint64_t fp_lr[2] = { f->x[29], f->x[30] };
	size_t aux = 0;

	memset(sf, 0, sizeof(*sf));
	if (d->flags & SA_SIGINFO)
		signal_fill_siginfo(sf->info, &d->info, true);
	signal_fill_stack_t(sf->uc.uc_stack, d, f->sp, true);
	sf->uc.uc_sigmask = d->oldmask;
	struct a64_sigcontext *sc = &sf->uc.uc_mcontext;
	sc->fault_address = d->info.fault ? d->info.addr : 0;
	memcpy(sc->regs, f->x, sizeof(sc->regs));
	sc->sp = f->sp;
	sc->pc = f->pc;
	sc->pstate = f->pstate;

	struct a64_fpsimd_context *fp = (struct a64_fpsimd_context *)sc->reserved;
	fpsimd_save(fp);
	fp->head = (struct a64_ctx_head){ FPSIMD_MAGIC, sizeof(*fp) };
	aux += sizeof(*fp);
	if (d->info.fault) {
		struct a64_esr_context esr = { { ESR_MAGIC, sizeof(esr) }, d->info.syndrome };
		memcpy(sc->reserved + aux, &esr, sizeof(esr));
		aux += sizeof(esr);
	}
	/* The end marker {0, 0} is already zero. */

	if (copy_to_user(&p->mm, record, fp_lr, sizeof(fp_lr)) ||
	    copy_to_user(&p->mm, frame, sf, sizeof(*sf)))
		return -EFAULT;

	uint64_t tramp = d->flags & SA_RESTORER ? d->restorer :
			 signal_vdso_symbol(&p->mm, vdso_aarch64_start, "__kernel_rt_sigreturn");
	f->x[0] = (uint64_t)d->info.signo;
	if (d->flags & SA_SIGINFO) {
		f->x[1] = frame + __builtin_offsetof(struct a64_rt_sigframe, info);
		f->x[2] = frame + __builtin_offsetof(struct a64_rt_sigframe, uc);
	}
	f->sp = frame;
	f->x[29] = record;
	f->x[30] = tramp;
	f->pc = d->handler;
	f->pstate &= ~(PSR_BTYPE | PSR_TCO | PSR_SS);
	return 0;
}

/* The records in __reserved: an fpsimd_context is required, an esr_context is skipped, the
 * {0, 0} marker ends them; anything else is a bad frame (parse_user_sigframe). */
static const struct a64_fpsimd_context *find_fpsimd(const struct a64_sigcontext *sc)
{
	const struct a64_fpsimd_context *fp = NULL;
	size_t off = 0, limit = sizeof(sc->reserved);

	while (limit - off >= sizeof(struct a64_ctx_head) && !(off & 15)) {
		struct a64_ctx_head h;
		memcpy(&h, sc->reserved + off, sizeof(h));
		if (h.magic == 0)
			return h.size == 0 ? fp : NULL;
		if (h.size < sizeof(h) || limit - off < h.size)
			return NULL;
		if (h.magic == FPSIMD_MAGIC) {
			if (fp || h.size != sizeof(*fp))
				return NULL;
			fp = (const struct a64_fpsimd_context *)(sc->reserved + off);
		} else if (h.magic != ESR_MAGIC) {
			return NULL;
		}
		off += h.size;
	}
	return NULL;
}

static int a64_sigreturn(struct trap_frame *f, struct signal_return *r)
{
	struct process *p = current_process();
	struct a64_rt_sigframe *sf = &frame_buf;
	uint64_t frame = f->sp;

	if (frame & 15)
		return -EFAULT;
	if (copy_from_user(&p->mm, sf, frame, sizeof(*sf)))
		return -EFAULT;
	const struct a64_sigcontext *sc = &sf->uc.uc_mcontext;
	uint64_t pstate = sc->pstate & ~PSR_RES0 & ~PSR_SS;
	if ((pstate & (PSR_MODE_MASK | PSR_DAIF)) != (f->pstate & (PSR_MODE_MASK | PSR_DAIF)))
		return -EFAULT;
	const struct a64_fpsimd_context *fp = find_fpsimd(sc);
	if (!fp)
		return -EFAULT;
	memcpy(f->x, sc->regs, sizeof(f->x));
	f->sp = sc->sp;
	f->pc = sc->pc;
	f->pstate = pstate;
	fpsimd_load(fp->vregs, fp->fpsr, fp->fpcr);
	r->mask = sf->uc.uc_sigmask;
	signal_read_stack_t(sf->uc.uc_stack, true, r);
	r->ret = (long)f->x[0];
	return 0;
}

int arch_setup_signal_frame(struct trap_frame *f, bool compat, const struct signal_delivery *d)
{
	return compat ? a32_setup_signal_frame(f, d) : a64_setup_frame(f, d);
}

int arch_sigreturn(struct trap_frame *f, bool compat, bool rt, struct signal_return *r)
{
	if (compat)
		return a32_sigreturn(f, rt, r);
	return rt ? a64_sigreturn(f, r) : -EFAULT; /* AArch64 has no sigreturn */
}
