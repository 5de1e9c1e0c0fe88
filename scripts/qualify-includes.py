#!/usr/bin/env python3
"""Every quoted include of one of our own headers names the header's path from the
repository root (`#include "core/usage/budget.h"`, `#include "services/quotas/quotawriter.h"`),
so a reader sees at the include which library, layer and feature a header belongs to.
The build has one include root, the repository; tst_layers runs the check.

  qualify-includes.py --source-dir SRC            check: one line per bare include, exit 1
  qualify-includes.py --source-dir SRC --fix      rewrite them in place

Headers generated into the build tree (Qt's moc output, version headers) and system
headers are not ours and stay as written.
"""

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

SOURCE_SUFFIXES = (".cpp", ".h", ".mm")
RULE = "include-by-repository-path"
INCLUDE = re.compile(r'^(\s*#\s*include\s+)"([^"]+)"', re.MULTILINE)


def tracked_files(src: Path) -> list[str]:
    """Files git knows, or every file when SRC is not a work tree (a release tarball)."""
    try:
        out = subprocess.run(["git", "-C", str(src), "ls-files", "--cached", "--others",
                              "--exclude-standard"], check=True, capture_output=True,
                             text=True).stdout
        return [line for line in out.splitlines() if line]
    except (OSError, subprocess.CalledProcessError):
        skip = {"build", ".git", "node_modules", "dist"}
        found = []
        for root, dirs, files in os.walk(src):
            dirs[:] = [d for d in dirs if d not in skip]
            for name in files:
                found.append(os.path.relpath(os.path.join(root, name), src))
        return found


def index_headers(files: list[str]) -> dict[str, list[str]]:
    by_name: dict[str, list[str]] = {}
    for f in files:
        if f.endswith(".h") and not f.startswith(("build/", "jupyterlab/")):
            by_name.setdefault(os.path.basename(f), []).append(f)
    return by_name


def resolve(including: str, written: str, headers: set[str],
            by_name: dict[str, list[str]]) -> str | None:
    """The repository path of the header WRITTEN in INCLUDING, or None when not ours."""
    if written in headers:
        return written
    beside = os.path.normpath(os.path.join(os.path.dirname(including), written))
    if beside in headers:
        return beside
    candidates = [h for h in by_name.get(os.path.basename(written), [])
                  if h == written or h.endswith("/" + written)]
    return candidates[0] if len(candidates) == 1 else None


def bare_includes(src: Path, fix: bool = False) -> list[str]:
    """One line per include of ours not written as its repository path ("FILE:LINE:
    include-by-repository-path: ..."); with FIX, rewrites them in place instead."""
    files = tracked_files(src)
    by_name = index_headers(files)
    headers = {h for names in by_name.values() for h in names}
    out = []
    for f in files:
        if not f.endswith(SOURCE_SUFFIXES) or f.startswith(("build/", "jupyterlab/")):
            continue
        path = src / f
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")

        def rewrite(m: re.Match) -> str:
            target = resolve(f, m.group(2), headers, by_name)
            if target is None or target == m.group(2):
                return m.group(0)
            line = text.count("\n", 0, m.start()) + 1
            out.append(f'{f}:{line}: {RULE}: "{m.group(2)}" is written "{target}"')
            return f'{m.group(1)}"{target}"'

        fixed = INCLUDE.sub(rewrite, text)
        if fix and fixed != text:
            path.write_text(fixed, encoding="utf-8")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source-dir", required=True, type=Path)
    ap.add_argument("--fix", action="store_true")
    args = ap.parse_args()
    found = bare_includes(args.source_dir.resolve(), fix=args.fix)
    if args.fix:
        print(f"rewrote {len(found)} includes")
        return 0
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
