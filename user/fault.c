/* fault MODE TARGET: reads, writes or executes one address so that the kernel's fault handling
 * can be watched. MODE is read, write or exec; TARGET a hex address or one of text (main), data
 * (a static variable), stack (a local), heap (a fresh read-write mmap page) or null. The process
 * is expected to die; if the access succeeds it says so and exits 1. */
#include <user.h>

/* A "return" instruction: where an exec of a writable page is wrongly allowed, the call comes
 * straight back and the program reports that it survived instead of running garbage. */
static volatile uint32_t fault_data[4] = { RET_INSN, RET_INSN, RET_INSN, RET_INSN };

/* Set before an exec access: `fault exec text` calls main itself, which must then come back at
 * once (with whatever arguments the call left in registers) rather than run the test again. */
static volatile bool exec_in_progress;

static void usage(void)
{
	printf("usage: fault read|write|exec ADDRESS|text|data|stack|heap|null\n");
	exit(2);
}

static void *heap_page(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		printf("fault: mmap: %s\n", strerror(errno));
		exit(1);
	}
	*(volatile uint32_t *)p = RET_INSN;
	return p;
}

/* The address TARGET names, or usage() for none. stack_slot is a local of main's frame. */
static uintptr_t resolve_target(const char *target, volatile uint32_t *stack_slot)
{
	uint64_t v;

	if (strcmp(target, "text") == 0)
		return (uintptr_t)&main;
	if (strcmp(target, "data") == 0)
		return (uintptr_t)fault_data;
	if (strcmp(target, "stack") == 0)
		return (uintptr_t)stack_slot;
	if (strcmp(target, "heap") == 0)
		return (uintptr_t)heap_page();
	if (strcmp(target, "null") == 0)
		return 0;
	if (!parse_u64_full(target, 16, &v) || v > UINTPTR_MAX)
		usage();
	return (uintptr_t)v;
}

static void access_address(const char *mode, uintptr_t addr)
{
	if (strcmp(mode, "read") == 0) {
		(void)*(volatile unsigned char *)addr;
	} else if (strcmp(mode, "write") == 0) {
		*(volatile unsigned char *)addr = 0;
	} else {
		exec_in_progress = true;
		((void (*)(void))addr)();
	}
}

int main(int argc, char **argv)
{
	volatile uint32_t stack_slot[4] = { RET_INSN, RET_INSN, RET_INSN, RET_INSN };
	uintptr_t addr;

	if (exec_in_progress)
		return 0;
	if (argc != 3 || (strcmp(argv[1], "read") != 0 && strcmp(argv[1], "write") != 0 &&
			  strcmp(argv[1], "exec") != 0))
		usage();
	addr = resolve_target(argv[2], stack_slot);
	printf("fault: %s at 0x%lx\n", argv[1], (unsigned long)addr);
	access_address(argv[1], addr);
	printf("fault: survived\n");
	return 1;
}
