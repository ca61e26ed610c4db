/* The boot sequence after the arch's early code: one line per stage, then the shell. */
#include <arch/cpu.h>
#include <arch/memory.h>
#include <arch/mmu.h>
#include <arch/trap.h>
#include <kernel/boot.h>
#include <kernel/cred.h>
#include <kernel/initramfs.h>
#include <kernel/console.h>
#include <kernel/kernel.h>
#include <lib/errno.h>
#include <lib/fmt.h>
#include <lib/string.h>
#include <mm/pgtable.h>
#include <mm/pmm.h>
#include <kernel/random.h>
#include <kernel/sections.h>
#include <kernel/proc.h>
#include <kernel/shell.h>
#include <kernel/sysctl.h>

#ifndef RNDBITS_BUILD
#define RNDBITS_BUILD "unknown"
#endif

static struct boot_info *boot_info;
static struct boot_times boot_times;

const struct boot_info *kernel_boot_info(void)
{
	return boot_info;
}

const struct boot_times *kernel_boot_times(void)
{
	return &boot_times;
}

static void log_boot_info(const struct boot_info *bi)
{
	uint64_t ram = 0;

	for (unsigned i = 0; i < bi->nr_ram; i++)
		ram += bi->ram[i].size;
	printk("boot: %s: %u RAM region%s, %llu MiB, %u reserved range%s, cmdline \"%s\"\n",
	       bi->firmware ? bi->firmware : "?", bi->nr_ram, bi->nr_ram == 1 ? "" : "s",
	       (unsigned long long)(ram >> 20), bi->nr_reserved, bi->nr_reserved == 1 ? "" : "s",
	       bi->cmdline);
}

/* A command line longer than the kernel takes had its tail refused (boot_set_cmdline): say so,
 * with where the refused part starts, rather than act on a cut parameter or drop it quietly. */
static void log_refused_cmdline(const struct boot_info *bi)
{
	size_t kept = strlen(bi->cmdline);

	if (bi->cmdline_given <= kept)
		return;
	printk("boot: command line too long (%lu bytes, at most %lu): ignoring its last %lu bytes, "
	       "from \"%s...\"\n", (unsigned long)bi->cmdline_given,
	       (unsigned long)(BOOT_CMDLINE_MAX - 1), (unsigned long)(bi->cmdline_given - kept),
	       bi->cmdline_refused);
}

/* The cpio "newc" magic (with or without the CRC variant's last digit): shown on the initrd's
 * boot line, so that a look at the log tells an archive from bytes that are something else. */
static const char *initrd_kind(const char *data, uint64_t size)
{
	if (size >= 6 && memcmp(data, "07070", 5) == 0 && (data[5] == '1' || data[5] == '2'))
		return "cpio newc";
	return "not a cpio newc archive";
}

/* The initrd boot_take_initrd kept (its frames reserved), reached through the linear map: one
 * line saying where it is and what it looks like, then its files join the namespace. */
static void unpack_initrd(const struct boot_info *bi)
{
	const char *data;

	if (bi->initrd_size == 0)
		return;
	data = __va(bi->initrd_start);
	printk("initrd: %llu bytes at %#llx (from %s), %s\n", (unsigned long long)bi->initrd_size,
	       (unsigned long long)bi->initrd_start, bi->initrd_from,
	       initrd_kind(data, bi->initrd_size));
	initramfs_unpack(data, (size_t)bi->initrd_size, "initrd");
}

/* The "rwx" column of the self-test line for every combination of the three access bits. */
_Static_assert(PT_R == 1 && PT_W == 2 && PT_X == 4, "perm_names is indexed by PT_R|PT_W|PT_X");
static const char perm_names[8][4] = { "---", "r--", "-w-", "rw-", "--x", "r-x", "-wx", "rwx" };

/* What a probe found: the leaf's pt_prot bits, and this one (no pt_prot bit) when there is a
 * leaf at all, so that "must be mapped" and "must not be mapped" are bits to have or not. */
#define PROBE_MAPPED (1u << 31)
_Static_assert(!(PROBE_MAPPED & (PT_R | PT_W | PT_X | PT_USER | PT_DEVICE | PT_GLOBAL)),
	       "PROBE_MAPPED is not a pt_prot bit");

/* One look at the kernel's tables: a kernel section must be mapped with the permissions it
 * needs and none it must not have; a sample of the user half must not be mapped at all. */
struct mapping_probe {
	const char *what;       /* the section's name; NULL for a user-half sample */
	const void *addr;
	unsigned must_have;     /* pt_prot bits and PROBE_MAPPED */
	unsigned must_not_have;
};

#define SECTION_PROBE(name, start, have, have_not) { name, start, PROBE_MAPPED | (have), have_not }
#define USER_PROBE(va) { NULL, (const void *)(va), 0, PROBE_MAPPED }

/* The sections first: the success line quotes their permissions in this order. Nothing may be
 * mapped in the user half before the first process. */
static const struct mapping_probe mapping_probes[] = {
	SECTION_PROBE("text", __text_start, PT_R | PT_X, PT_W | PT_USER),
	SECTION_PROBE("rodata", __rodata_start, PT_R, PT_W | PT_X | PT_USER),
	SECTION_PROBE("data", __data_start, PT_R | PT_W, PT_X | PT_USER),
	SECTION_PROBE("bss", __bss_start, PT_R | PT_W, PT_X | PT_USER),
	USER_PROBE(0),
	USER_PROBE(PAGE_SIZE),
	USER_PROBE(TASK_SIZE / 2),
	USER_PROBE(TASK_SIZE - PAGE_SIZE),
};

/* prot: what the walk found (pt_prot bits), 0 where nothing is mapped. */
static void report_probe_failure(const struct mapping_probe *p, unsigned prot)
{
	if (p->what)
		printk("selftest: %s at %p is %s%s: FAILED\n", p->what, p->addr,
		       perm_names[prot & (PT_R | PT_W | PT_X)], prot & PT_USER ? " user" : "");
	else
		printk("selftest: user address %p is mapped in the kernel tables: FAILED\n", p->addr);
}

/* The W^X self-check: the kernel's own sections carry exactly the permissions they need, and no
 * user address is mapped in the kernel's tables. Walks the real tables, so it proves what the MMU
 * sees, not what we meant. One line says what was found; a failure gets a line of its own.
 */
static int check_kernel_mappings(void)
{
	phys_addr_t root = arch_kernel_root();
	/* A format that cannot refuse a permission (i386 2-level paging has no NX) is not held to
	 * refusing it; the line says so instead of claiming it. */
	unsigned unrefusable = arch_pt_geometry()->always_granted;
	const char *perms[ARRAY_SIZE(mapping_probes)];
	struct pt_walk_result w;
	int failures = 0;
	bool unenforceable = false;

	for (unsigned i = 0; i < ARRAY_SIZE(mapping_probes); i++) {
		const struct mapping_probe *p = &mapping_probes[i];
		uintptr_t va = (uintptr_t)p->addr;

		pt_walk(arch_pt_root_for(root, va), va, &w);
		unsigned prot = w.prot; /* 0 where nothing is mapped */
		unsigned found = prot | (w.mapped ? PROBE_MAPPED : 0);
		unsigned forbidden = p->must_not_have & ~unrefusable;
		bool ok = (found & p->must_have) == p->must_have && !(found & forbidden);

		perms[i] = perm_names[prot & (PT_R | PT_W | PT_X)];
		unenforceable |= (p->must_not_have & unrefusable & prot) != 0;
		if (!ok) {
			report_probe_failure(p, prot);
			failures++;
		}
	}
	if (!failures)
		printk("selftest: W^X ok, user half unmapped: text %p %s, rodata %s, data %s, bss %s%s\n",
		       mapping_probes[0].addr, perms[0], perms[1], perms[2], perms[3],
		       unenforceable ? " (this format cannot refuse x)" : "");
	return failures;
}

__noreturn void kernel_main(struct boot_info *bi)
{
	struct pmm_stats st;

	boot_times.main_cycles = arch_cycles();
	boot_info = bi;
	/* First, so that a fault anywhere in the boot is reported, not a silent hang. */
	arch_traps_init();
	printk("\nrndbits: booting %s (%s, %s/%s), build %s\n", CONFIG_PRESET, CONFIG_ISA,
	       arch_machine_name, arch_cpu_name, RNDBITS_BUILD);
	log_boot_info(bi);
	log_refused_cmdline(bi);
	/* Before the allocator starts: its frames must never be handed out. */
	boot_take_initrd(bi);
	pmm_init(bi);
	pmm_get_stats(&st);
	printk("pmm: %llu frames of %u KiB, %llu used, %llu free\n", (unsigned long long)st.total,
	       (unsigned)(PAGE_SIZE / 1024), (unsigned long long)st.used,
	       (unsigned long long)st.free);
	arch_mmu_init(bi);
	printk("mmu: %s\n", arch_pt_geometry()->name);
	if (check_kernel_mappings())
		arch_poweroff(EXIT_SELFTEST);
	random_init(bi);
	initramfs_unpack_builtin();
	sysctl_apply_cmdline(bi->cmdline);
	unpack_initrd(bi);
	boot_times.ready_cycles = arch_cycles();
	proc_init(); /* the boot context becomes init, pid 1: the shell; the tick starts */
	printk("rndbits: ready; type 'help'\n");
	shell_main();
}

/* The preset's VA layout in one word: the VA size where it is configured, else the split. */
static const char *va_layout(void)
{
#ifdef CONFIG_VA_BITS
#define STR2(x) #x
#define STR(x) STR2(x)
	return "va_bits=" STR(CONFIG_VA_BITS);
#else
	static char buf[32];
	snprintf(buf, sizeof(buf), "page_offset=%#lx", (unsigned long)PAGE_OFFSET);
	return buf;
#endif
}

static int cmd_uname(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "-a") == 0) {
		printk("rndbits %s %s page=%u %s levels=%u machine=%s cpu=%s rng=%s build=%s\n",
		       CONFIG_PRESET, CONFIG_ISA, (unsigned)PAGE_SIZE, va_layout(),
		       arch_pt_geometry()->levels, arch_machine_name, arch_cpu_name,
		       random_source(), RNDBITS_BUILD);
	} else if (argc > 1) {
		printk("uname: invalid option -- '%s'\n", argv[1]);
		return 1;
	} else {
		printk("rndbits\n");
	}
	return 0;
}
SHELL_COMMAND(uname, "uname", "uname [-a]           print system information", cmd_uname);

static int cmd_poweroff(int argc, char **argv)
{
	(void)argc;
	/* Stopping the machine is root's to do, as reboot(2) is CAP_SYS_BOOT's on Linux. */
	if (current_uid() != UID_ROOT) {
		printk("%s: %s\n", argv[0], strerror(EPERM));
		return 1;
	}
	printk("rndbits: power off\n");
	arch_poweroff(EXIT_OK);
}
SHELL_COMMAND(poweroff, "poweroff", "poweroff             power off (QEMU exits with status 0)",
	      cmd_poweroff);
