#!/usr/bin/env bash
# Start-to-ready of gpuquota-controller at scale (#31 item 8): the test cluster with
# NAMESPACES namespaces and PODS running GPU pods, each controller binary started
# twice per database (an empty database: every interval written; then again: the same
# open rows, nothing to write), SQLite and PostgreSQL. Prints wall seconds from the
# launch to the first /readyz 200 and, in brackets, the controller's CPU seconds (user +
# system, all its threads; not the database server's) up to then, side by side per
# binary, and the load average (a shared machine's wall times swing with it; its CPU
# times much less).
#
#   bench/controller/measure-ready.sh BIN_DIR PG_URL LABEL=CONTROLLER [LABEL=CONTROLLER...]
#   env NAMESPACES (20000), PODS (50000)
# BIN_DIR holds gpuquota-testcluster; PG_URL a PostgreSQL database the bench may create
# schemas in (e.g. $GQ_TEST_PG_URL from scripts/start-services.sh); "-" skips it.
set -euo pipefail
bin_dir=${1:?usage: measure-ready.sh BIN_DIR PG_URL LABEL=CONTROLLER...}
pg_url=${2:?PG_URL (or -)}
shift 2
namespaces=${NAMESPACES:-20000}
pods=${PODS:-50000}
work=$(mktemp -d)
cluster_pid=
cleanup() {
    [ -n "$cluster_pid" ] && kill "$cluster_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

"$bin_dir/gpuquota-testcluster" --listen 127.0.0.1:0 --write-kubeconfig "$work/kubeconfig" \
    --scale-namespaces "$namespaces" --scale-pods "$pods" >"$work/cluster.out" 2>"$work/cluster.err" &
cluster_pid=$!
until grep -q '^ready ' "$work/cluster.out" 2>/dev/null; do
    kill -0 "$cluster_pid" || { cat "$work/cluster.err"; exit 1; }
    sleep 0.2
done
echo "cluster: $namespaces namespaces, $pods pods"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# One start: prints the seconds to the first /readyz 200 and the CPU seconds the
# controller used until then, "12.34 (5.67)" (or "timeout").
measure() {
    local binary=$1 db=$2 name=$3 port
    port=$(free_port)
    cat >"$work/$name.yaml" <<YAML
cluster: {kubeconfig: $work/kubeconfig, context: admin}
clusterName: bench
database: $db
listen: 127.0.0.1:$port
timeZone: UTC
spool: $work/$name-spool
YAML
    local start end pid
    start=$(date +%s.%N)
    "$binary" --config "$work/$name.yaml" >"$work/$name.log" 2>&1 &
    pid=$!
    local deadline=$((SECONDS + 300))
    until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz")" = 200 ]; do
        if [ $SECONDS -gt $deadline ] || ! kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
            echo timeout
            return
        fi
        sleep 0.05
    done
    end=$(date +%s.%N)
    local ticks
    ticks=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    # The first sync's states may still be written after ready: wait for them, so the
    # next start finds every row (its spool is another folder).
    until ! curl -s "http://127.0.0.1:$port/readyz" | grep -q '^writing '; do
        [ $SECONDS -gt $deadline ] && break
        sleep 0.2
    done
    kill -TERM "$pid"
    wait "$pid" 2>/dev/null || true
    printf '%.2f (%.2f)' "$(echo "$end - $start" | bc)" "$(echo "$ticks / $(getconf CLK_TCK)" | bc -l)"
}

printf '%-10s %-10s %16s %16s\n' binary database "empty db s (cpu)" "same rows s (cpu)"
run=0
for spec in "$@"; do
    label=${spec%%=*}
    binary=${spec#*=}
    dbs=("sqlite://$work/$label.db")
    [ "$pg_url" != - ] && dbs+=("$pg_url?schema=bench_ready_$$_$label")
    for db in "${dbs[@]}"; do
        run=$((run + 1))
        kind=${db%%:*}
        first=$(measure "$binary" "$db" "r$run-a")
        second=$(measure "$binary" "$db" "r$run-b")
        printf '%-10s %-10s %16s %16s\n' "$label" "$kind" "$first" "$second"
    done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
