#!/usr/bin/env bash
# real-cluster.sh - a real Kubernetes control plane on loopback with simulated GPU nodes.
#
# Builds the upstream kube-apiserver, kube-controller-manager, kube-scheduler and kubectl
# from the official Go modules (through the Go module proxy), plus etcd and kwok, and runs
# them on 127.0.0.1 only. Nodes are fake (kwok); no container ever runs.
#
# Usage
#   scripts/real-cluster.sh build [--version 1.33|1.35] [--kueue]
#   scripts/real-cluster.sh start --dir DIR [--version 1.33|1.35] [--users FILE]
#                                 [--gpu-nodes N] [--gpus-per-node M] [--kueue]
#   scripts/real-cluster.sh stop  --dir DIR
#   scripts/real-cluster.sh env   --dir DIR        # prints: export KUBECONFIG=DIR/kubeconfig
#
# Pins
#   --version 1.35 (default) -> k8s.io/kubernetes v1.35.4  (staging modules k8s.io/* v0.35.4)
#   --version 1.33           -> k8s.io/kubernetes v1.33.13 (staging modules k8s.io/* v0.33.13)
#   etcd go.etcd.io/etcd/server/v3 v3.5.36 (wrapper main calling etcdmain.Main)
#   kwok sigs.k8s.io/kwok v0.7.0 (cmd/kwok)
#   kueue sigs.k8s.io/kueue v0.17.0 (cmd/kueue; its CRDs serve kueue.x-k8s.io v1beta1 and
#         v1beta2, v1beta2 stored) - only with --kueue
#   Built with the Go at $GO (default /usr/local/go/bin/go), GOTOOLCHAIN=local, under nice -n 10.
#
# Cache (rebuilt only when a binary is missing or a pin changed; see the .stamp files)
#   ${GQ_K8S_CACHE:-$HOME/.cache/gpuquota}/k8s-<version>/bin/{kube-apiserver,kube-controller-manager,kube-scheduler,kubectl}
#   ${GQ_K8S_CACHE:-$HOME/.cache/gpuquota}/tools/bin/{etcd,kwok}
#   The generated wrapper modules live next to them (k8s-<version>/src, tools/etcd-src, tools/kwok-src).
#   ${GQ_K8S_CACHE:-$HOME/.cache/gpuquota}/kueue-<version>/bin/kueue and manifests/ (the
#   release's CRDs and webhook configurations, copied from the module)
#   Build logs: <cache>/k8s-<version>/logs/, <cache>/tools/logs/, <cache>/kueue-<version>/logs/.
#
# start
#   Starts etcd, kube-apiserver (etcd compacted every 10 s, so an old resourceVersion
#   expires (410) within seconds as on a long-running cluster; TLS, x509 client certs,
#   --token-auth-file, service-account
#   keys/issuer, Node,RBAC, ResourceQuota+LimitRanger admission), kube-controller-manager,
#   kube-scheduler and kwok, all on 127.0.0.1 with free ports, then creates the Nodes
#   gpu-node-1..N (nvidia.com/gpu: M, cpu 64, memory 512Gi, pods 110, no taints).
#   Prints exactly one line "ready https://127.0.0.1:PORT" on stdout when everything is
#   ready (all other output goes to stderr), then stays in the foreground until
#   "real-cluster.sh stop --dir DIR", SIGTERM or SIGINT. Every child is started with
#   PR_SET_PDEATHSIG=SIGKILL, so a SIGKILLed script leaves nothing behind. If a component
#   dies the script stops the rest, prints the tail of that component's log, exits 1.
#   DIR/kubeconfig   context "admin" (client cert, O=system:masters), current-context admin
#   DIR/pki/         ca.crt/ca.key (one CA for serving and client certs), serving.crt (SAN
#                    127.0.0.1, localhost), admin/kube-controller-manager/kube-scheduler/kwok
#                    client certs, sa.key/sa.pub, front-proxy-ca + front-proxy-client
#   DIR/logs/        one log per component;  DIR/pids/  one pid file per component
#   DIR/ports.env    API_PORT, ETCD_PORT, ETCD_PEER_PORT, KCM_PORT, SCHED_PORT, KWOK_PORT
#   --users FILE     is given to --token-auth-file as is (format: token,user,uid,"group1,group2";
#                    read once at start). Without it DIR/users.csv is generated with the token
#                    "admin-token" for user "admin" in group system:masters.
#   Service accounts: issuer https://kubernetes.default.svc.cluster.local, so
#   "kubectl create token SA" and TokenReview work.
#   Admission: the defaults plus ResourceQuota and LimitRanger named explicitly.
#   DRA: 1.35 serves resource.k8s.io/v1 (GA, on by default); 1.33 keeps its defaults (its
#   resource.k8s.io beta APIs are off).
#   Controller-manager: --controllers=*, --resource-quota-sync-period=10s,
#   --concurrent-resource-quota-syncs=10, --use-service-account-credentials.
#   Nodes' InternalIP is 127.0.0.1 and pod IPs come from 127.64.0.0/16, so nothing (e.g.
#   "kubectl logs") ever dials a non-loopback address; the kubelet port is kwok's own port.
#   Starting again with the same DIR reuses DIR/pki and the etcd data in DIR/etcd.
#   --kueue          also installs Kueue's CRDs and webhook configurations (clientConfig.url
#                    https://127.0.0.1:KUEUE_WEBHOOK_PORT, the CA of DIR/pki) and runs the Kueue
#                    manager (DIR/kueue/config.yaml: batch/job integration only, no internal
#                    cert management, no leader election); ready before "ready" is printed
#                    (scripts/real-cluster/kueue-start.sh). Ports in DIR/ports.env.
#
# What kwok simulates (stages in scripts/real-cluster/kwok-stages.yaml)
#   - Nodes with annotation kwok.x-k8s.io/node=fake become Ready and keep heartbeating (Lease).
#   - A pod bound to such a node becomes Running: status.phase=Running, status.startTime,
#     conditions Ready, and every container state.running.startedAt (like a kubelet).
#   - A pod with annotation gpuquota.io/test-run-seconds: "N" and restartPolicy Never or
#     OnFailure goes to Succeeded N seconds after it started (containers terminated, exit 0).
#     Pods of Jobs are treated like any other pod: they stay Running unless annotated
#     (kwok's own default stages would complete every Job pod at once).
#   - A deleted pod (deletionTimestamp set) is deleted again by kwok with grace period 0, as
#     the kubelet does once the containers are gone, so it disappears at once unless it
#     still has finalizers. kwok does not remove finalizers (its default stage would).
#   Recipe: a pod stuck in Terminating
#     a) Finalizer: create the pod with metadata.finalizers: ["gpuquota.io/test-hold"].
#        After "kubectl delete pod P --wait=false" it stays Terminating (phase Running,
#        deletionTimestamp set, deletionGracePeriodSeconds 0) until the finalizer is removed:
#          kubectl patch pod P --type=json -p '[{"op":"remove","path":"/metadata/finalizers"}]'
#        then it disappears.
#     b) Annotation: gpuquota.io/test-hold: "true" makes kwok ignore the deletion; the pod
#        stays Terminating with its normal grace period (deletionGracePeriodSeconds 30,
#        deletionTimestamp = delete time + 30 s) for as long as the annotation is there
#        (nothing else deletes it: the node stays Ready). Removing the annotation
#        ("kubectl annotate pod P gpuquota.io/test-hold-") lets kwok finish the deletion.
#
# Environment
#   GQ_K8S_CACHE  cache root (default $HOME/.cache/gpuquota)
#   GO            the go binary (default /usr/local/go/bin/go)
#   GQ_READY_TIMEOUT  seconds to wait for readiness in start (default 120)
#   GQ_APISERVER_EXTRA_ARGS  more kube-apiserver flags for start, split on blanks
#                     (e.g. --goaway-chance=0.02: GOAWAY on 2 % of HTTP/2 requests)

set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ASSETS="$SCRIPT_DIR/real-cluster"
GO=${GO:-/usr/local/go/bin/go}
CACHE_ROOT=${GQ_K8S_CACHE:-$HOME/.cache/gpuquota}
TOOLS_DIR="$CACHE_ROOT/tools"
ETCD_VERSION=v3.5.36
KWOK_VERSION=v0.7.0
DEFAULT_VERSION=1.35
K8S_COMPONENTS=(kube-apiserver kube-controller-manager kube-scheduler kubectl)

export GOTOOLCHAIN=local
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-buildvcs=false"
export CGO_ENABLED=0

BUILD_PID=""

# kill_tree PID: PID and all its descendants (used for an interrupted build)
kill_tree() {
    local pid=$1 child
    for child in $(ps -o pid= --ppid "$pid" 2>/dev/null); do kill_tree "$child"; done
    kill -TERM "$pid" 2>/dev/null || true
}

log() { printf '[real-cluster] %s\n' "$*" >&2; }
die() { printf '[real-cluster] error: %s\n' "$*" >&2; exit 1; }

k8s_pin() {
    case "$1" in
        1.33) echo v1.33.13 ;;
        1.35) echo v1.35.4 ;;
        *) die "unsupported --version '$1' (use 1.33 or 1.35)" ;;
    esac
}

# The commands and their parts, in scripts/real-cluster/ (see the comment at the top of each)
# shellcheck source-path=SCRIPTDIR source=real-cluster/build.sh
source "$ASSETS/build.sh"
# shellcheck source-path=SCRIPTDIR source=real-cluster/processes.sh
source "$ASSETS/processes.sh"
# shellcheck source-path=SCRIPTDIR source=real-cluster/pki.sh
source "$ASSETS/pki.sh"
# shellcheck source-path=SCRIPTDIR source=real-cluster/start.sh
source "$ASSETS/start.sh"
# shellcheck source-path=SCRIPTDIR source=real-cluster/kueue-build.sh
source "$ASSETS/kueue-build.sh"
# shellcheck source-path=SCRIPTDIR source=real-cluster/kueue-start.sh
source "$ASSETS/kueue-start.sh"

# ---------------------------------------------------------------------------------------------
# stop / env
# ---------------------------------------------------------------------------------------------

# dir_arg VERB ARGS...: the DIR of --dir DIR (or --dir=DIR), the one option of stop and env
dir_arg() {
    local verb=$1 dir=""
    shift
    while (($#)); do
        case "$1" in
            --dir) dir=${2:?--dir needs a value}; shift 2 ;;
            --dir=*) dir=${1#*=}; shift ;;
            *) die "$verb: unknown argument '$1'" ;;
        esac
    done
    [[ -n $dir ]] || die "$verb: --dir DIR is required"
    printf '%s\n' "$dir"
}

cmd_stop() {
    local dir
    dir=$(dir_arg stop "$@") || exit 1
    [[ -d $dir ]] || { log "nothing to stop ($dir does not exist)"; return 0; }
    dir=$(cd "$dir" && pwd)
    local pid t
    pid=$(cat "$dir/pids/real-cluster.pid" 2>/dev/null || true)
    if pid_is real-cluster "$pid"; then
        log "stopping the cluster of $dir (pid $pid)"
        touch "$dir/stop-requested"
        kill -TERM "$pid" 2>/dev/null || true
        for ((t = 0; t < 300; t++)); do
            pid_is real-cluster "$pid" || break
            sleep 0.1
        done
        if pid_is real-cluster "$pid"; then
            log "the start script (pid $pid) did not stop in 30s; killing it"
            kill -KILL "$pid" 2>/dev/null || true
        fi
    fi
    # whatever is still recorded (e.g. the start script was SIGKILLed)
    local f name cpid
    for f in "$dir"/pids/*.pid; do
        [[ -e $f ]] || continue
        name=$(basename "$f" .pid)
        cpid=$(cat "$f" 2>/dev/null || true)
        if [[ $name != real-cluster ]] && pid_is "$dir" "$cpid"; then
            kill -TERM "$cpid" 2>/dev/null || true
            for ((t = 0; t < 50; t++)); do
                kill -0 "$cpid" 2>/dev/null || break
                sleep 0.1
            done
            kill -KILL "$cpid" 2>/dev/null || true
        fi
        rm -f "$f"
    done
    rm -f "$dir/stop-requested"
    log "stopped ($dir)"
}

cmd_env() {
    local dir
    dir=$(dir_arg env "$@") || exit 1
    [[ -d $dir ]] || die "env: $dir does not exist"
    dir=$(cd "$dir" && pwd)
    printf 'export KUBECONFIG=%q\n' "$dir/kubeconfig"
}

# ---------------------------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------------------------

main() {
    local cmd=${1:-}
    (($#)) && shift
    case "$cmd" in
        build) cmd_build "$@" ;;
        start) cmd_start "$@" ;;
        stop) cmd_stop "$@" ;;
        env) cmd_env "$@" ;;
        -h|--help|help) sed -n '2,/^$/p' "$0" | sed 's/^# \{0,1\}//' >&2 ;;
        *) die "usage: $0 build|start|stop|env ... (see the comment at the top of $0)" ;;
    esac
}

main "$@"
