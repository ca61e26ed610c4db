/* VMSAv8-64 translation table format for the running preset: geometry derived from
 * CONFIG_PAGE_SHIFT and CONFIG_VA_BITS, and the descriptor bits. Pure macros (no kernel headers),
 * shared by the host-testable encoders (pte.c), the build-time boot table maker
 * (tools/boot_tables) and the asm entry code.
 *
 * Levels here are the generic ones (0 = root); the Arm ARM numbers a 2-level tree's root as
 * level 2, so A64_HW_LEVEL() converts. */
#ifndef RNDBITS_ASM_ARM64_PGTABLE_HWDEF_H
#define RNDBITS_ASM_ARM64_PGTABLE_HWDEF_H

#if defined(__ASSEMBLER__) || defined(LINKER_SCRIPT)
#define _ULL(x) x
#else
#define _ULL(x) x##ULL
#endif

/* Index bits per level: a table fills one granule of 8-byte descriptors. */
#define A64_PT_BITS (CONFIG_PAGE_SHIFT - 3)
#define A64_PT_LEVELS ((CONFIG_VA_BITS - CONFIG_PAGE_SHIFT + A64_PT_BITS - 1) / A64_PT_BITS)
#define A64_HW_LEVEL(level) (4 - A64_PT_LEVELS + (level))
#define A64_LEVEL_SHIFT(level) (CONFIG_PAGE_SHIFT + A64_PT_BITS * (A64_PT_LEVELS - 1 - (level)))
#define A64_ROOT_ENTRIES (1 << (CONFIG_VA_BITS - A64_LEVEL_SHIFT(0)))

/* The span of a last-level table: 2 MiB (4K), 32 MiB (16K), 512 MiB (64K). The image lies in
 * one (linker/arm64.ld asserts it), and so does the linear map below it except on 4K. */
#define A64_TABLE_SPAN_SHIFT (CONFIG_PAGE_SHIFT + A64_PT_BITS)

/* Tables below the roots in head.S's boot pool, which tools/boot_tables fills at build
 * time and checks it takes exactly (the identity map's root holds its block itself):
 * under the kernel root one table per level for the image and the linear map under it, and
 * one per level for the device window, whose path parts from the image's at the root. 4K adds
 * a last-level table for the GIC, as the UART lies in another 2 MiB; 16K and 64K ones span 32
 * and 512 MiB, the GIC's and the UART's frames both. Tables arch_mmu_init adds (RAM above the
 * image) come from pmm. */
#if CONFIG_PAGE_SHIFT == 12
#define A64_BOOT_POOL_TABLES (2 * A64_PT_LEVELS - 1)
#else
#define A64_BOOT_POOL_TABLES (2 * A64_PT_LEVELS - 2)
#endif

/* The block size of the boot identity map: 1 GiB (4K, level 1), 32 MiB (16K) or 512 MiB (64K),
 * both level 2. Larger blocks would need FEAT_LPA/LPA2. The boot TCR gives TTBR0 a 32-bit
 * range, whose translation starts at that level: the identity root holds the block. */
#if CONFIG_PAGE_SHIFT == 12
#define A64_BOOT_BLOCK_SHIFT 30
#else
#define A64_BOOT_BLOCK_SHIFT A64_TABLE_SPAN_SHIFT
#endif
#define A64_BOOT_ID_VA_BITS 32

/* The boot's three roots, in head.S's .boot_tables section: the kernel's (TTBR1's for good),
 * the identity map's (TTBR0's until the jump to the high address: the boot TCR's 32-bit range,
 * 4 to 128 entries), and an empty one, a whole root both for that range and for the tasks'
 * (TTBR0's when no task runs). TTBR wants a root aligned to its size, and to 64 bytes at least. */
#define A64_ROOT_BYTES (A64_ROOT_ENTRIES * 8)
#define A64_BOOT_ID_ROOT_BYTES ((1 << (A64_BOOT_ID_VA_BITS - A64_BOOT_BLOCK_SHIFT)) * 8)
#if A64_ROOT_BYTES > A64_BOOT_ID_ROOT_BYTES
#define A64_EMPTY_ROOT_BYTES A64_ROOT_BYTES
#else
#define A64_EMPTY_ROOT_BYTES A64_BOOT_ID_ROOT_BYTES
#endif

/* ID_AA64MMFR0_EL1's field for this granule, and its value when the CPU lacks the granule. */
#if CONFIG_PAGE_SHIFT == 12
#define ID_MMFR0_TGRAN_SHIFT 28
#define ID_MMFR0_TGRAN_NONE 0xf
#elif CONFIG_PAGE_SHIFT == 14
#define ID_MMFR0_TGRAN_SHIFT 20
#define ID_MMFR0_TGRAN_NONE 0x0
#else
#define ID_MMFR0_TGRAN_SHIFT 24
#define ID_MMFR0_TGRAN_NONE 0xf
#endif
/* The largest output size TCR.IPS is given: 48 bits, as 52-bit addresses change the descriptor
 * format. */
#define ID_MMFR0_PARANGE_48 5

/* Descriptor bits (stage 1, VMSAv8-64, 48-bit output addresses). */
#define PTE_VALID _ULL(0x1)
#define PTE_TYPE_MASK _ULL(0x3)
#define PTE_TYPE_BLOCK _ULL(0x1)
#define PTE_TYPE_TABLE _ULL(0x3) /* also a page at the last level */
#define PTE_ATTRINDX(i) ((_ULL(0) + (i)) << 2)
#define PTE_ATTRINDX_MASK (_ULL(7) << 2)
#define PTE_NS (_ULL(1) << 5)
#define PTE_AP_USER (_ULL(1) << 6)     /* AP[1]: EL0 may access */
#define PTE_AP_RDONLY (_ULL(1) << 7)   /* AP[2]: no writes at any EL */
#define PTE_SH_INNER (_ULL(3) << 8)
#define PTE_SH_MASK (_ULL(3) << 8)
#define PTE_AF (_ULL(1) << 10)
#define PTE_NG (_ULL(1) << 11)
#define PTE_DBM (_ULL(1) << 51)
#define PTE_CONT (_ULL(1) << 52)
#define PTE_PXN (_ULL(1) << 53)
#define PTE_UXN (_ULL(1) << 54)
#define PTE_OA_MASK (((_ULL(1) << 48) - 1) & ~((_ULL(1) << CONFIG_PAGE_SHIFT) - 1))

/* MAIR_EL1 slots. */
#define MT_NORMAL 0
#define MT_DEVICE_nGnRE 1
#define MT_NORMAL_NC 2
#define MT_DEVICE_nGnRnE 3
#define MAIR_EL1_VALUE _ULL(0x004404ff)

/* TCR_EL1 fields. */
#define TCR_T0SZ(n) (_ULL(0) + (n))
#define TCR_T1SZ(n) ((_ULL(0) + (n)) << 16)
#define TCR_IRGN0_WBWA (_ULL(1) << 8)
#define TCR_ORGN0_WBWA (_ULL(1) << 10)
#define TCR_SH0_INNER (_ULL(3) << 12)
#define TCR_IRGN1_WBWA (_ULL(1) << 24)
#define TCR_ORGN1_WBWA (_ULL(1) << 26)
#define TCR_SH1_INNER (_ULL(3) << 28)
#define TCR_EPD0 (_ULL(1) << 7)
#define TCR_IPS_SHIFT 32
#if CONFIG_PAGE_SHIFT == 12
#define TCR_TG0 (_ULL(0) << 14)
#define TCR_TG1 (_ULL(2) << 30)
#elif CONFIG_PAGE_SHIFT == 14
#define TCR_TG0 (_ULL(2) << 14)
#define TCR_TG1 (_ULL(1) << 30)
#elif CONFIG_PAGE_SHIFT == 16
#define TCR_TG0 (_ULL(1) << 14)
#define TCR_TG1 (_ULL(3) << 30)
#else
#error "arm64: PAGE_SHIFT must be 12, 14 or 16"
#endif
#define TCR_EL1_HALVES                                                                       \
	(TCR_T1SZ(64 - CONFIG_VA_BITS) | TCR_IRGN0_WBWA | TCR_ORGN0_WBWA | TCR_SH0_INNER |   \
	 TCR_IRGN1_WBWA | TCR_ORGN1_WBWA | TCR_SH1_INNER | TCR_TG0 | TCR_TG1)
/* The boot's TTBR0 range is 32 bits (the identity map); head.S widens it to VA_BITS, the
 * tasks', when it drops the identity map. */
#define TCR_EL1_BOOT (TCR_T0SZ(64 - A64_BOOT_ID_VA_BITS) | TCR_EL1_HALVES)
#define TCR_T0SZ_TASKS (64 - CONFIG_VA_BITS)

/* SCTLR_EL1: the ARMv8.0 RES1 bits (EOS, TSCXT, EIS, SPAN, nTLSMD, LSMAOE) plus M, C, SA, I. */
#define SCTLR_EL1_RES1 ((_ULL(1) << 11) | (_ULL(1) << 20) | (_ULL(1) << 22) | (_ULL(1) << 23) | \
			(_ULL(1) << 28) | (_ULL(1) << 29))
#define SCTLR_EL1_M (_ULL(1) << 0)
#define SCTLR_EL1_C (_ULL(1) << 2)
#define SCTLR_EL1_SA (_ULL(1) << 3)
#define SCTLR_EL1_I (_ULL(1) << 12)
/* What ordinary EL0 code expects, as on Linux: DC ZVA, CTR_EL0 reads, cache maintenance. */
#define SCTLR_EL1_CP15BEN (_ULL(1) << 5) /* AArch32 EL0: CP15 DMB/DSB/ISB allowed */
#define SCTLR_EL1_DZE (_ULL(1) << 14)
#define SCTLR_EL1_UCT (_ULL(1) << 15)
#define SCTLR_EL1_UCI (_ULL(1) << 26)
#define SCTLR_EL1_MMU_ON (SCTLR_EL1_RES1 | SCTLR_EL1_M | SCTLR_EL1_C | SCTLR_EL1_SA | SCTLR_EL1_I | \
			  SCTLR_EL1_CP15BEN | SCTLR_EL1_DZE | SCTLR_EL1_UCT | SCTLR_EL1_UCI)

#endif
