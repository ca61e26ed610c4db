"""tools/aslr_report.py (`make qemu-<preset> report`), headless: from a recorded console log of
`aslr sample 40 --csv --objects` on arm64-4k-va48 (aslr_report_sample.log), the page it writes
references only files that exist beside it, its statistics table parses with one row per object
whose figures are the kernel's, and the CSV it keeps holds every sample."""

import csv
import html.parser
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools", "aslr_report.py")
LOG = os.path.join(HERE, "aslr_report_sample.log")


class Page(html.parser.HTMLParser):
    """The references (img src, a href) and the cells of table#stats."""

    def __init__(self):
        super().__init__()
        self.refs, self.rows, self.in_stats, self.cell = [], [], False, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "img":
            self.refs.append(a["src"])
        elif tag == "a" and "href" in a:
            self.refs.append(a["href"])
        elif tag == "table" and a.get("id") == "stats":
            self.in_stats = True
        elif tag == "tr" and self.in_stats:
            self.rows.append([])
        elif tag in ("td", "th") and self.in_stats:
            self.cell = ""

    def handle_endtag(self, tag):
        if tag == "table":
            self.in_stats = False
        elif tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(self.cell)
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


@unittest.skipUnless(shutil.which("gnuplot"), "gnuplot is not installed (make deps-plot)")
class Report(unittest.TestCase):
    def setUp(self):
        self.out = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.out)

    def test_page_from_log(self):
        r = subprocess.run([sys.executable, TOOL, "arm64-4k-va48", "--from-log", LOG, "--out", self.out],
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        page = Page()
        with open(os.path.join(self.out, "index.html")) as f:
            page.feed(f.read())
        # Every picture and link is a file beside the page (nothing from the network).
        self.assertTrue(any(ref.endswith(".svg") for ref in page.refs))
        for ref in page.refs:
            self.assertNotIn("://", ref)
            path = os.path.join(self.out, ref)
            self.assertTrue(os.path.isfile(path) and os.path.getsize(path) > 0, ref)
            if ref.endswith(".svg"):
                with open(path) as f:
                    self.assertIn("<svg", f.read(4096))
        # The table: a header and one row per object, as many cells each; the figures are the
        # kernel's aslr-object lines'.
        header, rows = page.rows[0], {r[0]: r for r in page.rows[1:]}
        self.assertEqual(header[0], "object")
        self.assertEqual(set(rows), {"text", "data", "brk", "stack", "sp", "mmap", "vdso"})
        self.assertTrue(all(len(r) == len(header) for r in rows.values()))
        col = {name: i for i, name in enumerate(header)}
        with open(LOG) as f:
            kernel = {w.split("=")[1]: dict(kv.split("=", 1) for kv in ln.split()[1:])
                      for ln in f for w in ln.split()[1:2] if ln.startswith("aslr-object:") and "absent" not in ln}
        self.assertEqual(rows["mmap"][col["distinct"]], kernel["mmap"]["distinct"])
        self.assertEqual(rows["mmap"][col["min"]], kernel["mmap"]["min"])
        self.assertEqual(rows["vdso"][1], "-")
        with open(os.path.join(self.out, "samples.csv")) as f:
            samples = list(csv.DictReader(f))
        self.assertEqual(len(samples), 40)
        self.assertEqual(min(int(s["mmap"], 16) for s in samples), int(kernel["mmap"]["min"], 16))


if __name__ == "__main__":
    unittest.main()
