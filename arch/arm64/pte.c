/* The VMSAv8-64 stage-1 descriptor format, as pure functions of the preset's configuration.
 * No inline asm and no kernel-only headers: host unit tests compile this file once per preset. */
#include <lib/types.h>
#include <arch/mmu.h>
#include "include/asm/pgtable-hwdef.h"

#define STR2(x) #x
#define STR(x) STR2(x)

#if CONFIG_PAGE_SHIFT == 12
#define GRANULE_NAME "4K"
#elif CONFIG_PAGE_SHIFT == 14
#define GRANULE_NAME "16K"
#else
#define GRANULE_NAME "64K"
#endif

#if A64_PT_LEVELS == 2
#define LEVELS_NAME "2"
#elif A64_PT_LEVELS == 3
#define LEVELS_NAME "3"
#elif A64_PT_LEVELS == 4
#define LEVELS_NAME "4"
#else
#error "arm64: VA_BITS gives an unsupported number of levels"
#endif

#define LAST_LEVEL (A64_PT_LEVELS - 1)
#define SHIFT_AT(l) ((l) < A64_PT_LEVELS ? A64_LEVEL_SHIFT(l) : 0)
#define ENTRIES_AT(l) ((l) == 0 ? A64_ROOT_ENTRIES : (l) < A64_PT_LEVELS ? 1 << A64_PT_BITS : 0)

static const struct pt_geometry geometry = {
	.levels = A64_PT_LEVELS,
	.shift = { SHIFT_AT(0), SHIFT_AT(1), SHIFT_AT(2), SHIFT_AT(3), 0 },
	.entries = { ENTRIES_AT(0), ENTRIES_AT(1), ENTRIES_AT(2), ENTRIES_AT(3), 0 },
	.table_bytes = { ENTRIES_AT(0) * 8, ENTRIES_AT(1) * 8, ENTRIES_AT(2) * 8,
			 ENTRIES_AT(3) * 8, 0 },
	.pte_bytes = 8,
	.name = "arm64 " GRANULE_NAME " granule, " LEVELS_NAME " levels (VA_BITS " STR(
		CONFIG_VA_BITS) ")",
};

const struct pt_geometry *arch_pt_geometry(void)
{
	return &geometry;
}

/* Blocks exist at Arm level 2 for every granule and at level 1 for 4K (1 GiB); bigger ones need
 * 52-bit addressing (FEAT_LPA/LPA2), which rndbits does not enable. */
#define LEAF_ALLOWED(level)                                                                  \
	((level) < A64_PT_LEVELS &&                                                          \
	 ((level) == LAST_LEVEL || A64_HW_LEVEL(level) == 2 ||                               \
	  (CONFIG_PAGE_SHIFT == 12 && A64_HW_LEVEL(level) == 1)))

bool arch_pte_leaf_allowed(unsigned level)
{
	return LEAF_ALLOWED(level);
}

pte_t arch_pte_make_table(unsigned level, phys_addr_t table_pa)
{
	(void)level;
	return (table_pa & PTE_OA_MASK) | PTE_TYPE_TABLE;
}

static pte_t prot_to_attrs(unsigned prot)
{
	pte_t attrs = PTE_AF;

	if (prot & PT_DEVICE)
		attrs |= PTE_ATTRINDX(MT_DEVICE_nGnRE);
	else
		attrs |= PTE_ATTRINDX(MT_NORMAL) | PTE_SH_INNER;
	if (prot & PT_USER)
		attrs |= PTE_AP_USER;
	if (!(prot & PT_W))
		attrs |= PTE_AP_RDONLY;
	if (!(prot & PT_GLOBAL))
		attrs |= PTE_NG;
	/* Never executable at the other privilege level; devices never at all. */
	if ((prot & PT_X) && !(prot & PT_DEVICE))
		attrs |= (prot & PT_USER) ? PTE_PXN : PTE_UXN;
	else
		attrs |= PTE_PXN | PTE_UXN;
	return attrs;
}

pte_t arch_pte_make_leaf(unsigned level, phys_addr_t pa, unsigned prot)
{
	pte_t type = level == LAST_LEVEL ? PTE_TYPE_TABLE : PTE_TYPE_BLOCK;

	return (pa & PTE_OA_MASK) | prot_to_attrs(prot) | type;
}

static unsigned attrs_to_prot(pte_t pte)
{
	unsigned attr = (unsigned)((pte & PTE_ATTRINDX_MASK) >> 2);
	bool user = (pte & PTE_AP_USER) != 0;
	/* The execute-never bit that applies: UXN for a user mapping, PXN for a kernel one. */
	bool xn = (pte & (user ? PTE_UXN : PTE_PXN)) != 0;
	unsigned prot = PT_R;

	if (user)
		prot |= PT_USER;
	if (!(pte & PTE_AP_RDONLY))
		prot |= PT_W;
	if (!xn)
		prot |= PT_X;
	if (!(pte & PTE_NG))
		prot |= PT_GLOBAL;
	if (attr == MT_DEVICE_nGnRE || attr == MT_DEVICE_nGnRnE)
		prot |= PT_DEVICE;
	return prot;
}

/* What the walker makes of a descriptor, by level and type bits [1:0]: bit 0 clear is invalid;
 * type 11 is a table above the last level and a page at it; type 01 is a block where blocks
 * exist, and elsewhere a reserved encoding the hardware faults on as on an invalid entry. */
static enum pte_kind entry_kind(unsigned level, pte_t pte)
{
	if (level > LAST_LEVEL || !(pte & PTE_VALID))
		return PTE_INVALID;
	if ((pte & PTE_TYPE_MASK) == PTE_TYPE_TABLE)
		return level == LAST_LEVEL ? PTE_PAGE : PTE_TABLE;
	if (level != LAST_LEVEL && LEAF_ALLOWED(level))
		return PTE_BLOCK;
	return PTE_INVALID;
}

void arch_pte_decode(unsigned level, pte_t pte, struct pte_info *out)
{
	out->kind = entry_kind(level, pte);
	out->pa = 0;
	out->prot = 0;
	out->accessed = false;
	switch (out->kind) {
	case PTE_INVALID:
		break;
	case PTE_TABLE:
		out->pa = pte & PTE_OA_MASK;
		out->accessed = true;
		break;
	case PTE_BLOCK:
	case PTE_PAGE:
		out->pa = pte & PTE_OA_MASK;
		out->prot = attrs_to_prot(pte);
		out->accessed = (pte & PTE_AF) != 0;
		break;
	}
}

static char *append(char *p, char *end, const char *s)
{
	while (*s && p + 1 < end)
		*p++ = *s++;
	*p = '\0';
	return p;
}

static const char *memtype_name(unsigned attr)
{
	switch (attr) {
	case MT_NORMAL:
		return "Normal";
	case MT_DEVICE_nGnRE:
		return "Device-nGnRE";
	case MT_NORMAL_NC:
		return "Normal-NC";
	case MT_DEVICE_nGnRnE:
		return "Device-nGnRnE";
	default:
		return "Attr?";
	}
}

/* "page AP=RW/-- UXN PXN AF nG Normal": AP as EL1/EL0 access. */
static void describe_leaf(const char *kind, pte_t pte, char *text, size_t size)
{
	static const char *const ap_names[4] = { "AP=RW/--", "AP=RW/RW", "AP=RO/--", "AP=RO/RO" };
	char *p = text, *end = text + size;

	p = append(p, end, kind);
	p = append(p, end, " ");
	p = append(p, end, ap_names[(pte >> 6) & 3]);
	if (pte & PTE_UXN)
		p = append(p, end, " UXN");
	if (pte & PTE_PXN)
		p = append(p, end, " PXN");
	if (pte & PTE_AF)
		p = append(p, end, " AF");
	if (pte & PTE_NG)
		p = append(p, end, " nG");
	p = append(p, end, " ");
	append(p, end, memtype_name((unsigned)((pte & PTE_ATTRINDX_MASK) >> 2)));
}

static const char *invalid_reason(unsigned level, pte_t pte)
{
	if (!(pte & PTE_VALID))
		return "invalid";
	return level == LAST_LEVEL ? "reserved (block type at the last level)"
				   : "reserved (no blocks at this level)";
}

void arch_pte_describe(unsigned level, pte_t pte, char *buf, size_t size)
{
	switch (entry_kind(level, pte)) {
	case PTE_INVALID:
		append(buf, buf + size, invalid_reason(level, pte));
		break;
	case PTE_TABLE:
		append(buf, buf + size, "table");
		break;
	case PTE_BLOCK:
		describe_leaf("block", pte, buf, size);
		break;
	case PTE_PAGE:
		describe_leaf("page", pte, buf, size);
		break;
	}
}

pte_t arch_pt_load(const void *table, unsigned idx)
{
	return ((const volatile pte_t *)table)[idx];
}

void arch_pt_store(void *table, unsigned idx, pte_t pte)
{
	((volatile pte_t *)table)[idx] = pte;
}

/* At the last level type 11 is a page; 01 is reserved there. */
bool arch_pte_is_page(pte_t pte)
{
	return (pte & PTE_TYPE_MASK) == PTE_TYPE_TABLE;
}

phys_addr_t arch_pte_page_pa(pte_t pte)
{
	return pte & PTE_OA_MASK;
}

/* AP[2] is read-only at both ELs, for pages and blocks alike. */
pte_t arch_pte_wrprotect(unsigned level, pte_t pte)
{
	(void)level;
	return pte | PTE_AP_RDONLY;
}
