#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (preset `fuzz`) and runs each for a bounded
# time. Fails on any crash, leak or sanitizer report. Crashers found are kept in
# fuzz/regressions/<target>/ and replayed by the unit tests.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz

status=0
for bin in build/fuzz/bin/fuzz_*; do
  [ -x "$bin" ] || continue
  name=$(basename "$bin")
  work="build/fuzz/corpus/$name"
  mkdir -p "$work"
  seeds="fuzz/corpus/${name#fuzz_}"
  echo "fuzz: $name for ${seconds}s"
  if ! "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="build/fuzz/$name-" "$work" ${seeds:+$( [ -d "$seeds" ] && echo "$seeds")} \
      >"build/fuzz/$name.log" 2>&1; then
    echo "fuzz: $name FAILED"; tail -n 60 "build/fuzz/$name.log"; status=1
  else
    grep -E "stat::number_of_executed_units|Done" "build/fuzz/$name.log" | tail -n 2
  fi
done
exit $status
