#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (preset `fuzz`) and runs each. Fails on any
# crash, leak, timeout or sanitizer report. A failing input is left in
# build/fuzz/<target>-crash-*; copy it to fuzz/regressions/<name>/ so the unit tests
# replay it for ever.
#
#   scripts/run-fuzzers.sh [SECONDS]   explore: each target for SECONDS (default 60) with
#                                      a random seed, growing build/fuzz/corpus/
#   scripts/run-fuzzers.sh --ci        the gate test-all.sh runs: a fixed seed and a fixed
#                                      number of inputs per target, from the committed
#                                      corpus only, so one commit always gives the same
#                                      verdict (~1 min per target on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
mode=explore
seconds=60
if [ "${1:-}" = "--ci" ]; then
  mode=ci
elif [ -n "${1:-}" ]; then
  seconds="$1"
fi
jobs="${GQ_JOBS:-2}"

# Inputs per target in --ci mode, about a minute each on this class of machine.
ci_runs() {
  case "$1" in
    quantity) echo 1000000 ;;
    yaml) echo 25000 ;;
    *) echo 20000 ;;
  esac
}

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
  args=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="build/fuzz/$name-")
  if [ "$mode" = ci ]; then
    work="build/fuzz/ci-corpus/$name"
    rm -rf "$work"
    args+=(-seed="${GQ_FUZZ_SEED:-1}" -runs="$(ci_runs "$short")")
  else
    args+=(-max_total_time="$seconds")
  fi
  mkdir -p "$work"
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
  if [ "$mode" = ci ]; then
    echo "fuzz: $name, $(ci_runs "$short") inputs from seed ${GQ_FUZZ_SEED:-1}"
  else
    echo "fuzz: $name for ${seconds}s"
  fi
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
