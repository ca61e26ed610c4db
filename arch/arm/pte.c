/* ARMv7-A short-descriptor translation table format (Arm ARM B3.5), as pure encoders.
 *
 * Geometry: L1 = 4096 x 32-bit entries (16 KiB, 16 KiB aligned), each 1 MiB of VA; a coarse L2
 * table = 256 x 32-bit entries (1 KiB), each a 4 KiB small page. TTBCR.N = 0: one root (TTBR0)
 * translates all 4 GiB, the kernel's entries are copied into every user root.
 *
 *   L1 page table  [31:10] L2 base  [8:5] domain  [3] NS  [2] PXN            [1:0] = 01
 *   L1 section     [31:20] base  [19] NS  [18] 0  [17] nG  [16] S  [15] APX  [14:12] TEX
 *                  [11:10] AP  [8:5] domain  [4] XN  [3] C  [2] B  [1] = 1  [0] PXN
 *   L2 small page  [31:12] base  [11] nG  [10] S  [9] APX  [8:6] TEX  [5:4] AP  [3] C  [2] B
 *                  [1] = 1  [0] XN
 * (L1 supersections and L2 64 KiB large pages are decoded but never made.)
 *
 * Permissions, with SCTLR.AFE = 0 (no access flag) and every entry in domain 0, which DACR makes
 * a client domain (permissions are checked):
 *   APX AP   PL1 / PL0    used for
 *   0   00   -- / --      a mapping that grants nothing
 *   0   01   RW / --      kernel writable
 *   1   01   RO / --      kernel read-only (text, rodata)
 *   0   11   RW / RW      user writable
 *   1   11   RO / RO      user read-only or read+exec
 * XN is set on everything not executable and on device memory. Execute needs read access.
 *
 * Memory types, with SCTLR.TRE = 0 (no TEX remap): normal memory is TEX/C/B = 001/1/1 (inner
 * and outer write-back write-allocate) and shareable; devices are TEX/C/B = 000/0/1 (shareable
 * device). Kernel mappings are global; everything else is nG, tagged with the ASID in CONTEXTIDR.
 *
 * Compiled for the host too (tests/host): no inline assembly, no kernel headers. */
#include <arch/mmu.h>
#include <lib/fmt.h>

#define DESC_TYPE_MASK 0x3u

#define L1_TABLE 0x1u
#define L1_SECTION 0x2u
#define L1_PXN (1u << 0)
#define L1_B (1u << 2)
#define L1_C (1u << 3)
#define L1_TABLE_PXN (1u << 2)
#define L1_XN (1u << 4)
#define L1_AP_SHIFT 10
#define L1_TEX_SHIFT 12
#define L1_APX (1u << 15)
#define L1_S (1u << 16)
#define L1_NG (1u << 17)
#define L1_SUPERSECTION (1u << 18)
#define L1_DOMAIN_SHIFT 5

#define L2_LARGE 0x1u
#define L2_SMALL 0x2u
#define L2_XN (1u << 0)
#define L2_B (1u << 2)
#define L2_C (1u << 3)
#define L2_AP_SHIFT 4
#define L2_TEX_SHIFT 6
#define L2_APX (1u << 9)
#define L2_S (1u << 10)
#define L2_NG (1u << 11)
#define L2_LARGE_TEX_SHIFT 12
#define L2_LARGE_XN (1u << 15)

#define SECTION_MASK 0xfff00000u
#define SUPERSECTION_MASK 0xff000000u
#define L2_TABLE_MASK 0xfffffc00u
#define SMALL_PAGE_MASK 0xfffff000u
#define LARGE_PAGE_MASK 0xffff0000u

static const struct pt_geometry arm_short_geometry = {
	.levels = 2,
	.shift = { 20, 12 },
	.entries = { 4096, 256 },
	.table_bytes = { 16384, 1024 },
	.pte_bytes = 4,
	.name = "arm short descriptors, 2 levels (1M sections, 4K pages)",
};

const struct pt_geometry *arch_pt_geometry(void)
{
	return &arm_short_geometry;
}

bool arch_pte_leaf_allowed(unsigned level)
{
	return level == 0 || level == 1; /* section at L1, small page at L2 */
}

pte_t arch_pte_make_table(unsigned level, phys_addr_t table_pa)
{
	(void)level;
	return ((uint32_t)table_pa & L2_TABLE_MASK) | (0u << L1_DOMAIN_SHIFT) | L1_TABLE;
}

/* Writable implies readable: APX (read-only) is set only for readable mappings without PT_W,
 * and AP = 00 grants nothing. Normal memory is TEX/C/B = 001/1/1 and shareable; a device is
 * TEX/C/B = 000/0/1 (shareable device) and never executable. Sections and small pages hold the
 * same fields, at different bits. */
pte_t arch_pte_make_leaf(unsigned level, phys_addr_t pa, unsigned prot)
{
	bool readable = prot & (PT_R | PT_W | PT_X);
	uint32_t ap = !readable ? 0 : (prot & PT_USER) ? 3 : 1;
	bool read_only = readable && !(prot & PT_W);
	bool device = prot & PT_DEVICE;
	bool xn = !(prot & PT_X) || device;
	bool global = prot & PT_GLOBAL;
	uint32_t d;

	if (level == 0) {
		d = ((uint32_t)pa & SECTION_MASK) | L1_SECTION | ap << L1_AP_SHIFT;
		d |= device ? L1_B : 1u << L1_TEX_SHIFT | L1_C | L1_B | L1_S;
		if (read_only)
			d |= L1_APX;
		if (!global)
			d |= L1_NG;
		if (xn)
			d |= L1_XN;
		return d;
	}
	d = ((uint32_t)pa & SMALL_PAGE_MASK) | L2_SMALL | ap << L2_AP_SHIFT;
	d |= device ? L2_B : 1u << L2_TEX_SHIFT | L2_C | L2_B | L2_S;
	if (read_only)
		d |= L2_APX;
	if (!global)
		d |= L2_NG;
	if (xn)
		d |= L2_XN;
	return d;
}

/* A leaf descriptor's fields, from wherever its format keeps them. */
struct arm_leaf {
	const char *what;
	uint32_t pa;
	unsigned ap;      /* APX:AP, 0..7 */
	unsigned memtype; /* TEX:C:B as one 5-bit code */
	bool xn, pxn, ng, s;
};

#define MEMTYPE_CODE(tex, c, b) (((tex) << 2) | ((c) << 1) | (b))

static unsigned memtype_of(uint32_t d, unsigned tex_shift)
{
	return MEMTYPE_CODE((d >> tex_shift) & 7, (d & L1_C) != 0, (d & L1_B) != 0);
}

/* What a descriptor is at this level, by its type bits [1:0]. L1: 00 fault, 01 page table,
 * 1x section, or supersection when bit 18 is set. L2: 00 fault, 01 large page, 1x small page. */
static enum pte_kind entry_kind(unsigned level, uint32_t d)
{
	unsigned type = d & DESC_TYPE_MASK;

	if (level > 1 || type == 0)
		return PTE_INVALID;
	if (level == 0)
		return type == L1_TABLE ? PTE_TABLE : PTE_BLOCK;
	return PTE_PAGE;
}

/* The fields of a leaf (kind PTE_BLOCK or PTE_PAGE at this level). */
static void read_leaf(unsigned level, uint32_t d, struct arm_leaf *l)
{
	if (level == 0) {
		bool super = d & L1_SUPERSECTION;

		l->what = super ? "supersection" : "section";
		l->pa = d & (super ? SUPERSECTION_MASK : SECTION_MASK);
		l->ap = (d & L1_APX ? 4 : 0) | ((d >> L1_AP_SHIFT) & 3);
		l->memtype = memtype_of(d, L1_TEX_SHIFT);
		l->xn = d & L1_XN;
		l->pxn = d & L1_PXN;
		l->ng = d & L1_NG;
		l->s = d & L1_S;
		return;
	}
	if ((d & DESC_TYPE_MASK) == L2_LARGE) {
		l->what = "large page";
		l->pa = d & LARGE_PAGE_MASK;
		l->memtype = memtype_of(d, L2_LARGE_TEX_SHIFT);
		l->xn = d & L2_LARGE_XN;
	} else {
		l->what = "small page";
		l->pa = d & SMALL_PAGE_MASK;
		l->memtype = memtype_of(d, L2_TEX_SHIFT);
		l->xn = d & L2_XN;
	}
	l->ap = (d & L2_APX ? 4 : 0) | ((d >> L2_AP_SHIFT) & 3);
	l->pxn = false;
	l->ng = d & L2_NG;
	l->s = d & L2_S;
}

/* What APX:AP means: PL1/PL0 access in words, and the enum pt_prot bits it grants (PT_USER
 * when PL0 has any access; APX=1 AP=00 is reserved and grants nothing). */
static const struct {
	const char *text;
	unsigned prot;
} ap_meaning[8] = {
	{ "--/--", 0 },
	{ "RW/--", PT_R | PT_W },
	{ "RW/RO", PT_R | PT_W | PT_USER },
	{ "RW/RW", PT_R | PT_W | PT_USER },
	{ "reserved", 0 },
	{ "RO/--", PT_R },
	{ "RO/RO", PT_R | PT_USER },
	{ "RO/RO", PT_R | PT_USER },
};

/* Devices are strongly ordered (TEX/C/B 000/0/0), shareable device (000/0/1) and non-shareable
 * device (010/0/0). */
static bool is_device(unsigned memtype)
{
	return memtype == MEMTYPE_CODE(0, 0, 0) || memtype == MEMTYPE_CODE(0, 0, 1) ||
	       memtype == MEMTYPE_CODE(2, 0, 0);
}

/* Execute needs read access. */
static unsigned leaf_prot(const struct arm_leaf *l)
{
	unsigned prot = ap_meaning[l->ap].prot;

	if (!l->xn && (prot & PT_R))
		prot |= PT_X;
	if (is_device(l->memtype))
		prot |= PT_DEVICE;
	if (!l->ng)
		prot |= PT_GLOBAL;
	return prot;
}

void arch_pte_decode(unsigned level, pte_t pte, struct pte_info *out)
{
	uint32_t d = (uint32_t)pte;
	struct arm_leaf leaf;

	out->kind = entry_kind(level, d);
	out->pa = 0;
	out->prot = 0;
	out->accessed = out->kind != PTE_INVALID; /* no access flag: SCTLR.AFE = 0 */
	if (out->kind == PTE_TABLE) {
		out->pa = d & L2_TABLE_MASK;
	} else if (out->kind != PTE_INVALID) {
		read_leaf(level, d, &leaf);
		out->pa = leaf.pa;
		out->prot = leaf_prot(&leaf);
	}
}

static int memtype_text(char *buf, size_t size, unsigned code)
{
	if (code == MEMTYPE_CODE(1, 1, 1))
		return snprintf(buf, size, "TEX/C/B=normal");
	if (code == MEMTYPE_CODE(0, 0, 1))
		return snprintf(buf, size, "TEX/C/B=device");
	if (code == MEMTYPE_CODE(0, 0, 0))
		return snprintf(buf, size, "TEX/C/B=strongly-ordered");
	return snprintf(buf, size, "TEX/C/B=%u/%u/%u", code >> 2, (code >> 1) & 1, code & 1);
}

/* "small page AP=RW/RW XN nG S TEX/C/B=normal" */
static void describe_leaf(unsigned level, uint32_t d, char *buf, size_t size)
{
	struct arm_leaf l;
	char mt[32];

	read_leaf(level, d, &l);
	memtype_text(mt, sizeof(mt), l.memtype);
	snprintf(buf, size, "%s AP=%s%s%s%s%s %s", l.what, ap_meaning[l.ap].text,
		 l.xn ? " XN" : "", l.pxn ? " PXN" : "", l.ng ? " nG" : "", l.s ? " S" : "", mt);
}

void arch_pte_describe(unsigned level, pte_t pte, char *buf, size_t size)
{
	uint32_t d = (uint32_t)pte;

	switch (entry_kind(level, d)) {
	case PTE_INVALID:
		snprintf(buf, size, "fault (invalid)");
		break;
	case PTE_TABLE:
		snprintf(buf, size, "L2 table domain %u%s", (unsigned)((d >> L1_DOMAIN_SHIFT) & 0xf),
			 (d & L1_TABLE_PXN) ? " PXN" : "");
		break;
	default:
		describe_leaf(level, d, buf, size);
	}
}

pte_t arch_pt_load(const void *table, unsigned idx)
{
	return ((const volatile uint32_t *)table)[idx];
}

void arch_pt_store(void *table, unsigned idx, pte_t pte)
{
	((volatile uint32_t *)table)[idx] = (uint32_t)pte;
}

/* L2 type 01 is a large page, 1x a small one (entry_kind): any non-zero type is a page. */
bool arch_pte_is_page(pte_t pte)
{
	return ((uint32_t)pte & DESC_TYPE_MASK) != 0;
}

phys_addr_t arch_pte_page_pa(pte_t pte)
{
	uint32_t d = (uint32_t)pte;

	return d & ((d & DESC_TYPE_MASK) == L2_LARGE ? LARGE_PAGE_MASK : SMALL_PAGE_MASK);
}

/* APX turns RW/-- into RO/-- and RW/RW into RO/RO (the table at the top of this file). It is
 * set only where AP grants something: APX=1 with AP=00 is reserved. Large and small pages
 * keep APX and AP in the same bits. */
pte_t arch_pte_wrprotect(unsigned level, pte_t pte)
{
	uint32_t d = (uint32_t)pte;

	if (level == 0)
		return (d >> L1_AP_SHIFT) & 3 ? d | L1_APX : d;
	return (d >> L2_AP_SHIFT) & 3 ? d | L2_APX : d;
}
