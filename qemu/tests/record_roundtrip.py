#!/usr/bin/python3
"""record/<preset>: `rndbits-qemu record` of a session on a real preset plays back with
`rndbits-qemu test` (on further boots, so the `re:` lines it proposed for varying values hold),
and `record --bless` repairs a transcript whose expected output went stale."""

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = [sys.executable, os.path.join(os.path.dirname(HERE), "rndbits-qemu")]
SESSION = "uname -a\nfree\nrun probe\nrun -R probe\naslr info\nbench layout 200\nsu nobody\nid\nexit\npoweroff\n"


def tool(*args, stdin=None):
    return subprocess.run(TOOL + list(args), input=stdin, capture_output=True, text=True, timeout=600)


def main(preset):
    problems = []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "session.txt")
        r = tool("record", preset, path, stdin=SESSION)
        if r.returncode != 0:
            print("FAIL record/%s: record exited %d\n%s%s" % (preset, r.returncode, r.stdout, r.stderr))
            return 1
        with open(path) as f:
            text = f.read()
        for want in ("presets: %s\n" % preset, "rndbits# run probe\nre: probe: pid=", "[exit 0]\n"):
            if want not in text:
                problems.append("the transcript lacks %r" % want)
        for attempt in (1, 2):
            r = tool("test", preset, path)
            if r.returncode != 0:
                problems.append("play %d of the recorded transcript failed:\n%s" % (attempt, r.stdout))
        stale = text.replace("\nrndbits: power off\n", "\nrndbits: power of\n")
        with open(path, "w") as f:
            f.write(stale)
        if tool("test", preset, path).returncode == 0:
            problems.append("a stale transcript still passes")
        r = tool("record", preset, path, "--bless")
        with open(path) as f:
            blessed = f.read()
        if r.returncode != 0 or "`poweroff`" not in r.stdout or blessed != text:
            problems.append("--bless did not restore the transcript (exit %d: %s)\n%s"
                            % (r.returncode, r.stdout + r.stderr, blessed))
        elif tool("test", preset, path).returncode != 0:
            problems.append("the blessed transcript does not pass")
        if problems:
            print("FAIL record/%s\n  %s\n  transcript:\n%s" % (preset, "\n  ".join(problems), text))
            return 1
    print("PASS record/%s: recorded %d commands, played back twice, blessed" % (preset, SESSION.count("\n")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
