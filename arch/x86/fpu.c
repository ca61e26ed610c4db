/* x87/SSE registers saved and loaded per task (asm/fpu.h). On x86_64 the 64-bit forms keep the
 * full instruction and operand pointers. */
#include <asm/fpu.h>
#include <lib/string.h>

bool x86_fpu_fxsr;

const uint8_t x86_fpu_init_state[512] __aligned(16) = {
	[0] = 0x7F, [1] = 0x03,   /* FCW */
	[24] = 0x80, [25] = 0x1F, /* MXCSR */
};

#ifdef CONFIG_64BIT
#define FXSAVE "fxsave64"
#define FXRSTOR "fxrstor64"
#else
#define FXSAVE "fxsave"
#define FXRSTOR "fxrstor"
#endif

void x86_fpu_save(uint8_t state[512])
{
	if (x86_fpu_fxsr)
		__asm__ volatile(FXSAVE " %0" : "=m"(*(uint8_t(*)[512])state));
	else /* FNSAVE also reinitializes the unit: load the state back (FRSTOR) */
		__asm__ volatile("fnsave %0; frstor %0" : "+m"(*(uint8_t(*)[108])state));
}

void x86_fpu_restore(const uint8_t state[512])
{
	if (x86_fpu_fxsr)
		__asm__ volatile(FXRSTOR " %0" : : "m"(*(const uint8_t(*)[512])state));
	else
		__asm__ volatile("frstor %0" : : "m"(*(const uint8_t(*)[108])state));
}

void x86_fpu_reset(void)
{
	if (x86_fpu_fxsr)
		x86_fpu_restore(x86_fpu_init_state);
	else
		__asm__ volatile("fninit" : : : "memory");
}

/* A new task's saved state: the reset values, in the layout x86_fpu_restore reads. */
void x86_fpu_init_task(uint8_t state[512])
{
	uint8_t live[108];

	if (x86_fpu_fxsr) {
		memcpy(state, x86_fpu_init_state, sizeof(x86_fpu_init_state));
		return;
	}
	/* FNSAVE's layout is the CPU's: take it from a unit just reset, then put the live one back. */
	__asm__ volatile("fnsave %0" : "=m"(live));
	__asm__ volatile("fninit; fnsave %0" : "=m"(*(uint8_t(*)[108])state));
	__asm__ volatile("frstor %0" : : "m"(live));
}
