#!/usr/bin/env bash
# real-cluster.sh - a real Kubernetes control plane on loopback with simulated GPU nodes.
#
# Builds the upstream kube-apiserver, kube-controller-manager, kube-scheduler and kubectl
# from the official Go modules (through the Go module proxy), plus etcd and kwok, and runs
# them on 127.0.0.1 only. Nodes are fake (kwok); no container ever runs.
#
# Usage
#   scripts/real-cluster.sh build [--version 1.33|1.35]
#   scripts/real-cluster.sh start --dir DIR [--version 1.33|1.35] [--users FILE]
#                                 [--gpu-nodes N] [--gpus-per-node M]
#   scripts/real-cluster.sh stop  --dir DIR
#   scripts/real-cluster.sh env   --dir DIR        # prints: export KUBECONFIG=DIR/kubeconfig
#
# Pins
#   --version 1.35 (default) -> k8s.io/kubernetes v1.35.4  (staging modules k8s.io/* v0.35.4)
#   --version 1.33           -> k8s.io/kubernetes v1.33.13 (staging modules k8s.io/* v0.33.13)
#   etcd go.etcd.io/etcd/server/v3 v3.5.36 (wrapper main calling etcdmain.Main)
#   kwok sigs.k8s.io/kwok v0.7.0 (cmd/kwok)
#   Built with the Go at $GO (default /usr/local/go/bin/go), GOTOOLCHAIN=local, under nice -n 10.
#
# Cache (rebuilt only when a binary is missing or a pin changed; see the .stamp files)
#   ${GQ_K8S_CACHE:-$HOME/.cache/gpuquota}/k8s-<version>/bin/{kube-apiserver,kube-controller-manager,kube-scheduler,kubectl}
#   ${GQ_K8S_CACHE:-$HOME/.cache/gpuquota}/tools/bin/{etcd,kwok}
#   The generated wrapper modules live next to them (k8s-<version>/src, tools/etcd-src, tools/kwok-src).
#   Build logs: <cache>/k8s-<version>/logs/, <cache>/tools/logs/.
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

# ---------------------------------------------------------------------------------------------
# build
# ---------------------------------------------------------------------------------------------

# build_one NAME LOGFILE CMD... : runs a build step, times it, on failure names it and shows
# the last 30 lines of its log.
build_one() {
    local name=$1 logf=$2
    shift 2
    local t0=$SECONDS
    log "building $name ..."
    # in the background so that set -e applies inside shell functions too
    local rc=0
    ("$@") >>"$logf" 2>&1 </dev/null &
    BUILD_PID=$!
    wait $! || rc=$?
    BUILD_PID=""
    if ((rc != 0)); then
        printf '[real-cluster] error: building %s failed (log: %s); last 30 lines:\n' "$name" "$logf" >&2
        tail -n 30 "$logf" >&2
        exit 1
    fi
    log "built $name in $((SECONDS - t0))s"
}

gobuild() { nice -n 10 "$GO" "$@"; }

# go_build_in SRC OUT LDFLAGS PKG: (go mod tidy once, then) go build into OUT atomically
go_build_in() {
    local src=$1 out=$2 ldflags=$3 pkg=$4
    cd "$src"
    if [[ ! -e .tidy-ok ]]; then
        gobuild mod tidy
        touch .tidy-ok
    fi
    gobuild build -trimpath -ldflags="$ldflags" -o "$out.tmp" "$pkg"
    mv "$out.tmp" "$out"
}

k8s_wrapper_module() {
    # $1 = src dir, $2 = kubernetes version (vX.Y.Z)
    local src=$1 kver=$2 stagever upstream_mod
    stagever="v0.${kver#v1.}"
    mkdir -p "$src"
    upstream_mod="$src/kubernetes-upstream.mod"
    if [[ ! -s $upstream_mod ]]; then
        (cd "$src" && gobuild mod download -json "k8s.io/kubernetes@$kver" >download.json)
        local gomod
        gomod=$(sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p' "$src/download.json")
        [[ -s $gomod ]] || die "cannot find go.mod of k8s.io/kubernetes@$kver in the module cache"
        cp "$gomod" "$upstream_mod"
    fi
    local godir godebug staging
    godir=$(sed -n 's/^go \([0-9.]*\)$/\1/p' "$upstream_mod" | head -n1)
    godebug=$(grep -E '^godebug ' "$upstream_mod" || true)
    # every k8s.io/* module required at v0.0.0 is a staging module published as v0.MINOR.PATCH
    staging=$(awk '$1 ~ /^k8s\.io\// && $2 == "v0.0.0" {print $1}' "$upstream_mod" | sort -u)
    {
        echo "// Generated by scripts/real-cluster.sh - builds k8s.io/kubernetes $kver binaries."
        echo "module gpuquota.local/k8s-wrapper"
        echo
        echo "go ${godir:-1.25.0}"
        [[ -n $godebug ]] && echo "$godebug"
        echo
        echo "require k8s.io/kubernetes $kver"
        echo
        echo "replace ("
        local m
        for m in $staging; do echo "	$m => $m $stagever"; done
        echo ")"
    } >"$src/go.mod.new"
    cat >"$src/tools.go" <<'EOF'
//go:build tools

// Generated by scripts/real-cluster.sh: pins the commands built from k8s.io/kubernetes.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
	_ "k8s.io/kubernetes/cmd/kubectl"
)
EOF
    if ! cmp -s "$src/go.mod.new" "$src/go.mod.gen"; then
        cp "$src/go.mod.new" "$src/go.mod"
        cp "$src/go.mod.new" "$src/go.mod.gen"
        rm -f "$src/go.sum" "$src/.tidy-ok"
    fi
    rm -f "$src/go.mod.new"
    if [[ ! -e $src/.tidy-ok ]]; then
        (cd "$src" && gobuild mod tidy)
        touch "$src/.tidy-ok"
    fi
}

build_k8s() {
    local version=$1 kver dir bin src logs stamp want
    kver=$(k8s_pin "$version")
    dir="$CACHE_ROOT/k8s-$version"
    bin="$dir/bin"; src="$dir/src"; logs="$dir/logs"
    stamp="$bin/.stamp"
    want="kubernetes=$kver go=$("$GO" env GOVERSION) components=${K8S_COMPONENTS[*]}"
    mkdir -p "$bin" "$src" "$logs"
    if [[ -f $stamp && $(cat "$stamp") != "$want" ]]; then
        log "pins changed for k8s-$version (was: $(cat "$stamp")); rebuilding"
        rm -f "$stamp"
        local c
        for c in "${K8S_COMPONENTS[@]}"; do rm -f "${bin:?}/$c"; done
    fi
    local missing=()
    local c
    for c in "${K8S_COMPONENTS[@]}"; do [[ -x $bin/$c ]] || missing+=("$c"); done
    if ((${#missing[@]} == 0)) && [[ -f $stamp ]]; then
        log "k8s $kver: up to date in $bin"
        return 0
    fi
    : >"$logs/modules.log"
    build_one "k8s.io/kubernetes $kver wrapper module (download + tidy)" "$logs/modules.log" \
        k8s_wrapper_module "$src" "$kver"
    local minor=${kver#v1.}; minor=${minor%%.*}
    local vpkg ldflags="-s -w"
    for vpkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
        ldflags+=" -X $vpkg.gitVersion=$kver -X $vpkg.gitMajor=1 -X $vpkg.gitMinor=$minor"
        ldflags+=" -X $vpkg.gitTreeState=clean -X $vpkg.buildDate=1970-01-01T00:00:00Z"
    done
    for c in "${missing[@]}"; do
        : >"$logs/$c.log"
        build_one "$c ($kver)" "$logs/$c.log" go_build_in "$src" "$bin/$c" "$ldflags" "k8s.io/kubernetes/cmd/$c"
    done
    echo "$want" >"$stamp"
}

build_etcd() {
    local bin="$TOOLS_DIR/bin" src="$TOOLS_DIR/etcd-src" logs="$TOOLS_DIR/logs"
    local stamp="$bin/.etcd.stamp" want
    want="etcd=$ETCD_VERSION go=$("$GO" env GOVERSION)"
    mkdir -p "$bin" "$src" "$logs"
    if [[ -x $bin/etcd && -f $stamp && $(cat "$stamp") == "$want" ]]; then
        log "etcd $ETCD_VERSION: up to date in $bin"
        return 0
    fi
    rm -f "$bin/etcd" "$stamp"
    if ! grep -qs "go.etcd.io/etcd/server/v3 $ETCD_VERSION\$" "$src/go.mod"; then
        rm -f "$src/go.mod" "$src/go.sum" "$src/.tidy-ok"
        cat >"$src/go.mod" <<EOF
// Generated by scripts/real-cluster.sh - etcd server wrapper.
module gpuquota.local/etcd-wrapper

go 1.23

require go.etcd.io/etcd/server/v3 $ETCD_VERSION
EOF
    fi
    cat >"$src/main.go" <<'EOF'
// Generated by scripts/real-cluster.sh: the etcd server binary (same as etcd's own main).
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
EOF
    : >"$logs/etcd.log"
    build_one "etcd $ETCD_VERSION" "$logs/etcd.log" go_build_in "$src" "$bin/etcd" "-s -w" .
    echo "$want" >"$stamp"
}

build_kwok() {
    local bin="$TOOLS_DIR/bin" src="$TOOLS_DIR/kwok-src" logs="$TOOLS_DIR/logs"
    local stamp="$bin/.kwok.stamp" want
    want="kwok=$KWOK_VERSION go=$("$GO" env GOVERSION)"
    mkdir -p "$bin" "$src" "$logs"
    if [[ -x $bin/kwok && -f $stamp && $(cat "$stamp") == "$want" ]]; then
        log "kwok $KWOK_VERSION: up to date in $bin"
        return 0
    fi
    rm -f "$bin/kwok" "$stamp"
    if ! grep -qs "sigs.k8s.io/kwok $KWOK_VERSION\$" "$src/go.mod"; then
        rm -f "$src/go.mod" "$src/go.sum" "$src/.tidy-ok"
        cat >"$src/go.mod" <<EOF
// Generated by scripts/real-cluster.sh - kwok wrapper.
module gpuquota.local/kwok-wrapper

go 1.24.0

require sigs.k8s.io/kwok $KWOK_VERSION
EOF
    fi
    cat >"$src/tools.go" <<'EOF'
//go:build tools

// Generated by scripts/real-cluster.sh: pins sigs.k8s.io/kwok/cmd/kwok.
package tools

import _ "sigs.k8s.io/kwok/cmd/kwok"
EOF
    : >"$logs/kwok.log"
    build_one "kwok $KWOK_VERSION" "$logs/kwok.log" go_build_in "$src" "$bin/kwok" \
        "-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=${KWOK_VERSION#v}" sigs.k8s.io/kwok/cmd/kwok
    echo "$want" >"$stamp"
}

cmd_build() {
    local version=$DEFAULT_VERSION
    while (($#)); do
        case "$1" in
            --version) version=${2:?--version needs a value}; shift 2 ;;
            --version=*) version=${1#*=}; shift ;;
            -h|--help) sed -n '2,/^$/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 0 ;;
            *) die "build: unknown argument '$1'" ;;
        esac
    done
    k8s_pin "$version" >/dev/null
    [[ -x $GO ]] || die "no go at $GO (set GO=...)"
    local t0=$SECONDS
    build_etcd
    build_kwok
    build_k8s "$version"
    log "build done in $((SECONDS - t0))s"
}

# ---------------------------------------------------------------------------------------------
# start / stop / env
# ---------------------------------------------------------------------------------------------

PY=/usr/bin/python3
[[ -x $PY ]] || PY=python3

# free_ports N: N distinct free TCP ports on 127.0.0.1 (bound together, then released)
free_ports() {
    "$PY" - "$1" <<'EOF'
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
EOF
}

# pid_is NAME PID: true when PID is alive and its command line mentions NAME
pid_is() {
    local name=$1 pid=$2
    [[ $pid =~ ^[0-9]+$ ]] || return 1
    kill -0 "$pid" 2>/dev/null || return 1
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$name"
}

# ---- PKI -------------------------------------------------------------------------------------

make_pki() {
    local pki=$1
    mkdir -p "$pki"
    if [[ -s $pki/ca.crt && -s $pki/sa.pub && -s $pki/admin.crt && -s $pki/kwok.crt && -s $pki/front-proxy-client.crt ]]; then
        log "reusing PKI in $pki"
        return 0
    fi
    log "creating PKI in $pki"
    (
        cd "$pki"
        umask 077
        # front proxy (requestheader) CA and the apiserver's client cert for aggregated APIs
        openssl ecparam -name prime256v1 -genkey -noout -out front-proxy-ca.key 2>/dev/null
        openssl req -x509 -new -key front-proxy-ca.key -sha256 -days 3650 -subj "/CN=gpuquota-front-proxy-ca" \
            -addext "basicConstraints=critical,CA:TRUE" \
            -addext "keyUsage=critical,keyCertSign,cRLSign,digitalSignature" \
            -addext "subjectKeyIdentifier=hash" -out front-proxy-ca.crt 2>/dev/null
        CA=front-proxy-ca sign_cert front-proxy-client ec "/CN=front-proxy-client" clientAuth ""
    )
    [[ -s $pki/ca.crt && -s $pki/sa.pub && -s $pki/admin.crt && -s $pki/kwok.crt ]] && return 0
    (
        cd "$pki"
        umask 077
        # EC P-256 keys (fast to make); RSA for the admin client key and the service-account
        # signing key, like most real clusters
        openssl ecparam -name prime256v1 -genkey -noout -out ca.key 2>/dev/null
        openssl req -x509 -new -key ca.key -sha256 -days 3650 -subj "/CN=gpuquota-real-cluster-ca" \
            -addext "basicConstraints=critical,CA:TRUE" \
            -addext "keyUsage=critical,keyCertSign,cRLSign,digitalSignature" \
            -addext "subjectKeyIdentifier=hash" -out ca.crt 2>/dev/null
        # service-account token signing key pair
        openssl genrsa -out sa.key 2048 2>/dev/null
        openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
        # serving certificate (kube-apiserver, and reused by controller-manager/scheduler)
        sign_cert serving ec "/CN=kube-apiserver" serverAuth \
            "DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,IP:127.0.0.1,IP:10.96.0.1"
        sign_cert admin rsa "/O=system:masters/CN=kubernetes-admin" clientAuth ""
        sign_cert kube-controller-manager ec "/CN=system:kube-controller-manager" clientAuth ""
        sign_cert kube-scheduler ec "/CN=system:kube-scheduler" clientAuth ""
        sign_cert kwok ec "/O=system:masters/CN=kwok-controller" clientAuth ""
    )
}

# sign_cert NAME rsa|ec SUBJECT EKU SAN (run inside the pki dir)
sign_cert() {
    local name=$1 alg=$2 subj=$3 eku=$4 san=$5 ext usage=digitalSignature
    if [[ $alg == rsa ]]; then
        openssl genrsa -out "$name.key" 2048 2>/dev/null
        usage+=",keyEncipherment"
    else
        openssl ecparam -name prime256v1 -genkey -noout -out "$name.key" 2>/dev/null
    fi
    openssl req -new -key "$name.key" -subj "$subj" -out "$name.csr" 2>/dev/null
    ext="basicConstraints=critical,CA:FALSE
keyUsage=critical,$usage
extendedKeyUsage=$eku
authorityKeyIdentifier=keyid
subjectKeyIdentifier=hash"
    [[ -n $san ]] && ext+=$'\n'"subjectAltName=$san"
    openssl x509 -req -in "$name.csr" -CA "${CA:-ca}.crt" -CAkey "${CA:-ca}.key" -sha256 -days 3650 \
        -set_serial "0x$(openssl rand -hex 16)" -extfile <(printf '%s\n' "$ext") \
        -out "$name.crt" 2>/dev/null
    rm -f "$name.csr"
}

# write_kubeconfig FILE CONTEXT CERTNAME SERVER PKIDIR
write_kubeconfig() {
    local file=$1 ctx=$2 cert=$3 server=$4 pki=$5
    local tmp="$file.tmp"
    cat >"$tmp" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: gpuquota-real-cluster
  cluster:
    server: $server
    certificate-authority-data: $(base64 -w0 <"$pki/ca.crt")
users:
- name: $ctx
  user:
    client-certificate-data: $(base64 -w0 <"$pki/$cert.crt")
    client-key-data: $(base64 -w0 <"$pki/$cert.key")
contexts:
- name: $ctx
  context:
    cluster: gpuquota-real-cluster
    user: $ctx
current-context: $ctx
EOF
    chmod 600 "$tmp"
    mv "$tmp" "$file"
}

# ---- children --------------------------------------------------------------------------------

CHILD_NAMES=()
declare -A CHILD_PID=()
RUN_DIR=""

# spawn NAME BINARY ARGS... : starts a child of this shell with PR_SET_PDEATHSIG=SIGKILL, so it
# dies with this script even when the script is SIGKILLed. Log in $RUN_DIR/logs/NAME.log.
spawn() {
    local name=$1
    shift
    local logf="$RUN_DIR/logs/$name.log" parent=$BASHPID
    : >"$logf"
    "$PY" -c '
import ctypes, os, signal, sys
libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(1, signal.SIGKILL, 0, 0, 0) != 0:  # PR_SET_PDEATHSIG
    sys.exit("prctl(PR_SET_PDEATHSIG) failed")
if os.getppid() != int(sys.argv[1]):
    sys.exit("parent already gone")
os.execv(sys.argv[2], sys.argv[2:])
' "$parent" "$@" >>"$logf" 2>&1 </dev/null &
    CHILD_PID[$name]=$!
    CHILD_NAMES+=("$name")
    echo "$!" >"$RUN_DIR/pids/$name.pid"
    log "started $name (pid $!)"
}

fail_component() {
    local name=$1 why=$2
    printf '[real-cluster] error: %s %s; last 40 lines of %s:\n' "$name" "$why" "$RUN_DIR/logs/$name.log" >&2
    tail -n 40 "$RUN_DIR/logs/$name.log" >&2 || true
    stop_children
    exit 1
}

check_children() {
    local n
    for n in "${CHILD_NAMES[@]}"; do
        if ! kill -0 "${CHILD_PID[$n]}" 2>/dev/null; then
            local rc=0
            wait "${CHILD_PID[$n]}" 2>/dev/null || rc=$?
            fail_component "$n" "exited (status $rc)"
        fi
    done
}

stop_children() {
    local i n pid t
    trap - TERM INT HUP
    for ((i = ${#CHILD_NAMES[@]} - 1; i >= 0; i--)); do
        n=${CHILD_NAMES[$i]}
        pid=${CHILD_PID[$n]}
        if kill -TERM "$pid" 2>/dev/null; then
            for ((t = 0; t < 100; t++)); do
                kill -0 "$pid" 2>/dev/null || break
                sleep 0.1
            done
            kill -KILL "$pid" 2>/dev/null || true
        fi
        wait "$pid" 2>/dev/null || true
        rm -f "$RUN_DIR/pids/$n.pid"
    done
    CHILD_NAMES=()
    rm -f "$RUN_DIR/pids/real-cluster.pid" "$RUN_DIR/stop-requested"
}

on_signal() {
    log "stopping (signal $1)"
    [[ -n $BUILD_PID ]] && kill_tree "$BUILD_PID"
    stop_children
    log "stopped"
    exit 0
}

# wait_for NAME TIMEOUT DESCRIPTION CMD... : polls CMD until it succeeds; the named component
# (or any other child) dying or the timeout fails the start.
wait_for() {
    local name=$1 timeout=$2 what=$3
    shift 3
    local deadline=$((SECONDS + timeout))
    until "$@" >/dev/null 2>&1; do
        check_children
        ((SECONDS < deadline)) || fail_component "$name" "not ready after ${timeout}s ($what)"
        sleep 0.2
    done
}

CURL_TLS=()
https_ok() { # URL [expected body]
    local body
    body=$(curl -sf --max-time 2 "${CURL_TLS[@]}" "$1") || return 1
    [[ -z ${2:-} || $body == "$2" ]]
}

KUBECTL=()
NODE_COUNT=0
# nodes_ready: NODE_COUNT kwok nodes are Ready and untainted (the node-lifecycle controller
# puts node.kubernetes.io/not-ready on a new node and takes it off once it is Ready)
nodes_ready() {
    local out
    out=$("${KUBECTL[@]}" get nodes -l type=kwok \
        -o 'jsonpath={range .items[*]}{.status.conditions[?(@.type=="Ready")].status}/{.spec.taints}{"\n"}{end}') || return 1
    (($(grep -c '^True/$' <<<"$out") >= NODE_COUNT))
}

write_nodes_yaml() { # FILE NODES GPUS
    local file=$1 nodes=$2 gpus=$3 i
    {
        echo "apiVersion: v1"
        echo "kind: List"
        echo "items:"
        for ((i = 1; i <= nodes; i++)); do
            cat <<EOF
- apiVersion: v1
  kind: Node
  metadata:
    name: gpu-node-$i
    annotations:
      kwok.x-k8s.io/node: fake
    labels:
      type: kwok
      kubernetes.io/hostname: gpu-node-$i
      kubernetes.io/os: linux
      kubernetes.io/arch: amd64
      nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB
      nvidia.com/gpu.memory: "81920"
      nvidia.com/gpu.count: "$gpus"
      nvidia.com/gpu.present: "true"
  spec: {}
  status:
    capacity: {cpu: "64", memory: 512Gi, pods: "110", nvidia.com/gpu: "$gpus"}
    allocatable: {cpu: "64", memory: 512Gi, pods: "110", nvidia.com/gpu: "$gpus"}
EOF
        done
    } >"$file"
}

cmd_start() {
    local dir="" version=$DEFAULT_VERSION users="" nodes=2 gpus=8
    while (($#)); do
        case "$1" in
            --dir) dir=${2:?--dir needs a value}; shift 2 ;;
            --dir=*) dir=${1#*=}; shift ;;
            --version) version=${2:?--version needs a value}; shift 2 ;;
            --version=*) version=${1#*=}; shift ;;
            --users) users=${2:?--users needs a value}; shift 2 ;;
            --users=*) users=${1#*=}; shift ;;
            --gpu-nodes) nodes=${2:?--gpu-nodes needs a value}; shift 2 ;;
            --gpu-nodes=*) nodes=${1#*=}; shift ;;
            --gpus-per-node) gpus=${2:?--gpus-per-node needs a value}; shift 2 ;;
            --gpus-per-node=*) gpus=${1#*=}; shift ;;
            *) die "start: unknown argument '$1'" ;;
        esac
    done
    [[ -n $dir ]] || die "start: --dir DIR is required"
    [[ $nodes =~ ^[0-9]+$ ]] || die "--gpu-nodes must be a number"
    [[ $gpus =~ ^[0-9]+$ ]] || die "--gpus-per-node must be a number"
    k8s_pin "$version" >/dev/null
    if [[ -n $users ]]; then
        [[ -r $users ]] || die "--users file '$users' is not readable"
        users=$(cd "$(dirname "$users")" && pwd)/$(basename "$users")
    fi
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    RUN_DIR=$dir
    mkdir -p "$dir/logs" "$dir/pids" "$dir/pki"
    if pid_is real-cluster "$(cat "$dir/pids/real-cluster.pid" 2>/dev/null)"; then
        die "a cluster is already running for $dir (pid $(cat "$dir/pids/real-cluster.pid")); use stop first"
    fi
    cleanup_stale "$dir"
    echo "$$" >"$dir/pids/real-cluster.pid"
    rm -f "$dir/stop-requested"
    local t0=$SECONDS

    trap 'on_signal TERM' TERM
    trap 'on_signal INT' INT
    trap 'on_signal HUP' HUP

    # build when missing (all output on stderr)
    local kbin="$CACHE_ROOT/k8s-$version/bin" tbin="$TOOLS_DIR/bin" c need=0
    for c in "${K8S_COMPONENTS[@]}"; do [[ -x $kbin/$c ]] || need=1; done
    [[ -x $tbin/etcd && -x $tbin/kwok ]] || need=1
    [[ -f $kbin/.stamp && $(cat "$kbin/.stamp") == "kubernetes=$(k8s_pin "$version") "* ]] || need=1
    if ((need)); then
        cmd_build --version "$version" >&2
        t0=$SECONDS
    fi

    local pki="$dir/pki"
    make_pki "$pki"
    if [[ -z $users ]]; then
        users="$dir/users.csv"
        [[ -s $users ]] || echo 'admin-token,admin,admin-uid,"system:masters"' >"$users"
    fi

    local etcd_port peer_port api_port kcm_port sched_port kwok_port
    read -r etcd_port peer_port api_port kcm_port sched_port kwok_port <<<"$(free_ports 6)"
    cat >"$dir/ports.env" <<EOF
API_PORT=$api_port
ETCD_PORT=$etcd_port
ETCD_PEER_PORT=$peer_port
KCM_PORT=$kcm_port
SCHED_PORT=$sched_port
KWOK_PORT=$kwok_port
EOF
    local server="https://127.0.0.1:$api_port"
    local timeout=${GQ_READY_TIMEOUT:-120}

    spawn etcd "$tbin/etcd" --name=gpuquota --data-dir="$dir/etcd" \
        --listen-client-urls="http://127.0.0.1:$etcd_port" --advertise-client-urls="http://127.0.0.1:$etcd_port" \
        --listen-peer-urls="http://127.0.0.1:$peer_port" --initial-advertise-peer-urls="http://127.0.0.1:$peer_port" \
        --initial-cluster="gpuquota=http://127.0.0.1:$peer_port" --initial-cluster-state=new \
        --unsafe-no-fsync=true --quota-backend-bytes=4294967296 --log-level=warn
    wait_for etcd "$timeout" "GET /health" curl -sf --max-time 2 "http://127.0.0.1:$etcd_port/health"

    spawn kube-apiserver "$kbin/kube-apiserver" \
        --etcd-servers="http://127.0.0.1:$etcd_port" \
        --etcd-compaction-interval=10s \
        --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$api_port" \
        --tls-cert-file="$pki/serving.crt" --tls-private-key-file="$pki/serving.key" \
        --client-ca-file="$pki/ca.crt" \
        --authorization-mode=Node,RBAC \
        --token-auth-file="$users" \
        --service-account-key-file="$pki/sa.pub" \
        --service-account-signing-key-file="$pki/sa.key" \
        --service-account-issuer=https://kubernetes.default.svc.cluster.local \
        --service-cluster-ip-range=10.96.0.0/24 \
        --enable-admission-plugins=NamespaceLifecycle,LimitRanger,ServiceAccount,DefaultStorageClass,ResourceQuota \
        --endpoint-reconciler-type=none \
        --requestheader-client-ca-file="$pki/front-proxy-ca.crt" \
        --requestheader-allowed-names=front-proxy-client \
        --requestheader-username-headers=X-Remote-User \
        --requestheader-group-headers=X-Remote-Group \
        --requestheader-extra-headers-prefix=X-Remote-Extra- \
        --proxy-client-cert-file="$pki/front-proxy-client.crt" \
        --proxy-client-key-file="$pki/front-proxy-client.key" \
        --allow-privileged=true --profiling=false --v=1
    CURL_TLS=(--cacert "$pki/ca.crt" --cert "$pki/admin.crt" --key "$pki/admin.key")
    wait_for kube-apiserver "$timeout" "GET /readyz" https_ok "$server/readyz" ok

    write_kubeconfig "$dir/kubeconfig" admin admin "$server" "$pki"
    write_kubeconfig "$dir/kube-controller-manager.kubeconfig" kube-controller-manager kube-controller-manager "$server" "$pki"
    write_kubeconfig "$dir/kube-scheduler.kubeconfig" kube-scheduler kube-scheduler "$server" "$pki"
    write_kubeconfig "$dir/kwok.kubeconfig" kwok kwok "$server" "$pki"

    spawn kube-controller-manager "$kbin/kube-controller-manager" \
        --kubeconfig="$dir/kube-controller-manager.kubeconfig" \
        --authentication-kubeconfig="$dir/kube-controller-manager.kubeconfig" \
        --authorization-kubeconfig="$dir/kube-controller-manager.kubeconfig" \
        --bind-address=127.0.0.1 --secure-port="$kcm_port" \
        --tls-cert-file="$pki/serving.crt" --tls-private-key-file="$pki/serving.key" \
        --controllers='*' --use-service-account-credentials=true \
        --service-account-private-key-file="$pki/sa.key" --root-ca-file="$pki/ca.crt" \
        --cluster-signing-cert-file="$pki/ca.crt" --cluster-signing-key-file="$pki/ca.key" \
        --service-cluster-ip-range=10.96.0.0/24 \
        --leader-elect=false \
        --concurrent-resource-quota-syncs=10 --resource-quota-sync-period=10s \
        --profiling=false --v=1
    spawn kube-scheduler "$kbin/kube-scheduler" \
        --kubeconfig="$dir/kube-scheduler.kubeconfig" \
        --authentication-kubeconfig="$dir/kube-scheduler.kubeconfig" \
        --authorization-kubeconfig="$dir/kube-scheduler.kubeconfig" \
        --bind-address=127.0.0.1 --secure-port="$sched_port" \
        --tls-cert-file="$pki/serving.crt" --tls-private-key-file="$pki/serving.key" \
        --leader-elect=false --profiling=false --v=1
    mkdir -p "$dir/kwok-home"
    cp "$ASSETS/kwok-stages.yaml" "$dir/kwok.yaml"
    # HOME: kwok also loads ~/.kwok/kwok.yaml when it exists; keep it to our config only
    HOME="$dir/kwok-home" spawn kwok "$tbin/kwok" \
        --config="$dir/kwok.yaml" \
        --kubeconfig="$dir/kwok.kubeconfig" \
        --manage-all-nodes=false \
        --manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake \
        --node-ip=127.0.0.1 --node-port="$kwok_port" --cidr=127.64.0.1/16 \
        --server-address="127.0.0.1:$kwok_port"

    KUBECTL=("$kbin/kubectl" --kubeconfig="$dir/kubeconfig" --request-timeout=10s)
    NODE_COUNT=$nodes
    if ((nodes > 0)); then
        write_nodes_yaml "$dir/nodes.yaml" "$nodes" "$gpus"
        "${KUBECTL[@]}" apply -f "$dir/nodes.yaml" >"$dir/logs/nodes.log" 2>&1 ||
            fail_component nodes "could not be created"
    fi

    CURL_TLS=(--cacert "$pki/ca.crt")
    wait_for kube-controller-manager "$timeout" "GET /healthz" https_ok "https://127.0.0.1:$kcm_port/healthz" ok
    wait_for kube-scheduler "$timeout" "GET /healthz" https_ok "https://127.0.0.1:$sched_port/healthz" ok
    wait_for kwok "$timeout" "GET /healthz" curl -sf --max-time 2 "http://127.0.0.1:$kwok_port/healthz"
    CURL_TLS=(--cacert "$pki/ca.crt" --cert "$pki/admin.crt" --key "$pki/admin.key")
    wait_for kwok "$timeout" "$nodes nodes Ready without taints" nodes_ready
    wait_for kube-controller-manager "$timeout" "ServiceAccount default/default" \
        https_ok "$server/api/v1/namespaces/default/serviceaccounts/default"

    log "ready in $((SECONDS - t0))s: export KUBECONFIG=$dir/kubeconfig (logs in $dir/logs)"
    echo "ready $server"

    while :; do
        sleep 1 &
        wait $! || true
        if [[ -e $dir/stop-requested ]]; then
            log "stop requested"
            stop_children
            log "stopped"
            exit 0
        fi
        check_children
    done
}

# cleanup_stale DIR: children left by an earlier run (should not happen thanks to PDEATHSIG)
cleanup_stale() {
    local dir=$1 f pid name
    for f in "$dir"/pids/*.pid; do
        [[ -e $f ]] || continue
        name=$(basename "$f" .pid)
        pid=$(cat "$f" 2>/dev/null || true)
        if [[ $name != real-cluster ]] && pid_is "$dir" "$pid"; then
            log "killing leftover $name (pid $pid)"
            kill -KILL "$pid" 2>/dev/null || true
        fi
        rm -f "$f"
    done
}

cmd_stop() {
    local dir=""
    while (($#)); do
        case "$1" in
            --dir) dir=${2:?--dir needs a value}; shift 2 ;;
            --dir=*) dir=${1#*=}; shift ;;
            *) die "stop: unknown argument '$1'" ;;
        esac
    done
    [[ -n $dir ]] || die "stop: --dir DIR is required"
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
    local dir=""
    while (($#)); do
        case "$1" in
            --dir) dir=${2:?--dir needs a value}; shift 2 ;;
            --dir=*) dir=${1#*=}; shift ;;
            *) die "env: unknown argument '$1'" ;;
        esac
    done
    [[ -n $dir ]] || die "env: --dir DIR is required"
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
