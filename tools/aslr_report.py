#!/usr/bin/python3
"""aslr_report.py: an offline HTML page of `aslr sample N --csv --prog NAME ARGS` for one preset.

  tools/aslr_report.py PRESET [--prog "NAME ARGS"] [--samples N] [--append TEXT] [--out DIR]
  tools/aslr_report.py PRESET --from-log FILE [--out DIR]   (a console log of such a run)

Boots PRESET (with the test corpus's program NAME in an initrd when NAME is one, e.g. busybox;
PROGS="files" adds your own as run does), runs the sample with the raw samples (--csv), and
writes into DIR (default build/report/PRESET/): index.html, samples.csv, the kernel's report as
it printed it, and per object two gnuplot SVGs: the histogram of its values over 64 bins of the
observed span and the frequency of 1 in each bit that changes. Both y axes start at zero (a cut
axis would make a flat histogram look uneven). The page references only files beside it, so it
opens in a browser without a network. Standard library and gnuplot only.
"""

import argparse
import csv
import html
import io
import os
import re
import shlex
import subprocess
import sys

# The harness package (qemu/rndbits_qemu): tools/ builds on what the tests use.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "qemu"))

from rndbits_qemu import machine as M            # noqa: E402

OBJECTS = ("text", "data", "brk", "stack", "sp", "mmap", "vdso")
STAT_COLUMNS = [("min", "min"), ("max", "max"), ("span", "span (bytes)"), ("distinct", "distinct"),
                ("cts_bits", "CTS bits"), ("aslrtest_bits", "aslr_test bits"),
                ("pax_bits", "paxtest bits"), ("chi2_p", "chi-square p"),
                ("entropy", "Shannon H (64 bins)"), ("flip_bits", "bits that change"),
                ("birthday_runs", "birthday runs"), ("birthday_median", "birthday median"),
                ("predicted_median", "predicted median"), ("predicted_mean", "predicted mean")]
BINS = 64


class ReportError(Exception):
    pass


def run_sample(preset, prog, samples, append, progs):
    """Boot the preset and return the output lines of the sample command."""
    import plot                                  # noqa: E402  (its Guest boots and types)
    from rndbits_qemu import progs as P          # noqa: E402
    from rndbits_qemu import session as S        # noqa: E402

    m = M.Machine(preset)
    variables = m.variables()
    words = shlex.split(prog) if prog else []
    entries = P.user_entries(shlex.split(progs or ""))
    if words and "/" not in words[0]:
        try:
            if os.path.isfile(P.corpus_file(variables, words[0])):
                entries += P.corpus_entries(variables, [words[0]])
        except P.ProgsError:
            pass
    initrd = None
    if entries:
        initrd = P.pack(entries, os.path.join(m.build_dir, "report.cpio"),
                        align=variables.get("page_size"))

    class Guest(plot.Guest):
        def __init__(self):
            self.machine, self.preset = m, preset
            if not os.path.exists(m.image):
                raise ReportError("%s: no image %s; build it with `make qemu-%s build`"
                                  % (preset, M.display_path(m.image), preset))
            self.argv = m.command("stdio", append, initrd=initrd)
            self.console = S.Console(self.argv, None, bound=3600)
            self.prompt = None
            self.boot_log = self._read(60, "the first prompt")

    command = "aslr sample %d --csv %s" % (samples, "--prog " + prog if prog else "--objects")
    g = Guest()
    try:
        return command, g.run(command, 1800)
    finally:
        g.close()


def parse(lines):
    """(csv rows as dicts, {object: stats dict}, the report's text lines) of a sample's output."""
    rows, stats, text = [], {}, []
    header = None
    for ln in lines:
        if ln.startswith("exec,"):
            header = ln.split(",")
            continue
        if header and re.match(r"^\d+,", ln):
            rows.append(dict(zip(header, ln.split(","))))
            continue
        if ln.startswith("aslr-object:"):
            kv = dict(w.split("=", 1) for w in ln.split()[1:] if "=" in w)
            if "name" in kv and "absent" not in ln:
                stats[kv["name"]] = kv
            continue
        text.append(ln)
    if not header or not rows:
        raise ReportError("no --csv samples in the output (is this `aslr sample N --csv ...`?)")
    return rows, stats, text


def values_of(rows, obj):
    return [int(r[obj], 16) for r in rows if r.get(obj, "-") not in ("-", "")]


def gnuplot(out_dir, name, script, data):
    with open(os.path.join(out_dir, name + ".dat"), "w") as f:
        f.write(data)
    with open(os.path.join(out_dir, name + ".gp"), "w") as f:
        f.write(script)
    try:
        r = subprocess.run(["gnuplot", name + ".gp"], cwd=out_dir, capture_output=True,
                           text=True, timeout=60)
    except FileNotFoundError:
        raise ReportError("gnuplot is not installed: `make deps-plot` (Debian gnuplot-nox)")
    if r.returncode != 0:
        raise ReportError("gnuplot failed on %s.gp:\n%s" % (name, r.stderr))
    for ext in (".dat", ".gp"):
        os.remove(os.path.join(out_dir, name + ext))
    return name + ".svg"


def histogram_svg(out_dir, preset, obj, vals):
    lo, hi = min(vals), max(vals)
    flips = 0
    for v in vals:
        flips |= v ^ vals[0]
    granule = flips & -flips or 1
    possible = (hi - lo) // granule + 1
    nbins = min(BINS, possible)
    counts = [0] * nbins
    for v in vals:
        counts[((v - lo) // granule) * nbins // possible] += 1
    data = "".join("%d %d\n" % (i, c) for i, c in enumerate(counts))
    script = """set terminal svg size 640,320 noenhanced font "sans,10"
set output '{name}.svg'
set title "{preset}: {obj}, {n} execs, {nbins} bins of {lo:#x}..{hi:#x}"
set xlabel "bin (low addresses left)"
set ylabel "execs"
set yrange [0:*]
set xrange [-0.5:{xmax}]
set style fill solid 0.8
set boxwidth 0.9
plot '{name}.dat' using 1:2 with boxes lc rgb "#204a87" notitle
""".format(name="%s-hist" % obj, preset=preset, obj=obj, n=len(vals), nbins=nbins, lo=lo, hi=hi,
           xmax=nbins - 0.5)
    return gnuplot(out_dir, "%s-hist" % obj, script, data)


def bits_svg(out_dir, preset, obj, vals):
    flips = 0
    for v in vals:
        flips |= v ^ vals[0]
    bits = [b for b in range(64) if flips >> b & 1]
    data = "".join("%d %.4f\n" % (b, sum(v >> b & 1 for v in vals) / len(vals)) for b in bits)
    script = """set terminal svg size 640,320 noenhanced font "sans,10"
set output '{name}.svg'
set title "{preset}: {obj}, fraction of execs with each changing bit set (0.5: a fair coin)"
set xlabel "address bit"
set ylabel "fraction set"
set yrange [0:1]
set xrange [{xlo}:{xhi}]
set style fill solid 0.8
set boxwidth 0.8
set grid ytics
plot '{name}.dat' using 1:2 with boxes lc rgb "#4e9a06" notitle, 0.5 with lines dt 2 lc rgb "#cc0000" notitle
""".format(name="%s-bits" % obj, preset=preset, obj=obj, xlo=min(bits) - 1, xhi=max(bits) + 1)
    return gnuplot(out_dir, "%s-bits" % obj, script, data)


def write_report(out_dir, preset, command, lines):
    rows, stats, text = parse(lines)
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "samples.csv"), "w", newline="") as f:
        w = csv.writer(f)
        header = ["exec"] + [o for o in OBJECTS if o in rows[0]]
        w.writerow(header)
        for r in rows:
            w.writerow([r[h] for h in header])
    with open(os.path.join(out_dir, "report.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    figures = []
    for obj in OBJECTS:
        vals = values_of(rows, obj)
        if len(vals) < 2 or len(set(vals)) < 2:
            continue
        figures.append((obj, histogram_svg(out_dir, preset, obj, vals), bits_svg(out_dir, preset, obj, vals)))
    e = html.escape
    out = io.StringIO()
    out.write("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>rndbits %s: %s</title>\n"
              "<style>body{font-family:sans-serif;margin:2em} table{border-collapse:collapse}"
              "td,th{border:1px solid #999;padding:2px 6px;text-align:right} th{background:#eee}"
              "pre{background:#f6f6f6;padding:1em}</style>\n</head><body>\n" % (e(preset), e(command)))
    out.write("<h1>%s: <code>%s</code></h1>\n" % (e(preset), e(command)))
    out.write("<p>%d execs. Every figure below is computed by the kernel from its own record of each "
              "exec (struct exec_record); the raw samples are in <a href=\"samples.csv\">samples.csv</a>, "
              "the kernel's report in <a href=\"report.txt\">report.txt</a>.</p>\n" % len(rows))
    out.write("<h2>Statistics per object</h2>\n<table id=\"stats\">\n<tr><th>object</th>%s</tr>\n"
              % "".join("<th>%s</th>" % e(label) for _, label in STAT_COLUMNS))
    for obj in OBJECTS:
        if obj not in stats:
            out.write("<tr><td>%s</td>%s</tr>\n" % (obj, "<td>-</td>" * len(STAT_COLUMNS)))
            continue
        out.write("<tr><td>%s</td>%s</tr>\n" % (obj, "".join(
            "<td>%s</td>" % e(stats[obj].get(k, "")) for k, _ in STAT_COLUMNS)))
    out.write("</table>\n")
    for obj, hist, bits in figures:
        out.write("<h2>%s</h2>\n<p><img src=\"%s\" alt=\"%s histogram\"> <img src=\"%s\" alt=\"%s bits\"></p>\n"
                  % (obj, hist, obj, bits, obj))
    out.write("<h2>The kernel's report</h2>\n<pre>%s</pre>\n</body></html>\n" % e("\n".join(text)))
    path = os.path.join(out_dir, "index.html")
    with open(path, "w") as f:
        f.write(out.getvalue())
    return path


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("preset")
    p.add_argument("--prog", default=os.environ.get("PROG") or "",
                   help="program and arguments (default: --objects, probe)")
    p.add_argument("--samples", type=int, default=int(os.environ.get("SAMPLES") or 2000))
    p.add_argument("--append", default=os.environ.get("APPEND") or None)
    p.add_argument("--progs", default=os.environ.get("PROGS") or None)
    p.add_argument("--out", default=None)
    p.add_argument("--from-log", default=None, help="a console log of the sample run instead of booting")
    a = p.parse_args()
    try:
        M.Machine(a.preset)
    except M.MachineError as e:
        sys.exit("aslr_report: %s" % e)
    out = a.out or os.path.join(M.REPO, "build", "report", a.preset)
    try:
        if a.from_log:
            with open(a.from_log) as f:
                lines = f.read().replace("\r", "").splitlines()
            command = next((ln.split("# ", 1)[1] for ln in lines if re.match(r"^rndbits[#$] aslr sample", ln)),
                           "aslr sample")
        else:
            command, lines = run_sample(a.preset, a.prog, a.samples, a.append, a.progs)
        path = write_report(out, a.preset, command, lines)
    except (ReportError, OSError) as e:
        sys.exit("aslr_report: %s" % e)
    print("aslr_report: %s" % M.display_path(path))


if __name__ == "__main__":
    main()
