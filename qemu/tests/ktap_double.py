#!/usr/bin/python3
"""host.selftest_double: kernel/selftest.c built for the host over a broken page-table encoder
(tests/host/selftest_double.c) prints KTAP; the harness's KTAP parser must report exactly the
case the double breaks, pte.leaf_round_trip, with its diagnostic, and pass the sysctl suite."""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from rndbits_qemu import ktap  # noqa: E402


def main(binary):
    p = subprocess.run([binary], capture_output=True, text=True, timeout=120)
    r = ktap.parse(p.stdout.splitlines())
    problems = []
    if p.returncode != 1:
        problems.append("selftest_run returned %d, want 1 (a case failed)" % p.returncode)
    if r.errors:
        problems.append("KTAP errors: %s" % r.errors)
    if [f.split(":")[0] for f in r.failures] != ["pte.leaf_round_trip"]:
        problems.append("failures %s, want pte.leaf_round_trip alone" % r.failures)
    elif "EXPECTATION FAILED at kernel/selftest.c" not in r.failures[0]:
        problems.append("no diagnostic with the failure: %s" % r.failures[0])
    if r.passed != 4:   # sysctl_parse: 2 cases; pte: table_round_trip, invalid
        problems.append("%d cases passed, want 4" % r.passed)
    if problems:
        print("FAIL host.selftest_double\n  " + "\n  ".join(problems) + "\n  output:\n" + p.stdout + p.stderr)
        return 1
    print("PASS host.selftest_double: the KTAP parser reports %s" % r.failures[0])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
