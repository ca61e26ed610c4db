"""Programs for the initrd: the test corpus (tests/progs, built into build/progs/<abi>/) and a
person's own files (make ... PROGS="a.out other"), packed as a cpio newc archive by
tools/mkcpio.py.

Corpus names are the archive's names: <prog>-<libc>[-pie] (hello-glibc, hello-glibc-pie,
hello-musl, hello-newlib), `busybox`, and on a 64-bit preset that runs 32-bit programs the
32-bit builds with `-32` (hello-glibc-32). Each is found in the build directory of its ABI:
"""

import contextlib
import importlib.util
import io
import os
import sys

from . import machine as M

CORPUS_DIR = os.path.join(M.REPO, "build", "progs")
MKCPIO = os.path.join(M.REPO, "tools", "mkcpio.py")

# (isa, bits) -> the ABI whose programs run native.
NATIVE_ABI = {("arm", "32"): "armhf", ("arm64", "64"): "aarch64", ("x86", "32"): "i386",
              ("x86", "64"): "x86_64"}
COMPAT_ABI = {"aarch64": "armhf", "x86_64": "i386"}
COMPAT_SUFFIX = "-32"


class ProgsError(Exception):
    pass


def abis(variables):
    """(native ABI, 32-bit ABI or None) of a preset from its variables. The 32-bit builds are
    packed on every 64-bit preset: whether it runs them is the kernel's to say (arm64 with 16K
    or 64K pages refuses them with Exec format error, as Linux without COMPAT does)."""
    native = NATIVE_ABI.get((variables.get("isa"), variables.get("bits")))
    return native, COMPAT_ABI.get(native)


def corpus_file(variables, name, corpus_dir=CORPUS_DIR):
    """The host path of corpus program `name` for a preset (need not exist yet), or
    ProgsError when the preset cannot have it (a -32 name where there is no compat)."""
    native, compat = abis(variables)
    if not native:
        raise ProgsError("preset %s has no corpus ABI" % variables.get("preset"))
    if name.endswith(COMPAT_SUFFIX):
        if not compat:
            raise ProgsError("%s: preset %s runs no 32-bit programs (no -32 corpus builds)"
                             % (name, variables.get("preset")))
        return os.path.join(corpus_dir, compat, name[:-len(COMPAT_SUFFIX)])
    return os.path.join(corpus_dir, native, name)


def corpus_entries(variables, names, corpus_dir=CORPUS_DIR):
    """[(archive path, host path)] of corpus programs under bin/; a missing file is a
    ProgsError that says how to build the corpus."""
    out = []
    for name in names:
        path = corpus_file(variables, name, corpus_dir)
        if not os.path.isfile(path):
            raise ProgsError("corpus program %s (%s) is not built: `make progs` builds the "
                             "corpus (make test does it first)" % (name, M.display_path(path)))
        out.append(("bin/" + name, path))
    return out


def user_entries(words):
    """[(archive path, host path)] from PROGS words: a bare file goes to bin/<its name>, and
    DEST=SRC puts SRC at DEST."""
    out = []
    for w in words:
        dest, src = w.split("=", 1) if "=" in w else ("bin/" + os.path.basename(w), w)
        if not os.path.isfile(src):
            raise ProgsError("PROGS: %s: no such file" % src)
        out.append((dest.lstrip("/"), src))
    return out


_mkcpio = None


def _mkcpio_module():
    """tools/mkcpio.py, loaded once per process: a batch packs an initrd for most transcripts,
    and a python3 started for each cost ~60 ms of CPU, more than the packing itself."""
    global _mkcpio
    if _mkcpio is None:
        spec = importlib.util.spec_from_file_location("rndbits_mkcpio", MKCPIO)
        _mkcpio = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(_mkcpio)
    return _mkcpio


def pack(entries, out, align=None):
    """Write the cpio newc archive `out` holding entries, each file's data at a multiple of
    align bytes from the archive's start (the preset's page size: the initrd itself is
    page aligned, so the kernel can map program pages straight from it); returns out.
    tools/mkcpio.py does it, in this process (its command line, its exit status)."""
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    argv = (["--align", str(align)] if align else []) + [out]
    argv += ["%s=%s" % (d, s) for d, s in entries]
    mkcpio, saved, err = _mkcpio_module(), sys.argv, io.StringIO()
    try:
        sys.argv = [MKCPIO] + argv
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(err):
            mkcpio.main()
    except SystemExit as e:
        if e.code:
            raise ProgsError("tools/mkcpio.py failed: %s" % err.getvalue().strip())
    finally:
        sys.argv = saved
    return out
