/* clock_gettime through the C library: glibc's static start-up finds the vDSO through
 * AT_SYSINFO_EHDR (it then lists it among the loaded objects: dl_iterate_phdr names it by its
 * soname) and calls its clock_gettime; the time must agree with the system call's within a
 * tick (a few tries: a busy host can stall QEMU between two readings). */
#define _GNU_SOURCE
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define TICK_NS 10000000LL /* 1 / USER_HZ */

static const char *vdso_name;

static int find_vdso(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	if (info->dlpi_addr && info->dlpi_name && strncmp(info->dlpi_name, "linux-", 6) == 0)
		vdso_name = info->dlpi_name;
	return 0;
}

static long long ns(const struct timespec *t)
{
	return (long long)t->tv_sec * 1000000000LL + t->tv_nsec;
}

int main(void)
{
	const unsigned char *ehdr = (const unsigned char *)getauxval(AT_SYSINFO_EHDR);
	struct timespec a, b, c;
	int ordered = 1, near = 0;

	printf("clock: AT_SYSINFO_EHDR %s\n",
	       ehdr && memcmp(ehdr, "\177ELF", 4) == 0 ? "points at an ELF header" : "is missing");
	dl_iterate_phdr(find_vdso, NULL);
	printf("clock: the C library loaded %s\n", vdso_name ? vdso_name : "no vDSO");
	for (int i = 0; i < 5 && ordered && !near; i++) {
		clock_gettime(CLOCK_MONOTONIC, &a);
		syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &b);
		clock_gettime(CLOCK_MONOTONIC, &c);
		ordered = ns(&a) <= ns(&b) && ns(&b) <= ns(&c);
		near = ns(&c) - ns(&a) < TICK_NS;
	}
	printf("clock: clock_gettime and the system call %s\n",
	       ordered && near ? "agree within a tick" : "disagree");
	return ordered && near ? 0 : 1;
}
