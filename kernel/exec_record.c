/* The exec-time record of a process's layout (include/kernel/exec.h): read from the mm the exec just
 * built, so that `aslr sample` measures what the kernel did, not what a program reports. */
#include <arch/memory.h>
#include <arch/mmu.h>
#include <kernel/exec.h>
#include <lib/string.h>
#include <mm/mm.h>

void exec_record_take(struct mm *mm, struct exec_record *r)
{
	memset(r, 0, sizeof(*r));
	for (struct vma *v = mm->vmas; v; v = v->next) {
		if (v->kind == VMA_IMAGE && (v->prot & PT_X) && !r->text)
			r->text = v->start;
		/* (a bss-only segment is an anonymous mapping, as Linux maps it: still the data) */
		if ((v->kind == VMA_IMAGE || v->kind == VMA_BSS) && (v->prot & PT_W) && !r->data)
			r->data = v->start;
		if (v->kind == VMA_STACK)
			r->stack_top = v->end;
		if (v->name && strcmp(v->name, "[vdso]") == 0)
			r->vdso = v->start;
	}
	r->brk = mm->start_brk;
	r->sp = mm->start_stack;
	r->mmap_base = mm->mmap_base;
	/* The allocator's own answer: it sees whatever exec mapped below mmap_base (the vDSO and
	 * vvar on the ISAs that put them there), in either layout. */
	r->first_mmap = get_unmapped_area(mm, 0, PAGE_SIZE);
}
