/* Linux's stack_guard_gap (256 pages below the stack) against the heap and hinted mmaps:
 *  - finds its stack VMA's lowest page (openat() on a page is -EFAULT only where no VMA is;
 *    a bisection from the stack pointer down);
 *  - mmap with a hint whose mapping would end inside the gap: placed elsewhere; one ending
 *    right at the gap's edge: honoured; MAP_FIXED inside the gap: allowed, as in Linux;
 *  - brk up to a page below the gap: allowed; into the gap, or up to the stack: refused.
 * Every line says what happened, so a transcript compares words, not addresses. */
#include <sysnr.h>
#include <user.h>

#define AT_FDCWD (-100)

#define PAGE USER_PAGE_SIZE
#define GUARD_GAP (256 * PAGE)

static bool has_vma(uintptr_t addr)
{
	return __syscall(SYS_openat, AT_FDCWD, (long)addr, 0, 0, 0, 0) != -EFAULT;
}

/* The lowest page of the VMA holding `top` (which is mapped), searched within 64 MiB below:
 * the stack VMA is much smaller, and below it lie the gap and mmap_base's distance. */
static uintptr_t vma_bottom(uintptr_t top)
{
	uintptr_t lo = top - (64UL << 20), hi = top; /* lo: no VMA; hi: the stack's */

	while (hi - lo > PAGE) {
		uintptr_t mid = lo + ((hi - lo) / 2 & ~(uintptr_t)(PAGE - 1));
		if (has_vma(mid))
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

static void *map_at(uintptr_t addr, int extra)
{
	return mmap((void *)addr, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | extra,
		    -1, 0);
}

static void try_hint(const char *what, uintptr_t hint)
{
	void *p = map_at(hint, 0);

	printf("guardgap: hint %s: %s\n", what,
	       p == MAP_FAILED ? "failed" : (uintptr_t)p == hint ? "honoured" : "placed elsewhere");
	if (p != MAP_FAILED)
		munmap(p, PAGE);
}

static void try_brk(const char *what, uintptr_t to)
{
	printf("guardgap: brk %s: %s\n", what, sys_brk(to) == to ? "ok" : "refused");
}

int main(int argc, char **argv)
{
	char here;
	uintptr_t stack = vma_bottom((uintptr_t)&here & ~(uintptr_t)(PAGE - 1));
	uintptr_t gap = stack - GUARD_GAP;

	(void)argc;
	(void)argv;
	printf("guardgap: stack VMA from 0x%lx, guard gap from 0x%lx\n", (unsigned long)stack,
	       (unsigned long)gap);
	try_hint("ending a page inside the gap", gap);
	try_hint("ending at the gap", gap - PAGE);
	void *fixed = map_at(stack - 2 * PAGE, MAP_FIXED);
	printf("guardgap: MAP_FIXED inside the gap: %s\n",
	       fixed == (void *)(stack - 2 * PAGE) ? "ok" : "refused");
	if (fixed != MAP_FAILED)
		munmap(fixed, PAGE);
	/* Between the heap and the gap lie the special mappings exec put below mmap_base ([vvar],
	 * [vdso], AArch32's [sigpage]): brk may not grow over them, on Linux either. Unmapped
	 * first (Linux allows it; nothing here uses them), so the heap can reach the gap. */
	uintptr_t heap = sys_brk(0);
	munmap((void *)heap, gap - PAGE - heap);
	try_brk("to a page below the gap", gap - PAGE);
	try_brk("to the gap", gap);
	try_brk("into the gap", gap + 8 * PAGE);
	try_brk("up to the stack", stack);
	return 0;
}
