#!/usr/bin/python3
"""ci/shards: the CI matrix runs every CTest test. A preset's job runs the tests labelled with
its preset (`make qemu-<preset> test`), the host job those `make test-host` selects (the
Makefile's HOST_LABELS), and lint and ubsan have jobs of their own; a test that none of them
selects would pass `make test` yet never run in CI. Reads the test list of BUILD_DIR."""

import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from rndbits_qemu import machine as M  # noqa: E402


def host_labels():
    with open(os.path.join(M.REPO, "Makefile")) as f:
        return re.search(r"^HOST_LABELS := (.*)$", f.read(), re.M).group(1).replace("$$", "$")


def main(build_dir):
    out = subprocess.run(["ctest", "--test-dir", build_dir, "--show-only=json-v1"], capture_output=True,
                         text=True, check=True).stdout
    tests = json.loads(out)["tests"]
    host = re.compile(host_labels())
    presets = set(M.preset_names())
    orphans = []
    for t in tests:
        labels = next((p["value"] for p in t.get("properties", []) if p["name"] == "LABELS"), [])
        if not (presets & set(labels) or any(host.search(label) for label in labels)
                or {"lint", "ubsan"} & set(labels)):
            orphans.append("%s (labels: %s)" % (t["name"], " ".join(labels) or "none"))
    if orphans:
        print("FAIL ci/shards: no CI job runs these tests; label them with a preset or one of "
              "%s:\n  %s" % (host_labels(), "\n  ".join(orphans)))
        return 1
    print("PASS ci/shards: all %d tests belong to a preset's job, the host job, lint or ubsan" % len(tests))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
