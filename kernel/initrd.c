/* Taking the initrd at boot: where it is (Linux's initrd=/initrdmem= parameters over what the
 * firmware said, see boot.c and arch/x86/multiboot.c), whether the kernel may use it, and its
 * reservation, before the page allocator starts. */
#include <kernel/boot.h>
#include <kernel/kernel.h>
#include <lib/parse.h>
#include <lib/string.h>

/* A number as Linux's memparse reads it: base by prefix (0x hex, 0 octal, else decimal), then an
 * optional K, M or G (binary multiples). *p moves past it; false when there are no digits or
 * the value overflows. */
static bool parse_size(const char **p, uint64_t *out)
{
	static const char suffixes[] = "KMG";
	const char *end;
	uint64_t v;

	if (!parse_u64(*p, &end, 0, &v))
		return false;
	for (unsigned i = 0; i < sizeof(suffixes) - 1; i++) {
		if ((*end | 0x20) == (suffixes[i] | 0x20)) {
			unsigned shift = 10 * (i + 1);

			if (v > UINT64_MAX >> shift)
				return false;
			v <<= shift;
			end++;
			break;
		}
	}
	*p = end;
	*out = v;
	return true;
}

/* "ADDR,SIZE" filling exactly len bytes. */
static bool parse_initrd_value(const char *value, int len, uint64_t *addr, uint64_t *size)
{
	const char *p = value;

	if (!parse_size(&p, addr) || *p != ',')
		return false;
	p++;
	return parse_size(&p, size) && p == value + len;
}

static void drop_initrd(struct boot_info *bi)
{
	bi->initrd_size = 0;
	bi->initrd_from = NULL;
}

/* The last initrd= or initrdmem= of the command line (Linux takes each in turn, so the last
 * wins), over what the firmware said. false, after a boot line, when that one is not
 * ADDR,SIZE (the firmware's is then not used either: the user asked for another). */
static bool initrd_from_cmdline(struct boot_info *bi)
{
	static const char *const keys[] = { "initrd", "initrdmem" };
	static const char *const sources[] = { "initrd=", "initrdmem=" };
	const char *value = NULL;
	unsigned which = 0;
	int len = -1;

	/* The one furthest along the line, of either name. */
	for (unsigned k = 0; k < ARRAY_SIZE(keys); k++) {
		const char *pos = bi->cmdline, *v;
		int n;

		while ((n = boot_cmdline_next(&pos, keys[k], &v)) >= 0) {
			if (!value || v > value) {
				value = v;
				len = n;
				which = k;
			}
		}
	}
	if (!value)
		return true;
	uint64_t addr, size;
	if (!parse_initrd_value(value, len, &addr, &size) || size == 0) {
		printk("boot: ignoring %s\"%.*s\": not ADDRESS,SIZE (e.g. initrd=0x48000000,65536); "
		       "booting without an initrd\n", sources[which], len, value);
		drop_initrd(bi);
		return false;
	}
	bi->initrd_start = (phys_addr_t)addr;
	bi->initrd_size = size;
	bi->initrd_from = sources[which];
	bi->initrd_reserved = false;
	return true;
}

/* Does [start, start + size) lie inside one RAM region? (No sum wraps: size <= region's.) */
static bool inside_ram(const struct boot_info *bi, uint64_t start, uint64_t size)
{
	for (unsigned i = 0; i < bi->nr_ram; i++) {
		const struct mem_region *r = &bi->ram[i];

		if (start >= r->base && size <= r->size && start - r->base <= r->size - size)
			return true;
	}
	return false;
}

/* The first reserved range [start, start + size) shares a byte with, or NULL. */
static const struct mem_region *overlapping_reservation(const struct boot_info *bi,
							 uint64_t start, uint64_t size)
{
	for (unsigned i = 0; i < bi->nr_reserved; i++) {
		const struct mem_region *r = &bi->reserved[i];

		if (start < r->base + r->size && r->base < start + size)
			return &bi->reserved[i];
	}
	return NULL;
}

bool boot_take_initrd(struct boot_info *bi)
{
	const struct mem_region *clash;
	uint64_t start, size;

	if (!initrd_from_cmdline(bi))
		return false;
	if (bi->initrd_size == 0) {
		if (bi->initrd_from)
			printk("boot: ignoring the initrd at %#llx from the %s: it ends at or before its "
			       "start\n", (unsigned long long)bi->initrd_start, bi->initrd_from);
		drop_initrd(bi);
		return false;
	}
	start = bi->initrd_start;
	size = bi->initrd_size;
	if (!inside_ram(bi, start, size)) {
		printk("boot: ignoring the initrd at %#llx (%llu bytes, from %s): it does not lie "
		       "inside RAM the kernel maps; booting without it\n", (unsigned long long)start,
		       (unsigned long long)size, bi->initrd_from);
		drop_initrd(bi);
		return false;
	}
	clash = bi->initrd_reserved ? NULL : overlapping_reservation(bi, start, size);
	if (clash) {
		printk("boot: ignoring the initrd at %#llx (%llu bytes, from %s): it overlaps "
		       "[%#llx, %#llx) (kernel image, DTB or boot data); booting without it\n",
		       (unsigned long long)start, (unsigned long long)size, bi->initrd_from,
		       (unsigned long long)clash->base,
		       (unsigned long long)(clash->base + clash->size));
		drop_initrd(bi);
		return false;
	}
	if (!bi->initrd_reserved)
		boot_add_reserved(bi, start, size);
	bi->initrd_reserved = true;
	return true;
}
