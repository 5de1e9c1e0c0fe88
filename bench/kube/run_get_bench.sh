#!/usr/bin/env bash
# `gpuquota get quotas -A -o json` versus `kubectl get resourcequota -A -o json`, side by
# side in the same run, against a test cluster holding NAMESPACES namespaces, each with a
# ResourceQuota and a LimitRange (gpuquota-testcluster --scale-namespaces).
#
#   bench/kube/run_get_bench.sh [BUILD_DIR] [NAMESPACES] [RUNS]
#   (defaults: build/release, 5000, 5)
#
# Both tools get one warm-up run (kubectl fills its discovery cache, in a private HOME),
# then RUNS alternating timed runs; the medians and their ratio are printed, and the two
# outputs are checked to hold the same objects. Goal (issue #3): gpuquota >= 3x faster.
set -euo pipefail

BUILD_DIR=${1:-build/release}
NAMESPACES=${2:-5000}
RUNS=${3:-5}
BIN="$BUILD_DIR/bin"
for tool in "$BIN/gpuquota" "$BIN/gpuquota-testcluster"; do
  [ -x "$tool" ] || { echo "missing $tool (build targets gpuquota and gpuquota-testcluster)" >&2; exit 2; }
done
command -v kubectl >/dev/null || { echo "kubectl is not on the PATH" >&2; exit 2; }

work=$(mktemp -d)
cluster_pid=""
cleanup() {
  if [ -n "$cluster_pid" ]; then kill -TERM "$cluster_pid" 2>/dev/null || true; wait "$cluster_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

"$BIN/gpuquota-testcluster" --listen 127.0.0.1:0 --write-kubeconfig "$work/kubeconfig" \
  --scale-namespaces "$NAMESPACES" --scale-pods 0 >"$work/cluster.out" 2>"$work/cluster.err" &
cluster_pid=$!
for _ in $(seq 1 600); do
  grep -q '^ready ' "$work/cluster.out" 2>/dev/null && break
  kill -0 "$cluster_pid" 2>/dev/null || { cat "$work/cluster.err" >&2; exit 1; }
  sleep 0.5
done
grep -q '^ready ' "$work/cluster.out" || { echo "test cluster did not become ready" >&2; exit 1; }

export HOME="$work/home" # kubectl's discovery cache lives here, not in the user's home
mkdir -p "$HOME"
KC="$work/kubeconfig"

now_ms() { date +%s%3N; }
run_gq() { "$BIN/gpuquota" --kubeconfig "$KC" get quotas -A -o json >"$work/gq.json"; }
run_kubectl() { kubectl --kubeconfig "$KC" get resourcequota -A -o json >"$work/kubectl.json"; }

run_gq
run_kubectl
count() { grep -c '"kind": "ResourceQuota"' "$1"; }
gq_items=$(count "$work/gq.json")
kc_items=$(count "$work/kubectl.json")
if [ "$gq_items" != "$kc_items" ] || [ "$gq_items" -lt "$NAMESPACES" ]; then
  echo "outputs differ: gpuquota has $gq_items quotas, kubectl $kc_items" >&2
  exit 1
fi
if command -v python3 >/dev/null; then
  python3 - "$work/gq.json" "$work/kubectl.json" <<'PY' || { echo "outputs are not the same objects" >&2; exit 1; }
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["kind"] == b["kind"] == "List"
assert a["items"] == b["items"], "items differ"
PY
fi

gq_times=()
kc_times=()
for _ in $(seq 1 "$RUNS"); do
  t0=$(now_ms); run_gq; t1=$(now_ms); gq_times+=($((t1 - t0)))
  t0=$(now_ms); run_kubectl; t1=$(now_ms); kc_times+=($((t1 - t0)))
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'; }
gq_med=$(median "${gq_times[@]}")
kc_med=$(median "${kc_times[@]}")

echo "cluster: $NAMESPACES namespaces, each with a ResourceQuota and a LimitRange; $gq_items quotas listed"
echo "output:  $(wc -c <"$work/gq.json") bytes (gpuquota), $(wc -c <"$work/kubectl.json") bytes (kubectl); same objects"
echo "kubectl: $(kubectl version --client 2>/dev/null | head -1)"
printf 'gpuquota get quotas -A -o json        median %6d ms   runs: %s\n' "$gq_med" "${gq_times[*]}"
printf 'kubectl get resourcequota -A -o json  median %6d ms   runs: %s\n' "$kc_med" "${kc_times[*]}"
awk -v g="$gq_med" -v k="$kc_med" 'BEGIN { if (g > 0) printf "ratio: gpuquota is %.1fx faster (goal >= 3x)\n", k / g }'
