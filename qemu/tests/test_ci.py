"""Tests of what CI relies on (qemu/rndbits_qemu/ci.py and the CTest wiring), against the fake
console and a throw-away CTest project: `run`'s exit status and TIMEOUT, `cmdline`'s bound, the
test list's labels, transcripts found at test time, JUnit messages."""

import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from rndbits_qemu import ci as C           # noqa: E402
from rndbits_qemu import ktap as K         # noqa: E402
from rndbits_qemu import machine as M      # noqa: E402
from rndbits_qemu import record as R       # noqa: E402

TOOL = [sys.executable, os.path.join(M.REPO, "qemu", "rndbits-qemu")]
FAKE = "%s %s" % (sys.executable, os.path.join(HERE, "fake_kernel.py"))


def run_fake(keys, *extra, env=None):
    """`rndbits-qemu run x86` with the fake console in QEMU's place; keys stay open on its stdin
    until it exits. Returns (status, stderr)."""
    p = subprocess.Popen(TOOL + ["run", "x86", "--command", FAKE] + list(extra), stdin=subprocess.PIPE,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    p.stdin.write(keys)
    p.stdin.flush()
    try:
        status = p.wait(30)
    finally:
        p.stdin.close()
    with p.stderr:
        return status, p.stderr.read().decode()


class Run(unittest.TestCase):
    def test_exits_with_qemu_status_and_names_it(self):
        status, err = run_fake(b"panic\r")
        self.assertEqual(status, 7)
        self.assertIn("rndbits-qemu: x86: QEMU exited with status 7 (kernel status 3, EXIT_PANIC)", err)

    def test_power_off_is_0_and_quiet(self):
        self.assertEqual(run_fake(b"poweroff\r"), (0, ""))

    def test_timeout_kills_a_hung_guest(self):
        start = time.monotonic()
        status, err = run_fake(b"hang\r", "--timeout", "0.5")
        self.assertEqual(status, C.TIMED_OUT)
        self.assertIn("QEMU still running after TIMEOUT=0.5 s: killed it (exit status 124)", err)
        self.assertLess(time.monotonic() - start, 20)

    def test_timeout_from_the_environment(self):
        status, _ = run_fake(b"hang\r", env=dict(os.environ, TIMEOUT="0.5"))
        self.assertEqual(status, C.TIMED_OUT)

    def test_no_preset_status_is_124(self):
        for p in M.preset_names():
            m = M.Machine(p)
            self.assertNotIn(C.TIMED_OUT, [m.qemu_status(s) for s in range(0, 64)], p)


class Cmdline(unittest.TestCase):
    def line(self, *extra):
        return subprocess.run(TOOL + ["cmdline", "x86"] + list(extra), capture_output=True, text=True,
                              check=True).stdout.split()

    def test_timeout_wraps_the_line(self):
        self.assertEqual(self.line()[0], "qemu-system-i386")
        words = self.line("--timeout", "60")
        self.assertEqual(words[:6], ["timeout", "--foreground", "--verbose", "-k", "5", "60"])
        self.assertEqual(words[6:], self.line())

    def test_the_bound_fires_with_a_line_and_124(self):
        p = subprocess.Popen(C.timeout_prefix(0.5) + FAKE.split(), stdin=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        p.stdin.write(b"hang\r")
        p.stdin.flush()
        self.assertEqual(p.wait(30), 124)
        p.stdin.close()
        with p.stderr:
            self.assertIn("timeout: sending signal TERM", p.stderr.read().decode())


class TestList(unittest.TestCase):
    """The (preset, transcript) list CTest reads each time it runs, from a folder of our own."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.env = dict(os.environ, RNDBITS_SERIAL_DIR=self.dir)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, text):
        with open(os.path.join(self.dir, name), "w") as f:
            f.write(text)

    def listing(self):
        out = subprocess.run(TOOL + ["tests", "--cmake"], capture_output=True, text=True, env=self.env,
                             check=True).stdout
        return [ln.split("|") for ln in out.splitlines()]

    def test_labels_name_preset_and_transcript(self):
        self.write("good.txt", "presets: x86 x86_64\nrndbits# uname\nrndbits\n")
        rows = self.listing()
        self.assertEqual([(r[0], r[1], r[4]) for r in rows],
                         [("x86", "good", "x86,serial,good.txt"), ("x86_64", "good", "x86_64,serial,good.txt")])

    def test_a_malformed_transcript_is_labelled_with_its_presets(self):
        self.write("bad.txt", "presets: arm64-4k-*\nrndbits# a<C-c>b\n")
        self.assertEqual([(r[0], r[1], r[4]) for r in self.listing()],
                         [("-", "bad", "arm64-4k-va39,arm64-4k-va48,serial,bad.txt")])

    def test_a_broken_header_is_labelled_with_every_preset(self):
        self.write("worse.txt", "rndbits# uname\n")
        (row,) = self.listing()
        self.assertEqual(row[4].split(","), M.preset_names() + ["serial", "worse.txt"])


class Batch(unittest.TestCase):
    """`test --results DIR` (a batch of tests/serial_tests.cmake) leaves each transcript's report
    and outcome for its own test, qemu/serial-result.sh, which prints it once and exits with it;
    without one it plays the transcript itself."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)
        self.results = os.path.join(self.dir, "results")
        for name, expect in (("good", "rndbits"), ("bad", "rndbits!")):
            with open(os.path.join(self.dir, name + ".txt"), "w") as f:
                f.write("presets: all\nrndbits# uname\n%s\n" % expect)

    def result(self, name, *fallback):
        return subprocess.run(["sh", os.path.join(M.REPO, "qemu", "serial-result.sh"),
                               os.path.join(self.results, name)] + list(fallback or ["false"]),
                              capture_output=True, text=True)

    def test_each_transcript_gets_its_own_outcome_once(self):
        os.makedirs(self.results)
        with open(os.path.join(self.results, "stale.pass"), "w") as f:
            f.write("PASS from an earlier batch\n")
        r = subprocess.run(TOOL + ["test", "x86", "--command", FAKE, "--results", self.results,
                                   os.path.join(self.dir, "good.txt"), os.path.join(self.dir, "bad.txt")],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("PASS", r.stdout)
        self.assertIn("FAIL", r.stdout)
        self.assertEqual(sorted(os.listdir(self.results)), ["bad.fail", "good.pass"])
        good = self.result("good")
        self.assertEqual(good.returncode, 0)
        self.assertRegex(good.stdout, r"^PASS \S*good\.txt \[x86\]")
        bad = self.result("bad")
        self.assertEqual(bad.returncode, 1)
        self.assertIn("expects: rndbits!", bad.stdout)
        self.assertEqual(os.listdir(self.results), [])
        # Read once: a second run of the test alone plays the transcript (here: the fallback).
        self.assertEqual(self.result("good", "sh", "-c", "echo played; exit 3").stdout, "played\n")
        self.assertEqual(self.result("good", "sh", "-c", "exit 3").returncode, 3)


CTEST_PROJECT = """
cmake_minimum_required(VERSION 3.20)
project(t NONE)
enable_testing()
file(WRITE ${{CMAKE_BINARY_DIR}}/serial.cmake
     "set(RNDBITS_PYTHON {python})\\n"
     "set(RNDBITS_QEMU_TOOL {tool})\\n"
     "set(RNDBITS_SERIAL_LOGS ${{CMAKE_BINARY_DIR}})\\n"
     "set(RNDBITS_SOURCE_DIR {repo})\\n"
     "include({repo}/tests/serial_tests.cmake)\\n")
set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${{CMAKE_BINARY_DIR}}/serial.cmake)
add_test(NAME harness/fails COMMAND {python} {tool} test x86 {failing} --command "{fake}")
add_test(NAME harness/passes COMMAND true)
"""


class CTest(unittest.TestCase):
    """tests/serial_tests.cmake in a CTest project of its own, over a folder of transcripts."""

    @classmethod
    def setUpClass(cls):
        cls.top = tempfile.mkdtemp()
        cls.serial = os.path.join(cls.top, "serial")
        os.mkdir(cls.serial)
        failing = os.path.join(cls.top, "failing.txt")
        with open(failing, "w") as f:
            f.write("presets: all\nrndbits# uname\nrndbits!\n")
        with open(os.path.join(cls.top, "CMakeLists.txt"), "w") as f:
            f.write(CTEST_PROJECT.format(python=sys.executable, tool=TOOL[1], repo=M.REPO,
                                         failing=failing, fake=FAKE))
        cls.env = dict(os.environ, RNDBITS_SERIAL_DIR=cls.serial)
        subprocess.run(["cmake", "-S", cls.top, "-B", os.path.join(cls.top, "b")], check=True,
                       stdout=subprocess.DEVNULL, env=cls.env)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.top)

    def write(self, name, text):
        with open(os.path.join(self.serial, name), "w") as f:
            f.write(text)
        self.addCleanup(os.unlink, os.path.join(self.serial, name))

    def ctest(self, *args):
        return subprocess.run(["ctest", "--test-dir", os.path.join(self.top, "b")] + list(args),
                              capture_output=True, text=True, env=self.env)

    def test_a_new_transcript_is_found_without_reconfiguring(self):
        self.assertNotIn("serial/x86/fresh", self.ctest("-N").stdout)
        self.write("fresh.txt", "presets: x86\nrndbits# uname\nrndbits\n")
        listed = self.ctest("-N", "-L", "^x86$").stdout
        self.assertIn("serial/x86/fresh", listed)
        self.assertIn("serial/x86/fresh", self.ctest("-N", "-L", r"^fresh\.txt$").stdout)
        self.assertNotIn("serial/x86/fresh", self.ctest("-N", "-L", "^x86_64$").stdout)

    def test_a_malformed_transcript_fails_the_runs_of_its_presets(self):
        self.write("broken.txt", "presets: x86\nrndbits# a<C-c>b\n")
        r = self.ctest("-L", "^x86$", "-R", "broken")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("serial/broken/parse", r.stdout)
        self.assertIn("Failed", r.stdout)
        self.assertNotIn("serial/broken/parse", self.ctest("-N", "-L", "^arm64-4k-va48$").stdout)

    def test_junit_names_the_suite_and_the_failing_line(self):
        raw, out = os.path.join(self.top, "ctest.xml"), os.path.join(self.top, "junit.xml")
        self.ctest("-R", "^harness/", "--output-junit", raw)
        subprocess.run(TOOL + ["junit", raw, out, "--suite", "rndbits.x86"], check=True)
        suite = ET.parse(out).getroot()
        self.assertEqual(suite.get("name"), "rndbits.x86")
        cases = {c.get("name"): c for c in suite.iter("testcase")}
        self.assertEqual(sorted(cases), ["harness/fails", "harness/passes"])
        self.assertIsNone(cases["harness/passes"].find("failure"))
        message = cases["harness/fails"].find("failure").get("message")
        self.assertRegex(message, r"failing\.txt:3 \[x86\] output of `uname` differs; "
                                  r"\S*failing\.txt:3 expects: rndbits!; console line 1: 'rndbits'")


KTAP_GOOD = """rndbits# selftest
KTAP version 1
1..2
    KTAP version 1
    # Subtest: sysctl_parse
    1..2
    ok 1 accepted
    ok 2 refused
ok 1 sysctl_parse
    KTAP version 1
    # Subtest: pte
    1..2
    ok 1 leaf_round_trip
    ok 2 invalid # SKIP not on this format
ok 2 pte
# selftest: pass:4 fail:0 total:4
rndbits# """.splitlines()


class Ktap(unittest.TestCase):
    def parse(self, lines):
        return K.parse(lines)

    def test_a_passing_document(self):
        r = self.parse(KTAP_GOOD)
        self.assertEqual((r.passed, r.failures, r.errors), (4, [], []))

    def test_a_failing_case_is_named_with_its_diagnostic(self):
        lines = list(KTAP_GOOD)
        i = lines.index("    ok 1 leaf_round_trip")
        lines[i:i + 1] = ["    # leaf_round_trip: EXPECTATION FAILED at kernel/selftest.c:9: W dropped",
                          "    not ok 1 leaf_round_trip"]
        lines[lines.index("ok 2 pte")] = "not ok 2 pte"
        self.assertEqual(K.failures(lines), ["pte.leaf_round_trip: leaf_round_trip: EXPECTATION "
                                             "FAILED at kernel/selftest.c:9: W dropped"])

    def test_malformed_documents(self):
        cut = [ln for ln in KTAP_GOOD if ln != "    ok 2 refused"]
        self.assertIn("KTAP: subtest sysctl_parse: plan 1..2 but 1 results", K.failures(cut))
        self.assertEqual(K.failures(KTAP_GOOD[:8]), ["KTAP: subtest sysctl_parse never closed by a result line",
                                                     "KTAP: top level: plan 1..2 but 0 results"])
        self.assertEqual(K.failures(["rndbits# selftest"]), ["KTAP: no `KTAP version 1` line"])
        junk = KTAP_GOOD[:7] + ["    garbage"] + KTAP_GOOD[7:]
        self.assertIn("KTAP: '    garbage': neither a result, a plan nor a diagnostic", K.failures(junk))
        lying = [("ok 1 sysctl_parse" if ln == "ok 1 sysctl_parse" else ln.replace("ok 2 refused", "not ok 2 refused"))
                 for ln in KTAP_GOOD]
        self.assertIn("KTAP: sysctl_parse: ok, yet 1 of its cases failed", K.failures(lying))

    def test_a_transcript_check_reports_the_failing_case(self):
        from test_harness import play
        good = "presets: all\nrndbits# selftest\n...\n[let failures = ktap_failures(lines)]\n[check failures == []]\n"
        self.assertIsNone(play(good))
        err = play(good.replace("selftest\n", "selftest broken\n"))
        self.assertIn("check failed: failures == []", err)
        self.assertIn("pte.leaf_round_trip: leaf_round_trip: EXPECTATION FAILED", err)


class Templates(unittest.TestCase):
    """.github/workflows/ci.yml and .gitlab-ci.yml parse (python3-yaml) and run, between them,
    what `make test` runs: one job per preset, a host job, lint, ubsan; packages cached; serial
    logs kept on failure; JUnit published."""

    def load(self, path):
        import yaml
        with open(os.path.join(M.REPO, path)) as f:
            return yaml.safe_load(f)

    def test_github(self):
        wf = self.load(".github/workflows/ci.yml")
        self.assertIn(True if True in wf else "on", wf)       # YAML 1.1 reads `on:` as true
        jobs = wf["jobs"]
        preset = jobs["preset"]
        self.assertEqual(preset["strategy"]["matrix"]["preset"], M.preset_names())
        self.assertFalse(preset["strategy"]["fail-fast"])
        runs = [st.get("run", "") for st in preset["steps"]]
        self.assertIn("make qemu-${{ matrix.preset }} test HOST=0 JUNIT=junit-${{ matrix.preset }}.xml", runs)
        logs = [st for st in preset["steps"] if st.get("if") == "failure()"]
        self.assertTrue(logs and "build/host/serial-logs/" in logs[0]["with"]["path"])
        self.assertIn("make test-host JUNIT=junit-host.xml", [st.get("run") for st in jobs["host"]["steps"]])
        self.assertIn("make lint", [st.get("run") for st in jobs["host"]["steps"]])
        self.assertIn("make ubsan", [st.get("run") for st in jobs["ubsan"]["steps"]])
        for name, job in jobs.items():
            caches = [st for st in job["steps"] if st.get("uses", "").startswith("actions/cache@")]
            self.assertEqual([c["with"]["path"] for c in caches], ["/var/cache/apt/archives"], name)
            self.assertEqual(job["container"], "debian:12", name)

    def test_gitlab(self):
        ci = self.load(".gitlab-ci.yml")
        self.assertEqual(ci["preset"]["parallel"]["matrix"][0]["PRESET"], M.preset_names())
        self.assertEqual(ci["preset"]["script"], ["make qemu-$PRESET test HOST=0 JUNIT=junit-$PRESET.xml"])
        self.assertEqual(ci["preset"]["artifacts"]["reports"]["junit"], "junit-$PRESET.xml")
        self.assertIn("failure-logs/", ci["preset"]["artifacts"]["paths"])
        self.assertIn("build/host/serial-logs", "\n".join(ci["default"]["after_script"]))
        self.assertEqual(ci["host"]["script"], ["make test-host JUNIT=junit-host.xml", "make lint"])
        self.assertEqual(ci["ubsan"]["script"], ["make ubsan"])
        self.assertEqual(ci["default"]["cache"]["paths"], [".apt-cache/"])
        self.assertEqual(ci["default"]["image"], "debian:12")


class Record(unittest.TestCase):
    """record and --bless against the fake console: what they write plays back."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.path = os.path.join(self.dir, "new.txt")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def record(self, typed, boots=2):
        import io
        R.record(M.Machine("x86"), self.path, None, 10, boots, io.StringIO(typed), lambda text: None,
                 argv=FAKE.split())
        with open(self.path) as f:
            return f.read()

    def test_record_then_play(self):
        text = self.record("uname -a\nfree\necho re: ... <BS>\n\nsu nobody\nexit\npanic\n")
        self.assertIn("presets: x86\n", text)
        self.assertIn("\nrndbits# echo re: ... <lt>BS>\n\\re: ... <BS>\n", text)
        self.assertIn("\nrndbits#\nrndbits# su nobody\nrndbits$ exit\nrndbits# panic\n", text)
        self.assertIn("re: rndbits x86 x86 page=4096 va_bits=32 machine=pc cpu=max rng=rdrand "
                      "build=\\S+ \\d{4}-\\d{2}-\\d{2}\n", text)
        self.assertTrue(text.endswith("rndbits: kernel panic: asked to\n[kernel exit 3]\n"), text)
        self.assertIsNone(play_file(self.path))

    def test_values_that_differ_between_boots_become_patterns(self):
        self.assertEqual(R.propose(["a 0x10 b 5", "same", ""], ["a 0x20 b 5", "same", ""]),
                         ["re: a 0x[0-9a-f]+ b 5", "same", "\\"])
        self.assertEqual(R.propose(["took 12 ms"], ["took 12 ms"]), [r"re: took \d+(\.\d+)? ?ms"])
        self.assertEqual(R.propose(["x", "y"], ["x"])[0],
                         "# record: 2 lines on one boot, 1 on another: check this output")
        self.assertEqual(R.generalise("mode one", "mode two"), "re: mode .*")

    def test_bless_rewrites_only_what_changed(self):
        with open(self.path, "w") as f:
            f.write("presets: x86\n# kept\nrndbits# echo a b\nstale\n...\n[check 1 == 1]\n"
                    "rndbits# uname\nrndbits\nrndbits# panic\nrndbits: kernel panic: asked to\n[exit 0]\n")
        self.assertIsNotNone(play_file(self.path))
        changed = R.bless(M.Machine("x86"), self.path, 10, 2, argv=FAKE.split())
        self.assertEqual(changed, ["`echo a b`", "exit status after `panic`"])
        with open(self.path) as f:
            self.assertEqual(f.read(), "presets: x86\n# kept\nrndbits# echo a b\na b\n[check 1 == 1]\n"
                             "rndbits# uname\nrndbits\nrndbits# panic\nrndbits: kernel panic: asked to\n"
                             "[kernel exit 3]\n")
        self.assertIsNone(play_file(self.path))


def play_file(path):
    from test_harness import play
    with open(path) as f:
        return play(f.read())


class Messages(unittest.TestCase):
    def test_other_runners(self):
        self.assertEqual(C.failure_message("[ RUN      ] a\n[  FAILED  ] test_pte: 1 test(s)\n"),
                         "[  FAILED  ] test_pte: 1 test(s)")
        self.assertEqual(C.failure_message("x\nboom\n\n"), "boom")
        self.assertEqual(C.failure_message(""), "failed with no output")


if __name__ == "__main__":
    unittest.main()
