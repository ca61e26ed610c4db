/* AArch32 tasks' signal frames on arm64 (arch/arm64/signal32.c), and the FP/SIMD register
 * access the native and compat frames share (arch/arm64/signal.c). */
#ifndef RNDBITS_ASM_ARM64_SIGNAL32_H
#define RNDBITS_ASM_ARM64_SIGNAL32_H

#include <lib/types.h>

struct trap_frame;
struct signal_delivery;
struct signal_return;

int a32_setup_signal_frame(struct trap_frame *f, const struct signal_delivery *d);
int a32_sigreturn(struct trap_frame *f, bool rt, struct signal_return *r);

/* v0-v31 (two words each), FPSR and FPCR as the task left them / to load. */
void arm64_fpsimd_save_vregs(uint64_t vregs[64], uint32_t *fpsr, uint32_t *fpcr);
void arm64_fpsimd_load_vregs(const uint64_t vregs[64], uint32_t fpsr, uint32_t fpcr);

#endif
