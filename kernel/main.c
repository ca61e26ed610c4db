/* The boot sequence after the arch's early code: one line per stage, then the shell. */
#include <arch/cpu.h>
#include <arch/memory.h>
#include <arch/mmu.h>
#include <arch/trap.h>
#include <boot.h>
#include <console.h>
#include <kernel.h>
#include <lib/fmt.h>
#include <lib/string.h>
#include <pgtable.h>
#include <pmm.h>
#include <random.h>
#include <sections.h>
#include <shell.h>
#include <sysctl.h>

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

__noreturn void panic(const char *fmt, ...)
{
	va_list ap;

	printk("rndbits: kernel panic: ");
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
	printk("\n");
	arch_poweroff(EXIT_PANIC);
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

/* Describe the permissions a walk found, as "rwx" plus "user"/"kernel". */
static void prot_string(unsigned prot, char out[4])
{
	out[0] = prot & PT_R ? 'r' : '-';
	out[1] = prot & PT_W ? 'w' : '-';
	out[2] = prot & PT_X ? 'x' : '-';
	out[3] = '\0';
}

struct wx_check {
	const char *what;
	const void *addr;
	unsigned must_have;
	unsigned must_not_have;
};

/* The W^X self-check: the kernel's own sections carry exactly the permissions they need, and no
 * user address is mapped in the kernel's tables. Walks the real tables, so it proves what the MMU
 * sees, not what we meant. One line says what was found; a failure gets a line of its own. */
static int check_kernel_mappings(void)
{
	const struct wx_check checks[] = {
		{ "text", __text_start, PT_R | PT_X, PT_W | PT_USER },
		{ "rodata", __rodata_start, PT_R, PT_W | PT_X | PT_USER },
		{ "data", __data_start, PT_R | PT_W, PT_X | PT_USER },
		{ "bss", __bss_start, PT_R | PT_W, PT_X | PT_USER },
	};
	phys_addr_t root = arch_kernel_root();
	struct pt_walk_result w;
	int failures = 0;
	bool unenforceable = false;
	char perms[ARRAY_SIZE(checks)][4];

	for (unsigned i = 0; i < ARRAY_SIZE(checks); i++) {
		const struct wx_check *c = &checks[i];
		uintptr_t va = (uintptr_t)c->addr;
		pt_walk(arch_pt_root_for(root, va), va, &w);
		prot_string(w.mapped ? w.prot : 0, perms[i]);
		/* A format that cannot refuse a permission (i386 2-level paging has no NX) is
		 * not held to refusing it; the line says so instead of claiming it. */
		unsigned forbidden = c->must_not_have & ~arch_pt_geometry()->always_granted;
		bool ok = w.mapped && (w.prot & c->must_have) == c->must_have &&
			  !(w.prot & forbidden);
		unenforceable |= (c->must_not_have & ~forbidden & w.prot) != 0;
		if (!ok) {
			printk("selftest: %s at %p is %s%s: FAILED\n", c->what, c->addr, perms[i],
			       w.mapped && (w.prot & PT_USER) ? " user" : "");
			failures++;
		}
	}
	/* Sample the user half: nothing may be mapped there before the first process. */
	const uintptr_t user_probe[] = { 0, PAGE_SIZE, TASK_SIZE / 2, TASK_SIZE - PAGE_SIZE };
	for (unsigned i = 0; i < ARRAY_SIZE(user_probe); i++) {
		pt_walk(arch_pt_root_for(root, user_probe[i]), user_probe[i], &w);
		if (w.mapped) {
			printk("selftest: user address %p is mapped in the kernel tables: FAILED\n",
			       (void *)user_probe[i]);
			failures++;
		}
	}
	if (!failures)
		printk("selftest: W^X ok, user half unmapped: text %p %s, rodata %s, data %s, bss %s%s\n",
		       checks[0].addr, perms[0], perms[1], perms[2], perms[3],
		       unenforceable ? " (this format cannot refuse x)" : "");
	return failures;
}

__noreturn void kernel_main(struct boot_info *bi)
{
	struct pmm_stats st;

	boot_times.main_cycles = arch_cycles();
	boot_info = bi;
	/* Before anything prints: installing the vectors also sets CPU state that QEMU keys its
	 * translations on (arm64 CPACR.FPEN, x86 CR0/CR4 FPU bits), so code run before it would
	 * be translated again after it. */
	arch_traps_init();
	printk("\nrndbits: booting %s (%s, %s/%s), build %s\n", CONFIG_PRESET, CONFIG_ISA,
	       arch_machine_name, arch_cpu_name, RNDBITS_BUILD);
	log_boot_info(bi);
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
	sysctl_apply_cmdline(bi->cmdline);
	boot_times.ready_cycles = arch_cycles();
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
	printk("rndbits: power off\n");
	arch_poweroff(EXIT_OK);
}
SHELL_COMMAND(poweroff, "poweroff", "poweroff             power off (QEMU exits with status 0)",
	      cmd_poweroff);
