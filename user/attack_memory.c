/* attack: kernel memory and the process's own, touched directly (reads, writes and jumps to
 * kernel addresses, writes to its text, execution of data, MAP_FIXED over its stack): the
 * process must die, the kernel go on. */
#include "attack.h"

static volatile uint32_t data_insn[4] = { RET_INSN, RET_INSN, RET_INSN, RET_INSN };

static void call_address(uintptr_t addr)
{
	exec_in_progress = true;
	((void (*)(void))addr)();
	exec_in_progress = false;
#if defined(__i386__)
	printf("attack: survived: i386 paging without PAE has no NX bit to refuse execution\n");
#else
	printf("attack: survived\n");
#endif
	exit(1);
}

int attack_access(const struct attack *a)
{
	const char *mode = a->name;
	uintptr_t addr = a->addr;

	printf("attack: %s 0x%lx\n", mode, (unsigned long)addr);
	if (strcmp(mode, "read") == 0)
		printf("attack: read 0x%02x\n", *(volatile unsigned char *)addr);
	else if (strcmp(mode, "write") == 0)
		*(volatile unsigned char *)addr = 0x5a;
	else
		call_address(addr);
	printf("attack: survived\n");
	return 1;
}

static uintptr_t heap_insn(void)
{
	void *p = sbrk((long)PAGE);

	if (p == (void *)-1) {
		printf("attack: sbrk: %s\n", strerror(errno));
		exit(1);
	}
	*(volatile uint32_t *)p = RET_INSN;
	return (uintptr_t)p;
}

static uintptr_t mmap_insn(void)
{
	void *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		printf("attack: mmap: %s\n", strerror(errno));
		exit(1);
	}
	*(volatile uint32_t *)p = RET_INSN;
	return (uintptr_t)p;
}

int attack_exec(const struct attack *a)
{
	const char *what = a->name + strlen("exec-");
	uintptr_t addr;

	if (strcmp(what, "stack") == 0)
		addr = (uintptr_t)a->stack_insn;
	else if (strcmp(what, "heap") == 0)
		addr = heap_insn();
	else if (strcmp(what, "mmap") == 0)
		addr = mmap_insn();
	else if (strcmp(what, "data") == 0)
		addr = (uintptr_t)data_insn;
	else
		usage();
	printf("attack: exec %s at 0x%lx\n", what, (unsigned long)addr);
	call_address(addr);
	return 1;
}

int attack_write_text(const struct attack *a)
{
	printf("attack: write text at 0x%lx\n", (unsigned long)(uintptr_t)&main);
	*(volatile unsigned char *)(uintptr_t)&main = 0;
	printf("attack: survived\n");
	return 1;
}

/* MAP_FIXED over every page of the stack in use, from a little below the current frame up to
 * the top (the page holding argv's strings). Linux allows it; every saved return address is
 * then zero, so the process crashes when it next returns. Only the kernel's survival matters. */
int attack_map_stack(const struct attack *a)
{
	volatile char here;
	const char *last = a->argv[a->argc - 1];
	uintptr_t top = ((uintptr_t)last + strlen(last) + 1 + PAGE - 1) & ~(uintptr_t)(PAGE - 1);
	uintptr_t bottom = ((uintptr_t)&here & ~(uintptr_t)(PAGE - 1)) - 2 * PAGE;

	printf("attack: map-stack 0x%lx-0x%lx\n", (unsigned long)bottom, (unsigned long)top);
	long r = __syscall(SYS_mmap_, (long)bottom, (long)(top - bottom), PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	/* Where the wrapper's own return address was on the stack (x86), not reached. */
	printf("attack: mmap(stack, MAP_FIXED) = 0x%lx\n", (unsigned long)r);
	return 0;
}

