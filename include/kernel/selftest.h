/* The in-guest self-test (kernel/selftest.c): KUnit-style suites over the sysctl parser, the
 * layout arithmetic, the page-table encoders and walker and the frame allocator, run inside the
 * real kernel when `selftest` is typed, reported in KTAP version 1 on the console. */
#ifndef RNDBITS_SELFTEST_H
#define RNDBITS_SELFTEST_H

#include <lib/types.h>

struct selftest_case {
	const char *name;
	void (*run)(void);
};

struct selftest_suite {
	const char *name;
	const struct selftest_case *cases;
	unsigned nr_cases;
};

/* An expectation of the running case: true when ok; else the case fails, and its first few
 * failures print a diagnostic line naming file:line. Suites elsewhere define their own EXPECT
 * over it with their file's name. */
bool __printf(4, 5) selftest_expect(bool ok, const char *file, int line, const char *fmt, ...);

/* Suites of other files (their cases arrays, sized here so the runner's table can use them). */
#define FORK_NR_CASES 3
extern const struct selftest_case fork_cases[FORK_NR_CASES]; /* kernel/selftest_fork.c */

/* `selftest [SUITE...]`: run the named suites (all without arguments) and print KTAP. Returns 0
 * when every case passed, 1 when one failed, 2 for an unknown suite name. */
int selftest_run(int argc, char **argv);

#endif
