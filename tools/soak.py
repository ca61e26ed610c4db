#!/usr/bin/python3
"""make soak: 100,000 exec/exit cycles per preset, and nothing lost.

Boots each preset under QEMU (the harness's launch description and console reader), and types:

  free                      the free-frame count before
  run attack vmas           how many VMAs a process can still get (the fixed VMA pool)
  soak N                    N cycles of `probe -q` (kernel/soak.c): cycles, failures, elapsed
                            time, free frames at start and end, "ok" only if they are equal
  soak -32 M                the same on the compat path (arm64-*, x86_64), M cycles
  run attack vmas           the same answer as before: no VMA leaked from the pool
  free                      the same count as before
  poweroff

The kernel has no heap, only fixed pools (frames, VMAs, the fd table): any leak shows as a frame
difference, or exhausts a pool long before 100,000 cycles and makes execs fail. Every wait has a
deadline (--timeout per soak command), so the run is bounded in time. Prints one line per preset
and a summary; exits 1 if any preset failed.
"""

import argparse
import concurrent.futures
import os
import re
import sys
import time

# The harness package (qemu/rndbits_qemu): tools/ builds on what the tests use.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "qemu"))

from rndbits_qemu import guest as G              # noqa: E402
from rndbits_qemu import machine as M            # noqa: E402
from rndbits_qemu import session as S            # noqa: E402


def has_compat(preset):
    """Every 64-bit preset runs 32-bit programs too (AArch32 on arm64, ia32 on x86_64)."""
    return M.Machine(preset).variables().get("bits") == "64"


class SoakError(G.GuestError):
    pass


def free_frames(guest):
    for ln in guest.run("free"):
        m = re.match(r"pages:\s+(\d+)\s+(\d+)\s+(\d+)$", ln)
        if m:
            return int(m.group(3))
    raise SoakError("`free` printed no pages line")


def vma_capacity(guest):
    lines = guest.run("run attack vmas")
    for ln in lines:
        m = re.match(r"attack: (\d+) mappings, then -ENOMEM$", ln)
        if m:
            return int(m.group(1))
    raise SoakError("`run attack vmas` did not end in ENOMEM: %s" % lines)


def soak(guest, cycles, compat, timeout):
    """Run `soak [-32] cycles`; return its figures as a dict, raising if it failed."""
    cmd = "soak %s%d" % ("-32 " if compat else "", cycles)
    lines = guest.run(cmd, timeout)
    text = "\n".join(lines)
    m1 = re.search(r"soak: (\d+) cycles of \S+(?: \(compat\))?, (\d+) failed", text)
    m2 = re.search(r"soak: elapsed (\d+\.\d+) s \((\d+) cycles/s\)", text)
    m3 = re.search(r"soak: free frames (\d+) at start, (\d+) at end", text)
    if not (m1 and m2 and m3):
        raise SoakError("`%s` printed no figures:\n%s" % (cmd, S.indent_output(text, 12)))
    r = dict(cycles=int(m1.group(1)), failed=int(m1.group(2)), seconds=float(m2.group(1)),
             rate=int(m2.group(2)), free_start=int(m3.group(1)), free_end=int(m3.group(2)),
             ok="soak: ok" in lines)
    if not r["ok"] or r["cycles"] != cycles or r["failed"] or r["free_start"] != r["free_end"]:
        raise SoakError("`%s` failed:\n%s" % (cmd, S.indent_output(text, 12)))
    return r


def soak_preset(preset, args):
    log = os.path.join(args.log_dir, preset + ".log")
    t0 = time.monotonic()
    guest = G.Guest(preset, log_path=log, boot_timeout=120)
    try:
        free0 = free_frames(guest)
        vmas0 = vma_capacity(guest)
        native = soak(guest, args.cycles, False, args.timeout)
        compat = None
        if has_compat(preset) and args.compat_cycles:
            compat = soak(guest, args.compat_cycles, True, args.timeout)
        vmas1 = vma_capacity(guest)
        free1 = free_frames(guest)
        guest.console.send(b"poweroff\r")
    finally:
        guest.close()
    if vmas1 != vmas0:
        raise SoakError("VMAs available before %d, after %d" % (vmas0, vmas1))
    if free1 != free0:
        raise SoakError("free frames before %d, after %d" % (free0, free1))
    return dict(native=native, compat=compat, free0=free0, free1=free1, vmas=vmas0,
                wall=time.monotonic() - t0)


def describe(preset, r):
    n = r["native"]
    s = ("soak: %-15s %6d cycles in %7.1f s (%4d/s), %d failed" %
         (preset, n["cycles"], n["seconds"], n["rate"], n["failed"]))
    if r["compat"]:
        c = r["compat"]
        s += "; compat %d in %.1f s (%d/s)" % (c["cycles"], c["seconds"], c["rate"])
    s += "; free frames %d at start, %d at end; %d VMAs before and after; %.0f s in all: ok" % (
        r["free0"], r["free1"], r["vmas"], r["wall"])
    return s


def main():
    def env(name, default):
        return os.environ.get(name) or default  # make exports unset knobs as ""

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("presets", nargs="*", help="presets (default: all twelve)")
    ap.add_argument("--cycles", type=int, default=int(env("SOAK_CYCLES", 100000)))
    ap.add_argument("--compat-cycles", type=int,
                    default=int(env("SOAK_COMPAT_CYCLES", 20000)),
                    help="cycles on the compat path of arm64-* and x86_64 (0: none)")
    ap.add_argument("--jobs", type=int, default=int(env("SOAK_JOBS", os.cpu_count() or 1)))
    ap.add_argument("--timeout", type=float, default=float(env("SOAK_TIMEOUT", 1800)),
                    help="seconds allowed for each soak command")
    ap.add_argument("--log-dir", default=os.path.join(M.REPO, "build", "host", "soak"))
    args = ap.parse_args()
    presets = args.presets or M.preset_names()
    os.makedirs(args.log_dir, exist_ok=True)
    print("soak: %d cycles per preset (compat %d) on %s; %d at a time; logs in %s"
          % (args.cycles, args.compat_cycles, " ".join(presets), args.jobs,
             M.display_path(args.log_dir)), flush=True)
    failed = []
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(soak_preset, p, args): p for p in presets}
        for f in concurrent.futures.as_completed(futures):
            p = futures[f]
            try:
                print(describe(p, f.result()), flush=True)
            except (G.GuestError, OSError) as e:
                failed.append(p)
                print("soak: %-15s FAILED: %s (log %s)" % (
                    p, e, M.display_path(os.path.join(args.log_dir, p + ".log"))), flush=True)
    print("soak: %d of %d presets passed in %.0f s%s" % (
        len(presets) - len(failed), len(presets), time.monotonic() - t0,
        "; failed: " + " ".join(failed) if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
