/* Where the special mappings go: the placement arithmetic of x86_64's vdso_addr and 32-bit
 * ARM's sigpage_addr (Linux 6.1), pure so that the host tests check it (tests/host/test_vdso.c).
 * The arches call them with their page size, task size and random draw (arch/<isa>/vdso.c). */
#include <kernel/vdso.h>

uint64_t vdso_addr_x86_64(uint64_t start_stack, uint64_t len, uint64_t map_window,
			  uint64_t page_size, uint64_t (*draw)(uint64_t n))
{
	const uint64_t pmd_size = 2ull << 20;
	uint64_t start = (start_stack + page_size - 1) & ~(page_size - 1);
	uint64_t end = (start + len + pmd_size - 1) & ~(pmd_size - 1);

	if (end >= map_window)
		end = map_window;
	end -= len;
	if (end <= start)
		return start;
	return start + draw((end - start) / page_size + 1) * page_size;
}

uint64_t sigpage_addr_arm(uint64_t start_stack, uint64_t npages, uint64_t task_size,
			  uint64_t page_size, uint64_t (*draw)(uint64_t n))
{
	uint64_t first = (start_stack + page_size - 1) & ~(page_size - 1);
	uint64_t last = task_size - npages * page_size;

	if (first > last)
		return 0;
	if (first == last)
		return first;
	return first + draw((last - first) / page_size + 1) * page_size;
}
