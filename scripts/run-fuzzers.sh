#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (preset `fuzz`) and runs each for a bounded
# time (first argument, seconds; default 60). Fails on any crash, leak, timeout or
# sanitizer report. A failing input is left in build/fuzz/<target>-crash-*; copy it to
# fuzz/regressions/<name>/ so tests/core/tst_fuzzregressions replays it for ever.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
jobs="${GQ_JOBS:-2}"

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$jobs"

status=0
found=0
for bin in build/fuzz/bin/fuzz_*; do
  [ -x "$bin" ] || continue
  found=1
  name=$(basename "$bin")
  short="${name#fuzz_}"
  work="build/fuzz/corpus/$name"
  mkdir -p "$work"
  args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
        -artifact_prefix="build/fuzz/$name-")
  [ -f "fuzz/$short.dict" ] && args+=(-dict="fuzz/$short.dict")
  dirs=("$work")
  [ -d "fuzz/corpus/$short" ] && dirs+=("fuzz/corpus/$short")
  # Replay the kept regressions first: a fixed crash must stay fixed.
  if [ -d "fuzz/regressions/$short" ] && [ -n "$(ls -A "fuzz/regressions/$short")" ]; then
    if ! "$bin" -runs=0 -artifact_prefix="build/fuzz/$name-regression-" "fuzz/regressions/$short" \
        >"build/fuzz/$name.regressions.log" 2>&1; then
      echo "fuzz: $name FAILED on a kept regression input"
      tail -n 40 "build/fuzz/$name.regressions.log"
      status=1
      continue
    fi
  fi
  echo "fuzz: $name for ${seconds}s"
  if ! "$bin" "${args[@]}" "${dirs[@]}" >"build/fuzz/$name.log" 2>&1; then
    echo "fuzz: $name FAILED (artifacts: build/fuzz/$name-*)"
    tail -n 60 "build/fuzz/$name.log"
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb|Done [0-9]+ runs" "build/fuzz/$name.log" | tail -n 3
  fi
done
if [ "$found" = 0 ]; then
  echo "fuzz: no fuzz targets were built" >&2
  exit 1
fi
exit $status
