/* The vvar data page: what the kernel (kernel/vdso.c) tells every process's vDSO about time.
 * Shared by the kernel and the vDSO sources, so fixed-width fields only. The kernel's clocks
 * count the free-running counter from 0 (kernel/sys_time.c's time_now_ns), so the counter's rate
 * is all a vDSO needs to compute the same nanoseconds the system call returns. */
#ifndef RNDBITS_VDSO_DATA_H
#define RNDBITS_VDSO_DATA_H

#include <stdint.h>

#define VDSO_CLOCK_MODE_NONE 0    /* the counter cannot be read from user mode: system calls */
#define VDSO_CLOCK_MODE_COUNTER 1 /* CNTVCT (ARM), rdtsc (x86) */

struct vdso_data {
	uint32_t clock_mode;
	uint32_t reserved;
	uint64_t counter_hz;  /* the counter's rate (CNTFRQ, the calibrated TSC rate) */
	uint64_t res_ns;      /* clock_getres: one counter tick, rounded up */
};

#endif
