#!/usr/bin/env bash
# README command (2): install dependencies, build, start the test services, run every
# test suite and the fuzzers. Exits non-zero if anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"
# Relative paths in the cache key, so a fresh clone elsewhere reuses earlier compiles.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-5G}"

cmake --preset ci
cmake --build --preset ci

# shellcheck source=start-services.sh
source scripts/start-services.sh
trap gq_stop_services EXIT

ctest --preset ci -j2

# Every package this machine can build, from the tree just built (no second build),
# and their checks: .deb/.tar.gz, the AppImage run with the system's Qt out of reach,
# the MSI definition built by wixl (scripts/check-packages.sh says what each checks).
scripts/package.sh build/ci
scripts/check-packages.sh dist build/ci

# The fuzz gate is reproducible (fixed seed and input count); explore with
# `scripts/run-fuzzers.sh 600` and keep what it finds in fuzz/regressions/.
scripts/run-fuzzers.sh --ci
