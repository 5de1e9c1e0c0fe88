#!/usr/bin/env bash
# README command (1): install dependencies, build, and launch the console on its
# embedded demo (a local test cluster, GPU exporter and controller + a SQLite usage
# database in a temp dir).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake --preset release
cmake --build --preset release --target gpuquota-console gpuquota-testcluster gq-test-exporter gpuquota-controller gpuquota
exec build/release/bin/gpuquota-console --demo "$@"
