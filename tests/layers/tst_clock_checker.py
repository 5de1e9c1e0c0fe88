#!/usr/bin/env python3
"""The clock check must catch what it is there for. On a copy of the product's sources
it first passes (the tree as it is), then fails, naming the file, line and rule, once a
page, a service or a core library asks QDateTime for the time itself; the clock's own
file and the test folders stay outside it.

  tst_clock_checker.py --checker scripts/check-clock.py --source-dir SRC
"""

import argparse
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ARGS = None
FOLDERS = ("core", "services", "models", "widgets", "app")


def run(checker: Path, src: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(checker), "--source-dir", str(src)], capture_output=True, text=True,
                          timeout=60)


def inject(path: Path, code: str) -> int:
    """Appends `code` as the file's last line; returns its line number."""
    text = path.read_text(encoding="utf-8")
    if not text.endswith("\n"):
        text += "\n"
    path.write_text(text + code + "\n", encoding="utf-8")
    return text.count("\n") + 1


class ClockCheckerTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.src = Path(self.tmp.name) / "src"
        for folder in FOLDERS:
            for f in sorted((ARGS.source_dir / folder).rglob("*")):
                if f.suffix in (".h", ".cpp"):
                    dest = self.src / f.relative_to(ARGS.source_dir)
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy(f, dest)

    def tearDown(self):
        self.tmp.cleanup()

    def test_the_tree_as_it_is_passes(self):
        r = run(ARGS.checker, self.src)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_a_page_asking_the_system_fails(self):
        line = inject(self.src / "widgets/livegpus/livegpupage.cpp",
                      "static qint64 leak() { return QDateTime::currentMSecsSinceEpoch(); }")
        r = run(ARGS.checker, self.src)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn(f"widgets/livegpus/livegpupage.cpp:{line}: clock-only-now: calls QDateTime::currentMSecsSinceEpoch",
                      r.stdout)

    def test_a_service_and_a_core_library_fail(self):
        svc = inject(self.src / "services/livegpus/gpumonitor.cpp", "// QDateTime::currentDateTimeUtc()")
        core = inject(self.src / "core/usage/budget.cpp", "static auto t = QDateTime::currentSecsSinceEpoch();")
        r = run(ARGS.checker, self.src)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn(f"services/livegpus/gpumonitor.cpp:{svc}: clock-only-now", r.stdout)
        self.assertIn(f"core/usage/budget.cpp:{core}: clock-only-now", r.stdout)
        self.assertEqual(len(r.stdout.strip().splitlines()), 2, r.stdout)

    def test_the_clock_itself_may_ask(self):
        self.assertIn("QDateTime::current", (self.src / "core/domain/clock.h").read_text(encoding="utf-8"))
        r = run(ARGS.checker, self.src)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_a_missing_folder_is_an_error(self):
        shutil.rmtree(self.src / "widgets")
        r = run(ARGS.checker, self.src)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--checker", type=Path, required=True)
    p.add_argument("--source-dir", type=Path, required=True)
    ARGS, rest = p.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
