#!/usr/bin/python3
"""Check that `rndbits-qemu run PRESET` is usable by a person at a terminal: on a pseudo-terminal
that is QEMU's controlling tty, Ctrl-C reaches the guest's line editor (QEMU survives it) and
Ctrl-A X leaves QEMU with status 0. Usage: run_tty.py PRESET [--build-root DIR]"""

import os
import pty
import select
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(os.path.dirname(HERE), "rndbits-qemu")
STEP = 30.0


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    pid, fd = pty.fork()
    if pid == 0:
        # Bounded even if this script is killed: `timeout --foreground` keeps QEMU in the
        # terminal's foreground process group, where a Ctrl-C would signal it if QEMU let it.
        os.execvp("timeout", ["timeout", "--foreground", "-k", "2", "%d" % (4 * STEP),
                              sys.executable, TOOL] + args[1:] + ["run", args[0]])
    seen = ""

    def expect(what):
        nonlocal seen
        deadline = time.monotonic() + STEP
        while what not in seen:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                fail("no %r within %g s" % (what, STEP))
            try:
                data = os.read(fd, 4096)
            except OSError:
                data = b""
            if not data:
                fail("the terminal closed before %r" % what)
            seen += data.decode("latin-1")
        seen = seen[seen.index(what) + len(what):]

    def fail(msg):
        print("FAIL run on a terminal [%s]: %s\n  received: %r" % (args[0], msg, seen[-400:]))
        raise SystemExit(1)

    try:
        expect("rndbits# ")
        os.write(fd, b"uname\x03")
        expect("uname^C")           # (QEMU keeps the tty's output processing: LF shows as CR LF)
        expect("rndbits# ")
        os.write(fd, b"uname\r")
        expect("\nrndbits\r")
        expect("rndbits# ")
        os.write(fd, b"\x01x")
        deadline = time.monotonic() + STEP      # QEMU leaving closes the terminal: EOF or EIO
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                fail("QEMU did not leave on Ctrl-A X")
            try:
                if not os.read(fd, 4096):
                    break
            except OSError:
                break
        status = os.waitpid(pid, 0)[1]
        pid_done = os.waitstatus_to_exitcode(status)
        if pid_done != 0:
            fail("QEMU exited with status %d after Ctrl-A X" % pid_done)
        print("PASS run on a terminal [%s]: Ctrl-C reached the guest, Ctrl-A X left" % args[0])
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass


if __name__ == "__main__":
    main()
