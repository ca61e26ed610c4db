"""Play a transcript against a QEMU (or any program that speaks the console on stdin/stdout).

Synchronisation is by content only: every wait reads the console until the expected prompt, or
until QEMU exits, with a deadline per step. QEMU is always killed in the end (its whole process
group: the harness starts it in a session of its own, under coreutils `timeout` as a second bound
should the harness itself be killed).
"""

import os
import re
import selectors
import signal
import subprocess
import tempfile
import time

from . import machine as M
from . import transcript as T


class Failure(Exception):
    """A test failure with a readable report (several lines)."""


class EarlyExit(Exception):
    def __init__(self, status):
        self.status = status


class Timeout(Exception):
    pass


def stop_process(proc):
    """Kill QEMU and everything it started (it runs in a session of its own), reap it and close
    the pipes to it."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait()
    for f in (proc.stdin, proc.stdout):
        try:
            f.close()
        except OSError:
            pass


# QEMU's own start is most of what a short transcript costs (~0.15 of ~0.25 CPU-s on arm64),
# and much of that start is page faults (~5,000; each is dear on a virtualised host): half of
# them in malloc's fresh heap as QEMU builds its object model. With malloc's heap in transparent
# huge pages (madvise; glibc >= 2.35, older ones ignore the name) there are ~3,000 and a boot to
# the prompt and poweroff costs ~20% less CPU. Host memory only: the guest sees the same machine.
# A GLIBC_TUNABLES of the caller's own comes after ours, so it wins (glibc.malloc.hugetlb=0).
QEMU_TUNABLES = "glibc.malloc.hugetlb=1"


def qemu_env(environ=None):
    env = dict(os.environ if environ is None else environ)
    mine = env.get("GLIBC_TUNABLES")
    env["GLIBC_TUNABLES"] = QEMU_TUNABLES + (":" + mine if mine else "")
    return env


class Console:
    """A child process whose stdin/stdout is the guest's serial line."""

    def __init__(self, argv, log_path=None, bound=None):
        self.argv = argv
        self.stderr = tempfile.TemporaryFile()
        full = (["timeout", "-k", "2", "%d" % bound] if bound else []) + list(argv)
        self.proc = subprocess.Popen(full, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.stderr, start_new_session=True, bufsize=0,
                                     env=qemu_env())
        os.set_blocking(self.proc.stdout.fileno(), False)
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.proc.stdout, selectors.EVENT_READ)
        self.pending = ""       # received and not yet consumed (latin-1: one char per byte)
        self.eof = False
        if log_path and os.path.dirname(log_path):
            os.makedirs(os.path.dirname(log_path), exist_ok=True)
        self.log = open(log_path, "wb") if log_path else None     # what the console showed

    def send(self, data):
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass                # QEMU is gone; the next read reports how it exited

    def _fill(self, deadline):
        """Read whatever arrives before the deadline; False on timeout."""
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        if not self.sel.select(left):
            return False
        try:
            data = os.read(self.proc.stdout.fileno(), 65536)
        except BlockingIOError:
            return True
        if not data:
            self.eof = True
            return True
        if self.log:
            self.log.write(data)
            self.log.flush()
        self.pending += data.decode("latin-1")
        return True

    def read_until(self, find_end, deadline):
        """Consume and return pending output up to find_end(pending) (an index, or None)."""
        while True:
            end = find_end(self.pending)
            if end is not None:
                out, self.pending = self.pending[:end], self.pending[end:]
                return out
            if self.eof:
                raise EarlyExit(self.wait(deadline))
            if not self._fill(deadline):
                raise Timeout()

    def wait_for(self, found, deadline):
        """Read until found(pending) is true, consuming nothing (an early exit or a timeout
        raises, as in read_until)."""
        while not found(self.pending):
            if self.eof:
                raise EarlyExit(self.wait(deadline))
            if not self._fill(deadline):
                raise Timeout()

    def read_to_eof(self, deadline):
        while not self.eof:
            if not self._fill(deadline):
                raise Timeout()
        out, self.pending = self.pending, ""
        return out

    def wait(self, deadline):
        try:
            return self.proc.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            return None

    def stderr_text(self):
        if self.stderr.closed:
            return ""
        self.stderr.seek(0)
        return self.stderr.read().decode("utf-8", "replace")

    def kill(self):
        stop_process(self.proc)
        self.sel.close()
        self.stderr.close()
        if self.log:
            self.log.close()


def prompt_end(prompts):
    """A find_end for read_until: the end of a prompt that stands at the start of a line and is
    the last thing received (the kernel then waits for input, so nothing can follow it yet)."""
    def find(text):
        for p in prompts:
            if text.endswith(p):
                start = len(text) - len(p)
                if start == 0 or text[start - 1] == "\n":
                    return len(text)
        return None
    return find


def kernel_exit_names():
    """EXIT_* statuses of include/kernel/kernel.h by value, to name a status in a report."""
    try:
        with open(os.path.join(M.REPO, "include", "kernel", "kernel.h")) as f:
            return {int(v): "EXIT_" + n for n, v in re.findall(r"\bEXIT_(\w+)\s*=\s*(\d+)", f.read())}
    except OSError:
        return {}


def status_text(machine, status):
    if status is None:
        return "still running"
    if status < 0:
        return "killed by signal %d" % -status
    if status == 124:
        return "124 (the `timeout` bound expired)"
    k = machine.kernel_status(status) if machine else None
    name = kernel_exit_names().get(k) if k else None
    if name is None:
        return str(status)
    if k != status:
        return "%d (kernel status %d, %s)" % (status, k, name)
    return "%d (%s)" % (status, name)


class Player:
    def __init__(self, t, machine, step_timeout=None, log_path=None, verbose=False):
        self.t, self.machine, self.argv = t, machine, None
        self.step_timeout = step_timeout or t.timeout
        self.log_path, self.verbose = log_path, verbose
        self.variables = machine.variables() if machine else {}
        if t.memory:    # the transcript's `memory:` replaces the preset's
            self.variables.update(M.memory_variables(t.memory))
        T.prepare(t, self.variables)
        self.console = None
        self.groups = {}

    def where(self, lineno):
        return "%s:%d" % (M.display_path(self.t.path), lineno)

    def header(self, lineno, what):
        preset = self.machine.preset if self.machine else "-"
        return "FAIL %s [%s] %s" % (self.where(lineno), preset, what)

    def run(self, argv):
        self.argv = argv
        self.console = Console(self.argv, self.log_path, self.t.bound(self.step_timeout))
        try:
            for idx, step in enumerate(self.t.steps):
                nxt = self.t.steps[idx + 1] if idx + 1 < len(self.t.steps) else None
                self.play(step, nxt)
        except Failure as f:
            raise Failure(str(f) + self.context())
        finally:
            self.console.kill()

    def context(self):
        err = self.console.stderr_text().strip()
        lines = ["", "  QEMU: %s" % M.shell_line(self.argv)]
        if self.log_path:
            lines.append("  console log: %s" % self.log_path)
        if err:
            lines.append("  QEMU stderr:")
            lines += ["    " + ln for ln in err.splitlines()[-20:]]
        return "\n".join(lines)

    def play(self, step, nxt):
        c = self.console
        deadline = time.monotonic() + self.step_timeout
        if step.keys is not None:
            c.send(step.keys)
        self.send_later_keys(step, deadline)
        if step.exit:
            text = self.read(lambda: c.read_to_eof(deadline), step, "exit of QEMU")
            self.compare(step, text, prompt=None)
            self.check_exit(step, c.wait(deadline))
            return
        # The next prompt: the one the next command is typed at, else any.
        prompts = (nxt.prompt,) if nxt is not None else T.PROMPTS
        text = self.read(lambda: c.read_until(prompt_end(prompts), deadline), step,
                         "prompt %r" % prompts[0] if len(prompts) == 1 else "prompt")
        self.compare(step, text, prompt=next(p for p in prompts if text.endswith(p)))

    def send_later_keys(self, step, deadline):
        """[send KEYS] under an output line: wait until the console has shown a line that
        matches it (after the echo and after the lines earlier sends waited for), then type.
        Sends under the same line go one after the other."""
        seen = 0        # output lines (after the echo) already passed
        waited = 0      # the expected line the last send waited for
        for n, keys, lineno in step.later_sends:
            if n == waited:
                self.console.send(keys)
                continue
            waited = n
            want = step.expect[n - 1]
            box = {}

            def shown(pending):
                lines = T.split_lines(pending)[1:]      # the first is the command's echo
                for i in range(seen, len(lines)):
                    if lines[i].terminated and T.line_matches(want, lines[i]) is not None:
                        box["at"] = i + 1
                        return True
                return False

            self.read(lambda: self.console.wait_for(shown, deadline), step,
                      "line %r (line %d) before [send] at line %d" % (want.source(),
                                                                      want.lineno, lineno))
            seen = box["at"]
            self.console.send(keys)

    def read(self, fn, step, what):
        try:
            return fn()
        except Timeout:
            got = self.console.pending
            raise Failure("%s\n  timeout: no %s within %g s after %s\n  received since:\n%s" % (
                self.header(step.lineno, step.title()), what, self.step_timeout, step.title(),
                indent_output(got)))
        except EarlyExit as e:
            got = self.console.pending
            raise Failure("%s\n  QEMU exited with status %s while waiting for the %s after %s\n"
                          "  received since:\n%s" % (
                              self.header(step.lineno, step.title()),
                              status_text(self.machine, e.status), what, step.title(),
                              indent_output(got)))

    def check_exit(self, step, status):
        kind, want, lineno = step.exit
        want_qemu = self.machine.qemu_status(want) if kind == "kernel" and self.machine else want
        if status != want_qemu:
            raise Failure("%s\n  QEMU's exit status is %s, the transcript expects %s%s" % (
                self.header(lineno, "exit status after %s" % step.title()),
                status_text(self.machine, status), want_qemu,
                " (kernel status %d)" % want if kind == "kernel" else ""))

    def compare(self, step, text, prompt):
        """Check the echo, the line ends, the output lines and the checks of one step."""
        body = text[:len(text) - len(prompt)] if prompt else text
        if step.keys is not None:
            body = step.prompt + body    # the echo line starts at the prompt typed at
        lines = T.split_lines(body)
        if step.keys is not None:
            echo, lines = (lines[0] if lines else T.OutLine("", False)), lines[1:]
            self.compare_echo(step, echo, text)
        for n, ln in enumerate(lines):
            if ln.terminated and not ln.crlf:
                raise Failure("%s\n  output line %d of %s ends in LF without CR (the console must "
                              "send CRLF): %s" % (self.header(step.lineno, step.title()), n + 1,
                                                  step.title(), T.visible(ln.raw + "\n")))
        # A transcript that shows no boot log does not check it.
        if step.keys is not None or step.expect:
            ok, groups, pairs, fi, fj = T.match_block(step.expect, lines)
            if not ok:
                raise Failure(self.diff(step, lines, fi, fj))
            self.groups.update(groups)      # named groups stay visible to later [check]s
        for kind, expr, lineno in step.checks:
            shown = [ln.shown for ln in lines]
            if kind == "let":
                name, value = T.evaluate_let(expr, self.groups, self.variables, shown)
                if name is None:
                    raise Failure("%s\n  [let %s] failed: %s" % (
                        self.header(lineno, "after %s" % step.title()), expr, value))
                self.groups[name] = value
                continue
            good, why = T.evaluate_check(expr, self.groups, self.variables, shown)
            if not good:
                raise Failure("%s\n  check failed: %s\n  values: %s\n  output:\n%s" % (
                    self.header(lineno, "output of %s" % step.title()), expr, why,
                    indent_output("\n".join(ln.shown for ln in lines))))
        if self.verbose:
            print("ok %s %s" % (self.where(step.lineno), step.title()))

    def compare_echo(self, step, echo, text):
        """The console line after typing: the prompt, then what the line editor shows (an
        `[echo ...]` line under the command says it instead, where the editor model falls short)."""
        p = step.prompt
        e = step.echo
        if e is None:
            want = p + T.edited_line(step.keys)
            ok = echo.shown == want
        elif e.kind == "re":
            want = "%sre: %s" % (p, e.text)
            ok = echo.shown.startswith(p) and e.regex.fullmatch(echo.shown[len(p):]) is not None
        elif e.kind == "raw":
            want = "%sraw: %s" % (p, e.text)
            ok = echo.raw == p + e.value
        else:
            want = p + e.value
            ok = echo.shown == want
        if ok:
            return
        raise Failure("%s\n  the console line after typing %s shows\n    %r\n  expected\n    %r%s" % (
            self.header(e.lineno if e else step.lineno, "echo of %s" % step.title()),
            step.title(), echo.shown, want,
            "\n  raw: %s" % T.visible(echo.raw) if echo.raw != echo.shown else ""))

    def diff(self, step, lines, fi, fj):
        exp = step.expect
        head = self.header(exp[fi].lineno if fi is not None and fi < len(exp) else step.last_lineno,
                           "output of %s differs" % step.title())
        out = [head]
        if fi is not None and fi < len(exp):
            e = exp[fi]
            out.append("  %s expects: %s" % (self.where(e.lineno), e.source()))
            used = sorted(set(m.group(0) for m in T.VAR_RE.finditer(e.text)))
            if used:
                out.append("  where %s" % ", ".join(
                    "%s = %s" % (v, T.substitute(v, self.variables, False, self.t.path, e.lineno))
                    for v in used))
            out.append("  console line %d: %s" % (
                fj + 1, repr(lines[fj].shown) if fj < len(lines) else "(no more output)"))
        else:
            out.append("  unexpected output after the last expected line (console line %d): %r"
                       % (fj + 1, lines[fj].shown if fj < len(lines) else ""))
        out.append("  --- expected (%s)" % M.display_path(self.t.path))
        out += listing(exp, fi, lambda e: (e.lineno, e.source()))
        out.append("  +++ actual (console)")
        out += listing(lines, fj, lambda ln: (None, ln.shown if ln.raw == ln.shown else
                                              "%s    [raw: %s]" % (ln.shown, T.visible(ln.raw))))
        return "\n".join(out)


def listing(items, mark, describe, context=15):
    """Numbered lines for a report, `>` at index mark, cut to `context` lines around it."""
    if not items:
        return ["         | (no output)"]
    centre = mark if mark is not None and mark < len(items) else len(items) - 1
    lo, hi = max(0, centre - context), min(len(items), centre + context + 1)
    out = ["         | [... %d lines ...]" % lo] if lo else []
    for k in range(lo, hi):
        number, text = describe(items[k])
        out.append("  %s %4d | %s" % (">" if k == mark else " ", number or k + 1, text))
    if hi < len(items):
        out.append("         | [... %d lines ...]" % (len(items) - hi))
    return out


def time_to_prompt(argv, timeout=30.0, prompts=T.PROMPTS):
    """Seconds from starting argv to the first prompt on its console (QEMU is killed after)."""
    start = time.monotonic()
    c = Console(argv, bound=int(timeout) + 5)
    try:
        c.read_until(prompt_end(prompts), start + timeout)
        return time.monotonic() - start
    finally:
        c.kill()


def indent_output(text, limit=60):
    """Console text for a report: one `|` line per console line, control bytes spelled out."""
    lines = [ln[:-1] if ln.endswith("\r") else ln for ln in text.split("\n")]
    if lines and lines[-1] == "" and len(lines) > 1:
        lines.pop()
    if len(lines) > limit:
        lines = ["[... %d lines before ...]" % (len(lines) - limit)] + lines[-limit:]
    return "\n".join("    | " + T.visible(ln) for ln in lines)
