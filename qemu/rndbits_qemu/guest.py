"""A preset booted under QEMU with commands typed at its prompt, for the programs that drive a
guest rather than play a transcript (tools/plot.py, gen_docs.py, soak.py)."""

import os
import time

from rndbits_qemu import machine as M
from rndbits_qemu import session as S
from rndbits_qemu import transcript as T


class GuestError(Exception):
    pass


class Guest:
    """A preset booted under QEMU (the harness's launch description and console reader), with
    commands typed at its prompt. Output comes back as the lines a terminal would show: progress
    lines that rewrite themselves with \\r and ESC[K are rendered, so only their last state stays."""

    def __init__(self, preset, append=None, log_path=None, boot_timeout=60, build_root=None):
        try:
            self.machine = M.Machine(preset, build_root)
        except M.MachineError as e:
            raise GuestError(str(e))
        if not os.path.exists(self.machine.image):
            raise GuestError("%s: no image %s; build it with `make qemu-%s build`"
                             % (preset, M.display_path(self.machine.image), preset))
        self.preset = preset
        self.argv = self.machine.command("stdio", append)
        # A generous outer bound (coreutils timeout): every wait below has its own deadline.
        self.console = S.Console(self.argv, log_path, bound=6 * 3600)
        self.prompt = None
        self.boot_log = self._read(boot_timeout, "the first prompt")

    def _read(self, timeout, what):
        try:
            text = self.console.read_until(S.prompt_end(T.PROMPTS), time.monotonic() + timeout)
        except S.Timeout:
            raise GuestError("%s: no %s within %g s; last output:\n%s" % (
                self.preset, what, timeout, S.indent_output(self.console.pending, 20)))
        except S.EarlyExit as e:
            raise GuestError("%s: QEMU exited (status %s) while waiting for %s; last output:\n%s" % (
                self.preset, S.status_text(self.machine, e.status), what,
                S.indent_output(self.console.pending, 20)))
        self.prompt = next(p for p in T.PROMPTS if text.endswith(p))
        return [ln.shown for ln in T.split_lines(text[:-len(self.prompt)])]

    def run(self, command, timeout=60):
        """Type command at the prompt; return its output lines (without the echoed command line
        and the next prompt)."""
        self.console.send(command.encode() + b"\r")
        lines = self._read(timeout, "prompt after `%s`" % command)
        return lines[1:]        # the first line is the echo of the command

    def close(self):
        self.console.kill()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
