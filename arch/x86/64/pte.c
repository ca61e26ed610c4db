/* x86_64 4-level page-table format (Intel SDM vol. 3, 4.5): pure encoders and decoders. Also
 * compiled into the host unit tests, so no inline assembly and no kernel-only headers here. */
#include <arch/mmu.h>

/* Bits of a 4-level paging entry. */
#define X86_PTE_P (1ULL << 0)
#define X86_PTE_RW (1ULL << 1)
#define X86_PTE_US (1ULL << 2)
#define X86_PTE_PWT (1ULL << 3)
#define X86_PTE_PCD (1ULL << 4)
#define X86_PTE_A (1ULL << 5)
#define X86_PTE_D (1ULL << 6)
#define X86_PTE_PS (1ULL << 7) /* a 1 GiB or 2 MiB leaf in a PDPT or PD */
#define X86_PTE_G (1ULL << 8)
#define X86_PTE_NX (1ULL << 63)
/* Physical address bits 51..12 (MAXPHYADDR up to 52). */
#define X86_PTE_ADDR_MASK 0x000FFFFFFFFFF000ULL

enum { X86_PML4 = 0, X86_PDPT = 1, X86_PD = 2, X86_PT = 3 };

/* 1 GiB leaves need CPUID.80000001H:EDX.Page1GB; arch/x86/64/mmu.c clears this on a CPU
 * without them. QEMU's -cpu max has them. */
bool x86_64_gbpages = true;

static const struct pt_geometry x86_64_geometry = {
	.levels = 4,
	.shift = { 39, 30, 21, 12 },
	.entries = { 512, 512, 512, 512 },
	.table_bytes = { 4096, 4096, 4096, 4096 },
	.pte_bytes = 8,
	.name = "x86_64 4-level paging, 4K pages, 48-bit VA",
};

const struct pt_geometry *arch_pt_geometry(void)
{
	return &x86_64_geometry;
}

bool arch_pte_leaf_allowed(unsigned level)
{
	switch (level) {
	case X86_PT:
	case X86_PD:
		return true;
	case X86_PDPT:
		return x86_64_gbpages;
	default:
		return false;
	}
}

/* Upper levels grant everything; each leaf alone decides (the effective rights are the AND of
 * all levels, so a permissive table entry takes nothing away from the kernel's leaves). */
pte_t arch_pte_make_table(unsigned level, phys_addr_t table_pa)
{
	(void)level;
	return (table_pa & X86_PTE_ADDR_MASK) | X86_PTE_P | X86_PTE_RW | X86_PTE_US;
}

/* Every present entry is readable on x86: PT_R has no bit of its own. Kernel (global) leaves
 * are born accessed and dirty so the CPU never writes them back; user leaves start clean, so
 * `pt walk` shows what the task has touched. */
pte_t arch_pte_make_leaf(unsigned level, phys_addr_t pa, unsigned prot)
{
	pte_t pte = (pa & X86_PTE_ADDR_MASK) | X86_PTE_P;

	if (level != X86_PT)
		pte |= X86_PTE_PS;
	if (prot & PT_W)
		pte |= X86_PTE_RW;
	if (prot & PT_USER)
		pte |= X86_PTE_US;
	if (!(prot & PT_X))
		pte |= X86_PTE_NX;
	if (prot & PT_DEVICE)
		pte |= X86_PTE_PCD | X86_PTE_PWT;
	if (prot & PT_GLOBAL)
		pte |= X86_PTE_G | X86_PTE_A | X86_PTE_D;
	return pte;
}

static enum pte_kind entry_kind(unsigned level, pte_t pte)
{
	if (!(pte & X86_PTE_P))
		return PTE_INVALID;
	if (level == X86_PT)
		return PTE_PAGE;
	if (pte & X86_PTE_PS)
		return level == X86_PML4 ? PTE_INVALID : PTE_BLOCK; /* PS is reserved in a PML4E */
	return PTE_TABLE;
}

static uint64_t leaf_size_mask(unsigned level)
{
	return (1ULL << x86_64_geometry.shift[level]) - 1;
}

void arch_pte_decode(unsigned level, pte_t pte, struct pte_info *out)
{
	enum pte_kind kind = entry_kind(level, pte);
	unsigned prot = PT_R;

	out->kind = kind;
	if (kind == PTE_INVALID) {
		out->pa = 0;
		out->prot = 0;
		out->accessed = false;
		return;
	}
	out->pa = pte & X86_PTE_ADDR_MASK;
	if (kind == PTE_BLOCK)
		out->pa &= ~leaf_size_mask(level); /* bit 12 is PAT in a large leaf */
	if (pte & X86_PTE_RW)
		prot |= PT_W;
	if (pte & X86_PTE_US)
		prot |= PT_USER;
	if (!(pte & X86_PTE_NX))
		prot |= PT_X;
	if (kind != PTE_TABLE && (pte & X86_PTE_G))
		prot |= PT_GLOBAL;
	if (pte & X86_PTE_PCD)
		prot |= PT_DEVICE;
	out->prot = prot;
	out->accessed = (pte & X86_PTE_A) != 0;
}

static void text_append(char *text, size_t size, const char *word)
{
	size_t len = 0;

	while (len < size && text[len])
		len++;
	if (len && len + 1 < size)
		text[len++] = ' ';
	while (*word && len + 1 < size)
		text[len++] = *word++;
	if (len < size)
		text[len] = '\0';
}

static const char *kind_word(unsigned level, enum pte_kind kind)
{
	switch (kind) {
	case PTE_TABLE:
		return "table";
	case PTE_BLOCK:
		return level == X86_PDPT ? "block 1G" : "block 2M";
	case PTE_PAGE:
		return "page";
	default:
		return "invalid";
	}
}

/* "page P RW U/S NX A D G": the kind, then the flags that are set. */
void arch_pte_describe(unsigned level, pte_t pte, char *buf, size_t size)
{
	static const struct {
		pte_t bit;
		const char *name;
	} flags[] = {
		{ X86_PTE_P, "P" },   { X86_PTE_RW, "RW" }, { X86_PTE_US, "U/S" },
		{ X86_PTE_PWT, "PWT" }, { X86_PTE_PCD, "PCD" }, { X86_PTE_NX, "NX" },
		{ X86_PTE_A, "A" },   { X86_PTE_D, "D" },   { X86_PTE_G, "G" },
	};
	enum pte_kind kind = entry_kind(level, pte);

	buf[0] = '\0';
	text_append(buf, size, kind_word(level, kind));
	if (kind == PTE_INVALID)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(flags); i++) {
		/* G means nothing in a table entry, and A/D there are only hardware's notes. */
		if (kind == PTE_TABLE && flags[i].bit == X86_PTE_G)
			continue;
		if (pte & flags[i].bit)
			text_append(buf, size, flags[i].name);
	}
}

pte_t arch_pt_load(const void *table, unsigned idx)
{
	return ((const volatile uint64_t *)table)[idx];
}

void arch_pt_store(void *table, unsigned idx, pte_t pte)
{
	((volatile uint64_t *)table)[idx] = pte;
}

/* At the last level (a PT) every present entry is a page; bit 7 there is PAT, not PS. */
bool arch_pte_is_page(pte_t pte)
{
	return (pte & X86_PTE_P) != 0;
}

phys_addr_t arch_pte_page_pa(pte_t pte)
{
	return pte & X86_PTE_ADDR_MASK;
}

/* R/W is in the same place in every leaf; D stays as the CPU left it. */
pte_t arch_pte_wrprotect(unsigned level, pte_t pte)
{
	(void)level;
	return pte & ~X86_PTE_RW;
}
