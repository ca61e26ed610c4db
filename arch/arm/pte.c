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

/* Leaf attributes in one layout, the small page's (XN, B, C, AP, TEX, APX, S, nG at their L2
 * positions, type bits clear): the encoder makes them, and the decoder brings every leaf format
 * to them, so that the rest of either side is one piece of code. A section holds the same fields
 * with AP..nG six bits up and XN at bit 4 (B and C stay); a large page has TEX six bits up and
 * XN at bit 15. */
#define ATTR_XN L2_XN
#define ATTR_BC (L2_B | L2_C)
#define ATTR_TEX (7u << L2_TEX_SHIFT)
#define ATTR_AP_TO_NG 0xe30u /* AP, APX, S, nG */
#define SECTION_FIELDS_UP (L1_AP_SHIFT - L2_AP_SHIFT)
#define SECTION_XN_SHIFT __builtin_ctz(L1_XN)
#define LARGE_TEX_UP (L2_LARGE_TEX_SHIFT - L2_TEX_SHIFT)
#define LARGE_XN_SHIFT __builtin_ctz(L2_LARGE_XN)
_Static_assert(L1_TEX_SHIFT == L2_TEX_SHIFT + SECTION_FIELDS_UP &&
		       L1_APX == L2_APX << SECTION_FIELDS_UP && L1_S == L2_S << SECTION_FIELDS_UP &&
		       L1_NG == L2_NG << SECTION_FIELDS_UP,
	       "a section's AP..nG are a small page's, moved as one");

/* The attributes of a leaf for prot, as a constant expression, so that the table below is made
 * by the compiler. Writable implies readable: APX (read-only) is set only for readable mappings
 * without PT_W, and AP = 00 grants nothing. Normal memory is TEX/C/B = 001/1/1 and shareable; a
 * device is TEX/C/B = 000/0/1 (shareable device) and never executable. */
#define READABLE(prot) (((prot) & (PT_R | PT_W | PT_X)) != 0)
#define LEAF_ATTRS(prot)                                                                    \
	((READABLE(prot) && !((prot) & PT_W) ? L2_APX : 0) |                                 \
	 ((READABLE(prot) ? ((prot) & PT_USER ? 3u : 1u) : 0u) << L2_AP_SHIFT) |             \
	 ((prot) & PT_DEVICE ? L2_B : (1u << L2_TEX_SHIFT) | L2_C | L2_B | L2_S) |           \
	 ((prot) & PT_GLOBAL ? 0 : L2_NG) |                                                  \
	 (((prot) & PT_X) && !((prot) & PT_DEVICE) ? 0 : L2_XN))
#define ATTRS_4(p) LEAF_ATTRS(p), LEAF_ATTRS((p) + 1), LEAF_ATTRS((p) + 2), LEAF_ATTRS((p) + 3)
#define ATTRS_16(p) ATTRS_4(p), ATTRS_4((p) + 4), ATTRS_4((p) + 8), ATTRS_4((p) + 12)
#define PROT_ALL (PT_R | PT_W | PT_X | PT_USER | PT_DEVICE | PT_GLOBAL)
_Static_assert(PROT_ALL == 63, "leaf_attrs has one entry per combination of pt_prot bits");

/* A look-up instead of a test per field: the encoder runs at every boot and every exec. */
static const uint16_t leaf_attrs[PROT_ALL + 1] = { ATTRS_16(0), ATTRS_16(16), ATTRS_16(32),
						   ATTRS_16(48) };

pte_t arch_pte_make_leaf(unsigned level, phys_addr_t pa, unsigned prot)
{
	uint32_t attrs = leaf_attrs[prot & PROT_ALL];

	if (level == 0)
		return ((uint32_t)pa & SECTION_MASK) | L1_SECTION | (attrs & ATTR_BC) |
		       ((attrs & ~(ATTR_BC | ATTR_XN)) << SECTION_FIELDS_UP) |
		       ((attrs & ATTR_XN) << SECTION_XN_SHIFT);
	return ((uint32_t)pa & SMALL_PAGE_MASK) | L2_SMALL | attrs;
}

/* How to read a descriptor, by level and type bits [1:0] (with bit 18, which tells a
 * supersection from a section at L1 and is an address bit elsewhere: the rows repeat). */
struct arm_format {
	uint8_t kind;                         /* enum pte_kind */
	uint8_t fields_up, tex_up, xn_shift;  /* where the leaf attributes are (see above) */
	uint32_t pa_mask;                     /* 0 where nothing is mapped */
	uint32_t pxn;                         /* the PXN bit, if the format has one */
	const char *what;                     /* a leaf's name */
};

#define FAULT { PTE_INVALID, 0, 0, 0, 0, 0, NULL }
#define L2_TABLE_FORMAT { PTE_TABLE, 0, 0, 0, L2_TABLE_MASK, 0, NULL }
#define SECTION_FORMAT(mask, what)                                                            \
	{ PTE_BLOCK, SECTION_FIELDS_UP, SECTION_FIELDS_UP, SECTION_XN_SHIFT, mask, L1_PXN, what }
#define LARGE_FORMAT { PTE_PAGE, 0, LARGE_TEX_UP, LARGE_XN_SHIFT, LARGE_PAGE_MASK, 0, "large page" }
#define SMALL_FORMAT { PTE_PAGE, 0, 0, 0, SMALL_PAGE_MASK, 0, "small page" }
#define L2_FORMATS FAULT, LARGE_FORMAT, SMALL_FORMAT, SMALL_FORMAT

static const struct arm_format formats[2][8] = {
	{ FAULT, L2_TABLE_FORMAT, SECTION_FORMAT(SECTION_MASK, "section"),
	  SECTION_FORMAT(SECTION_MASK, "section"), FAULT, L2_TABLE_FORMAT,
	  SECTION_FORMAT(SUPERSECTION_MASK, "supersection"),
	  SECTION_FORMAT(SUPERSECTION_MASK, "supersection") },
	{ L2_FORMATS, L2_FORMATS },
};

/* A look-up, not tests: every page-table walk decodes (the boot's W^X check among them), and
 * under TCG every branch taken at boot costs a translated block. */
static const struct arm_format *format_of(unsigned level, uint32_t d)
{
	return &formats[level != 0][(d & DESC_TYPE_MASK) |
				    ((d >> (__builtin_ctz(L1_SUPERSECTION) - 2)) & 4)];
}

/* A leaf's attributes in the small page's layout (garbage for tables and faults). */
static uint32_t leaf_attrs_of(uint32_t d, const struct arm_format *f)
{
	return ((d >> f->fields_up) & ATTR_AP_TO_NG) | ((d >> f->tex_up) & ATTR_TEX) |
	       (d & ATTR_BC) | ((d >> f->xn_shift) & ATTR_XN);
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

static unsigned ap_index(uint32_t attrs)
{
	return ((attrs & L2_APX) >> 7) | ((attrs >> L2_AP_SHIFT) & 3);
}
_Static_assert(L2_APX >> 7 == 4, "ap_index puts APX above AP");

/* TEX:C:B as one 5-bit code; devices are strongly ordered (000/0/0), shareable device
 * (000/0/1) and non-shareable device (010/0/0). */
#define MEMTYPE_CODE(tex, c, b) (((tex) << 2) | ((c) << 1) | (b))
#define DEVICE_MEMTYPES \
	((1u << MEMTYPE_CODE(0, 0, 0)) | (1u << MEMTYPE_CODE(0, 0, 1)) | (1u << MEMTYPE_CODE(2, 0, 0)))

static unsigned memtype_code(uint32_t attrs)
{
	return ((attrs & ATTR_TEX) >> (L2_TEX_SHIFT - 2)) | ((attrs & ATTR_BC) >> 2);
}

/* Each bit of the result is one expression, so decoding runs straight through. Execute needs
 * read access. */
static unsigned leaf_prot(uint32_t attrs)
{
	unsigned prot = ap_meaning[ap_index(attrs)].prot;
	bool executable = !(attrs & ATTR_XN) && (prot & PT_R);

	return prot | (executable ? PT_X : 0) |
	       (((DEVICE_MEMTYPES >> memtype_code(attrs)) & 1) ? PT_DEVICE : 0) |
	       (attrs & L2_NG ? 0 : PT_GLOBAL);
}

void arch_pte_decode(unsigned level, pte_t pte, struct pte_info *out)
{
	uint32_t d = (uint32_t)pte;
	const struct arm_format *f = format_of(level, d);
	bool leaf = f->kind == PTE_BLOCK || f->kind == PTE_PAGE;

	out->kind = f->kind;
	out->pa = d & f->pa_mask;
	/* A test, not a mask: most walk steps find an L1 table, which has no attributes. */
	out->prot = leaf ? leaf_prot(leaf_attrs_of(d, f)) : 0;
	out->accessed = f->kind != PTE_INVALID; /* no access flag: SCTLR.AFE = 0 */
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
static void describe_leaf(uint32_t d, const struct arm_format *f, char *buf, size_t size)
{
	uint32_t attrs = leaf_attrs_of(d, f);
	char mt[32];

	memtype_text(mt, sizeof(mt), memtype_code(attrs));
	snprintf(buf, size, "%s AP=%s%s%s%s%s %s", f->what, ap_meaning[ap_index(attrs)].text,
		 attrs & ATTR_XN ? " XN" : "", d & f->pxn ? " PXN" : "", attrs & L2_NG ? " nG" : "",
		 attrs & L2_S ? " S" : "", mt);
}

void arch_pte_describe(unsigned level, pte_t pte, char *buf, size_t size)
{
	uint32_t d = (uint32_t)pte;
	const struct arm_format *f = format_of(level, d);

	if (f->kind == PTE_INVALID)
		snprintf(buf, size, "fault (invalid)");
	else if (f->kind == PTE_TABLE)
		snprintf(buf, size, "L2 table domain %u%s", (unsigned)((d >> L1_DOMAIN_SHIFT) & 0xf),
			 (d & L1_TABLE_PXN) ? " PXN" : "");
	else
		describe_leaf(d, f, buf, size);
}

pte_t arch_pt_load(const void *table, unsigned idx)
{
	return ((const volatile uint32_t *)table)[idx];
}

void arch_pt_store(void *table, unsigned idx, pte_t pte)
{
	((volatile uint32_t *)table)[idx] = (uint32_t)pte;
}
