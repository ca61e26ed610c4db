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
#define L1_B (1u << 2)
#define L1_C (1u << 3)
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

/* The fields every leaf has, whatever their positions in the descriptor. */
struct arm_leaf_attrs {
	unsigned apx, ap;       /* access permissions */
	unsigned tex, c, b;     /* memory type */
	bool s, ng, xn, pxn;
};

static struct arm_leaf_attrs attrs_from_prot(unsigned prot)
{
	struct arm_leaf_attrs a = { 0 };
	bool readable = prot & (PT_R | PT_W | PT_X);

	if (prot & PT_W) {
		a.apx = 0;
		a.ap = (prot & PT_USER) ? 3 : 1;
	} else if (readable) {
		a.apx = 1;
		a.ap = (prot & PT_USER) ? 3 : 1;
	}
	if (prot & PT_DEVICE) {
		a.b = 1;                /* TEX 000, C 0, B 1: shareable device */
	} else {
		a.tex = 1;
		a.c = 1;
		a.b = 1;
		a.s = true;
	}
	a.ng = !(prot & PT_GLOBAL);
	a.xn = !(prot & PT_X) || (prot & PT_DEVICE);
	return a;
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

static uint32_t make_section(phys_addr_t pa, const struct arm_leaf_attrs *a)
{
	uint32_t d = ((uint32_t)pa & SECTION_MASK) | L1_SECTION;

	d |= a->b ? L1_B : 0;
	d |= a->c ? L1_C : 0;
	d |= a->xn ? L1_XN : 0;
	d |= a->ap << L1_AP_SHIFT;
	d |= a->tex << L1_TEX_SHIFT;
	d |= a->apx ? L1_APX : 0;
	d |= a->s ? L1_S : 0;
	d |= a->ng ? L1_NG : 0;
	return d;
}

static uint32_t make_small_page(phys_addr_t pa, const struct arm_leaf_attrs *a)
{
	uint32_t d = ((uint32_t)pa & SMALL_PAGE_MASK) | L2_SMALL;

	d |= a->xn ? L2_XN : 0;
	d |= a->b ? L2_B : 0;
	d |= a->c ? L2_C : 0;
	d |= a->ap << L2_AP_SHIFT;
	d |= a->tex << L2_TEX_SHIFT;
	d |= a->apx ? L2_APX : 0;
	d |= a->s ? L2_S : 0;
	d |= a->ng ? L2_NG : 0;
	return d;
}

pte_t arch_pte_make_leaf(unsigned level, phys_addr_t pa, unsigned prot)
{
	struct arm_leaf_attrs a = attrs_from_prot(prot);

	return level == 0 ? make_section(pa, &a) : make_small_page(pa, &a);
}

/* PL1/PL0 access for APX:AP, and the enum pt_prot bits it grants. */
static const char *const ap_text[8] = {
	"--/--", "RW/--", "RW/RO", "RW/RW", "reserved", "RO/--", "RO/RO", "RO/RO",
};

static unsigned prot_from_ap(unsigned apx, unsigned ap)
{
	unsigned prot = 0;

	if (ap == 0) /* no access, or the reserved APX=1 AP=00 */
		return 0;
	prot |= PT_R;
	if (!apx)
		prot |= PT_W;
	if (ap >= 2)
		prot |= PT_USER;
	return prot;
}

static bool is_device_type(unsigned tex, unsigned c, unsigned b)
{
	/* Strongly ordered (000/0/0), shareable device (000/0/1), non-shareable device (010/0/0). */
	return (tex == 0 && c == 0) || (tex == 2 && c == 0 && b == 0);
}

static int memtype_text(char *buf, size_t size, unsigned tex, unsigned c, unsigned b)
{
	if (tex == 1 && c && b)
		return snprintf(buf, size, "TEX/C/B=normal");
	if (tex == 0 && !c && b)
		return snprintf(buf, size, "TEX/C/B=device");
	if (tex == 0 && !c && !b)
		return snprintf(buf, size, "TEX/C/B=strongly-ordered");
	return snprintf(buf, size, "TEX/C/B=%u/%u/%u", tex, c, b);
}

static void decode_leaf(struct pte_info *out, const char *what, const struct arm_leaf_attrs *a)
{
	char mt[32];
	unsigned apx_ap = (a->apx << 2) | a->ap;

	out->prot = prot_from_ap(a->apx, a->ap);
	if (!a->xn && (out->prot & PT_R))
		out->prot |= PT_X;
	if (is_device_type(a->tex, a->c, a->b))
		out->prot |= PT_DEVICE;
	if (!a->ng)
		out->prot |= PT_GLOBAL;
	out->accessed = true;
	memtype_text(mt, sizeof(mt), a->tex, a->c, a->b);
	snprintf(out->text, sizeof(out->text), "%s AP=%s%s%s%s%s %s", what, ap_text[apx_ap],
		 a->xn ? " XN" : "", a->pxn ? " PXN" : "", a->ng ? " nG" : "", a->s ? " S" : "", mt);
}

static void decode_l1(uint32_t d, struct pte_info *out)
{
	struct arm_leaf_attrs a;

	if ((d & DESC_TYPE_MASK) == 0) {
		snprintf(out->text, sizeof(out->text), "fault (invalid)");
		return;
	}
	if ((d & DESC_TYPE_MASK) == L1_TABLE) {
		out->kind = PTE_TABLE;
		out->pa = d & L2_TABLE_MASK;
		out->accessed = true;
		snprintf(out->text, sizeof(out->text), "L2 table domain %u%s",
			 (unsigned)((d >> L1_DOMAIN_SHIFT) & 0xf), (d & L1_TABLE_PXN) ? " PXN" : "");
		return;
	}
	a.apx = !!(d & L1_APX);
	a.ap = (d >> L1_AP_SHIFT) & 3;
	a.tex = (d >> L1_TEX_SHIFT) & 7;
	a.c = !!(d & L1_C);
	a.b = !!(d & L1_B);
	a.s = d & L1_S;
	a.ng = d & L1_NG;
	a.xn = d & L1_XN;
	a.pxn = d & L1_PXN;
	out->kind = PTE_BLOCK;
	if (d & L1_SUPERSECTION) {
		out->pa = d & SUPERSECTION_MASK;
		decode_leaf(out, "supersection", &a);
	} else {
		out->pa = d & SECTION_MASK;
		decode_leaf(out, "section", &a);
	}
}

static void decode_l2(uint32_t d, struct pte_info *out)
{
	struct arm_leaf_attrs a = { 0 };

	if ((d & DESC_TYPE_MASK) == 0) {
		snprintf(out->text, sizeof(out->text), "fault (invalid)");
		return;
	}
	a.apx = !!(d & L2_APX);
	a.ap = (d >> L2_AP_SHIFT) & 3;
	a.c = !!(d & L2_C);
	a.b = !!(d & L2_B);
	a.s = d & L2_S;
	a.ng = d & L2_NG;
	out->kind = PTE_PAGE;
	if ((d & DESC_TYPE_MASK) == L2_LARGE) {
		a.tex = (d >> L2_LARGE_TEX_SHIFT) & 7;
		a.xn = d & L2_LARGE_XN;
		out->pa = d & LARGE_PAGE_MASK;
		decode_leaf(out, "large page", &a);
	} else {
		a.tex = (d >> L2_TEX_SHIFT) & 7;
		a.xn = d & L2_XN;
		out->pa = d & SMALL_PAGE_MASK;
		decode_leaf(out, "small page", &a);
	}
}

void arch_pte_decode(unsigned level, pte_t pte, struct pte_info *out)
{
	uint32_t d = (uint32_t)pte;

	out->kind = PTE_INVALID;
	out->pa = 0;
	out->prot = 0;
	out->accessed = false;
	out->text[0] = '\0';
	if (level == 0)
		decode_l1(d, out);
	else
		decode_l2(d, out);
}

pte_t arch_pt_load(const void *table, unsigned idx)
{
	return ((const volatile uint32_t *)table)[idx];
}

void arch_pt_store(void *table, unsigned idx, pte_t pte)
{
	((volatile uint32_t *)table)[idx] = (uint32_t)pte;
}
