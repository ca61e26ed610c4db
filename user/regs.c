/* What one process leaves in the registers the next one can read: `regs set` writes known
 * values into the thread-pointer registers, every FP/SIMD register and the FP status and
 * control registers, then exits; `regs check` prints them as it finds them at start and fails
 * unless each holds its reset value (exec must give a process only its own state). The
 * programs are built without FP code (-mgeneral-regs-only, soft-float): the registers are
 * reached with inline assembly. */
#include <user.h>

struct fp_regs {
	uint64_t v[64];      /* the vector registers, 64 bits at a time (low half first) */
	unsigned nwords;     /* how many of v the ABI has */
};

/* The values `regs set` writes: easy to recognise, different in every word. */
static uint64_t pattern(unsigned i)
{
	return 0x5a5a000000000000ull | ((uint64_t)(i + 1) << 32) | (0xa5a50000u + i + 1);
}

#if defined(__aarch64__)
#define VREG_NAME "v"
#define VREG_WORDS 2 /* q registers: two 64-bit words each */
enum { NREG = 4 };
static const char *const reg_names[NREG] = { "tpidr_el0", "tpidrro_el0", "fpsr", "fpcr" };
static const uint64_t reg_reset[NREG] = { 0, 0, 0, 0 };
static const uint64_t reg_set[NREG] = { 0x1122334455667788ull, 0, 0x0800009f, 0x03c00000 };

static void read_regs(uint64_t *r, struct fp_regs *fp)
{
	uint64_t *v = fp->v;

	__asm__ volatile("mrs %0, tpidr_el0" : "=r"(r[0]));
	__asm__ volatile("mrs %0, tpidrro_el0" : "=r"(r[1]));
	__asm__ volatile("mrs %0, fpsr" : "=r"(r[2]));
	__asm__ volatile("mrs %0, fpcr" : "=r"(r[3]));
	__asm__ volatile("stp q0, q1, [%0, #0]\n\tstp q2, q3, [%0, #32]\n\t"
			 "stp q4, q5, [%0, #64]\n\tstp q6, q7, [%0, #96]\n\t"
			 "stp q8, q9, [%0, #128]\n\tstp q10, q11, [%0, #160]\n\t"
			 "stp q12, q13, [%0, #192]\n\tstp q14, q15, [%0, #224]\n\t"
			 "stp q16, q17, [%0, #256]\n\tstp q18, q19, [%0, #288]\n\t"
			 "stp q20, q21, [%0, #320]\n\tstp q22, q23, [%0, #352]\n\t"
			 "stp q24, q25, [%0, #384]\n\tstp q26, q27, [%0, #416]\n\t"
			 "stp q28, q29, [%0, #448]\n\tstp q30, q31, [%0, #480]"
			 : : "r"(v) : "memory");
	fp->nwords = 64;
}

static void write_regs(const uint64_t *r, const struct fp_regs *fp)
{
	__asm__ volatile("msr tpidr_el0, %0" : : "r"(r[0]));
	__asm__ volatile("msr fpsr, %0" : : "r"(r[2]));
	__asm__ volatile("msr fpcr, %0" : : "r"(r[3]));
	__asm__ volatile("ldp q0, q1, [%0, #0]\n\tldp q2, q3, [%0, #32]\n\t"
			 "ldp q4, q5, [%0, #64]\n\tldp q6, q7, [%0, #96]\n\t"
			 "ldp q8, q9, [%0, #128]\n\tldp q10, q11, [%0, #160]\n\t"
			 "ldp q12, q13, [%0, #192]\n\tldp q14, q15, [%0, #224]\n\t"
			 "ldp q16, q17, [%0, #256]\n\tldp q18, q19, [%0, #288]\n\t"
			 "ldp q20, q21, [%0, #320]\n\tldp q22, q23, [%0, #352]\n\t"
			 "ldp q24, q25, [%0, #384]\n\tldp q26, q27, [%0, #416]\n\t"
			 "ldp q28, q29, [%0, #448]\n\tldp q30, q31, [%0, #480]"
			 : : "r"(fp->v) : "memory");
}
#elif defined(__arm__)
#define VREG_NAME "d"
#define VREG_WORDS 1
enum { NREG = 3 };
static const char *const reg_names[NREG] = { "tpidrurw", "tpidruro", "fpscr" };
static const uint64_t reg_reset[NREG] = { 0, 0, 0 };
static const uint64_t reg_set[NREG] = { 0x11223344, 0, 0x03c0001f };

static void read_regs(uint64_t *r, struct fp_regs *fp)
{
	uint32_t tp_rw, tp_ro, fpscr;
	uint64_t *v = fp->v;

	__asm__ volatile("mrc p15, 0, %0, c13, c0, 2" : "=r"(tp_rw));
	__asm__ volatile("mrc p15, 0, %0, c13, c0, 3" : "=r"(tp_ro));
	__asm__ volatile(".fpu neon\n\tvmrs %0, fpscr" : "=r"(fpscr));
	__asm__ volatile(".fpu neon\n\tvstmia %0, {d0-d15}\n\tadd %0, %0, #128\n\t"
			 "vstmia %0, {d16-d31}"
			 : "+r"(v) : : "memory");
	r[0] = tp_rw;
	r[1] = tp_ro;
	r[2] = fpscr;
	fp->nwords = 32;
}

static void write_regs(const uint64_t *r, const struct fp_regs *fp)
{
	const uint64_t *v = fp->v;

	__asm__ volatile("mcr p15, 0, %0, c13, c0, 2" : : "r"((uint32_t)r[0]));
	__asm__ volatile(".fpu neon\n\tvmsr fpscr, %0" : : "r"((uint32_t)r[2]));
	__asm__ volatile(".fpu neon\n\tvldmia %0, {d0-d15}\n\tadd %0, %0, #128\n\t"
			 "vldmia %0, {d16-d31}"
			 : "+r"(v) : : "memory");
}
#elif defined(__x86_64__) || defined(__i386__)
#define VREG_NAME "xmm"
#define VREG_WORDS 2
enum { NREG = 1 };
static const char *const reg_names[NREG] = { "mxcsr" };
static const uint64_t reg_reset[NREG] = { 0x1f80 };
static const uint64_t reg_set[NREG] = { 0x7fbf };

#ifdef __x86_64__
#define XMM_ALL(op) op(0) op(1) op(2) op(3) op(4) op(5) op(6) op(7) \
		    op(8) op(9) op(10) op(11) op(12) op(13) op(14) op(15)
#define XMM_COUNT 16
#else
#define XMM_ALL(op) op(0) op(1) op(2) op(3) op(4) op(5) op(6) op(7)
#define XMM_COUNT 8
#endif
#define XMM_STORE(n) "movdqu %%xmm" #n ", " #n "*16(%0)\n\t"
#define XMM_LOAD(n) "movdqu " #n "*16(%0), %%xmm" #n "\n\t"

static void read_regs(uint64_t *r, struct fp_regs *fp)
{
	uint32_t mxcsr;

	__asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
	__asm__ volatile(XMM_ALL(XMM_STORE) : : "r"(fp->v) : "memory");
	r[0] = mxcsr;
	fp->nwords = 2 * XMM_COUNT;
}

static void write_regs(const uint64_t *r, const struct fp_regs *fp)
{
	uint32_t mxcsr = (uint32_t)r[0];

	__asm__ volatile("ldmxcsr %0" : : "m"(mxcsr));
	__asm__ volatile(XMM_ALL(XMM_LOAD) : : "r"(fp->v) : "memory");
}
#else
#error "regs: no register access for this ABI"
#endif

static int check(void)
{
	uint64_t r[NREG];
	struct fp_regs fp;
	unsigned bad = 0, vbad = 0;

	read_regs(r, &fp); /* first: printf must not touch what we look at */
	for (unsigned i = 0; i < NREG; i++) {
		printf("regs: %s %#llx\n", reg_names[i], (unsigned long long)r[i]);
		bad += r[i] != reg_reset[i];
	}
	for (unsigned i = 0; i < fp.nwords; i++) {
		if (fp.v[i] == 0)
			continue;
		if (VREG_WORDS == 2)
			printf("regs: %s%u[%u] %#llx\n", VREG_NAME, i / 2, i % 2,
			       (unsigned long long)fp.v[i]);
		else
			printf("regs: %s%u %#llx\n", VREG_NAME, i, (unsigned long long)fp.v[i]);
		vbad++;
	}
	printf("regs: %s0-%s%u: %u not zero\n", VREG_NAME, VREG_NAME,
	       fp.nwords / VREG_WORDS - 1, vbad);
	if (bad + vbad) {
		printf("regs: %u registers not reset\n", bad + vbad);
		return 1;
	}
	printf("regs: all reset\n");
	return 0;
}

/* `regs hold ROUNDS`: set the FP/SIMD registers, the FP status/control and the writable thread
 * pointer to values of this process (its pid in each word), then spin, checking after each
 * round that they still hold them. Two of them at once (`run regs hold N &`) share the CPU
 * through the timer tick: each switch must give every process its own registers back. */
static int hold(unsigned long rounds)
{
	uint64_t set[NREG], got[NREG];
	struct fp_regs fp, now;
	unsigned long salt = (unsigned long)getpid() << 8;

	for (unsigned i = 0; i < NREG; i++)
		set[i] = reg_set[i] ^ (i == 0 ? salt : 0);
	for (unsigned i = 0; i < ARRAY_SIZE(fp.v); i++)
		fp.v[i] = pattern(i) ^ ((uint64_t)salt << 32);
	fp.nwords = ARRAY_SIZE(fp.v);
	write_regs(set, &fp);
	read_regs(set, &fp); /* what the CPU keeps of them (read-only bits, the ABI's width) */
	for (unsigned long r = 0; r < rounds; r++) {
		for (volatile unsigned spin = 0; spin < 100000; spin++)
			;
		read_regs(got, &now);
		for (unsigned i = 0; i < NREG; i++)
			if (got[i] != set[i]) {
				printf("regs: round %lu: %s %#llx, not %#llx\n", r, reg_names[i],
				       (unsigned long long)got[i], (unsigned long long)set[i]);
				return 1;
			}
		for (unsigned i = 0; i < now.nwords; i++)
			if (now.v[i] != fp.v[i]) {
				printf("regs: round %lu: %s word %u %#llx, not %#llx\n", r, VREG_NAME, i,
				       (unsigned long long)now.v[i], (unsigned long long)fp.v[i]);
				return 1;
			}
	}
	printf("regs: held %lu rounds\n", rounds);
	return 0;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";

	if (strcmp(what, "hold") == 0 && argc == 3)
		return hold(strtoul(argv[2], NULL, 0));

	if (strcmp(what, "check") == 0)
		return check();
	if (strcmp(what, "set") == 0) {
		struct fp_regs fp;

		for (unsigned i = 0; i < ARRAY_SIZE(fp.v); i++)
			fp.v[i] = pattern(i);
		fp.nwords = ARRAY_SIZE(fp.v);
		write_regs(reg_set, &fp);
		printf("regs: set\n");
		return 0;
	}
	dprintf(STDERR_FILENO, "usage: regs set|check|hold ROUNDS\n");
	return 2;
}
