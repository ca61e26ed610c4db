/* i386 2-level (non-PAE) page-table format: pure encoders and decoders. Compiled into the kernel
 * and, per preset, into host unit tests, so: no inline assembly and no kernel-only headers.
 *
 * A page directory (level 0) holds 1024 PDEs, each a page table or a 4 MiB PSE page; a page
 * table (level 1) holds 1024 PTEs for 4 KiB pages. Entries are 32 bits. There is no NX bit in
 * this format: every present page is executable, so PT_X cannot be refused and decode says so. */
#include <arch/mmu.h>

#define X86_PTE_P (1u << 0)
#define X86_PTE_RW (1u << 1)
#define X86_PTE_US (1u << 2)
#define X86_PTE_PWT (1u << 3)
#define X86_PTE_PCD (1u << 4)
#define X86_PTE_A (1u << 5)
#define X86_PTE_D (1u << 6)
#define X86_PDE_PS (1u << 7) /* in a PDE: a 4 MiB page; in a PTE this bit is PAT */
#define X86_PTE_G (1u << 8)

#define X86_PTE_ADDR_MASK 0xFFFFF000u
#define X86_PDE_4M_ADDR_MASK 0xFFC00000u
/* PSE-36: a 4 MiB PDE carries physical address bits 39:32 in its bits 20:13. */
#define X86_PDE_4M_HIGH_SHIFT 13
#define X86_PDE_4M_HIGH_MASK 0xFFu

#define NO_NX_NOTE "(no NX in 2-level paging)"

static const struct pt_geometry i386_geometry = {
	.levels = 2,
	.shift = { 22, 12 },
	.entries = { 1024, 1024 },
	.table_bytes = { 4096, 4096 },
	.pte_bytes = 4,
	.always_granted = PT_R | PT_X,
	.name = "i386 2-level, 4K pages + 4M PSE pages, no NX",
};

const struct pt_geometry *arch_pt_geometry(void)
{
	return &i386_geometry;
}

bool arch_pte_leaf_allowed(unsigned level)
{
	return level < 2;
}

/* Tables grant everything: x86 ANDs RW and U/S over the levels, so the leaf decides. */
pte_t arch_pte_make_table(unsigned level, phys_addr_t table_pa)
{
	return ((uint32_t)table_pa & X86_PTE_ADDR_MASK) | X86_PTE_US | X86_PTE_RW | X86_PTE_P;
}

static uint32_t leaf_address_bits(unsigned level, phys_addr_t pa)
{
	if (level == 0) {
		uint32_t high = (uint32_t)(pa >> 32) & X86_PDE_4M_HIGH_MASK;

		return ((uint32_t)pa & X86_PDE_4M_ADDR_MASK) | (high << X86_PDE_4M_HIGH_SHIFT) |
		       X86_PDE_PS;
	}
	return (uint32_t)pa & X86_PTE_ADDR_MASK;
}

/* A and D are set up front so that the CPU never has to write them back into the table (Linux
 * does the same for kernel pages). PT_R and PT_X need no bits: a present page is readable and
 * executable. */
pte_t arch_pte_make_leaf(unsigned level, phys_addr_t pa, unsigned prot)
{
	uint32_t e = leaf_address_bits(level, pa) | X86_PTE_P | X86_PTE_A;

	if (prot & PT_W)
		e |= X86_PTE_RW | X86_PTE_D;
	if (prot & PT_USER)
		e |= X86_PTE_US;
	if (prot & PT_DEVICE)
		e |= X86_PTE_PCD | X86_PTE_PWT;
	if (prot & PT_GLOBAL)
		e |= X86_PTE_G;
	return e;
}

static unsigned leaf_prot(uint32_t e)
{
	unsigned prot = PT_R | PT_X;

	if (e & X86_PTE_RW)
		prot |= PT_W;
	if (e & X86_PTE_US)
		prot |= PT_USER;
	if (e & X86_PTE_PCD)
		prot |= PT_DEVICE;
	if (e & X86_PTE_G)
		prot |= PT_GLOBAL;
	return prot;
}

static phys_addr_t block_address(uint32_t e)
{
	phys_addr_t high = (e >> X86_PDE_4M_HIGH_SHIFT) & X86_PDE_4M_HIGH_MASK;

	return (high << 32) | (e & X86_PDE_4M_ADDR_MASK);
}

static enum pte_kind entry_kind(unsigned level, uint32_t e)
{
	if (!(e & X86_PTE_P) || level > 1)
		return PTE_INVALID;
	if (level == 1)
		return PTE_PAGE;
	return (e & X86_PDE_PS) ? PTE_BLOCK : PTE_TABLE;
}

void arch_pte_decode(unsigned level, pte_t pte, struct pte_info *out)
{
	uint32_t e = (uint32_t)pte;
	enum pte_kind kind = entry_kind(level, e);

	out->kind = kind;
	out->pa = 0;
	out->prot = 0;
	out->accessed = false;
	if (kind == PTE_INVALID)
		return;
	out->pa = kind == PTE_BLOCK ? block_address(e) : e & X86_PTE_ADDR_MASK;
	out->accessed = e & X86_PTE_A;
	if (kind != PTE_TABLE)
		out->prot = leaf_prot(e);
}

/* Appends to the description; truncates silently (callers' buffers are generous). */
static void text_add(char *buf, size_t size, const char *word)
{
	size_t n = 0;

	while (n < size - 1 && buf[n])
		n++;
	if (n && n < size - 1)
		buf[n++] = ' ';
	while (*word && n < size - 1)
		buf[n++] = *word++;
	buf[n] = '\0';
}

static void text_add_flags(char *buf, size_t size, uint32_t e, bool leaf)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} flags[] = {
		{ X86_PTE_P, "P" },    { X86_PTE_RW, "RW" }, { X86_PTE_US, "U/S" },
		{ X86_PTE_PWT, "PWT" }, { X86_PTE_PCD, "PCD" }, { X86_PTE_A, "A" },
		{ X86_PTE_D, "D" },    { X86_PTE_G, "G" },
	};

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		/* D and G mean nothing in a PDE that points to a table. */
		if (!leaf && (flags[i].bit == X86_PTE_D || flags[i].bit == X86_PTE_G))
			continue;
		if (e & flags[i].bit)
			text_add(buf, size, flags[i].name);
	}
}

/* "4M page P RW A D G (no NX in 2-level paging)": the kind, the flags that are set, and for a
 * leaf the reminder that it is executable whatever the flags say. */
void arch_pte_describe(unsigned level, pte_t pte, char *buf, size_t size)
{
	static const char *const kind_words[] = {
		[PTE_TABLE] = "table", [PTE_BLOCK] = "4M page", [PTE_PAGE] = "page",
	};
	uint32_t e = (uint32_t)pte;
	enum pte_kind kind = entry_kind(level, e);

	buf[0] = '\0';
	if (kind == PTE_INVALID) {
		text_add(buf, size, level > 1 ? "invalid (no such level)" : "not present");
		return;
	}
	text_add(buf, size, kind_words[kind]);
	text_add_flags(buf, size, e, kind != PTE_TABLE);
	if (kind != PTE_TABLE)
		text_add(buf, size, NO_NX_NOTE);
}

pte_t arch_pt_load(const void *table, unsigned idx)
{
	return ((const volatile uint32_t *)table)[idx];
}

void arch_pt_store(void *table, unsigned idx, pte_t pte)
{
	((volatile uint32_t *)table)[idx] = (uint32_t)pte;
}

/* At the last level (a page table) every present entry is a page; bit 7 there is PAT. */
bool arch_pte_is_page(pte_t pte)
{
	return ((uint32_t)pte & X86_PTE_P) != 0;
}

phys_addr_t arch_pte_page_pa(pte_t pte)
{
	return (uint32_t)pte & X86_PTE_ADDR_MASK;
}

/* R/W is in the same place in a PTE and a 4 MiB PDE; D stays as the CPU left it. */
pte_t arch_pte_wrprotect(unsigned level, pte_t pte)
{
	(void)level;
	return (uint32_t)pte & ~X86_PTE_RW;
}
