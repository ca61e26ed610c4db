#!/usr/bin/python3
"""Console fuzzing in the guest (issue 6, item 1): seeded, bounded in lines and time.

    qemu/fuzz_console.py [--presets P,...] [--lines N] [--seed S] [--batch B] [--time-limit SEC]

For each preset (default: every preset with a built image) one QEMU boots and receives N fuzz
lines: random printable lines, control characters, escape sequences, NUL and 8-bit bytes, lines
of 10 KiB, thousands of backspaces, partial commands, every command (but poweroff and crash) with
random arguments, and sysctl writes (sysctl -w/-q, echo > /proc/sys/...) as root and as nobody.

After every B lines the harness checks that
  - the prompt still answers (a marker command round trip, with Ctrl-C for a slow command);
  - `free` shows exactly the frames used after the warm-up, once the kept process is killed;
  - `sysctl -a` shows exactly what the successful writes set, where each write's success and
    value are also predicted independently (Linux's proc_dointvec_minmax rules, below);
and it watches every byte for a kernel exception or panic. The same seed gives the same input.
Figures per preset at the end; exit status 1 on any hang, exception, lost frame or sysctl
mismatch. Logs (the whole console) in build/fuzz-console/<preset>.log.
"""

import argparse
import os
import random
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rndbits_qemu import machine as M          # noqa: E402
from rndbits_qemu import session as S          # noqa: E402

PROMPT_RE = re.compile(r"rndbits([#$]) $")
DANGEROUS = {"poweroff", "crash"}
FATAL = ("rndbits: unexpected kernel exception", "rndbits: kernel panic")
PROGRAMS = ["hello", "hello-pie", "probe", "alloc", "fault"]
WORDS = ["-k", "-R", "-32", "-a", "-n", "-q", "-w", "-", "--", "0", "1", "-1", "42", "0x10",
         "99999999999999999999", "/", "/bin", "/proc", "/proc/sys", "/proc/sys/vm",
         "/proc/sys/vm/mmap_rnd_bits", "/nosuch", "text", "heap", "stack", "mmap", "dump",
         "check", "walk", "info", "sample", "root", "nobody", "''", '""', "'a b'", "x" * 300]
SYSCTL_FILES = {"kernel.pid_max": "/proc/sys/kernel/pid_max",
                "kernel.randomize_va_space": "/proc/sys/kernel/randomize_va_space",
                "vm.legacy_va_layout": "/proc/sys/vm/legacy_va_layout",
                "vm.mmap_rnd_bits": "/proc/sys/vm/mmap_rnd_bits",
                "vm.mmap_rnd_compat_bits": "/proc/sys/vm/mmap_rnd_compat_bits"}
TRICKY_VALUES = ["0x%x", "0%o", "%d", " %d", "%d ", "%d abc", "%dabc", "+%d", "-%d", "0%d",
                 "000000000000000000%d", "%d %d", "%d\t"]
SYSCTL_VALUE_MAX = 64       # what the kernel's sysctl command copies (longer: refused)


class Hang(Exception):
    pass


class Fatal(Exception):
    pass


def dointvec(data, lo, hi):
    """Linux's proc_dointvec_minmax write of one int: the new value, or None for -EINVAL
    (and "unchanged" for an empty write, which succeeds without changing anything)."""
    if len(data) == 0:
        return "unchanged"
    data = data[:4095]
    space = b" \t\n\v\f\r"
    pos = 0
    while pos < len(data) and data[pos] in space:
        pos += 1
    if pos == len(data):
        return None
    left = data[pos:]
    tmp = left[:21]
    neg = tmp[:1] == b"-" and len(left) > 1
    p = 1 if neg else 0
    if p >= len(tmp) or not (48 <= tmp[p] <= 57):
        return None
    m = re.match(rb"0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*", tmp[p:])
    text = m.group(0)
    base = 16 if text[:2].lower() == b"0x" else 8 if text[:1] == b"0" and len(text) > 1 else 10
    mag = int(text[2:] if base == 16 else text, base)
    used = p + len(text)
    if mag >= 1 << 64 or used == 21:
        return None
    if used < len(left) and left[used:used + 1] not in (b" ", b"\t", b"\n"):
        return None
    if (neg and mag > 1 << 31) or (not neg and mag > (1 << 31) - 1):
        return None
    v = -mag if neg else mag
    return v if lo <= v <= hi else None


class Fuzzer:
    def __init__(self, preset, args):
        self.preset = preset
        self.args = args
        self.rng = random.Random("%s/%s" % (args.seed, preset))
        self.machine = M.Machine(preset, args.build_root)
        self.stats = dict(lines=0, bytes=0, interrupts=0, hangs=0, exceptions=0, lost_frames=0,
                          sysctl_writes=0, sysctl_refused=0, mismatches=0, checks=0)
        self.problems = []
        self.marker = 0
        self.uid_root = True
        self.console = None

    # --- talking to the guest -----------------------------------------------------------------
    def send(self, data):
        self.console.send(data)
        self.stats["bytes"] += len(data)

    def read_to_marker(self, tag, timeout):
        want = "\r\n%s\r\n" % tag

        def find(text):
            i = text.find(want)
            if i < 0:
                return None
            m = PROMPT_RE.match(text, i + len(want))
            return m.end() if m else None

        out = self.console.read_until(find, time.monotonic() + timeout)
        for f in FATAL:
            if f in out:
                raise Fatal(out[out.index(f):][:2000])
        self.uid_root = out.endswith("# ")
        return out[:out.rfind(want)]

    def sync(self, timeout=None):
        """Make sure the prompt answers; returns what the guest printed since the last sync.
        A partial line is ended ("\\r"), a pending escape sequence eats the "\\r" and Ctrl-U
        clears what is left; a slow command gets Ctrl-C, twice, before it counts as a hang."""
        timeout = timeout or self.args.step_timeout
        for attempt in range(3):
            self.marker += 1
            tag = "FZ%d" % self.marker
            self.send((b"\x03\x03" if attempt else b"") + b"\r\x15echo " + tag.encode() + b"\r")
            try:
                return self.read_to_marker(tag, timeout if attempt == 0 else 30)
            except S.Timeout:
                self.stats["interrupts"] += 1
            except S.EarlyExit as e:
                raise Fatal("QEMU exited (status %s)" % e.status)
        raise Hang("no prompt after Ctrl-C (marker %d)" % self.marker)

    def command(self, line, timeout=None):
        self.send(line.encode("latin-1") + b"\r")
        self.stats["lines"] += 1
        return self.sync(timeout)

    # --- generators ---------------------------------------------------------------------------
    def printable(self, n):
        return bytes(self.rng.randrange(0x20, 0x7f) for _ in range(n))

    def raw_chunk(self):
        r = self.rng
        kind = r.randrange(9)
        if kind == 0:
            return self.printable(r.randrange(0, 80))
        if kind == 1:
            return bytes(r.choice(list(range(0x20)) + [0x7f]) for _ in range(r.randrange(1, 20)))
        if kind == 2:
            seq = r.choice([b"\x1b[A", b"\x1b[1;5D", b"\x1bOP", b"\x1b", b"\x1b[", b"\x1bO",
                            b"\x1b[" + b"9;" * r.randrange(50) + b"m", b"\x1b\x1b\x1b["])
            return self.printable(r.randrange(10)) + seq + self.printable(r.randrange(10))
        if kind == 3:
            return bytes(r.choice([0, 0, r.randrange(256)]) for _ in range(r.randrange(1, 40)))
        if kind == 4:
            return bytes(r.randrange(0x80, 0x100) for _ in range(r.randrange(1, 40)))
        if kind == 5:
            # 10 KiB lines cost ~0.5 s each on the slowest consoles: one in about 100 lines.
            return self.printable(10240 if r.random() < 0.1 else r.randrange(200, 400))
        if kind == 6:
            return self.printable(r.randrange(20)) + b"\x7f" * r.randrange(1000, 3000) + b"help"
        if kind == 7:
            line = self.random_command()
            return line.encode()[:r.randrange(len(line) + 1)]
        return bytes(r.randrange(256) for _ in range(r.randrange(1, 200)))

    def random_command(self):
        r = self.rng
        cmd = r.choice(self.commands)
        args = []
        for _ in range(r.randrange(5)):
            pick = r.randrange(4)
            if pick == 0:
                args.append(r.choice(PROGRAMS))
            elif pick == 1:
                args.append(str(r.choice([0, 1, 2, 7, 100, 10 ** 6, r.randrange(1 << 32)])))
            elif pick == 2:
                args.append(self.printable(r.randrange(1, 12)).decode().replace(">", "")
                            .replace("'", "").replace('"', ""))
            else:
                args.append(r.choice(WORDS))
        if cmd == "sysctl":     # writes go through sysctl_write() below, where they are checked
            args = [a for a in args if "=" not in a and a not in ("-w",)]
        if cmd == "su" and not args:
            args = ["nobody"]
        return " ".join([cmd] + args)

    def sysctl_value(self, lo, hi):
        r = self.rng
        v = r.choice([lo, hi, lo - 1, hi + 1, r.randrange(lo, hi + 1), r.randrange(lo, hi + 1),
                      2 ** 31, -2 ** 31])
        form = "%d" if r.random() < 0.4 else r.choice(TRICKY_VALUES)
        if "%x" in form or "%o" in form:
            return form % abs(v)
        return form % ((v,) * form.count("%d"))

    # --- checked operations -------------------------------------------------------------------
    def sysctl_write(self):
        r = self.rng
        name = r.choice(sorted(self.sysctls))
        lo, hi = self.ranges[name]
        value = self.sysctl_value(lo, hi)
        as_nobody = r.random() < 0.2
        if as_nobody:
            self.command("su nobody")
        how = r.randrange(3)
        if how == 0 and " " not in value and "\t" not in value:
            line = "sysctl %s %s=%s" % (r.choice(["-w", "-q", "-w -q"]), name, value)
            written = (value + "\n").encode()[:SYSCTL_VALUE_MAX + 1]
        else:
            n = r.random() < 0.3
            line = "echo %s'%s' > %s" % ("-n " if n else "", value, SYSCTL_FILES[name])
            written = value.encode() + (b"" if n else b"\n")
        # A random `su nobody` may have come first: the prompt says who writes.
        as_nobody = as_nobody or not self.uid_root
        out = self.command(line)
        failed = re.search(r"Invalid argument|denied|error|No such", out) is not None
        predicted = None if as_nobody else dointvec(written, lo, hi)
        self.stats["sysctl_writes"] += 1
        self.stats["sysctl_refused"] += failed
        if failed != (predicted is None):
            self.problem("sysctl write %r as %s: the kernel %s, Linux's rules say %s"
                         % (line, "nobody" if as_nobody else "root",
                            "refused it" if failed else "accepted it",
                            "EINVAL/EACCES" if predicted is None else "value %s" % predicted))
            self.stats["mismatches"] += 1
        if not failed and predicted not in (None, "unchanged"):
            self.sysctls[name] = predicted
        if not self.uid_root:
            self.command("exit")

    def check(self):
        """The batch-end checks: root, no kept process, frames and sysctl values as expected."""
        self.stats["checks"] += 1
        for _ in range(3):
            if self.uid_root:
                break
            self.command("exit")
        self.kill_kept()
        used = self.frames_used()
        if used != self.baseline_used:
            self.problem("free: %d frames used, %d after the warm-up" % (used, self.baseline_used))
            self.stats["lost_frames"] += used - self.baseline_used
            self.baseline_used = used       # report each loss once
        actual = self.read_sysctls()
        if actual != self.sysctls:
            self.problem("sysctl -a: %s, expected %s" % (actual, self.sysctls))
            self.stats["mismatches"] += 1
            self.sysctls = actual

    def kill_kept(self):
        for pid in re.findall(r"^\s*(\d+)\s", self.command("ps"), re.M):
            self.command("kill %s" % pid)

    def frames_used(self):
        m = re.search(r"pages:\s+(\d+)\s+(\d+)\s+(\d+)", self.command("free"))
        if not m:
            raise Fatal("free printed no page counts")
        return int(m.group(2))

    def read_sysctls(self):
        return {k: int(v) for k, v in
                re.findall(r"^([\w.]+) = (-?\d+)\r?$", self.command("sysctl -a"), re.M)}

    def problem(self, text):
        self.problems.append("%s: line %d: %s" % (self.preset, self.stats["lines"], text))
        print("fuzz_console: " + self.problems[-1], flush=True)

    # --- the run ------------------------------------------------------------------------------
    def start(self):
        if not os.path.exists(self.machine.image):
            raise Fatal("no image %s (build it: make qemu-%s build)"
                        % (M.display_path(self.machine.image), self.preset))
        os.makedirs(self.args.log_dir, exist_ok=True)
        log = os.path.join(self.args.log_dir, self.preset + ".log")
        self.console = S.Console(self.machine.command(), log_path=log,
                                 bound=self.args.time_limit + 120)
        self.console.read_until(S.prompt_end(("rndbits# ",)), time.monotonic() + 60)
        self.commands = sorted(set(re.findall(r"^(\w+) ", self.command("help"), re.M))
                               - DANGEROUS)
        cfg = self.machine.config()
        self.ranges = {"kernel.pid_max": (301, 4194304 if "CONFIG_64BIT" in cfg else 32768),
                       "kernel.randomize_va_space": (0, 2), "vm.legacy_va_layout": (0, 1),
                       "vm.mmap_rnd_bits": (int(cfg["CONFIG_ARCH_MMAP_RND_BITS_MIN"]),
                                            int(cfg["CONFIG_ARCH_MMAP_RND_BITS_MAX"]))}
        if "CONFIG_COMPAT" in cfg:
            self.ranges["vm.mmap_rnd_compat_bits"] = (
                int(cfg["CONFIG_ARCH_MMAP_RND_COMPAT_BITS_MIN"]),
                int(cfg["CONFIG_ARCH_MMAP_RND_COMPAT_BITS_MAX"]))
        # Warm-up: whatever the first exec of each program allocates for good is not a loss.
        for prog in PROGRAMS:
            self.command("run %s" % prog)
            self.command("run -32 %s" % prog)
        self.kill_kept()
        self.baseline_used = self.frames_used()
        self.sysctls = self.read_sysctls()
        if set(self.sysctls) != set(self.ranges):
            raise Fatal("sysctl -a lists %s, expected %s" % (sorted(self.sysctls), sorted(self.ranges)))

    def run(self):
        t0 = time.monotonic()
        try:
            self.start()
            deadline = t0 + self.args.time_limit
            while self.stats["lines"] < self.args.lines and time.monotonic() < deadline:
                start = self.stats["lines"]
                while self.stats["lines"] - start < self.args.batch:
                    kind = self.rng.random()
                    if kind < 0.1:
                        self.sysctl_write()
                    elif kind < 0.35:
                        self.command(self.random_command())
                    else:
                        # Raw chunks go in groups, one marker round trip per group.
                        for _ in range(10):
                            self.send(self.raw_chunk())
                            self.stats["lines"] += 1
                        self.sync()
                self.check()
        except Hang as e:
            self.stats["hangs"] += 1
            self.problem("hang: %s" % e)
        except Fatal as e:
            self.stats["exceptions"] += 1
            self.problem("fatal: %s" % e)
        except S.Timeout:
            self.stats["hangs"] += 1
            self.problem("hang: the console stopped answering")
        except S.EarlyExit as e:
            self.stats["exceptions"] += 1
            self.problem("fatal: QEMU exited (status %s)" % e.status)
        finally:
            if self.console:
                self.console.kill()
        self.stats["seconds"] = time.monotonic() - t0
        return not self.problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presets", default="", help="comma-separated (default: every built one)")
    ap.add_argument("--lines", type=int, default=20000, help="fuzz lines per preset")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--batch", type=int, default=200, help="lines between checks")
    ap.add_argument("--time-limit", type=float, default=1800, help="seconds per preset")
    ap.add_argument("--step-timeout", type=float, default=3,
                    help="seconds a command may take before it gets Ctrl-C")
    ap.add_argument("--build-root", default=None)
    ap.add_argument("--log-dir", default=os.path.join(M.REPO, "build", "fuzz-console"))
    args = ap.parse_args()
    root = args.build_root or os.path.join(M.REPO, "build")
    presets = [p for p in args.presets.split(",") if p] or [
        p for p in M.preset_names()
        if os.path.exists(M.Machine(p, args.build_root).image)]
    if not presets:
        print("fuzz_console: no built preset under %s" % root, file=sys.stderr)
        return 1
    ok = True
    rows = []
    for p in presets:
        f = Fuzzer(p, args)
        ok &= f.run()
        s = f.stats
        rows.append((p, s))
        print("fuzz_console: %-15s %6d lines %8d bytes %6.1f s %6.0f lines/s  %d checks, "
              "%d Ctrl-C, %d hangs, %d exceptions, %d lost frames, %d sysctl writes "
              "(%d refused), %d mismatches" %
              (p, s["lines"], s["bytes"], s["seconds"], s["lines"] / max(s["seconds"], 1e-9),
               s["checks"], s["interrupts"], s["hangs"], s["exceptions"], s["lost_frames"],
               s["sysctl_writes"], s["sysctl_refused"], s["mismatches"]), flush=True)
    total = sum(s["lines"] for _, s in rows)
    bad = sum(s["hangs"] + s["exceptions"] + s["mismatches"] + (s["lost_frames"] != 0)
              for _, s in rows)
    print("fuzz_console: %d presets, %d lines, %s" % (len(rows), total,
                                                      "all clean" if ok else "%d problems" % bad))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
