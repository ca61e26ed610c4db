/* The in-guest self-test (kernel/selftest.c): KUnit-style suites over the sysctl parser, the
 * layout arithmetic, the page-table encoders and walker and the frame allocator, run inside the
 * real kernel when `selftest` is typed, reported in KTAP version 1 on the console. */
#ifndef RNDBITS_SELFTEST_H
#define RNDBITS_SELFTEST_H

/* `selftest [SUITE...]`: run the named suites (all without arguments) and print KTAP. Returns 0
 * when every case passed, 1 when one failed, 2 for an unknown suite name. */
int selftest_run(int argc, char **argv);

#endif
