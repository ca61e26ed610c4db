#!/usr/bin/python3
"""plot.py: ASLR pictures of one preset, measured on the booted kernel and drawn with gnuplot.

  tools/plot.py PRESET [--seed N] [--samples N] [--region mmap|stack|brk|all] [-32]
               [--layout-only] [--bits B] [--respawn-s S] [--only hist|tradeoff|attack]
               [--attack-budget EXECS] [--out DIR]

Step 1 boots PRESET with `rng.seed=N` (so a rerun draws the same layouts), optionally sets the
bits (`sysctl -w`), runs `aslr sample N` per region and draws a histogram of the random offsets.
Step 2 runs `aslr tradeoff` and draws the largest mapping still possible against the bits, with
the expected brute-force time on a second axis. Step 3 runs `aslr attack --exec --fork` at the
first four values of the knob (the compat one where the native range starts above 12 bits) and
draws the measured mean tries of both attacks against 2^bits and 2^(bits-1). Each picture is OUT/<name>.png beside the data
(<name>.dat) and the gnuplot script (<name>.gp) that drew it; OUT defaults to build/plots/PRESET.

Only the kernel's machine lines (`aslr: ...`, `aslr-sample: ...`, `aslr-tradeoff: ...`) are
relied on, plus the finest histogram the kernel offers: one `aslr-raw: ... rnd=PAGES` line per
sample (`aslr sample N --raw`), else the 64 chi-square buckets (`aslr-buckets: ... counts=...`),
else the 16-bin ASCII histogram of the human report.

The console code (rndbits_qemu.guest.Guest) is shared with tools/gen_docs.py and tools/soak.py. Standard library + gnuplot only.
"""

import argparse
import math
import os
import re
import subprocess
import sys

# The harness package (qemu/rndbits_qemu): tools/ builds on what the tests use.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "qemu"))

from rndbits_qemu import machine as M            # noqa: E402
from rndbits_qemu.guest import Guest, GuestError  # noqa: E402,F401 (gen_docs uses plot.Guest)

REGIONS = ("mmap", "stack", "brk")
REGION_LABELS = {"mmap": "mmap base", "stack": "stack top", "brk": "brk start"}
# Every plot: an 800x480 PNG with its title (gnuplot; {png} and {title} filled in by format).
PNG_HEADER = """
set terminal pngcairo noenhanced size 800,480 font "sans,10"
set output '{png}'
set title "{title}"
"""


def machine_fields(lines, tag):
    """The key=value fields of every `tag: k=v k=v` line, as dicts (values left as strings)."""
    out = []
    for ln in lines:
        if ln.startswith(tag + ":"):
            out.append(dict(re.findall(r"(\w+)=(\S+)", ln[len(tag) + 1:])))
    return out


def one_machine_line(lines, tag, command):
    found = machine_fields(lines, tag)
    if not found:
        raise GuestError("`%s` printed no `%s:` line; its output:\n%s"
                         % (command, tag, "\n".join("    | " + ln for ln in lines[-20:])))
    return found[-1]


def num(v):
    return int(v, 0) if re.fullmatch(r"0x[0-9a-fA-F]+|\d+", v) else float(v)


# --- step 1: the histogram of offsets ---------------------------------------------------------

def histogram_bins(lines, summary, bins_wanted=64):
    """Counts per equal bin of the configured range [0, range_pages) and where they came from:
    raw offsets (binned here), the kernel's chi-square buckets, or its 16-bin ASCII histogram."""
    range_pages = num(summary["range_pages"])
    raw = [num(f["rnd"]) for f in machine_fields(lines, "aslr-raw") if "rnd" in f]
    if raw:
        bins = min(bins_wanted, range_pages)
        counts = [0] * bins
        for r in raw:
            counts[min(bins - 1, r * bins // range_pages)] += 1
        return counts, "%d samples in %d bins" % (len(raw), bins)
    buckets = machine_fields(lines, "aslr-buckets")
    if buckets and "counts" in buckets[-1]:
        counts = [int(c) for c in buckets[-1]["counts"].split(",")]
        return counts, "the kernel's %d chi-square buckets" % len(counts)
    ascii_bins = [(int(m.group(1)), int(m.group(2)), int(m.group(3))) for m in
                  (re.match(r"\s*(\d+)/(\d+)\s+(\d+)(\s|$)", ln) for ln in lines) if m]
    if ascii_bins and all(total == ascii_bins[0][1] for _, total, _ in ascii_bins):
        counts = [0] * ascii_bins[0][1]
        for k, _, c in ascii_bins:
            counts[k - 1] = c
        return counts, "the kernel's %d-bin histogram" % len(counts)
    raise GuestError("`aslr sample` gave neither raw values nor a histogram to plot")


def byte_unit(nbytes):
    """The largest binary unit in which nbytes is at least 1 (for axis labels)."""
    for name, size in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if nbytes >= size:
            return name, size
    return "bytes", 1


def sample(guest, n, region, compat, layout_only, timeout):
    base = "aslr sample %d%s%s --region %s" % (n, " -32" if compat else "",
                                                " --layout-only" if layout_only else "", region)
    lines = guest.run(base + " --raw", timeout)
    if any(ln.startswith("usage:") for ln in lines):       # a kernel without the raw mode
        lines = guest.run(base, timeout)
    return base, lines


def plot_histogram(out_dir, name, preset, page_size, summary, counts, source, seed, layout_only):
    n = int(summary["n"])
    range_pages = num(summary["range_pages"])
    range_bytes = range_pages * page_size
    unit, size = byte_unit(range_bytes)
    bins = len(counts)
    width = range_bytes / bins / size
    dat = os.path.join(out_dir, name + ".dat")
    with open(dat, "w") as f:
        f.write("# %s: %s offsets, %s\n# bin_start_%s bin_width_%s count\n"
                % (preset, summary["region"], source, unit, unit))
        for k, c in enumerate(counts):
            f.write("%.6g %.6g %d\n" % (k * width, width, c))
    abi = "compat (32-bit)" if summary.get("abi") == "compat" else "native"
    knob = "vm.mmap_rnd_compat_bits" if summary.get("abi") == "compat" else "vm.mmap_rnd_bits"
    how = "layout draws" if layout_only else "execs of probe"
    what = REGION_LABELS.get(summary["region"], summary["region"])
    title = ("%s: random offset of the %s over %d %s\\n"
             "%d possible page offsets (%.4g bits); %s=%s, %s, rng.seed=%s\\n"
             "measured: aslr_test %s bits, CTS %s bits, paxtest %s bits, chi-square p=%s, %s distinct"
             % (preset, what, n, how, range_pages, math.log2(range_pages), knob, summary["bits"],
                abi, seed, summary.get("aslrtest_bits", "?"), summary.get("cts_bits", "?"),
                summary.get("pax_bits", "?"), summary.get("chi2_p", "?"),
                summary.get("distinct", "?")))
    expected = n / bins
    # Where a bin of a uniform draw lands 95% of the time: the binomial mean +/- 2 sigma.
    sigma = math.sqrt(n * (1 / bins) * (1 - 1 / bins))
    lo, hi = max(0.0, expected - 2 * sigma), expected + 2 * sigma
    script = (PNG_HEADER + """set xlabel "random offset ({unit}); {source}"
set ylabel "samples per bin (bin = {binw} {unit})"
set xrange [0:{xmax}]
set yrange [0:{ymax}]
set style fill solid 0.6 border lc rgb "#204a87"
set key top right
set grid ytics
set encoding utf8
plot '+' using 1:({lo}):({hi}) with filledcurves fs transparent solid 0.2 noborder lc rgb "#555555" title "uniform ± 2σ (binomial): {band}", \\
     '{dat}' using ($1+$2/2):3:2 with boxes lc rgb "#729fcf" title "samples", \\
     {expected} with lines dt 2 lw 2 lc rgb "#cc0000" title sprintf("uniform: %.1f per bin", {expected})
""").format(png=name + ".png", title=title, unit=unit, source=source, binw="%.4g" % width,
           xmax="%.6g" % (range_bytes / size), ymax="%.6g" % (max(max(counts), hi) * 1.2),
           dat=name + ".dat", expected="%.6g" % expected, lo="%.6g" % lo, hi="%.6g" % hi,
           band="%.0f..%.0f" % (lo, hi))
    return gnuplot(out_dir, name, script)


# --- step 2: the trade-off curve ---------------------------------------------------------------

YEAR = 31557600
# Labelled times for the log axis; the "minor" ones are used only when the range is narrow.
TIME_TICKS = [("1 s", 1, 0), ("10 s", 10, 1), ("1 min", 60, 0), ("10 min", 600, 0),
              ("1 hour", 3600, 0), ("10 hours", 36000, 0), ("1 day", 86400, 0),
              ("1 week", 604800, 0), ("1 month", YEAR / 12, 0)] + \
             [("%s years" % ("1" if k == 0 else "10^%d" % k if k > 3 else 10 ** k) if k else "1 year",
               10 ** k * YEAR, 0) for k in range(0, 8)] + \
             [("%d years" % (3 * 10 ** k), 3 * 10 ** k * YEAR, 1) for k in range(0, 4)]


def time_ticks(lo, hi):
    """gnuplot tics for the range [lo, hi] seconds: the major labels, plus minor ones if few."""
    major = [(lbl, s) for lbl, s, minor in TIME_TICKS if not minor and lo <= s <= hi]
    chosen = major if len(major) >= 4 else [(lbl, s) for lbl, s, _ in TIME_TICKS if lo <= s <= hi]
    return ", ".join('"%s" %g' % (lbl, s) for lbl, s in sorted(chosen, key=lambda t: t[1]))


def plot_tradeoff(out_dir, name, preset, rows, compat, respawn_s, seed):
    largest = max(max(num(r["largest_computed"]), num(r["largest_measured"])) for r in rows)
    unit, size = byte_unit(largest)
    dat = os.path.join(out_dir, name + ".dat")
    with open(dat, "w") as f:
        f.write("# %s: aslr tradeoff%s, brute force at %g s per respawn\n"
                "# bits largest_computed_%s largest_measured_%s seconds_fixed_guess "
                "seconds_enumerating base_lo base_hi\n" % (preset, " -32" if compat else "",
                                                           respawn_s, unit, unit))
        for r in rows:
            tries = num(r["tries_fixed"])
            f.write("%s %.6f %.6f %.6g %.6g %s %s\n" % (
                r["bits"], num(r["largest_computed"]) / size, num(r["largest_measured"]) / size,
                tries * respawn_s, tries * respawn_s / 2, r["base_lo"], r["base_hi"]))
    bits = [int(r["bits"]) for r in rows]
    secs = [num(r["tries_fixed"]) * respawn_s for r in rows]
    # The time axis ends on labelled values just outside the data (enumerating: half the tries).
    marks = sorted(t for _, t, _ in TIME_TICKS)
    lo = max([t for t in marks if t <= min(secs) / 2 / 1.3] or [min(secs) / 4])
    hi = min([t for t in marks if t >= max(secs) * 1.3] or [max(secs) * 2])
    ticks = time_ticks(lo, hi)
    knob = "vm.mmap_rnd_compat_bits" if compat else "vm.mmap_rnd_bits"
    sizes = [max(num(r["largest_computed"]), num(r["largest_measured"])) / size for r in rows]
    smin, smax = min(sizes), max(sizes)
    pad = (smax - smin) * 0.15 or smax * 0.05
    title = ("%s: largest single mapping vs %s (%s..%s), %s\\nworst-case layout; brute force "
             "at %g s per respawn" % (preset, knob, min(bits), max(bits),
                                      "compat (32-bit)" if compat else "native", respawn_s))
    script = (PNG_HEADER + """set xlabel "{knob} (bits)"
set ylabel "largest mapping still possible ({unit})"
set y2label "expected brute-force time at {respawn} s per respawn (log scale)"
set xrange [{xlo}:{xhi}]
set xtics 1
set yrange [{ylo}:{yhi}]
set ytics nomirror
set logscale y2
set y2range [{tlo}:{thi}]
set y2tics ({ticks})
set grid xtics ytics
set key outside bottom center horizontal maxrows 2
set bmargin 7
plot '{dat}' using 1:2 axes x1y1 with linespoints pt 7 ps 0.8 lw 2 lc rgb "#204a87" title "largest mapping, computed", \\
     '' using 1:3 axes x1y1 with points pt 6 ps 1.8 lw 1.5 lc rgb "#4e9a06" title "largest mapping, measured by alloc", \\
     '' using 1:4 axes x1y2 with linespoints pt 5 ps 0.7 lw 2 lc rgb "#cc0000" title "fixed guess: 2^bits tries", \\
     '' using 1:5 axes x1y2 with linespoints pt 4 ps 0.7 lw 1 dt 2 lc rgb "#cc0000" title "enumerating attacker: 2^(bits-1) tries"
""").format(png=name + ".png", title=title, knob=knob, unit=unit,
           xlo=min(bits) - 0.5, xhi=max(bits) + 0.5,
           # From zero: on 64-bit presets the largest mapping loses a few TiB of 256, which a cut
           # axis would draw as a collapse (issue 18 item 6).
           ylo="0", yhi="%.6g" % (smax + pad),
           respawn="%g" % respawn_s, tlo="%g" % lo, thi="%g" % hi, ticks=ticks, dat=name + ".dat")
    return gnuplot(out_dir, name, script)


# --- step 3: the attack, measured: fork server against re-exec -----------------------------------

def attack_bits_values(info, compat, count=4):
    """The knob and the first `count` values of its range, from `aslr info`'s machine line: the
    compat knob when the native one starts above 12 bits (too many tries to measure)."""
    lo_n, hi_n = int(info["min"]), int(info["max"])
    if compat or (lo_n > 12 and "compat_min" in info):
        lo, hi = int(info["compat_min"]), int(info["compat_max"])
        return True, "vm.mmap_rnd_compat_bits", list(range(lo, min(hi, lo + count - 1) + 1))
    return False, "vm.mmap_rnd_bits", list(range(lo_n, min(hi_n, lo_n + count - 1) + 1))


def attack_trials(bits, budget):
    """Trials at `bits` so that the --exec attack costs about `budget` execs (20..200: a mean
    of fewer scatters by more than the factor of 2 the plot is about)."""
    return max(20, min(200, budget >> bits))


def measure_attack(guest, compat, bits_values, budget, say=print, preset=""):
    """`aslr attack --exec --fork` at each value: rows of (bits, trials, exec row, fork row)."""
    rows = []
    for b in bits_values:
        trials = attack_trials(b, budget)
        cmd = "aslr attack%s --exec --fork --bits %d --trials %d" % (" -32" if compat else "", b,
                                                                    trials)
        lines = guest.run(cmd, timeout=120 + (trials << b) / 100)
        found = {f.get("mode", "exec"): f for f in machine_fields(lines, "aslr-attack")}
        if "exec" not in found or "fork" not in found:
            raise GuestError("`%s` printed no exec and fork aslr-attack: lines:\n%s"
                             % (cmd, "\n".join("    | " + ln for ln in lines[-20:])))
        rows.append((b, trials, found["exec"], found["fork"]))
        say("%s: `%s`: exec mean %s, fork mean %s" % (preset, cmd, found["exec"]["mean"],
                                                     found["fork"]["mean"]))
    return rows


def plot_attack(out_dir, name, preset, rows, knob, seed):
    dat = os.path.join(out_dir, name + ".dat")
    with open(dat, "w") as f:
        f.write("# %s: aslr attack --exec --fork per value of %s, rng.seed=%d\n"
                "# bits trials exec_mean exec_median fork_mean fork_median theory_fixed "
                "theory_enum\n" % (preset, knob, seed))
        for b, trials, ex, fk in rows:
            f.write("%d %d %s %s %s %s %s %s\n" % (b, trials, ex["mean"], ex["median"], fk["mean"],
                                                   fk["median"], ex["theory_fixed"],
                                                   ex["theory_enum"]))
    bits = [r[0] for r in rows]
    title = ("%s: tries until the secret is found vs %s, measured (rng.seed=%d)\\n"
             "--exec: fixed guess, fresh layout per crash; --fork: a fork server's children, "
             "each page once" % (preset, knob, seed))
    script = (PNG_HEADER + """set xlabel "{knob} (bits)"
set ylabel "tries per success (log scale)"
set xrange [{xlo}:{xhi}]
set xtics 1
set logscale y 2
set format y "2^%L"
set grid xtics ytics
set key top left
plot '{dat}' using 1:7 with lines lw 1 dt 2 lc rgb "#cc0000" title "theory: 2^bits (fixed guess)", \\
     '' using 1:8 with lines lw 1 dt 2 lc rgb "#204a87" title "theory: 2^(bits-1) (enumerating)", \\
     '' using 1:3 with linespoints pt 7 ps 1.2 lw 2 lc rgb "#cc0000" title "--exec, measured mean", \\
     '' using 1:5 with linespoints pt 5 ps 1.2 lw 2 lc rgb "#204a87" title "--fork, measured mean"
""").format(png=name + ".png", title=title, knob=knob, xlo=min(bits) - 0.5,
           xhi=max(bits) + 0.5, dat=name + ".dat")
    return gnuplot(out_dir, name, script)


def gnuplot(out_dir, name, script):
    gp = os.path.join(out_dir, name + ".gp")
    with open(gp, "w") as f:
        f.write(script.lstrip())
    try:
        r = subprocess.run(["gnuplot", name + ".gp"], cwd=out_dir, capture_output=True, text=True,
                           timeout=60)
    except FileNotFoundError:
        raise GuestError("gnuplot is not installed: `make deps-plot` (Debian gnuplot-nox)")
    if r.returncode != 0:
        raise GuestError("gnuplot failed on %s:\n%s" % (M.display_path(gp), r.stderr))
    return os.path.join(out_dir, name + ".png")


# --- the whole run -------------------------------------------------------------------------------

def draw_sample(out_dir, prefix, preset, page_size, lines, seed, layout_only, command="aslr sample"):
    """The histogram PNG of one `aslr sample` run's output lines; returns (path, source)."""
    summary = one_machine_line(lines, "aslr-sample", command)
    counts, source = histogram_bins(lines, summary)
    name = "%shist-%s-%s-%sbits" % (prefix, summary["region"], summary.get("abi", "native"),
                                     summary["bits"])
    return plot_histogram(out_dir, name, preset, page_size, summary, counts, source, seed,
                          layout_only), source


def draw_tradeoff(out_dir, prefix, preset, lines, compat, respawn_s, seed,
                  command="aslr tradeoff"):
    """The trade-off PNG of one `aslr tradeoff` run's output lines; returns (path, rows)."""
    rows = machine_fields(lines, "aslr-tradeoff")
    if not rows:
        raise GuestError("`%s` printed no aslr-tradeoff: lines" % command)
    name = "%stradeoff-%s" % (prefix, "compat" if compat else "native")
    return plot_tradeoff(out_dir, name, preset, rows, compat, respawn_s, seed), rows


def make_plots(preset, seed=1, samples=2048, regions=("mmap",), compat=False, layout_only=False,
               bits=None, respawn_s=5.0, only=None, out_dir=None, log_path=None, prefix="",
               say=print, build_root=None, attack_budget=16384):
    """Boot preset, measure, draw. Returns the paths of the PNGs."""
    out_dir = out_dir or os.path.join(M.REPO, "build", "plots", preset)
    os.makedirs(out_dir, exist_ok=True)
    pngs = []
    with Guest(preset, "rng.seed=%d" % seed, log_path, build_root=build_root) as g:
        info = one_machine_line(g.run("aslr info"), "aslr", "aslr info")
        page_size = int(info["page"])
        if compat and "compat_bits" not in info:
            raise GuestError("%s has no 32-bit compat path (no compat_bits in `aslr info`)" % preset)
        if bits is not None:
            knob = "vm.mmap_rnd_compat_bits" if compat else "vm.mmap_rnd_bits"
            out = g.run("sysctl -w %s=%d" % (knob, bits))
            if out != ["%s = %d" % (knob, bits)]:
                raise GuestError("sysctl -w %s=%d refused:\n%s" % (knob, bits, "\n".join(out)))
        if only in (None, "hist"):
            for region in regions:
                # a few thousand execs per second on the slowest preset, with a wide margin
                cmd, lines = sample(g, samples, region, compat, layout_only,
                                    timeout=60 + samples / 50)
                png, source = draw_sample(out_dir, prefix, preset, page_size, lines, seed,
                                          layout_only, cmd)
                pngs.append(png)
                say("%s: `%s`: %s -> %s" % (preset, cmd, source, M.display_path(png)))
        if only in (None, "tradeoff"):
            cmd = "aslr tradeoff" + (" -32" if compat else "")
            png, rows = draw_tradeoff(out_dir, prefix, preset, g.run(cmd, timeout=300), compat,
                                      respawn_s, seed, cmd)
            pngs.append(png)
            say("%s: `%s`: %d bits values -> %s" % (preset, cmd, len(rows), M.display_path(png)))
        if only in (None, "attack"):
            use_compat, knob, values = attack_bits_values(info, compat)
            # 20 trials at least: leave out the values whose --exec attack would far exceed the budget
            values = [b for b in values if 20 << b <= 2 * attack_budget] or values[:1]
            rows = measure_attack(g, use_compat, values, attack_budget, say, preset)
            png = plot_attack(out_dir, "%sattack-%s" % (prefix, "compat" if use_compat else "native"),
                              preset, rows, knob, seed)
            pngs.append(png)
            say("%s: aslr attack --exec --fork at %s = %s -> %s"
                % (preset, knob, ",".join(map(str, values)), M.display_path(png)))
    return pngs


def main():
    ap = argparse.ArgumentParser(prog="plot.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("preset")
    ap.add_argument("--seed", type=int, default=1, help="rng.seed on the kernel command line (1)")
    ap.add_argument("--samples", "-n", type=int, default=2048, help="aslr sample N (2048)")
    ap.add_argument("--region", default="mmap", choices=REGIONS + ("all",),
                    help="which start address to histogram (mmap)")
    ap.add_argument("-32", dest="compat", action="store_true", help="the 32-bit compat ABI")
    ap.add_argument("--layout-only", action="store_true", help="layout draws instead of execs")
    ap.add_argument("--bits", type=int, help="set vm.mmap_rnd_bits (or _compat_bits) first")
    ap.add_argument("--respawn-s", type=float, default=5.0,
                    help="seconds per respawn for the brute-force axis (5, as for mediaserver)")
    ap.add_argument("--only", choices=("hist", "tradeoff", "attack"), help="one step only")
    ap.add_argument("--attack-budget", type=int, default=16384,
                    help="about this many execs per bits value for step 3's --exec attack (16384)")
    ap.add_argument("--out", help="output directory (build/plots/PRESET)")
    ap.add_argument("--log", help="write the raw console session to this file")
    ap.add_argument("--build-root", default=os.environ.get("RNDBITS_BUILD_ROOT"))
    a = ap.parse_args()
    regions = REGIONS if a.region == "all" else (a.region,)
    try:
        make_plots(a.preset, a.seed, a.samples, regions, a.compat, a.layout_only, a.bits,
                   a.respawn_s, a.only, a.out and os.path.abspath(a.out), a.log,
                   build_root=a.build_root, attack_budget=a.attack_budget)
    except GuestError as e:
        print("plot.py: %s" % e, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
