/* The fuzz harnesses' stand-in for an arch's per-task state (include/arch/task.h): the shell
 * code they run never switches tasks, so one word is enough. */
#ifndef RNDBITS_FUZZ_FAKE_ASM_TASK_H
#define RNDBITS_FUZZ_FAKE_ASM_TASK_H

#include <lib/types.h>

struct arch_task {
	uintptr_t kernel_sp;
};

#endif
