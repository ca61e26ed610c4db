#!/usr/bin/python3
"""gen_docs.py: fill a markdown walkthrough with console output from real runs.

  tools/gen_docs.py [FILE.md...]        regenerate in place (default: docs/teaching.md)
  tools/gen_docs.py --check [FILE.md]   regenerate in memory; fail if anything but timings differs
  tools/gen_docs.py --presets [FILE.md] the presets the files boot (for the Makefile to build)

The markdown is prose plus directives in HTML comments, which a markdown viewer does not show.
Everything between a directive and its `<!-- end -->` is generated and overwritten:

  <!-- session PRESET [KERNEL COMMAND LINE] -->     boot PRESET (after stopping the previous one);
                                                    later blocks type into it. Not shown.
  <!-- console                                      type each line at the prompt, show the prompt,
  aslr info                                         the command and its output as the terminal
  run probe                                         shows them (progress lines rendered)
  -->
  ...generated...
  <!-- end -->

Lines of a console block: `@boot` shows the session's boot log; `@hide CMD` types CMD without
showing it (set-up); `@omit REGEX` leaves the output lines that match REGEX out of the block and
says how many at the end (for machine lines that repeat a table).

  <!-- compare                                      two command lists separated by `----`,
  run -k probe                                      typed one after the other; the transcripts
  pt walk mmap                                      are merged line by line: `both |` for a
  ----                                              line alike in both, `run 1 |` and `run 2 |`
  run -k probe                                      for a line that differs
  pt walk mmap
  -->

  <!-- plot sample|tradeoff [--respawn-s S] -->    draw the session's latest `aslr sample` or
  ...image link...                                  `aslr tradeoff` output (the one shown above)
  <!-- end -->                                      with tools/plot.py into plots/ beside the file

Nothing in the generated parts is typed by hand: fix the kernel or the directive, then rerun.
"""

import argparse
import difflib
import os
import re
import shlex
import sys

# The harness package (qemu/rndbits_qemu): tools/ builds on what the tests use.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "qemu"))

import plot                                      # noqa: E402
from rndbits_qemu import machine as M            # noqa: E402

DEFAULT_DOC = os.path.join(M.REPO, "docs", "teaching.md")
DIRECTIVE_RE = re.compile(r"<!-- (session|console|compare|plot)\b(.*?)-->\n", re.S)
END = "<!-- end -->"
COMMAND_TIMEOUT = 900       # seconds: the longest block is an attack of a few tens of seconds
# Output that depends on the host's speed, or on the kernel image's size and physical placement
# rather than on the seeded random stream: masked by --check, matched loosely by the transcripts.
# (pattern, what the transcript's regex accepts there, mask for --check)
LOOSE = [
    (r"\d+(\.\d+)?( samples)?/s\b", r"\d+(\.\d+)?( samples)?/s", "N/s"),           # rates
    (r"\d+(\.\d+)? s left", r"\d+(\.\d+)? s left", "N s left"),
    (r"(?<=build )\S+ \d{4}-\d\d-\d\d", r"\S+ \S+", "ID DATE"),                   # banner
    (r"(?<=: text )0x[0-9a-f]+(?= r-x, )", r"0x[0-9a-f]+", "ADDR"),            # selftest line
    (r"\d+ used, \d+ free", r"\d+ used, \d+ free", "N used, N free"),         # pmm
    (r"(?<=^pages: )[ \d]+$|(?<=^KiB: )[ \d]+$", r"[ \d]+", "N N N"),           # free
    (r"(?<=pa 0x)[0-9a-f]+", r"[0-9a-f]+", "PA"),                               # physical
    (r"(?<=table 0x)[0-9a-f]+", r"[0-9a-f]+", "PA"),                            # pt walk
    (r"(?<=\] )[0-9a-f]{8,16}(?=  )", r"[0-9a-f]+", "DESC"),                    # descriptors
]
VOLATILE = [(re.compile(p, re.M), accept, mask) for p, accept, mask in LOOSE]


class DocError(Exception):
    pass


class Generator:
    def __init__(self, path, say=print, plot_dir=None):
        self.path, self.say = path, say
        # PNGs go beside the document (plots/), or elsewhere when only checking
        self.plot_dir = plot_dir or os.path.join(os.path.dirname(os.path.abspath(path)), "plots")
        self.guest = None
        self.append = None
        self.latest = {}        # "sample"/"tradeoff": (command, output lines) typed last
        self.sessions = []      # what each session printed, for the transcripts (write_transcripts)

    def where(self, text, pos):
        return "%s:%d" % (M.display_path(self.path), text.count("\n", 0, pos) + 1)

    def generate(self, text):
        """The document with every generated part replaced by fresh output."""
        out, pos = [], 0
        try:
            for m in DIRECTIVE_RE.finditer(text):
                if m.start() < pos:
                    continue        # a directive-looking comment inside a generated part
                kind, body = m.group(1), m.group(2)
                out.append(text[pos:m.end()])
                pos = m.end()
                where = self.where(text, m.start())
                if kind == "session":
                    self.start_session(body, where)
                    continue
                end = text.find(END, pos)
                if end < 0:
                    raise DocError("%s: <!-- %s --> has no %s after it" % (where, kind, END))
                if kind == "console":
                    out.append(self.console_block(body, where))
                elif kind == "compare":
                    out.append(self.compare(body, where))
                else:
                    out.append(self.plot_block(body, where))
                pos = end
            out.append(text[pos:])
        finally:
            self.stop_session()
        return "".join(out)

    # --- sessions ------------------------------------------------------------------------

    def start_session(self, body, where):
        self.stop_session()
        words = body.split()
        if not words:
            raise DocError("%s: <!-- session --> needs a preset" % where)
        append = " ".join(words[1:]) or None
        self.append, self.latest = append, {}
        self.say("%s: boot %s%s" % (where, words[0], " (%s)" % append if append else ""))
        try:
            self.guest = plot.Guest(words[0], append)
        except plot.GuestError as e:
            raise DocError("%s: %s" % (where, e))
        self.sessions.append({"preset": words[0], "append": append, "where": where,
                              "boot": self.guest.boot_log, "steps": []})

    def stop_session(self):
        if self.guest:
            self.guest.close()
            self.guest = None

    def type_commands(self, lines, where):
        """Run a block's lines; the lines of the block as shown."""
        if not self.guest:
            raise DocError("%s: no <!-- session --> before this block" % where)
        shown, omit = [], []
        for line in lines:
            if line == "@boot":
                log = self.guest.boot_log
                while log and not log[0].strip():
                    log = log[1:]           # the blank line before the banner
                shown += log
                continue
            if line.startswith("@omit "):
                omit.append(re.compile(line[6:].strip()))
                continue
            hide = line.startswith("@hide ")
            command = line[6:].strip() if hide else line
            self.say("%s: %s" % (where, command))
            prompt = self.guest.prompt
            try:
                output = self.guest.run(command, COMMAND_TIMEOUT)
            except plot.GuestError as e:
                raise DocError("%s: %s" % (where, e))
            self.sessions[-1]["steps"].append((prompt, command, output))
            for kind in ("sample", "tradeoff"):
                if command.split()[:2] == ["aslr", kind]:
                    self.latest[kind] = (command, output)
            if not hide:
                shown.append(prompt + command)
                shown += output
        kept = [ln for ln in shown if not any(r.search(ln) for r in omit)]
        if len(kept) < len(shown):
            kept.append("[%d line%s matching %s left out here]" % (
                len(shown) - len(kept), "s" if len(shown) - len(kept) > 1 else "",
                " or ".join("/%s/" % r.pattern for r in omit)))
        return kept

    @staticmethod
    def block_lines(body):
        return [ln.strip() for ln in body.strip("\n").split("\n") if ln.strip()]

    @staticmethod
    def fence(lines):
        text = "\n".join(ln.rstrip() for ln in lines)
        ticks = "```" if "```" not in text else "````"
        return "%stext\n%s\n%s\n" % (ticks, text, ticks)

    def console_block(self, body, where):
        return self.fence(self.type_commands(self.block_lines(body), where))

    def compare(self, body, where):
        """Two command lists typed one after the other, their transcripts merged line by line:
        a line both show alike once (`both |`), a line that differs as a pair (`run 1 |`,
        `run 2 |`), so what changed between the runs stands out without a 170-column table."""
        halves = re.split(r"\n\s*----\s*\n", "\n" + body.strip("\n") + "\n")
        if len(halves) != 2:
            raise DocError("%s: <!-- compare --> needs two command lists separated by ----" % where)
        one, two = (self.type_commands(self.block_lines(h), where) for h in halves)
        if len(one) != len(two):        # not line for line: show them one after the other
            return self.fence(["run 1 | " + ln for ln in one] + ["run 2 | " + ln for ln in two])
        rows = []
        for a, b in zip(one, two):
            rows += [" both | " + a] if a == b else ["run 1 | " + a, "run 2 | " + b]
        return self.fence(rows)

    # --- plots ---------------------------------------------------------------------------

    def plot_block(self, body, where):
        """A picture of the session's latest `aslr sample` or `aslr tradeoff`, the very output
        shown above it, with tools/plot.py's drawing code."""
        words = shlex.split(body)
        if not words or words[0] not in ("sample", "tradeoff"):
            raise DocError("%s: <!-- plot sample|tradeoff [--respawn-s S] -->" % where)
        respawn_s = 5.0
        if words[1:2] == ["--respawn-s"] and len(words) == 3:
            respawn_s = float(words[2])
        elif len(words) > 1:
            raise DocError("%s: <!-- plot %s --> takes only --respawn-s S" % (where, words[0]))
        last = self.latest.get(words[0])
        if not last:
            raise DocError("%s: no `aslr %s` typed in this session before the plot" % (where, words[0]))
        command, lines = last
        g = self.guest
        seed = re.search(r"\brng\.seed=(\S+)", self.append or "")
        seed = seed.group(1) if seed else "none"
        prefix = g.preset + "-"
        os.makedirs(self.plot_dir, exist_ok=True)
        try:
            if words[0] == "sample":
                png, _ = plot.draw_sample(self.plot_dir, prefix, g.preset,
                                          int(g.machine.variables()["page_size"]), lines, seed,
                                          "--layout-only" in command.split(), command)
            else:
                png, _ = plot.draw_tradeoff(self.plot_dir, prefix, g.preset, lines,
                                            "-32" in command.split(), respawn_s, seed, command)
        except plot.GuestError as e:
            raise DocError("%s: %s" % (where, e))
        self.say("%s: %s" % (where, M.display_path(png)))
        self.keep_pngs_only([png])
        name = os.path.basename(png)
        return "![%s](plots/%s)\n" % (name[:-4], name)

    @staticmethod
    def keep_pngs_only(pngs):
        """docs/plots keeps the pictures; their data and gnuplot scripts are a rerun away."""
        for p in pngs:
            for ext in (".dat", ".gp"):
                try:
                    os.remove(p[:-4] + ext)
                except FileNotFoundError:
                    pass


def transcript_paths(doc_path, count):
    """tests/serial/docs-<document>.txt, -2, -3 ... for a document's sessions."""
    stem = os.path.splitext(os.path.basename(doc_path))[0]
    return [os.path.join(M.REPO, "tests", "serial", "docs-%s%s.txt" % (stem, "-%d" % (k + 1) if k else ""))
            for k in range(count)]


def expect_line(line):
    """One console line as a transcript expects it: literal, or `re:` where it holds timings."""
    def literal(text):      # escaped, and no `${` left for the harness to take for a variable
        return re.sub(r"([.^*+?{}\[\]\\|()])", r"\\\1", text).replace("$", "\\x24")
    spans = sorted((m.start(), m.end(), k) for k, (r, _, _) in enumerate(VOLATILE)
                   for m in r.finditer(line))
    if spans:
        out, pos = [], 0
        for start, end, k in spans:
            if start >= pos:
                out += [literal(line[pos:start]), "(?:%s)" % VOLATILE[k][1]]
                pos = end
        return "re: " + "".join(out) + literal(line[pos:])
    if "${" in line:
        return "re: " + literal(line)
    if line == "" or line.startswith(("#", "re: ", "raw: ", "...", "[", "\\")):
        return "\\" + line
    return line


def transcript_text(session, doc_path):
    lines = ["# Generated by tools/gen_docs.py from %s (the session at %s)."
             % (M.display_path(doc_path), session["where"]),
             "# Do not edit: run `make docs` (or tools/gen_docs.py). It replays the walkthrough so that",
             "# `make test` notices when the kernel's output drifts from the document. Timings, physical",
             "# addresses and the kernel image's own placement are matched loosely: the seeded layouts",
             "# are what it checks.",
             "presets: %s" % session["preset"]]
    if session["append"]:
        lines.append("append: %s" % session["append"])
    lines += ["timeout: %d" % COMMAND_TIMEOUT, "", "..."]
    boot = list(session["boot"])
    while boot and not boot[0].strip():
        boot.pop(0)
    lines += [expect_line(ln) for ln in boot]
    for prompt, command, output in session["steps"]:
        lines.append(prompt + command.replace("<", "<lt>"))
        lines += [expect_line(ln) for ln in output]
    return "\n".join(lines) + "\n"


def write_transcripts(gen, doc_path, check):
    """Write (or, checking, compare) the sessions' transcripts; returns the paths that differ."""
    stale = []
    for session, path in zip(gen.sessions, transcript_paths(doc_path, len(gen.sessions))):
        text = transcript_text(session, doc_path)
        try:
            with open(path) as f:
                old = f.read()
        except FileNotFoundError:
            old = None
        if old == text:
            continue
        stale.append(path)
        if not check:
            with open(path, "w") as f:
                f.write(text)
    return stale


def presets_of(text):
    found = []
    for m in DIRECTIVE_RE.finditer(text):
        if m.group(1) == "session":
            words = shlex.split(m.group(2))
            if words and words[0] not in found:
                found.append(words[0])
    return found


def masked(text):
    for r, _, repl in VOLATILE:
        text = r.sub(repl, text)
    return text


def main():
    ap = argparse.ArgumentParser(prog="gen_docs.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", default=[DEFAULT_DOC])
    ap.add_argument("--check", action="store_true",
                    help="do not write; exit 1 if the output differs beyond timings")
    ap.add_argument("--presets", action="store_true", help="print the presets the files boot")
    a = ap.parse_args()
    status = 0
    for path in a.files:
        with open(path) as f:
            text = f.read()
        if a.presets:
            print(" ".join(presets_of(text)))
            continue
        say = (lambda s: None) if a.check else (lambda s: print(s, flush=True))
        plot_dir = os.path.join(M.REPO, "build", "docs-check", "plots") if a.check else None
        gen = Generator(path, say, plot_dir)
        try:
            new = gen.generate(text)
        except DocError as e:
            print("gen_docs.py: %s" % e, file=sys.stderr)
            status = 1
            continue
        stale = write_transcripts(gen, path, a.check)
        if a.check:
            if masked(new) != masked(text):
                sys.stdout.writelines(difflib.unified_diff(
                    masked(text).splitlines(True), masked(new).splitlines(True),
                    M.display_path(path), "regenerated"))
                status = 1
            else:
                print("%s: up to date" % M.display_path(path))
            for t in stale:
                print("%s: out of date (make docs)" % M.display_path(t))
                status = 1
            continue
        for t in stale:
            print("%s: regenerated" % M.display_path(t))
        if new != text:
            with open(path, "w") as f:
                f.write(new)
            print("%s: regenerated" % M.display_path(path))
        else:
            print("%s: unchanged" % M.display_path(path))
    sys.exit(status)


if __name__ == "__main__":
    main()
