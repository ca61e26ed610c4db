#!/usr/bin/python3
"""System-call fuzzing in the guest: user/sysfuzz, run from the shell, checked from the shell.

    tools/fuzz_sys.py [--presets P,...] [--calls N] [--chunk C] [--seed S] [--flags LIST]
                     [--users root,nobody] [--abis native,compat] [--time-limit SEC] [--trace]

For each preset (default: every preset with a built image) one QEMU boots; for each ABI (native,
and compat where the preset has one) and each user (root, and nobody through `su nobody`) the
driver runs `run [-32] sysfuzz SEED C` until N calls are made, with SEED = S, S+1, ... (one seed
per chunk of C calls, so a failure names a short, reproducible run). After every run it checks
  - the program printed exactly one line, `sysfuzz: ok: ...`, and exited 0 (no segfault or
    signal line, no FAIL, nothing else on the console but the kernel's `syscall N (name) not
    implemented` lines, one per number the run drew that has no handler);
  - no kernel exception or panic (QEMU is restarted after one, and the run goes on);
  - `free` shows exactly the frames used before (after a warm-up run of each ABI);
  - `sysctl -a` shows exactly the values before (nobody cannot change them; root's random writes
    are put back by the program itself).
With `--flags` holding tf, a run may also end by SIGTRAP at its first flagged call (a #DB line,
then `killed by SIGTRAP`): TF asks for a single-step trap after the call, as on Linux.
A failed run is replayed with `-t 0` when --trace is given, to show the last calls before it
died. Figures per preset and ABI at the end (calls, skipped, per-errno counts); exit status 1 on
any problem. Logs (the whole console) in build/fuzz-sys/<preset>.log.
"""

import argparse
import collections
import os
import re
import sys
import time

# The harness package (qemu/rndbits_qemu): tools/ builds on what the tests use.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "qemu"))
from rndbits_qemu import machine as M          # noqa: E402
from rndbits_qemu import session as S          # noqa: E402

PROMPTS = ("rndbits# ", "rndbits$ ")
FATAL = ("rndbits: unexpected kernel exception", "rndbits: kernel panic")
SUMMARY_RE = re.compile(r"sysfuzz: (ok|FAIL): seed (\d+), (\d+) calls \((\w+), uid (\d+)\), "
                        r"(\d+) skipped, (\d+) checks, (\d+) full VMA tables; (.*?); digest ([0-9a-f]+)(.*)$")
NOT_IMPLEMENTED_RE = re.compile(r"sysfuzz\[\d+\]: syscall \d+( \(\w+\))? not implemented$")
TRAP_RE = re.compile(r"\[pid \d+\] sysfuzz: #DB.* ip [0-9a-f]+$")
END_GAME_RE = re.compile(r"\[pid \d+\] sysfuzz: segfault at ([0-9a-f]+) ip ([0-9a-f]+) "
                         r"\((exec, not mapped|exec, not executable|read, not mapped|"
                         r"write, not mapped)\)$")


class Restart(Exception):
    """The guest died or stopped answering: record it, boot again, go on."""


class SysFuzzer:
    def __init__(self, preset, args):
        self.preset = preset
        self.args = args
        self.machine = M.Machine(preset, args.build_root)
        self.console = None
        self.problems = []
        self.boots = 0
        self.exceptions = 0
        # (abi, user) -> Counter of calls, skipped, runs, per-errno counts
        self.figures = collections.defaultdict(collections.Counter)
        self.frames = []        # (before, after) of every boot

    # --- the guest ----------------------------------------------------------------------------
    def boot(self):
        if self.console:
            self.console.kill()
        os.makedirs(self.args.log_dir, exist_ok=True)
        log = os.path.join(self.args.log_dir, "%s.%d.log" % (self.preset, self.boots))
        self.boots += 1
        self.console = S.Console(self.machine.command(), log_path=log,
                                 bound=self.args.time_limit + 300)
        self.console.read_until(S.prompt_end(("rndbits# ",)), time.monotonic() + 60)
        self.uid_root = True
        # Warm-up: whatever the first exec of each ABI keeps for good is not a loss.
        for abi in self.abis:
            self.command("run %ssysfuzz 0 100" % ("-32 " if abi == "compat" else ""))
        self.baseline_used = self.frames_used()
        self.baseline_sysctl = self.command("sysctl -a")
        self.frames.append([self.baseline_used, None])

    def command(self, line, timeout=None):
        self.console.send(line.encode() + b"\r")
        try:
            out = self.console.read_until(S.prompt_end(PROMPTS),
                                          time.monotonic() + (timeout or 30))
        except S.Timeout:
            raise Restart("no prompt after `%s`" % line)
        except S.EarlyExit as e:
            out = self.console.pending
            if not any(f in out for f in FATAL):
                raise Restart("QEMU exited (status %s) during `%s`" % (e.status, line))
        for f in FATAL:
            if f in out:
                self.exceptions += 1
                raise Restart("`%s`: %s" % (line, out[out.index(f):][:3000].strip()))
        self.uid_root = out.endswith("# ")
        lines = out.replace("\r", "").split("\n")
        return "\n".join(lines[1:-1])     # without the echoed command and the prompt

    def frames_used(self):
        m = re.search(r"pages:\s+(\d+)\s+(\d+)\s+(\d+)", self.command("free"))
        if not m:
            raise Restart("free printed no page counts")
        return int(m.group(2))

    def problem(self, text):
        self.problems.append("%s: %s" % (self.preset, text))
        print("fuzz_sys: " + self.problems[-1], flush=True)

    # --- one run ------------------------------------------------------------------------------
    def fuzz_command(self, abi, seed, calls, trace=False, end_game=False):
        opts = ("-32 " if abi == "compat" else "") + "sysfuzz "
        if end_game:
            opts += "-e "
        if self.args.flags:
            opts += "-f %s " % self.args.flags
        if trace:
            opts += "-t 0 "
        return "run %s%d %d" % (opts, seed, calls)

    def one_run(self, abi, user, seed, calls, end_game=False):
        line = self.fuzz_command(abi, seed, calls, end_game=end_game)
        if user == "nobody":
            self.command("su nobody")
        # Time: the slowest preset makes about 2,000 calls a second; allow for a loaded machine.
        out = self.command(line, timeout=60 + calls / 100)
        if user == "nobody":
            self.command("exit")
        lines = out.split("\n") if out else []
        # The kernel names each call number it does not implement, once per process: those lines
        # come before the summary and are expected (tests/serial/sysfuzz.txt checks the same).
        lines = [x for x in lines if not NOT_IMPLEMENTED_RE.match(x)]
        m = next((SUMMARY_RE.match(x) for x in lines if SUMMARY_RE.match(x)), None)
        fig = self.figures[(abi, user)]
        fig["runs"] += 1
        if m:
            fig["calls"] += int(m.group(3))
            fig["skipped"] += int(m.group(6))
            fig["checks"] += int(m.group(7))
            fig["full VMA tables"] += int(m.group(8))
            words = m.group(9).split()
            for name, n in zip(words[0::2], words[1::2]):
                fig[name] += int(n)
        expected = [m.group(0)] if m else []
        if "tf" in self.args.flags.split(",") and not m and len(lines) == 2 and \
                TRAP_RE.match(lines[0]) and lines[1] == "run: sysfuzz: killed by SIGTRAP (status 133)":
            # TF set at entry asks for a single-step trap after the call: Linux sends SIGTRAP.
            fig["single-step deaths"] += 1
            return self.after_run(line, user)
        if end_game and len(lines) == 3 and END_GAME_RE.match(lines[1]):
            fig["end games"] += 1
            expected += [lines[1], "run: sysfuzz: killed by SIGSEGV (status 139)"]
        if not m or m.group(1) != "ok" or lines != expected:
            fig["failed"] += 1
            self.problem("`%s` as %s:\n    %s" % (line, user, "\n    ".join(lines[-12:])))
            if self.args.trace:
                self.trace(abi, user, seed, calls)
        self.after_run(line, user)

    def after_run(self, line, user):
        used = self.frames_used()
        if used != self.baseline_used:
            self.problem("after `%s` as %s: %d frames used, %d before"
                         % (line, user, used, self.baseline_used))
            self.baseline_used = used       # report each loss once
        self.frames[-1][1] = used
        now = self.command("sysctl -a")
        if now != self.baseline_sysctl:
            self.problem("after `%s` as %s: sysctl -a changed:\n%s\nwas\n%s"
                         % (line, user, now, self.baseline_sysctl))
            self.baseline_sysctl = now

    def trace(self, abi, user, seed, calls):
        """Replay with every call printed before it is made: the last ones show what died."""
        line = self.fuzz_command(abi, seed, calls, trace=True)
        if user == "nobody":
            self.command("su nobody")
        out = self.command(line, timeout=120 + calls / 20)
        if user == "nobody":
            self.command("exit")
        print("fuzz_sys: %s: replay `%s` as %s, last lines:\n    %s" %
              (self.preset, line, user, "\n    ".join(out.split("\n")[-8:])), flush=True)

    # --- the whole preset ---------------------------------------------------------------------
    def run(self):
        t0 = time.monotonic()
        if not os.path.exists(self.machine.image):
            self.problem("no image %s (build it: make qemu-%s build)"
                         % (M.display_path(self.machine.image), self.preset))
            return False
        has_compat = "CONFIG_COMPAT" in self.machine.config()
        self.abis = [a for a in self.args.abis.split(",") if a == "native" or has_compat]
        users = self.args.users.split(",")
        deadline = t0 + self.args.time_limit
        booted = False
        for abi in self.abis:
            for user in users:
                done, seed = 0, self.args.seed
                while done < self.args.calls and time.monotonic() < deadline:
                    calls = min(self.args.chunk, self.args.calls - done)
                    try:
                        if not booted:
                            self.boot()
                            booted = True
                        self.one_run(abi, user, seed, calls)
                    except Restart as e:
                        self.problem("%s (run: %s, seed %d, %d calls, as %s)"
                                     % (e, abi, seed, calls, user))
                        self.figures[(abi, user)]["failed"] += 1
                        booted = False
                    done += calls
                    seed += 1
                # Last, the end game: the process loses its own image and must die cleanly.
                try:
                    if not booted:
                        self.boot()
                        booted = True
                    self.one_run(abi, user, seed, 2000, end_game=True)
                except Restart as e:
                    self.problem("%s (end game: %s, seed %d, as %s)" % (e, abi, seed, user))
                    self.figures[(abi, user)]["failed"] += 1
                    booted = False
        if self.console:
            self.console.kill()
        self.seconds = time.monotonic() - t0
        return not self.problems

    def report(self):
        for (abi, user), f in sorted(self.figures.items()):
            errnos = " ".join("%s %d" % (k, v) for k, v in sorted(f.items())
                              if k not in ("runs", "calls", "skipped", "checks", "failed",
                                           "full VMA tables", "end games",
                                           "single-step deaths"))
            print("fuzz_sys: %-15s %-6s %-6s %7d calls in %3d runs, %5d skipped, %5d checks, "
                  "%d full VMA tables, %d end games, %d single-step deaths, %d failed runs; %s"
                  % (self.preset, abi, user, f["calls"], f["runs"], f["skipped"], f["checks"],
                     f["full VMA tables"], f["end games"], f["single-step deaths"], f["failed"],
                     errnos))
        print("fuzz_sys: %-15s %d boots, %d kernel exceptions, frames used before/after: %s, "
              "%.0f s" % (self.preset, self.boots, self.exceptions,
                          ", ".join("%s/%s" % tuple(x) for x in self.frames), self.seconds),
              flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presets", default="", help="comma-separated (default: every built one)")
    ap.add_argument("--calls", type=int, default=100000, help="calls per ABI and user")
    ap.add_argument("--chunk", type=int, default=25000, help="calls per run (one seed each)")
    ap.add_argument("--seed", type=int, default=1, help="the first run's seed")
    ap.add_argument("--flags", default="", help="sysfuzz -f (x86: ac,df,tf,nt or none)")
    ap.add_argument("--users", default="root,nobody")
    ap.add_argument("--abis", default="native,compat")
    ap.add_argument("--time-limit", type=float, default=3600, help="seconds per preset")
    ap.add_argument("--trace", action="store_true", help="replay a failed run with -t 0")
    ap.add_argument("--build-root", default=None)
    ap.add_argument("--log-dir", default=os.path.join(M.REPO, "build", "fuzz-sys"))
    args = ap.parse_args()
    presets = [p for p in args.presets.split(",") if p] or [
        p for p in M.preset_names() if os.path.exists(M.Machine(p, args.build_root).image)]
    if not presets:
        print("fuzz_sys: no built preset", file=sys.stderr)
        return 1
    ok = True
    total = 0
    for p in presets:
        f = SysFuzzer(p, args)
        ok &= f.run()
        f.report()
        total += sum(x["calls"] for x in f.figures.values())
    print("fuzz_sys: %d presets, %d calls, %s" % (len(presets), total,
                                                 "all clean" if ok else "PROBLEMS (above)"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
