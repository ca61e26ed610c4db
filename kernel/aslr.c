/* `aslr`: what the randomization of this preset can do, from the knobs' live values. */
#include <arch/memory.h>
#include <arch/layout.h>
#include <kernel/aslr.h>
#include <kernel/cred.h>
#include <kernel/kernel.h>
#include <mm/layout.h>
#include <lib/errno.h>
#include <lib/fmt.h>
#include <lib/string.h>
#include <lib/units.h>
#include <lib/vafields.h>
#include <kernel/random.h>
#include <kernel/shell.h>
#include <kernel/sysctl.h>

static void permission_denied(const struct sysctl_entry *e)
{
	printk("aslr: %s: %s\n", e->name, strerror(EACCES));
}

static bool readable(const struct sysctl_entry *e)
{
	char text[16];

	return sysctl_read(e, current_uid(), text, sizeof(text)) != -EACCES;
}

bool aslr_may_read_knob(const struct sysctl_entry *e)
{
	if (readable(e))
		return true;
	permission_denied(e);
	return false;
}

int aslr_set_knob(const struct sysctl_entry *e, int value)
{
	char text[16];
	int len = snprintf(text, sizeof(text), "%d\n", value);
	long r = sysctl_write(e, current_uid(), text, (size_t)len);

	if (r == -EACCES)
		permission_denied(e);
	return r < 0 ? (int)r : 0;
}

/* A knob's current value and what it gives; to a user who may not read the knob, only what the
 * build fixed (default and range, as a kernel's config would show). */
static void show_knob(const char *name, bool compat)
{
	const struct sysctl_entry *e = sysctl_find(name);
	int bits = *e->data;

	if (!readable(e)) {
		printk("%-26s ? (%s; default %d, range %d..%d)\n", e->name, strerror(EACCES),
		       e->default_value, e->min, e->max);
		return;
	}
	uint64_t pages = (1ULL << bits) - 1;
	struct task_geometry g;
	struct mmap_range r;

	printk("%-26s %d (default %d, range %d..%d)\n", e->name, bits, e->default_value, e->min,
	       e->max);
	char size[UNITS_MAX];
	units_bytes(size, sizeof(size), pages << PAGE_SHIFT);
	printk("  largest offset            %#llx bytes = %llu pages ((2^%d - 1) x %lu), %s\n",
	       (unsigned long long)(pages << PAGE_SHIFT), (unsigned long long)pages, bits,
	       (unsigned long)PAGE_SIZE, size);
	/* Where the address space has less room than 2^bits pages, fewer offsets exist. */
	task_geometry(compat, &g);
	mmap_range(&g, RLIMIT_STACK_DEFAULT, true, legacy_va_layout != 0, (unsigned)bits, &r);
	unsigned eff = log2_centi(r.max_rnd_pages + 1);
	printk("  mmap_base range           %#llx .. %#llx: %llu offsets, %u.%02u bits effective%s\n",
	       (unsigned long long)mmap_base_at(&r, r.topdown ? r.max_rnd_pages : 0),
	       (unsigned long long)mmap_base_at(&r, r.topdown ? 0 : r.max_rnd_pages),
	       (unsigned long long)(r.max_rnd_pages + 1), eff / 100, eff % 100,
	       r.max_rnd_pages < pages ? " (limited by the address space)" : "");
}

/* Random bits lo..hi of one object (hi < lo: none), for the fields view. */
struct random_bits {
	const char *object;
	unsigned lo, hi;
	char mark;   /* 'r', or '?' where the bits are the knob's whole range (value unreadable) */
};

/* The address as 0/1 cells per bit, fields separated by '|': 'r' where the object's offset is
 * random, '.' where it is not. */
static void print_bit_row(const struct va_field *f, unsigned n, const struct random_bits *b)
{
	char row[64 + VA_FIELDS_MAX * 3 + 1];
	size_t len = 0;

	for (unsigned i = 0; i < n; i++) {
		if (i) {
			row[len++] = '|';
		}
		for (int bit = (int)f[i].hi; bit >= (int)f[i].lo; bit--)
			row[len++] = (unsigned)bit >= b->lo && (unsigned)bit <= b->hi ? b->mark : '.';
	}
	row[len] = '\0';
	printk("  %-7s %s\n", b->object, row);
}

/* Which bits of the address each object's randomization moves, drawn over the walker's own
 * index fields (arch_pt_geometry(), the constants pt_walk uses), and which table levels'
 * indices it therefore changes. */
static void show_fields(bool compat)
{
	const struct sysctl_entry *e = sysctl_find(compat ? "vm.mmap_rnd_compat_bits" : "vm.mmap_rnd_bits");
	const struct pt_geometry *geo = arch_pt_geometry();
	unsigned va_bits = compat ? MIN(va_width(geo), 32u) : va_width(geo);
	struct va_field f[VA_FIELDS_MAX];
	unsigned n = va_fields(geo, va_bits, f);
	struct task_geometry g;
	struct mmap_range r;
	bool on = randomize_va_space != 0, readable_bits = readable(e);

	task_geometry(compat, &g);
	mmap_range(&g, RLIMIT_STACK_DEFAULT, true, legacy_va_layout != 0,
		   readable_bits ? (unsigned)*e->data : 0, &r);
	/* Unreadable: every bit the knob's range could set, marked '?'. */
	if (!readable_bits)
		mmap_range(&g, RLIMIT_STACK_DEFAULT, true, legacy_va_layout != 0, (unsigned)e->max, &r);
	unsigned mmap_bits = on ? va_bits_of_range(r.max_rnd_pages + 1) : 0;
	unsigned stack_bits = on ? va_bits_of_range(g.stack_rnd_mask + 1) : 0;
	unsigned brk_bits = randomize_va_space >= 2 ? va_bits_of_range(brk_rnd_range(compat) >> PAGE_SHIFT) : 0;
	const struct random_bits objects[] = {
		{ "mmap", PAGE_SHIFT, PAGE_SHIFT + mmap_bits - 1, readable_bits ? 'r' : '?' },
		{ "stack", PAGE_SHIFT, PAGE_SHIFT + stack_bits - 1, 'r' },
		{ "brk", PAGE_SHIFT, PAGE_SHIFT + brk_bits - 1, 'r' },
	};
	char names[48];

	printk("address fields (%s, %u-bit): %s\n", compat ? "compat" : "native", va_bits, geo->name);
	char layout[128];
	va_fields_layout(f, n, layout, sizeof(layout));
	printk("  fields  %s\n", layout);
	for (unsigned k = 0; k < ARRAY_SIZE(objects); k++)
		print_bit_row(f, n, &objects[k]);
	printk("  (r: a bit the object's random offset sets; mmap from %s%s)\n", e->name,
	       readable_bits ? "" : ", whose value you may not read: ? marks its whole range");
	printk("aslr-fields: abi=%s va_bits=%u fields=", compat ? "compat" : "native", va_bits);
	for (unsigned i = 0; i < n; i++) {
		if (f[i].level == VA_OFFSET)
			printk("%s%u..%u:offset", i ? "," : "", f[i].hi, f[i].lo);
		else
			printk("%s%u..%u:L%d", i ? "," : "", f[i].hi, f[i].lo, f[i].level);
	}
	for (unsigned k = 0; k < ARRAY_SIZE(objects); k++) {
		const struct random_bits *b = &objects[k];
		if (b->hi < b->lo || b->mark == '?') {
			printk(" %s=%s", b->object, b->hi < b->lo ? "-" : "?");
			continue;
		}
		va_fields_names(f, n, va_fields_touched(f, n, b->lo, b->hi), names, sizeof(names));
		printk(" %s=%u..%u:%s", b->object, b->hi, b->lo, names);
	}
	printk("\n");
}

static int aslr_info(void)
{
	printk("preset                     %s (%s)\n", CONFIG_PRESET, CONFIG_ISA);
	printk("page size                  %lu (PAGE_SHIFT %u)\n", (unsigned long)PAGE_SIZE,
	       (unsigned)PAGE_SHIFT);
	printk("TASK_SIZE                  %#llx\n", (unsigned long long)TASK_SIZE);
	if (CONFIG_COMPAT_ENABLED) {
		struct task_geometry compat;

		task_geometry(true, &compat);
		printk("TASK_SIZE (compat)         %#llx\n", (unsigned long long)compat.task_size);
	}
	show_knob("vm.mmap_rnd_bits", false);
	if (CONFIG_COMPAT_ENABLED)
		show_knob("vm.mmap_rnd_compat_bits", true);
	printk("kernel.randomize_va_space  %d\n", randomize_va_space);
	printk("vm.legacy_va_layout        %d\n", legacy_va_layout);
	printk("rng                        %s\n", random_source());
	/* The machine line leaves out the values its reader may not read. */
	printk("aslr: preset=%s page=%lu", CONFIG_PRESET, (unsigned long)PAGE_SIZE);
	if (readable(sysctl_find("vm.mmap_rnd_bits")))
		printk(" bits=%d", mmap_rnd_bits);
	printk(" min=%d max=%d", CONFIG_ARCH_MMAP_RND_BITS_MIN, CONFIG_ARCH_MMAP_RND_BITS_MAX);
	if (CONFIG_COMPAT_ENABLED) {
		if (readable(sysctl_find("vm.mmap_rnd_compat_bits")))
			printk(" compat_bits=%u", mmap_rnd_bits_for(true));
		printk(" compat_min=%d compat_max=%d", CONFIG_ARCH_MMAP_RND_COMPAT_BITS_MIN,
		       CONFIG_ARCH_MMAP_RND_COMPAT_BITS_MAX);
	}
	printk(" rng=%s\n", random_source());
	show_fields(false);
	if (aslr_has_compat())
		show_fields(true);
	return 0;
}

void aslr_bits_range_error(const char *opt, int value, bool compat)
{
	const struct sysctl_entry *own = sysctl_find(compat ? "vm.mmap_rnd_compat_bits" : "vm.mmap_rnd_bits");

	printk("aslr: %s%s %d is outside %d..%d on %s", compat ? "-32 " : "", opt, value, own->min,
	       own->max, CONFIG_PRESET);
	if (aslr_has_compat()) {
		const struct sysctl_entry *other =
			sysctl_find(compat ? "vm.mmap_rnd_bits" : "vm.mmap_rnd_compat_bits");
		printk(compat ? "; the native path allows %d..%d" :
				"; the 32-bit compat path (-32) allows %d..%d", other->min, other->max);
	}
	printk("\n");
}

bool aslr_has_compat(void)
{
	return CONFIG_COMPAT_ENABLED;
}

uint64_t brk_rnd_range(bool compat)
{
	return BRK_RND_RANGE(compat);
}

static int cmd_aslr(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "info") == 0)
		return aslr_info();
	if (argc >= 2 && strcmp(argv[1], "sample") == 0)
		return aslr_sample(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "attack") == 0)
		return aslr_attack(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "tradeoff") == 0)
		return aslr_tradeoff(argc, argv);
	printk("usage: aslr info\n"
	       "       aslr sample N [-32] [--layout-only] [--region mmap|stack|brk]\n"
	       "       aslr attack [-32] [--exec] [--fork] [--bits B] [--trials T] [--respawn-s S]\n"
	       "       aslr tradeoff [-32]\n");
	return 2;
}
SHELL_COMMAND(aslr, "aslr", "aslr info|sample|attack|tradeoff  ASLR: knobs, measured entropy, brute force, cost", cmd_aslr);
