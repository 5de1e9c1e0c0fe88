#!/usr/bin/env bash
# README command (2): install dependencies, build, start the test services, run every
# test suite and the fuzzers. Exits non-zero if anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
# The real Kubernetes for the `realcluster` suites (kube-apiserver, kube-controller-manager,
# kube-scheduler, kubectl, etcd, kwok) and Kueue, built from the official Go modules into
# ~/.cache/gpuquota beside the C++ build; a warm cache makes this a no-op.
mkdir -p build
scripts/real-cluster.sh build --kueue >build/real-cluster-build.log 2>&1 &
real_cluster_build_pid=$!
# The JupyterLab extension's wheel and the venv tests/jupyter runs JupyterLab from (npm
# and pip, from their caches when warm), beside the C++ build.
scripts/jupyterlab.sh >build/jupyterlab-build.log 2>&1 &
jupyterlab_build_pid=$!
# The ci preset builds without ccache (GQ_CCACHE=OFF, see cmake/CommonConfig.cmake): a
# fresh clone's first build gains nothing from a cold cache; build/ci is incremental.
# The fuzz preset keeps it (its tree is small).
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-5G}"

cmake --preset ci
cmake --build --preset ci
if ! wait "$real_cluster_build_pid"; then
  cat build/real-cluster-build.log
  echo "test-all: building the real Kubernetes failed (the realcluster suites need it)" >&2
  exit 1
fi
tail -n 12 build/real-cluster-build.log
if ! wait "$jupyterlab_build_pid"; then
  cat build/jupyterlab-build.log
  echo "test-all: building the JupyterLab extension failed (tst_jupyterlab needs it)" >&2
  exit 1
fi
tail -n 1 build/jupyterlab-build.log

# shellcheck source=start-services.sh
source scripts/start-services.sh
trap gq_stop_services EXIT
# Every service is up now, so no suite may skip for want of one: under CI=true the
# suites that would skip elsewhere (no PostgreSQL, no Prometheus, no kubectl, no root
# for a full-disk tmpfs) fail instead.
export CI=true

status=0
# The robustness suites first, on a quiet machine: tst_badinputs holds each input to a
# budget of CPU time, which a busy neighbour core inflates.
ctest --preset ci -j2 -L robustness || status=1

# Then the other suites, and beside them, at a lower priority so the suites keep the
# CPU they ask for, the work that needs no suite: the fuzz gate (its own clang build,
# then a fixed seed and input count, on one core) and every package this machine can
# build from the tree just built (no second build) with their checks (.deb/.tar.gz, the
# AppImage run with the system's Qt out of reach, the MSI definition built by wixl;
# scripts/check-packages.sh says what each checks). The suites wait on servers and
# timers much of the time; the two use that time, which keeps CI well within its limit.
mkdir -p build
GQ_JOBS=1 nice -n 10 scripts/run-fuzzers.sh --ci >build/fuzz-gate.log 2>&1 &
fuzz_pid=$!
nice -n 10 bash -c 'scripts/package.sh build/ci && scripts/check-packages.sh dist build/ci' \
  >build/packages.log 2>&1 &
packages_pid=$!
ctest --preset ci -j2 -LE robustness || status=1

if ! wait "$packages_pid"; then
  status=1
fi
cat build/packages.log
# Explore beyond the gate with `scripts/run-fuzzers.sh 600` and keep what it finds in
# fuzz/regressions/.
if ! wait "$fuzz_pid"; then
  status=1
fi
cat build/fuzz-gate.log
exit "$status"
