"""Serial-console transcripts (tests/serial/*.txt): parsing, and matching a command's output.

The format is documented in tests/serial/README.md; this module is its reference implementation.
A transcript is a header (which presets, kernel command line, step timeout) and then the session
as a person sees it on the console: prompt lines are what is typed, the lines under them are what
the kernel answers.
"""

import fnmatch
import os
import re

from . import ktap

PROMPTS = ("rndbits# ", "rndbits$ ")
HEADER_KEYS = ("presets", "append", "timeout", "memory", "progs")
# QEMU's -m: a number and a unit, K M or G (QEMU reads a bare number as MiB).
MEMORY_RE = re.compile(r"^\d+[KMG]$")
DEFAULT_TIMEOUT = 30.0

# Keys a command line may contain, written <NAME>. Everything else is typed literally.
KEYS = {"BS": b"\x08", "DEL": b"\x7f", "CR": b"\r", "LF": b"\n", "TAB": b"\t", "ESC": b"\x1b"}
KEYS.update({"C-%s" % chr(c): bytes([c - 0x60]) for c in range(ord("a"), ord("z") + 1)})
TOKEN_RE = re.compile(r"<(C-[a-z]|BS|DEL|CR|LF|TAB|ESC|0x[0-9a-fA-F]{2}|lt|rep (\d+) ([^>]*))>")
# Keys after which the line editor has finished the line: no Enter is added.
LINE_ENDERS = (b"\r", b"\n", b"\x03")
VAR_RE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?:([+-])(\d+))?\}")   # ${name}, ${name+1}
EXIT_RE = re.compile(r"^\[(kernel )?exit (\d+)\]$")


class TranscriptError(Exception):
    def __init__(self, path, lineno, msg):
        super().__init__("%s:%d: %s" % (path, lineno, msg))


class Expect:
    """One expected line: kind is "lit", "re", "raw" or "skip" (the `...` wildcard)."""

    def __init__(self, kind, text, lineno):
        self.kind, self.text, self.lineno = kind, text, lineno
        self.regex = None

    def source(self):
        return {"lit": self.text, "re": "re: " + self.text, "raw": "raw: " + self.text,
                "skip": "..."}[self.kind]


class Step:
    """A command typed at a prompt (or the boot, when keys is None) and what must follow it."""

    def __init__(self, lineno, prompt=None, typed=None, keys=None):
        self.lineno, self.prompt, self.typed, self.keys = lineno, prompt, typed, keys
        self.expect = []        # [Expect]
        self.checks = []        # [("check" or "let", text, lineno)], in order
        self.echo = None        # an Expect overriding the computed echo, or None
        self.more_keys = []     # [send KEYS]: typed right after the command, while it runs
        self.later_keys = []    # [send KEYS] under output lines: (lines before it, keys, lineno)
        self.later_sends = []   # the same with the keys as bytes (prepare)
        self.exit = None        # (qemu_or_kernel, status, lineno) when QEMU must exit after it
        self.last_lineno = lineno

    def title(self):
        return "boot" if self.keys is None else "`%s`" % self.typed


class Transcript:
    def __init__(self, path, presets, append, timeout, steps, memory=None):
        self.path, self.presets, self.append, self.timeout, self.steps = \
            path, presets, append, timeout, steps
        self.memory = memory    # QEMU's -m for this transcript, or None for the preset's
        self.progs = []         # corpus programs packed into the initrd (`progs:`)
        self.progs_lineno = 1

    def applies_to(self, preset):
        return preset_matches(self.presets, preset, self.path)

    def bound(self, step_timeout=None):
        """Seconds the whole transcript may take: every step at its deadline, plus QEMU's start."""
        return int((step_timeout or self.timeout) * (len(self.steps) + 1)) + 30


def preset_matches(patterns, preset, path=None):
    """`all`, names and globs select; a leading `!` excludes; later words win. A reduced variant
    (one named by a VARIANT_LISTS file) is selected by `all` or a glob only for the transcripts
    of tests/serial listed in its file; by its own name always."""
    selected = by_name = False
    for p in patterns:
        neg = p.startswith("!")
        pat = p[1:] if neg else p
        if pat == "all" or fnmatch.fnmatchcase(preset, pat):
            selected, by_name = not neg, pat == preset
    if selected and not by_name and path is not None and \
            os.path.dirname(os.path.abspath(path)) == SERIAL_DIR:
        listed = variant_list(preset)
        if listed is not None:
            return os.path.splitext(os.path.basename(path))[0] in listed[1]
    return selected


# The transcripts that run on the reduced variants too: arm-vmsplit-2g/-1g (split-dependent.list)
# and the arm64 granule/VA_BITS variants (arm64-variant-dependent.list). Each file says which
# variants and why; tests/serial/README.md, "The split presets and the arm64 variants". A
# transcript not listed runs on the full presets only.
SERIAL_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                          "tests", "serial")
VARIANT_LISTS = [os.path.join(SERIAL_DIR, f)
                 for f in ("split-dependent.list", "arm64-variant-dependent.list")]
SPLIT_LIST = VARIANT_LISTS[0]
_lists = {}


def read_variant_list(path):
    """(the variant presets, the transcript names that run on them) from one list file: a line
    `variants: NAME...`, then one transcript name a line; `#` starts a comment."""
    if path not in _lists:
        variants, names = set(), set()
        with open(path, encoding="utf-8") as f:
            for line in f:
                words = line.split("#", 1)[0].split()
                if words[:1] == ["variants:"]:
                    variants.update(words[1:])
                else:
                    names.update(words)
        _lists[path] = (variants, names)
    return _lists[path]


def variant_list(preset):
    """(list file, names) for a reduced variant preset; None for a full preset."""
    for path in VARIANT_LISTS:
        variants, names = read_variant_list(path)
        if preset in variants:
            return path, names
    return None


# The transcripts that also run on the UBSan kernels (tests/serial/ubsan.list says which and why;
# `rndbits-qemu tests --cmake` marks them, tests/serial_tests.cmake registers ubsan/<preset>/NAME).
UBSAN_LIST = os.path.join(SERIAL_DIR, "ubsan.list")


def ubsan_names():
    """The names in tests/serial/ubsan.list."""
    return read_variant_list(UBSAN_LIST)[1]


def split_dependent():
    """split-dependent.list's (variants, names)."""
    return read_variant_list(SPLIT_LIST)


def parse_keys(text, path="<keys>", lineno=0, enter=True):
    """What typing `text` sends: literal characters and <KEY> tokens. Enter (CR) is added unless
    the keys already finish the line (Ctrl-C, <CR>, <LF>) or enter is False ([send ...])."""
    out = bytearray()
    pos = 0
    for m in TOKEN_RE.finditer(text):
        out += text[pos:m.start()].encode("latin-1")
        name = m.group(1)
        if name == "lt":
            out += b"<"
        elif name.startswith("rep "):
            out += m.group(3).encode("latin-1") * int(m.group(2))
        elif name.startswith("0x"):
            out.append(int(name[2:], 16))
        else:
            out += KEYS[name]
        pos = m.end()
    out += text[pos:].encode("latin-1")
    if not enter:
        return bytes(out)
    for i, b in enumerate(out):
        last = i == len(out) - 1 or (out[i:] == b"\r\n")    # a terminal's CR LF ends it too
        if bytes([b]) in LINE_ENDERS and not last:
            raise TranscriptError(path, lineno, "keys after the end of the line (Ctrl-C, <CR> or "
                                  "<LF> must be the last key of a command line)")
    if not out or bytes(out[-1:]) not in LINE_ENDERS:
        out += b"\r"
    return bytes(out)


LINE_MAX = 255     # the console's line limit: further characters are swallowed, not echoed


def edited_line(keys):
    """What the console line shows after typing `keys` into kernel/console.c's line editor
    (without the prompt): backspace/DEL erase one character, Ctrl-U the whole line, Ctrl-C shows
    ^C, TAB is a blank, escape sequences (ESC [ ... final, ESC O x), a lone ESC and other control
    bytes are ignored, and past LINE_MAX characters the rest of the line is swallowed (backspace
    no longer erases)."""
    line, overflow, i = [], False, 0
    while i < len(keys):
        c = chr(keys[i])
        i += 1
        if c in "\r\n":
            break
        if c == "\x03":
            line.append("^C")
            break
        if c == "\x15":
            line, overflow = [], False
        elif c in "\x08\x7f":
            if line and not overflow:
                line.pop()
        elif c == "\x1b":                      # ESC O x, ESC [ params final; a lone ESC
            if i < len(keys) and chr(keys[i]) in "[O":
                i += 1
                while i < len(keys) and 0x20 <= keys[i] < 0x40:
                    i += 1
                i += 1
        elif " " <= c <= "~" or c == "\t":
            if len(line) >= LINE_MAX:
                overflow = True
            elif not overflow:
                line.append(" " if c == "\t" else c)
    return "".join(line)


def _classify(line, lineno):
    """An expected-output line of the transcript as an Expect."""
    if line == "...":
        return Expect("skip", "", lineno)
    if line.startswith("re: "):
        return Expect("re", line[4:], lineno)
    if line.startswith("raw: "):
        return Expect("raw", line[5:], lineno)
    if line.startswith("\\"):
        return Expect("lit", line[1:], lineno)
    return Expect("lit", line, lineno)


def parse(path, text=None):
    if text is None:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    header, header_lines = {}, {}
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^([a-z]+):\s*(.*?)\s*$", line)
        if line.strip() == "" or line.startswith("#"):
            i += 1
        elif m and m.group(1) in HEADER_KEYS:
            if m.group(1) in header:
                raise TranscriptError(path, i + 1, "%s: given twice" % m.group(1))
            header[m.group(1)] = m.group(2)
            header_lines[m.group(1)] = i + 1
            i += 1
        else:
            break
    if "presets" not in header:
        raise TranscriptError(path, 1, "the header must say `presets: ...` (all, names, globs, !excluded)")
    presets = header["presets"].replace(",", " ").split()
    try:
        timeout = float(header.get("timeout", DEFAULT_TIMEOUT))
    except ValueError:
        raise TranscriptError(path, 1, "timeout: not a number of seconds")

    memory = header.get("memory")
    if memory is not None and not MEMORY_RE.match(memory):
        raise TranscriptError(path, header_lines["memory"], "memory: a size as QEMU's -m takes it "
                              "(a number and K, M or G: 3M)")

    steps = [Step(i + 1)]
    pending_blank = []      # blank lines: expected only if more expected lines follow them
    for n in range(i, len(lines)):
        line, lineno = lines[n], n + 1
        step = steps[-1]
        prompt = next((p for p in PROMPTS if line.startswith(p) or line == p.rstrip()), None)
        if prompt is not None:
            if step.exit:
                raise TranscriptError(path, lineno, "nothing can follow [exit N]")
            typed = line[len(prompt):]
            steps.append(Step(lineno, prompt, typed, parse_keys(typed, path, lineno)))
            pending_blank = []
            continue
        if line.startswith("#"):
            continue
        if step.exit:
            if line.strip():
                raise TranscriptError(path, lineno, "nothing can follow [exit N]")
            continue
        if line.strip() == "":
            pending_blank.append(Expect("lit", "", lineno))
            continue
        m = EXIT_RE.match(line)
        if m:
            if step.keys is None and len(steps) > 1:
                raise TranscriptError(path, lineno, "[exit N] must follow a command")
            step.exit = ("kernel" if m.group(1) else "qemu", int(m.group(2)), lineno)
            continue
        # Harness directives are bracketed, so no console output line is mistaken for one.
        if line.startswith("[check ") and line.endswith("]"):
            step.checks.append(("check", line[7:-1].strip(), lineno))
            continue
        if line.startswith("[let ") and line.endswith("]"):
            if not re.match(r"^\s*[A-Za-z_]\w*\s*=[^=]", line[5:-1]):
                raise TranscriptError(path, lineno, "[let NAME = EXPRESSION]")
            step.checks.append(("let", line[5:-1].strip(), lineno))
            continue
        if line.startswith("[send ") and line.endswith("]"):
            if step.keys is None:
                raise TranscriptError(path, lineno, "[send KEYS] must come under a command")
            if step.expect:
                # Typed once the line above it has been shown: it waits for that line.
                if step.expect[-1].kind not in ("lit", "re", "raw") or pending_blank:
                    raise TranscriptError(path, lineno, "[send KEYS] under output must follow "
                                          "a literal, re: or raw: line")
                step.later_keys.append((len(step.expect), line[6:-1], lineno))
                continue
            step.more_keys.append(line[6:-1])
            step.keys += parse_keys(line[6:-1], path, lineno, enter=False)
            continue
        if line.startswith("[echo ") and line.endswith("]"):
            if step.keys is None or step.expect or step.echo:
                raise TranscriptError(path, lineno, "[echo ...] must come right under its command")
            step.echo = _classify(line[6:-1], lineno)
            continue
        step.expect += pending_blank
        pending_blank = []
        step.expect.append(_classify(line, lineno))
        step.last_lineno = lineno
    if len(steps) == 1 and not steps[0].exit:
        raise TranscriptError(path, len(lines), "no command: a transcript types at least one line "
                              "(or its boot block ends with [exit N])")
    t = Transcript(path, presets, header.get("append"), timeout, steps, memory)
    t.append_lineno = header_lines.get("append", 1)
    t.progs = header.get("progs", "").replace(",", " ").split()
    t.progs_lineno = header_lines.get("progs", 1)
    return t


class ConfigStandIn(dict):
    """The variables of a preset not configured yet: any CONFIG_* name stands for 1, so that a
    transcript can be checked before its images are built."""

    def __contains__(self, name):
        return super().__contains__(name) or name.startswith("CONFIG_")

    def __getitem__(self, name):
        return self.get(name, "1")


def substitute(text, variables, escape, path, lineno):
    """Replace ${name} by the variable's value and ${name+N} / ${name-N} by the integer sum."""
    def one(m):
        name, sign, n = m.groups()
        if name not in variables:
            raise TranscriptError(path, lineno, "unknown variable ${%s} (known: %s)"
                                  % (name, ", ".join(sorted(variables))))
        v = str(variables[name])
        if sign:
            base = as_number(v)
            if not isinstance(base, int):
                raise TranscriptError(path, lineno, "${%s%s%s}: %s is not a number" % (name, sign, n, v))
            v = str(base + int(n) if sign == "+" else base - int(n))
        return re.escape(v) if escape else v
    return VAR_RE.sub(one, text)


REP_RE = re.compile(r"<rep (\d+) ([^>]*)>")


def expand_repeats(text):
    """`<rep N TEXT>` in the append: header, as in command lines: TEXT N times (after variables
    are substituted, so N may be `${CONFIG_COMMAND_LINE_SIZE-28}`)."""
    return REP_RE.sub(lambda m: m.group(2) * int(m.group(1)), text)


def unescape_raw(text):
    """`raw:` lines spell control bytes as \\b \\r \\t \\e \\xNN and a backslash as \\\\."""
    out, i = [], 0
    names = {"b": "\b", "r": "\r", "t": "\t", "e": "\x1b", "n": "\n", "\\": "\\"}
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            c = text[i + 1]
            if c == "x" and re.match(r"[0-9a-fA-F]{2}", text[i + 2:i + 4]):
                out.append(chr(int(text[i + 2:i + 4], 16)))
                i += 4
                continue
            if c in names:
                out.append(names[c])
                i += 2
                continue
        out.append(text[i])
        i += 1
    return "".join(out)


def prepare(t, variables):
    """Substitute ${variables} (in the append: header, command lines and expected lines) and
    compile regexes; errors name the transcript line."""
    if t.append is not None:
        t.append = expand_repeats(substitute(t.append, variables, False, t.path, t.append_lineno))
    for step in t.steps:
        if step.keys is not None and "${" in step.typed:
            typed = substitute(step.typed, variables, False, t.path, step.lineno)
            step.keys = parse_keys(typed, t.path, step.lineno) + b"".join(
                parse_keys(k, t.path, step.lineno, enter=False) for k in step.more_keys)
        step.later_sends = [(n, parse_keys(substitute(k, variables, False, t.path, lineno),
                                           t.path, lineno, enter=False), lineno)
                            for n, k, lineno in step.later_keys]
        for e in step.expect + ([step.echo] if step.echo else []):
            if e.kind == "re":
                src = substitute(e.text, variables, True, t.path, e.lineno)
                try:
                    e.regex = re.compile(src)
                except re.error as err:
                    raise TranscriptError(t.path, e.lineno, "bad regex: %s" % err)
            elif e.kind == "lit":
                e.value = substitute(e.text, variables, False, t.path, e.lineno)
            elif e.kind == "raw":
                e.value = unescape_raw(substitute(e.text, variables, False, t.path, e.lineno))
    return t


# ---- console rendering -------------------------------------------------------------------------

CSI_RE = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])")


def render(raw):
    """The text a terminal shows for one line of console output (without its line end): \\b moves
    left, \\r returns to the start, ESC[K / ESC[2K erase; other control bytes stay visible as \\xNN
    so that a stray one shows up in a diff. Blanks left behind the cursor by an erase ("\\b \\b")
    are not part of the text."""
    cells, col, i = [], 0, 0
    while i < len(raw):
        c = raw[i]
        m = CSI_RE.match(raw, i) if c == "\x1b" else None
        if m and m.group(2) in "KCD":
            n = int(m.group(1)) if m.group(1).isdigit() else 0
            if m.group(2) == "D":
                col = max(0, col - max(n, 1))
            elif m.group(2) == "C":
                col += max(n, 1)
            elif n == 0:
                del cells[col:]
            elif n == 1:
                cells[:col] = [" "] * min(col, len(cells))
            elif n == 2:
                cells = [" "] * min(col, len(cells))
            i = m.end()
            continue
        i += 1
        if c == "\b":
            col = max(0, col - 1)
            continue
        if c == "\r":
            col = 0
            continue
        for ch in (c if " " <= c <= "~" else visible(c)):
            if col < len(cells):
                cells[col] = ch
            else:
                cells.extend(" " * (col - len(cells)))
                cells.append(ch)
            col += 1
    while len(cells) > col and cells[-1] == " ":
        cells.pop()
    return "".join(cells)


CONTROL_NAMES = {"\b": "\\b", "\r": "\\r", "\t": "\\t", "\x1b": "\\e"}


def visible(s):
    """s with control characters spelled out (\\b, \\r, \\e, \\xNN), for messages."""
    return "".join(c if " " <= c <= "~" else CONTROL_NAMES.get(c, "\\x%02x" % ord(c)) for c in s)


class OutLine:
    """A line of console output: raw (what came down the wire, minus the line end) and shown."""

    def __init__(self, raw, terminated):
        self.raw, self.terminated = raw, terminated
        self.crlf = raw.endswith("\r") if terminated else True
        if terminated and self.crlf:
            self.raw = raw[:-1]
        self.shown = render(self.raw)


def split_lines(text):
    """Console output as OutLines; the last one is unterminated if text does not end with LF."""
    parts = text.split("\n")
    out = [OutLine(p, True) for p in parts[:-1]]
    if parts[-1]:
        out.append(OutLine(parts[-1], False))
    return out


def line_matches(e, line):
    """Match one Expect against one OutLine: returns the regex match object, True, or None."""
    if e.kind == "lit":
        return True if line.shown == e.value else None
    if e.kind == "raw":
        return True if line.raw == e.value else None
    return e.regex.fullmatch(line.shown)


def match_block(expect, lines):
    """Align expected lines with output lines (`...` matches any run of lines, shortest first).
    Returns (ok, groups, pairs, fail_i, fail_j): pairs maps output index -> expected index on
    success; on failure fail_i/fail_j are the expected/output positions where the furthest attempt
    stopped."""
    best = [-1, 0]
    memo = set()

    def go(i, j, pairs, groups):
        if (i, j) in memo:
            return None
        if i > best[0] or (i == best[0] and j > best[1]):
            best[0], best[1] = i, j
        if i == len(expect):
            if j == len(lines):
                return pairs, groups
            memo.add((i, j))
            return None
        e = expect[i]
        if e.kind == "skip":
            for k in range(j, len(lines) + 1):
                r = go(i + 1, k, pairs, groups)
                if r:
                    return r
            memo.add((i, j))
            return None
        if j < len(lines):
            m = line_matches(e, lines[j])
            if m is not None:
                g = dict(groups)
                if m is not True:
                    g.update({k: v for k, v in m.groupdict().items() if v is not None})
                r = go(i + 1, j + 1, pairs + [(j, i)], g)
                if r:
                    return r
        memo.add((i, j))
        return None

    r = go(0, 0, [], {})
    if r:
        return True, r[1], dict(r[0]), None, None
    return False, {}, {}, best[0], best[1]


def as_number(v):
    if isinstance(v, str):
        if re.fullmatch(r"[+-]?\d+", v):
            return int(v)
        if re.fullmatch(r"0[xX][0-9a-fA-F]+", v):
            return int(v, 16)
        if re.fullmatch(r"[+-]?(\d+\.\d*|\.\d+)([eE][+-]?\d+)?", v):
            return float(v)
    return v


CHECK_BUILTINS = {"int": int, "len": len, "abs": abs, "min": min, "max": max, "hex": hex,
                  "all": all, "any": any, "sorted": sorted, "sum": sum, "set": set, "list": list,
                  "str": str, "float": float, "round": round, "range": range, "zip": zip,
                  "ktap_failures": ktap.failures}


def _check_env(groups, variables, lines):
    env = {k: as_number(v) for k, v in variables.items()}
    env.update({k: as_number(v) for k, v in groups.items()})
    env["lines"] = list(lines)
    return env


def evaluate_let(text, groups, variables, lines=()):
    """`[let NAME = EXPRESSION]`: returns (NAME, value), or (None, the error)."""
    name, expr = (x.strip() for x in text.split("=", 1))
    try:
        return name, eval(expr, dict(_check_env(groups, variables, lines), __builtins__=CHECK_BUILTINS))
    except Exception as e:
        return None, "%s: %s" % (type(e).__name__, e)


def evaluate_check(expr, groups, variables, lines=()):
    """A `[check ...]` expression over the block's named groups, the ${variables} (numbers as ints)
    and `lines`, the block's output lines as shown. Returns (ok, explanation)."""
    env = _check_env(groups, variables, lines)
    try:
        ok = bool(eval(expr, dict(env, __builtins__=CHECK_BUILTINS)))
    except Exception as e:  # a broken check is a failure with its reason, not a crash
        return False, "%s: %s" % (type(e).__name__, e)
    names = sorted(n for n in set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", expr))
                   if n in env and n != "lines")
    return ok, ", ".join("%s=%s" % (n, show_value(env[n])) for n in names)


def show_value(v):
    """Addresses read better in hex."""
    return hex(v) if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 0x10000 else repr(v) \
        if isinstance(v, str) else str(v)
