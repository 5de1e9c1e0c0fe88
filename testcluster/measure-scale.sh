#!/usr/bin/env bash
# Measures gpuquota-testcluster at scale: start-up time, resident memory, and how
# long the real kubectl takes to list everything. Wall times on a shared machine
# swing with load, so CPU seconds are printed beside them.
#
#   testcluster/measure-scale.sh BIN_DIR [NAMESPACES] [PODS]
set -euo pipefail
bin_dir=${1:?usage: measure-scale.sh BIN_DIR [NAMESPACES] [PODS]}
namespaces=${2:-20000}
pods=${3:-50000}
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT

start=$(date +%s.%N)
"$bin_dir/gpuquota-testcluster" --listen 127.0.0.1:0 --write-kubeconfig "$work/kubeconfig" \
    --scale-namespaces "$namespaces" --scale-pods "$pods" >"$work/out" 2>"$work/err" &
pid=$!
until grep -q '^ready ' "$work/out" 2>/dev/null; do
    kill -0 "$pid" || { cat "$work/err"; exit 1; }
    sleep 0.2
done
ready=$(date +%s.%N)
ticks=$(getconf CLK_TCK)
cpu() { awk -v t="$ticks" '{printf "%.2f", ($14 + $15) / t}' "/proc/$pid/stat"; }
echo "objects: $(cat "$work/err")"
echo "start-up: wall $(echo "$ready - $start" | bc) s, server cpu $(cpu) s, rss $(($(ps -o rss= -p "$pid") / 1024)) MiB"
export KUBECONFIG="$work/kubeconfig"
kubectl --cache-dir "$work/cache" get --raw /version >/dev/null
for args in "get namespaces" "get namespaces -o json" "get resourcequotas -A -o json" "get pods -A"; do
    before=$(cpu)
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" kubectl --cache-dir "$work/cache" $args >"$work/list"
    read -r wall user sys rss <"$work/time"
    echo "kubectl $args: wall ${wall} s, kubectl cpu $(echo "$user + $sys" | bc) s (rss $((rss / 1024)) MiB), server cpu $(echo "$(cpu) - $before" | bc) s, $(wc -l <"$work/list") lines"
done
echo "server rss after listing: $(($(ps -o rss= -p "$pid") / 1024)) MiB"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
