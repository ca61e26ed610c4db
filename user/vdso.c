/* The vDSO from a program's side, as a C library finds it: AT_SYSINFO_EHDR points at an ELF
 * header; the dynamic section leads to the symbol table, where the ABI's clock_gettime
 * (Linux's name and version) is looked up and called. Its time must agree with the system
 * call's within a tick, whichever is called first; a clock it does not handle (an unknown
 * id) must come back with the system call's error. On i386, AT_SYSINFO must be
 * __kernel_vsyscall. Prints only what does not change from run to run. */
#include <user.h>
#include "sysnr.h"

#define AT_NULL 0
#define AT_SYSINFO 32
#define AT_SYSINFO_EHDR 33
#define PT_LOAD 1
#define PT_DYNAMIC 2
#define DT_NULL 0
#define DT_HASH 4
#define DT_STRTAB 5
#define DT_SYMTAB 6
#define DT_SONAME 14
#define DT_VERDEF 0x6ffffffc
#define CLOCK_MONOTONIC 1
#define NSEC_PER_SEC 1000000000LL
#define TICK_NS (NSEC_PER_SEC / 100) /* USER_HZ */

#if defined(__aarch64__)
#define CLOCK_GETTIME "__kernel_clock_gettime"
#define VERSION "LINUX_2.6.39"
#else
#define CLOCK_GETTIME "__vdso_clock_gettime"
#define VERSION "LINUX_2.6"
#endif

/* The native ELF structures (ELF32 or ELF64 by the word size), just the fields used. */
#if defined(__LP64__)
struct ehdr {
	uint8_t ident[16];
	uint16_t type, machine;
	uint32_t version;
	uint64_t entry, phoff, shoff;
	uint32_t flags;
	uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};
struct phdr { uint32_t type, flags; uint64_t offset, vaddr, paddr, filesz, memsz, align; };
struct sym { uint32_t name; uint8_t info, other; uint16_t shndx; uint64_t value, size; };
struct dyn { int64_t tag; uint64_t val; };
#else
struct ehdr {
	uint8_t ident[16];
	uint16_t type, machine;
	uint32_t version, entry, phoff, shoff, flags;
	uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};
struct phdr { uint32_t type, offset, vaddr, paddr, filesz, memsz, flags, align; };
struct sym { uint32_t name, value, size; uint8_t info, other; uint16_t shndx; };
struct dyn { int32_t tag; uint32_t val; };
#endif

struct timespec_l { long sec, nsec; };
typedef long (*clock_gettime_fn)(long clock, struct timespec_l *ts);

struct vdso {
	unsigned long base, bias;
	const struct sym *symtab;
	const char *strtab;
	unsigned long nsyms;
	const char *soname;
	bool verdef;
};

static unsigned long aux_get(const unsigned long *auxv, unsigned long key)
{
	for (; auxv[0] != AT_NULL; auxv += 2)
		if (auxv[0] == key)
			return auxv[1];
	return 0;
}

static bool vdso_parse(unsigned long base, struct vdso *v)
{
	const struct ehdr *eh = (const struct ehdr *)base;
	const struct phdr *ph = (const struct phdr *)(base + eh->phoff);
	const struct dyn *dyn = NULL;

	memset(v, 0, sizeof(*v));
	v->base = base;
	for (unsigned i = 0; i < eh->phnum; i++) {
		if (ph[i].type == PT_LOAD && ph[i].offset == 0)
			v->bias = base - ph[i].vaddr;
		else if (ph[i].type == PT_DYNAMIC)
			dyn = (const struct dyn *)(base + ph[i].offset);
	}
	if (!dyn)
		return false;
	unsigned long soname = 0;
	for (; dyn->tag != DT_NULL; dyn++) {
		if (dyn->tag == DT_SYMTAB)
			v->symtab = (const struct sym *)(v->bias + dyn->val);
		else if (dyn->tag == DT_STRTAB)
			v->strtab = (const char *)(v->bias + dyn->val);
		else if (dyn->tag == DT_HASH) /* nbucket, nchain: nchain is the symbol count */
			v->nsyms = ((const uint32_t *)(v->bias + dyn->val))[1];
		else if (dyn->tag == DT_SONAME)
			soname = dyn->val;
		else if (dyn->tag == DT_VERDEF)
			v->verdef = true;
	}
	if (!v->symtab || !v->strtab || !v->nsyms)
		return false;
	v->soname = v->strtab + soname;
	return true;
}

static unsigned long vdso_sym(const struct vdso *v, const char *name)
{
	for (unsigned long i = 1; i < v->nsyms; i++)
		if (v->symtab[i].shndx && strcmp(v->strtab + v->symtab[i].name, name) == 0)
			return v->bias + v->symtab[i].value;
	return 0;
}

static long long ns_of(const struct timespec_l *t)
{
	return (long long)t->sec * NSEC_PER_SEC + t->nsec;
}

int main(int argc, char **argv)
{
	char **envp = argv + argc + 1;
	while (*envp)
		envp++;
	const unsigned long *auxv = (const unsigned long *)(envp + 1);
	unsigned long base = aux_get(auxv, AT_SYSINFO_EHDR);
	struct vdso v;

	if (!base) {
		printf("vdso: no AT_SYSINFO_EHDR\n");
		return 1;
	}
	if (memcmp((const void *)base, "\177ELF", 4) != 0 || !vdso_parse(base, &v)) {
		printf("vdso: AT_SYSINFO_EHDR does not point at an ELF shared object\n");
		return 1;
	}
	printf("vdso: AT_SYSINFO_EHDR points at an ELF header, soname %s, %lu symbols, %s\n",
	       v.soname, v.nsyms - 1, v.verdef ? "versioned" : "no versions");
	if (!vdso_sym(&v, VERSION)) {
		printf("vdso: no version %s\n", VERSION);
		return 1;
	}
#if defined(__i386__)
	unsigned long vsyscall = vdso_sym(&v, "__kernel_vsyscall");
	printf("vdso: AT_SYSINFO is %s\n", vsyscall && aux_get(auxv, AT_SYSINFO) == vsyscall
						  ? "__kernel_vsyscall" : "wrong");
#endif
#if defined(__arm__)
	/* An AArch32 task on arm64 has Linux's kuser helpers page at 0xffff0000 ([vectors]);
	 * on 32-bit ARM that page is the kernel's (not readable here yet: docs/vdso.md), and
	 * 64K-page kernels leave it out. */
	if (strcmp(USER_ABI_NAME, "aarch32") == 0 && aux_get(auxv, 6 /* AT_PAGESZ */) <= 0x4000) {
		typedef int (*kuser_cmpxchg_fn)(int oldval, int newval, volatile int *ptr);
		volatile int word = 1;
		int version = *(const volatile int *)0xffff0ffc;
		int swapped = ((kuser_cmpxchg_fn)0xffff0fc0)(1, 2, &word);
		printf("vdso: [vectors] kuser_helper_version %d, __kuser_cmpxchg %s\n", version,
		       swapped == 0 && word == 2 ? "swapped" : "failed");
	}
#endif
	clock_gettime_fn fn = (clock_gettime_fn)vdso_sym(&v, CLOCK_GETTIME);
	if (!fn) {
		printf("vdso: no %s\n", CLOCK_GETTIME);
		return 1;
	}
	/* The system call's time must lie between two vDSO readings (the same clock), and the
	 * three within a tick: on a busy host QEMU may stall between two of them, so a few tries
	 * (the first also translates the code). */
	struct timespec_l t1, t2, t3;
	long r1, r2, r3;
	bool ordered = true, close = false;
	for (int i = 0; i < 5 && ordered && !close; i++) {
		r1 = fn(CLOCK_MONOTONIC, &t1);
		r2 = __syscall(__NR_clock_gettime, CLOCK_MONOTONIC, (long)&t2, 0, 0, 0, 0);
		r3 = fn(CLOCK_MONOTONIC, &t3);
		ordered = ns_of(&t1) <= ns_of(&t2) && ns_of(&t2) <= ns_of(&t3);
		close = ns_of(&t3) - ns_of(&t1) < TICK_NS;
	}
	printf("vdso: %s(CLOCK_MONOTONIC) = %ld, syscall = %ld: %s\n", CLOCK_GETTIME, r1, r2,
	       !r1 && !r2 && !r3 && ordered && close ? "the same time within a tick"
						     : "times disagree");
	if (!ordered || !close)
		printf("vdso: %lld %lld %lld\n", ns_of(&t1), ns_of(&t2), ns_of(&t3));
	struct timespec_l bad;
	long e = fn(100, &bad);
	printf("vdso: %s(100) = %ld (%s, from the system call)\n", CLOCK_GETTIME, e,
	       errno_name((int)-e) ? errno_name((int)-e) : "?");
	return ordered && close ? 0 : 1;
}
