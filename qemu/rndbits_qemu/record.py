"""`rndbits-qemu record`: a transcript from a live session, and `--bless`: an existing transcript's
expected output rewritten from what the console shows now.

A session is recorded one command at a time over QEMU's serial line on pipes, as the player
plays it, so what is written is what `test` will compare. The same keys are then typed into a
second boot: lines that differ between the two boots (addresses, counters, timings) become
`re:` lines with the differing numbers generalised; timings are generalised even when they
happen to agree. Everything proposed is for review (git diff) before it is committed.
"""

import os
import re
import sys
import time

from . import session as S
from . import transcript as T

NUMBER_RE = re.compile(r"0x[0-9a-fA-F]+|\d+(?:\.\d+)?")
# A number followed by a unit of time: never stable between two runs.
TIMING_RE = re.compile(r"\d+(?:\.\d+)? ?(?:ns|us|µs|ms|s|sec|seconds)\b")
# Values that change with every build, not between boots of one image: the build id and date
# in `uname -a`, `bench` machine lines and the like.
BUILD_RE = re.compile(r"\bbuild=\S+|\b\d{4}-\d{2}-\d{2}\b")


class RecordError(Exception):
    pass


class Live:
    """A booted QEMU that takes one command line at a time and returns what it printed."""

    def __init__(self, argv, timeout, log_path=None):
        self.timeout = timeout
        self.console = S.Console(argv, log_path, bound=24 * 3600)
        self.prompt = None
        self.status = None          # QEMU's exit status once it has exited

    def boot(self):
        """The boot log up to the first prompt (lines as shown)."""
        text = self._read("boot")
        return [ln.shown for ln in T.split_lines(text)]

    def type(self, keys, title):
        """Type keys at the prompt; returns the output lines under the echo (as shown), and
        sets self.status if QEMU exited instead of prompting again."""
        typed_at = self.prompt
        self.console.send(keys)
        text = self._read(title)
        lines = T.split_lines(typed_at + text)
        return [ln.shown for ln in lines[1:]]

    def _read(self, title):
        deadline = time.monotonic() + self.timeout
        try:
            text = self.console.read_until(S.prompt_end(T.PROMPTS), deadline)
        except S.EarlyExit as e:
            self.status = e.status
            text, self.console.pending = self.console.pending, ""
            return text
        except S.Timeout:
            raise RecordError("no prompt within %g s after %s; received:\n%s"
                              % (self.timeout, title, S.indent_output(self.console.pending)))
        self.prompt = next(p for p in T.PROMPTS if text.endswith(p))
        return text[:-len(self.prompt)]

    def close(self):
        self.console.kill()


# ---- proposing expected lines ------------------------------------------------------------------

def literal(line):
    """An output line as a literal expected line, escaped where the format would read it as
    something else (a prompt, a directive, a comment, `re:`...)."""
    special = (line.startswith(("re: ", "raw: ", "\\", "#", "[")) or line == "..."
               or line.strip() == "" or any(line.startswith(p.rstrip()) for p in T.PROMPTS))
    return "\\" + line if special and line != "" else line


def _pattern(a, b):
    """A regex for a number token that was a on one boot and b on the other."""
    if a.lower().startswith("0x") or b.lower().startswith("0x"):
        return "0x[0-9a-f]+"
    if "." in a or "." in b:
        return r"\d+\.\d+"
    return r"\d+"


def generalise(a, b):
    """An expected line matching both a and b: the numbers that differ become patterns when the
    two have the same words; else the common start, then anything."""
    ta, tb = NUMBER_RE.split(a), NUMBER_RE.split(b)
    na, nb = NUMBER_RE.findall(a), NUMBER_RE.findall(b)
    if ta == tb and len(na) == len(nb):
        out = [rx(ta[0])]
        for i, (x, y) in enumerate(zip(na, nb)):
            out.append(rx(x) if x == y else _pattern(x, y))
            out.append(rx(ta[i + 1]))
        line = "re: " + "".join(out)
        return unstable_re(line)
    common = os.path.commonprefix([a, b])
    common = common[:len(common) - len(re.split(r"[\s=:,(]", common[::-1], 1)[0])]
    return "re: %s.*" % rx(common)


def unstable_re(line):
    """A proposed regex line with the build id and date generalised too (a diff of two boots
    of one image cannot see those vary)."""
    line = re.sub(r"build=\S+?(?= |$)", lambda m: r"build=\S+", line)
    return re.sub(r"\d\{4\}-\d\{2\}-\d\{2\}|\d{4}\\-\d{2}\\-\d{2}|\d{4}-\d{2}-\d{2}",
                  lambda m: r"\d{4}-\d{2}-\d{2}", line)


def rx(text):
    """re.escape, leaving blanks and dashes alone (not special outside a class), for a readable
    line."""
    return re.escape(text).replace("\\ ", " ").replace("\\-", "-")


def _volatile_pattern(m):
    text = m.group(0)
    if text.startswith("build="):
        return r"build=\S+"
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        return r"\d{4}-\d{2}-\d{2}"
    return r"\d+(\.\d+)? ?" + rx(re.sub(r"^[\d.]+ ?", "", text))


def unstable(line):
    """The line with its timings (`12.5 ms`), build id and date as patterns, or None if it has
    none of these."""
    matches = sorted(list(TIMING_RE.finditer(line)) + list(BUILD_RE.finditer(line)),
                     key=lambda m: m.start())
    if not matches:
        return None
    out, pos = [], 0
    for m in matches:
        if m.start() < pos:
            continue
        out.append(rx(line[pos:m.start()]))
        out.append(_volatile_pattern(m))
        pos = m.end()
    out.append(rx(line[pos:]))
    return "re: " + "".join(out)


def propose(first, second):
    """Expected lines for one command's output, seen as first (and second, on another boot, or
    None)."""
    out = []
    if second is not None and len(first) != len(second):
        out.append("# record: %d lines on one boot, %d on another: check this output"
                   % (len(first), len(second)))
        second = None
    for i, line in enumerate(first):
        other = second[i] if second is not None else line
        if other != line:
            out.append(generalise(line, other))
        else:
            out.append(unstable(line) or literal(line))
    # Blank lines at the end of a block are layout in the format; spell them so they count.
    k = len(out)
    while k > 0 and out[k - 1] == "":
        out[k - 1] = "\\"
        k -= 1
    return out


def typed_text(line):
    """A typed line as a transcript command: `<` written <lt> where it would start a key token."""
    out, pos = [], 0
    for m in T.TOKEN_RE.finditer(line):
        out.append(line[pos:m.start()] + "<lt>" + m.group(0)[1:])
        pos = m.end()
    return "".join(out) + line[pos:]


def exit_line(machine, status):
    k = machine.kernel_status(status)
    if status != 0 and k is not None and k != status:
        return "[kernel exit %d]" % k
    return "[exit %d]" % status


# ---- record -------------------------------------------------------------------------------------

def record(machine, path, append, timeout, boots, stream, show, argv=None):
    """Boot machine, type each line read from stream (a person at a terminal, or a pipe) until
    its end or QEMU's, and write a transcript to path. show(text) displays the session as it
    goes. Returns the number of commands recorded. argv: another program than QEMU (tests)."""
    argv = argv or machine.command("stdio", append)
    live = Live(argv, timeout)
    steps = []                  # (prompt, typed, first output)
    try:
        show("\n".join(live.boot()) + "\n" + live.prompt)
        for line in iter(stream.readline, ""):
            line = line.rstrip("\r\n")
            prompt = live.prompt
            out = live.type(line.encode("latin-1") + b"\r", "`%s`" % line)
            steps.append((prompt, line, out))
            show("\n".join(out) + ("\n" if out else "") + ("" if live.status is not None else live.prompt))
            if live.status is not None:
                break
        status = live.status
    finally:
        live.close()
    if not steps:
        raise RecordError("no command typed: nothing to record")
    seconds = [None] * len(steps)
    if boots > 1:
        seconds = replay(argv, [s[1] for s in steps], timeout)
    text = [
        "# Recorded with `qemu/rndbits-qemu record %s %s`%s; review it: `re:` lines stand"
        % (machine.preset, os.path.basename(path), " (append: %s)" % append if append else ""),
        "# where the output differed between %d boots or showed a timing." % boots
        if boots > 1 else "# where the output showed a timing.",
        "presets: %s" % machine.preset,
    ]
    if append:
        text.append("append: %s" % append)
    if timeout != T.DEFAULT_TIMEOUT:
        text.append("timeout: %g" % timeout)
    text.append("")
    for (prompt, line, out), again in zip(steps, seconds):
        text.append(prompt + typed_text(line) if line else prompt.rstrip())
        text += propose(out, again)
    if status is not None:
        text.append(exit_line(machine, status))
    with open(path, "w") as f:
        f.write("\n".join(text) + "\n")
    return len(steps)


def replay(argv, lines, timeout):
    """The same lines typed into a fresh boot: each one's output, None where QEMU had exited."""
    live = Live(argv, timeout)
    outs = []
    try:
        live.boot()
        for line in lines:
            if live.status is not None:
                outs.append(None)
                continue
            outs.append(live.type(line.encode("latin-1") + b"\r", "`%s`" % line))
    finally:
        live.close()
    return outs


# ---- bless --------------------------------------------------------------------------------------

def observe(t, argv, timeout):
    """Play transcript t's keys on a fresh boot; returns (output lines, exit status) per step."""
    live = Live(argv, timeout)
    seen = []
    try:
        seen.append((live.boot(), None))
        for step in t.steps[1:]:
            if live.status is not None:
                seen.append(([], live.status))
                continue
            out = live.type(step.keys, step.title())
            seen.append((out, live.status))
    finally:
        live.close()
    return seen


def bless(machine, path, timeout, boots, argv=None):
    """Rewrite the expected lines of every step of the transcript at path whose output no longer
    matches, from what the console shows now (over `boots` boots, as record proposes them), and
    an [exit N] whose status changed. Steps that still match, comments, checks and commands are
    kept as they are. Returns the titles of the steps rewritten."""
    t = T.prepare(T.parse(path), machine.variables())
    argv = argv or machine.command("stdio", t.append)
    runs = [observe(t, argv, timeout) for _ in range(max(1, boots))]
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    replace = {}                # first line number -> new lines; other expected lines dropped
    drop = set()
    changed = []
    for n, step in enumerate(t.steps):
        out = runs[0][n][0]
        if n == 0 and not step.expect:
            continue            # a transcript that shows no boot log does not check it
        ok = T.match_block(step.expect, [T.OutLine(s, True) for s in out])[0]
        if not ok:
            again = runs[1][n][0] if len(runs) > 1 else None
            new = propose(out, again)
            linenos = [e.lineno for e in step.expect]
            if linenos:
                replace[linenos[0]] = new
                drop.update(linenos[1:])
            else:
                after = max([step.lineno] + [x.lineno for x in ([step.echo] if step.echo else [])]
                            + _send_lines(lines, step))
                replace[after + 0.5] = new
            changed.append(step.title())
        status = runs[0][n][1]
        if step.exit and status is not None:
            kind, want, lineno = step.exit
            want_qemu = machine.qemu_status(want) if kind == "kernel" else want
            if status != want_qemu:
                replace[lineno] = [exit_line(machine, status)]
                changed.append("exit status after %s" % step.title())
    out = []
    for i, line in enumerate(lines, 1):
        if i in replace:
            out += replace[i]
        elif i not in drop:
            out.append(line)
        if i + 0.5 in replace:
            out += replace[i + 0.5]
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return changed


def _send_lines(lines, step):
    """Line numbers of the [send ...] lines right under a step's command."""
    out, i = [], step.lineno
    while i < len(lines) and lines[i].startswith(("[send ", "[echo ")):
        i += 1
        out.append(i)
    return out


def console_show(text):
    sys.stdout.write(text)
    sys.stdout.flush()
