#!/usr/bin/python3
"""Check that input sent before the kernel started is not lost: CI scripts pipe their commands
into QEMU at once. QEMU starts paused (-S); a command is written to the serial line; the test
waits, through QMP, until the PL011 reports a received byte (FR.RXFE clear; reading FR has no
side effect), lets the machine run, and expects the command's answer after the first prompt.
Switching the PL011's FIFO on empties its receive side, so a driver that did that without
taking the waiting byte first would lose it: "ysctl: command not found". (Under QEMU 7.2 the
byte lingers until the next one overwrites it, so such a driver fails this test only when QEMU
delivers the second byte before the kernel reads the first: often under load, not always.)
Usage: typeahead.py PRESET [--build-root DIR]   (arm and arm64 presets: QEMU virt's PL011)"""

import json
import os
import re
import socket
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from rndbits_qemu import machine as M  # noqa: E402
from rndbits_qemu import session as S  # noqa: E402
from rndbits_qemu import transcript as T  # noqa: E402

PL011_FR = 0x09000018  # QEMU virt's UART0, on arm and arm64 alike
FR_RXFE = 1 << 4
STEP = 30.0
PROMPT = T.PROMPTS[0]


class Qmp:
    """QMP over a socket this script listens on: QEMU (-qmp unix:PATH, as a client) connects to
    it while starting, so accept() itself waits for QEMU, bounded by the timeout."""

    def __init__(self, listener):
        try:
            self.sock, _ = listener.accept()
        except socket.timeout:
            raise S.Failure("QEMU did not connect to QMP within %.0f s" % STEP) from None
        self.buf = b""
        self.sock.settimeout(STEP)
        self._reply()  # the greeting
        self.execute("qmp_capabilities")

    def _reply(self):
        while True:
            line, sep, rest = self.buf.partition(b"\n")
            if sep:
                self.buf = rest
                msg = json.loads(line)
                if "event" not in msg:
                    return msg
                continue
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                raise S.Failure("no QMP reply within %.0f s" % STEP) from None
            if not data:
                raise S.Failure("QMP closed")
            self.buf += data

    def execute(self, cmd, **args):
        self.sock.sendall(json.dumps({"execute": cmd, "arguments": args}).encode() + b"\n")
        msg = self._reply()
        if "error" in msg:
            raise S.Failure("QMP %s: %s" % (cmd, msg["error"]))
        return msg["return"]


def uart_flags(qmp):
    out = qmp.execute("human-monitor-command", **{"command-line": "xp /1wx %#x" % PL011_FR})
    return int(re.search(r":\s*(0x[0-9a-f]+)", out).group(1), 16)


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    m = M.Machine(args[0], build_root=args[2] if args[1:2] == ["--build-root"] else None)
    with tempfile.TemporaryDirectory(prefix="rndbits-typeahead-") as tmp:
        path = os.path.join(tmp, "qmp")
        listener = socket.socket(socket.AF_UNIX)
        listener.bind(path)
        listener.listen(1)
        listener.settimeout(STEP)
        argv = m.command(serial="stdio", extra=["-S", "-qmp", "unix:%s" % path])
        console = S.Console(argv, bound=int(4 * STEP))
        out = ""
        try:
            deadline = time.monotonic() + STEP
            qmp = Qmp(listener)
            console.send(b"sysctl vm.mmap_rnd_bits\r")
            while uart_flags(qmp) & FR_RXFE:
                if time.monotonic() > deadline:
                    raise S.Failure("QEMU never handed the UART the first byte")
            qmp.execute("cont")
            # The boot's prompt, then the answer's: both may arrive in one read (the command is
            # waiting when the first prompt is printed), so count them in what came.
            while out.count("\n" + PROMPT) < 2:
                out += console.read_until(S.prompt_end(T.PROMPTS), time.monotonic() + STEP)
            answer = out.split("\n" + PROMPT, 1)[1]
        except S.Failure as e:
            print("FAIL: %s: %s" % (args[0], e))
            return 1
        except (S.Timeout, S.EarlyExit):
            answer = out + console.pending + "\n(no second prompt within %.0f s)" % STEP
        finally:
            console.kill()
            listener.close()
    if not re.search(r"^vm\.mmap_rnd_bits = \d+\r?$", answer, re.M):
        print("FAIL: %s: the command sent before the kernel started was not run as sent; after "
              "the first prompt the console said:\n%s" % (args[0], answer))
        return 1
    print("ok: %s: a command sent before the kernel started ran after the first prompt" % args[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
