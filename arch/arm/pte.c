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

/* Each field is one expression of prot, so the encoders run straight through (under TCG every
 * branch taken at boot costs a translated block). Writable implies readable: APX (read-only)
 * is set only for readable mappings without PT_W, and AP = 00 grants nothing. Normal memory is
 * TEX/C/B = 001/1/1 and shareable; a device is TEX/C/B = 000/0/1 (B set for both). */
static struct arm_leaf_attrs attrs_from_prot(unsigned prot)
{
	bool readable = prot & (PT_R | PT_W | PT_X);
	bool writable = prot & PT_W;
	bool device = prot & PT_DEVICE;

	return (struct arm_leaf_attrs){
		.apx = readable && !writable,
		.ap = !readable ? 0 : (prot & PT_USER) ? 3 : 1,
		.tex = !device,
		.c = !device,
		.b = 1,
		.s = !device,
		.ng = !(prot & PT_GLOBAL),
		.xn = !(prot & PT_X) || device,
	};
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

/* Device memory types, one bit per TEX:C:B code (5 bits): strongly ordered (000/0/0),
 * shareable device (000/0/1), non-shareable device (010/0/0). */
#define MEMTYPE_CODE(tex, c, b) (((tex) << 2) | ((c) << 1) | (b))
#define DEVICE_MEMTYPES \
	((1u << MEMTYPE_CODE(0, 0, 0)) | (1u << MEMTYPE_CODE(0, 0, 1)) | (1u << MEMTYPE_CODE(2, 0, 0)))

static bool is_device_type(unsigned tex, unsigned c, unsigned b)
{
	return (DEVICE_MEMTYPES >> MEMTYPE_CODE(tex, c, b)) & 1;
}

/* Each bit of the result is one expression, so decoding runs straight through (under TCG
 * every branch taken at boot costs a translated block). Execute needs read access. */
static unsigned leaf_prot(const struct arm_leaf_attrs *a)
{
	unsigned prot = ap_meaning[(a->apx << 2) | a->ap].prot;
	bool executable = !a->xn && (prot & PT_R);

	return prot | (executable ? PT_X : 0) |
	       (is_device_type(a->tex, a->c, a->b) ? PT_DEVICE : 0) | (a->ng ? 0 : PT_GLOBAL);
}

/* A descriptor taken apart; decoding and describing both start from here. */
struct arm_entry {
	enum pte_kind kind;
	phys_addr_t pa;
	/* Set for leaves only: */
	const char *what;           /* "section", "small page", ... */
	struct arm_leaf_attrs a;
};

/* The parsers are inlined into each caller: arch_pte_decode, which every page-table walk runs
 * (the boot's W^X check among them), then keeps the few fields it needs in registers and makes
 * no calls, where a shared copy fills the whole struct in memory for it to read back. */
#define PARSER static inline __attribute__((always_inline))

PARSER void parse_l1(uint32_t d, struct arm_entry *e)
{
	struct arm_leaf_attrs *a = &e->a;

	if ((d & DESC_TYPE_MASK) == 0)
		return;
	if ((d & DESC_TYPE_MASK) == L1_TABLE) {
		e->kind = PTE_TABLE;
		e->pa = d & L2_TABLE_MASK;
		return;
	}
	a->apx = !!(d & L1_APX);
	a->ap = (d >> L1_AP_SHIFT) & 3;
	a->tex = (d >> L1_TEX_SHIFT) & 7;
	a->c = !!(d & L1_C);
	a->b = !!(d & L1_B);
	a->s = d & L1_S;
	a->ng = d & L1_NG;
	a->xn = d & L1_XN;
	a->pxn = d & L1_PXN;
	e->kind = PTE_BLOCK;
	e->pa = d & ((d & L1_SUPERSECTION) ? SUPERSECTION_MASK : SECTION_MASK);
	e->what = (d & L1_SUPERSECTION) ? "supersection" : "section";
}

PARSER void parse_l2(uint32_t d, struct arm_entry *e)
{
	struct arm_leaf_attrs *a = &e->a;

	if ((d & DESC_TYPE_MASK) == 0)
		return;
	a->apx = !!(d & L2_APX);
	a->ap = (d >> L2_AP_SHIFT) & 3;
	a->c = !!(d & L2_C);
	a->b = !!(d & L2_B);
	a->s = d & L2_S;
	a->ng = d & L2_NG;
	a->pxn = false;
	e->kind = PTE_PAGE;
	if ((d & DESC_TYPE_MASK) == L2_LARGE) {
		a->tex = (d >> L2_LARGE_TEX_SHIFT) & 7;
		a->xn = d & L2_LARGE_XN;
		e->pa = d & LARGE_PAGE_MASK;
		e->what = "large page";
	} else {
		a->tex = (d >> L2_TEX_SHIFT) & 7;
		a->xn = d & L2_XN;
		e->pa = d & SMALL_PAGE_MASK;
		e->what = "small page";
	}
}

PARSER void parse(unsigned level, uint32_t d, struct arm_entry *e)
{
	e->kind = PTE_INVALID;
	e->pa = 0;
	if (level == 0)
		parse_l1(d, e);
	else
		parse_l2(d, e);
}

void arch_pte_decode(unsigned level, pte_t pte, struct pte_info *out)
{
	struct arm_entry e;

	parse(level, (uint32_t)pte, &e);
	out->kind = e.kind;
	out->pa = e.pa;
	out->prot = e.kind == PTE_BLOCK || e.kind == PTE_PAGE ? leaf_prot(&e.a) : 0;
	out->accessed = e.kind != PTE_INVALID; /* no access flag: SCTLR.AFE = 0 */
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

/* "small page AP=RW/RW XN nG S TEX/C/B=normal" */
static void describe_leaf(const struct arm_entry *e, char *buf, size_t size)
{
	const struct arm_leaf_attrs *a = &e->a;
	char mt[32];

	memtype_text(mt, sizeof(mt), a->tex, a->c, a->b);
	snprintf(buf, size, "%s AP=%s%s%s%s%s %s", e->what, ap_meaning[(a->apx << 2) | a->ap].text,
		 a->xn ? " XN" : "", a->pxn ? " PXN" : "", a->ng ? " nG" : "", a->s ? " S" : "", mt);
}

void arch_pte_describe(unsigned level, pte_t pte, char *buf, size_t size)
{
	uint32_t d = (uint32_t)pte;
	struct arm_entry e;

	parse(level, d, &e);
	if (e.kind == PTE_INVALID)
		snprintf(buf, size, "fault (invalid)");
	else if (e.kind == PTE_TABLE)
		snprintf(buf, size, "L2 table domain %u%s", (unsigned)((d >> L1_DOMAIN_SHIFT) & 0xf),
			 (d & L1_TABLE_PXN) ? " PXN" : "");
	else
		describe_leaf(&e, buf, size);
}

pte_t arch_pt_load(const void *table, unsigned idx)
{
	return ((const volatile uint32_t *)table)[idx];
}

void arch_pt_store(void *table, unsigned idx, pte_t pte)
{
	((volatile uint32_t *)table)[idx] = (uint32_t)pte;
}
