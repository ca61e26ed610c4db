"""What a CI pipeline needs from the harness: the test list's labels, `run` with a bound and
QEMU's own exit status, JUnit XML from CTest's results, KTAP parsing and transcript recording."""

import re
import signal
import subprocess
import sys
import termios

from . import transcript as T


def header_presets(path, presets):
    """The presets a transcript's `presets:` header selects, read leniently (the rest of the file
    may not parse); every preset when there is no readable header line."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = re.match(r"^presets:\s*(.*?)\s*$", line)
                if m:
                    words = m.group(1).replace(",", " ").split()
                    chosen = [p for p in presets if T.preset_matches(words, p, path)]
                    return chosen or list(presets)
    except OSError:
        pass
    return list(presets)


# ---- run: QEMU in the foreground, its exit status, a bound ---------------------------------------

TIMED_OUT = 124     # coreutils timeout's status; no QEMU exit status of a preset is 124


def timeout_prefix(seconds):
    """The coreutils `timeout` words that bound a pasted `cmdline`: --foreground keeps the
    terminal QEMU's (Ctrl-C to the guest), --verbose prints a line when it fires, and its exit
    status is then 124."""
    return ["timeout", "--foreground", "--verbose", "-k", "5", "%g" % seconds]


def run_foreground(argv, preset, seconds=None, describe=str):
    """Run QEMU on this terminal (or these pipes) and return the status `run` exits with: QEMU's
    own (0 power-off, the panic and exception codes), 128+N if a signal N ended it, TIMED_OUT if
    it was still running after `seconds`. A non-zero status is named on stderr by describe(status),
    as make's own error line can only say `Error N` (and make itself then exits 2)."""
    saved = _tty_state()
    # QEMU puts the terminal in raw mode, so Ctrl-C reaches the guest, not us; on pipes a Ctrl-C
    # from the shell goes to QEMU too, and this process waits to report how QEMU exited.
    old_int = signal.signal(signal.SIGINT, signal.SIG_IGN)
    proc = subprocess.Popen(argv, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        status = proc.wait(seconds)
    except subprocess.TimeoutExpired:
        _stop(proc)
        _restore_tty(saved)
        print("\r\nrndbits-qemu: %s: QEMU still running after TIMEOUT=%g s: killed it (exit status %d)"
              % (preset, seconds, TIMED_OUT), file=sys.stderr)
        return TIMED_OUT
    finally:
        signal.signal(signal.SIGINT, old_int)
    _restore_tty(saved)
    if status < 0:
        print("\r\nrndbits-qemu: %s: QEMU was killed by signal %d" % (preset, -status), file=sys.stderr)
        return 128 - status
    if status != 0:
        print("\r\nrndbits-qemu: %s: QEMU exited with status %s" % (preset, describe(status)),
              file=sys.stderr)
    return status


def _stop(proc):
    """SIGTERM first, so that QEMU gives the terminal back as it found it; SIGKILL if it lingers."""
    proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _tty_state():
    try:
        return termios.tcgetattr(sys.stdin.fileno()) if sys.stdin.isatty() else None
    except (termios.error, ValueError, OSError):
        return None


def _restore_tty(saved):
    if saved is not None:
        try:
            termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, saved)
        except termios.error:
            pass


# ---- JUnit XML from CTest's ----------------------------------------------------------------------

def failure_message(output):
    """The line a CI page should show for a failed test: the harness's FAIL line with the detail
    under it (the expected text, the check, the timeout), else the first failure line of cmocka
    or unittest, else the last line the test printed."""
    lines = [ln.rstrip() for ln in output.splitlines()]
    for i, ln in enumerate(lines):
        if ln.startswith("FAIL ") and ":" in ln.split()[1]:
            detail = []
            for d in lines[i + 1:i + 4]:
                if not d.startswith("  ") or d.strip().startswith(("---", "+++", "where ")):
                    break
                detail.append(d.strip())
            return "; ".join([ln[5:]] + detail[:2])
    for ln in lines:
        if re.match(r"^\[  (FAILED|ERROR) +\] \S|^(FAIL|ERROR): |^rndbits-qemu: |^.*: error: ", ln):
            return ln.strip()
    tail = [ln for ln in lines if ln.strip()]
    return tail[-1].strip() if tail else "failed with no output"


def ctest_to_junit(ctest_xml, suite):
    """CTest's --output-junit, made useful on a CI page: the suite named, a classname per test
    family (serial.x86, harness, ...) so that reports group them, and each failure's message set
    to failure_message() of its output. One testcase per CTest test, as CTest wrote them."""
    import xml.etree.ElementTree as ET
    tree = ET.parse(ctest_xml)
    root = tree.getroot()
    root.set("name", suite)
    for case in root.iter("testcase"):
        name = case.get("name", "")
        family = name.rsplit("/", 1)[0] if "/" in name else name
        case.set("classname", "%s.%s" % (suite, family.replace("/", ".")))
        failure = case.find("failure")
        if failure is None:
            continue
        out = case.find("system-out")
        text = out.text if out is not None and out.text else ""
        message = failure.get("message") or ""
        if not message.strip():
            message = failure_message(text)
        failure.set("message", message)
        failure.set("type", "timeout" if "Timeout" in (case.get("status") or "") else "failure")
        failure.text = text
    return tree
