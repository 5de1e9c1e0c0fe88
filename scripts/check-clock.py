#!/usr/bin/env python3
"""Every "now" goes through the injectable clock (core/domain/clock.h): no file of the
product's folders asks QDateTime for the current time itself. Run by ctest as
tst_clockcalls (label unit).

  check-clock.py --source-dir SRC

Exit 0 when no call is found, 1 with one line per call ("FILE:LINE: clock-only-now:
..."), 2 when a folder is missing (the check must not pass by reading nothing).

Outside the check: tests/ and bench/ (they measure and pin time themselves), fuzz/,
and testcluster/ (it stands in for the API server, whose clock is the system's).
"""

import argparse
import re
import sys
from pathlib import Path

FOLDERS = ("core", "services", "models", "widgets", "app")
CLOCK_FILE = "core/domain/clock.h"  # the one file that asks the system
CALL_RE = re.compile(r"QDateTime::current\w*")
RULE = "clock-only-now"


def breaches(src: Path) -> list[str]:
    out = []
    for folder in FOLDERS:
        for f in sorted(list((src / folder).rglob("*.h")) + list((src / folder).rglob("*.cpp"))):
            rel = f.relative_to(src).as_posix()
            if rel == CLOCK_FILE:
                continue
            text = f.read_text(encoding="utf-8", errors="replace")
            for m in CALL_RE.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                out.append(f"{rel}:{line}: {RULE}: calls {m.group(0)}; ask a Clock "
                           f"(Clock::system() or the injected one: nowSecs, nowMSecs, nowUtc)")
    return out


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--source-dir", type=Path, required=True)
    a = p.parse_args(argv)
    missing = [f for f in FOLDERS if not (a.source_dir / f).is_dir()]
    if missing or not (a.source_dir / CLOCK_FILE).is_file():
        print(f"check-clock: {a.source_dir} lacks {missing or CLOCK_FILE} (the check would read nothing)",
              file=sys.stderr)
        return 2
    found = breaches(a.source_dir)
    for b in found:
        print(b)
    if found:
        print(f"check-clock: {len(found)} call(s) of QDateTime::current* outside {CLOCK_FILE}", file=sys.stderr)
        return 1
    print("check-clock: every now goes through the clock")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
