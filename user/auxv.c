/* What exec left on the initial stack, as a C library's start-up code reads it: argc, argv,
 * envp, the auxiliary vector, the strings AT_EXECFN, AT_PLATFORM and AT_RANDOM point to, and
 * checks that they sit in Linux's order (strings at the top: file name, envp, argv; below them
 * the platform string and the random bytes; then the vectors at a 16-byte aligned sp). */
#include <user.h>

#define AT_NULL 0
#define AT_PHDR 3
#define AT_PHENT 4
#define AT_PHNUM 5
#define AT_PAGESZ 6
#define AT_ENTRY 9
#define AT_PLATFORM 15
#define AT_RANDOM 25
#define AT_EXECFN 31

static const char *const at_names[] = {
	[0] = "AT_NULL", [3] = "AT_PHDR", [4] = "AT_PHENT", [5] = "AT_PHNUM", [6] = "AT_PAGESZ",
	[7] = "AT_BASE", [8] = "AT_FLAGS", [9] = "AT_ENTRY", [11] = "AT_UID", [12] = "AT_EUID",
	[13] = "AT_GID", [14] = "AT_EGID", [15] = "AT_PLATFORM", [16] = "AT_HWCAP",
	[17] = "AT_CLKTCK", [23] = "AT_SECURE", [25] = "AT_RANDOM", [26] = "AT_HWCAP2",
	[31] = "AT_EXECFN", [33] = "AT_SYSINFO_EHDR", [51] = "AT_MINSIGSTKSZ",
};

extern char _start[];

static unsigned long aux_get(const unsigned long *auxv, unsigned long key)
{
	for (; auxv[0] != AT_NULL; auxv += 2)
		if (auxv[0] == key)
			return auxv[1];
	return 0;
}

/* The first program header of type PT_LOAD (1) in the table AT_PHDR points to, if any. */
static bool phdrs_ok(const unsigned long *auxv)
{
	const uint8_t *ph = (const uint8_t *)aux_get(auxv, AT_PHDR);
	unsigned long n = aux_get(auxv, AT_PHNUM), ent = aux_get(auxv, AT_PHENT);

	if (!ph || ent != (sizeof(long) == 8 ? 56 : 32))
		return false;
	for (unsigned long i = 0; i < n; i++) {
		uint32_t type;
		memcpy(&type, ph + i * ent, sizeof(type));
		if (type == 1)
			return true;
	}
	return false;
}

static bool layout_ok(int argc, char **argv, char **envp, const unsigned long *auxv,
		      unsigned long *top)
{
	const char *execfn = (const char *)aux_get(auxv, AT_EXECFN);
	const char *platform = (const char *)aux_get(auxv, AT_PLATFORM);
	const uint8_t *random = (const uint8_t *)aux_get(auxv, AT_RANDOM);
	const char *p = argv[0];

	for (int i = 0; i < argc; i++, p += strlen(p) + 1)
		if (argv[i] != p)
			return false;
	for (int i = 0; envp[i]; i++, p += strlen(p) + 1)
		if (envp[i] != p)
			return false;
	if (p != execfn)
		return false;
	/* Above the file name: one empty kernel pointer (8 bytes on a 64-bit kernel), then the top. */
	*top = (unsigned long)(execfn + strlen(execfn) + 1);
	while (*top % aux_get(auxv, AT_PAGESZ))
		(*top)++;
	if (!platform || !random || random + 16 > (const uint8_t *)platform ||
	    platform + strlen(platform) + 1 > argv[0])
		return false;
	const unsigned long *end = auxv;
	while (end[0] != AT_NULL)
		end += 2;
	return (const uint8_t *)(end + 2) <= random;
}

/* a * b in the FPU (IEEE doubles as bit patterns: these programs are built without floating
 * point), to show user mode may use it: a trap here would be an FP-disabled exception. */
static uint64_t fp_mul(uint64_t a, uint64_t b)
{
	uint64_t r;
#if defined(__aarch64__)
	__asm__ volatile("fmov d16, %1\n\tfmov d17, %2\n\tfmul d16, d16, d17\n\tfmov %0, d16"
			 : "=r"(r) : "r"(a), "r"(b) : "v16", "v17");
#elif defined(__arm__)
	__asm__ volatile(".fpu neon\n\tvldr d16, [%1]\n\tvldr d17, [%2]\n\tvmul.f64 d16, d16, d17\n\t"
			 "vstr d16, [%0]"
			 : : "r"(&r), "r"(&a), "r"(&b) : "memory");
#else
	/* No xmm0 clobber: -mgeneral-regs-only forbids naming it, and the compiler uses no SSE. */
	__asm__ volatile("movsd (%1), %%xmm0\n\tmulsd (%2), %%xmm0\n\tmovsd %%xmm0, (%0)"
			 : : "r"(&r), "r"(&a), "r"(&b) : "memory");
#endif
	return r;
}

int main(int argc, char **argv)
{
	char **envp = argv + argc + 1;
	const unsigned long *auxv;
	int n = 0;

	while (envp[n])
		n++;
	auxv = (const unsigned long *)(envp + n + 1);
	printf("argc=%d sp%%16=%lu\n", argc, (unsigned long)(argv - 1) % 16);
	for (int i = 0; i < argc; i++)
		printf("argv[%d]=%s\n", i, argv[i]);
	for (int i = 0; i < n; i++)
		printf("envp[%d]=%s\n", i, envp[i]);
	for (const unsigned long *a = auxv;; a += 2) {
		const char *name = a[0] < sizeof(at_names) / sizeof(at_names[0]) && at_names[a[0]]
					   ? at_names[a[0]] : "AT_?";
		if (a[0] == AT_PLATFORM || a[0] == AT_EXECFN)
			printf("%s %s\n", name, (const char *)a[1]);
		else
			printf("%s %#lx\n", name, a[1]);
		if (a[0] == AT_NULL)
			break;
	}
	const uint8_t *r = (const uint8_t *)aux_get(auxv, AT_RANDOM);
	unsigned long top = 0;
	printf("random %02x%02x%02x%02x%02x%02x%02x%02x%02x%02x%02x%02x%02x%02x%02x%02x\n", r[0], r[1],
	       r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15]);
	printf("entry %s\n", aux_get(auxv, AT_ENTRY) == (unsigned long)_start ? "ok" : "WRONG");
	printf("phdr %s\n", phdrs_ok(auxv) ? "ok" : "WRONG");
	printf("layout %s", layout_ok(argc, argv, envp, auxv, &top) ? "ok" : "WRONG");
	printf(" top-sp=%#lx\n", top - (unsigned long)(argv - 1));
	/* 1.5 * 2.5 = 3.75 */
	printf("fp %#llx\n", (unsigned long long)fp_mul(0x3ff8000000000000ull, 0x4004000000000000ull));
	return 0;
}
