# shellcheck shell=bash
# start.sh - sourced by scripts/real-cluster.sh: the "start" command. cmd_start parses its
# arguments, prepares DIR (pid file, stale children, build when missing, PKI, users file,
# ports.env), starts etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kwok,
# creates the kwok GPU nodes, waits until everything is ready, prints the single
# "ready https://127.0.0.1:PORT" line and then stays in the foreground until stopped. The
# state shared by its steps is in the START_* and *_PORT globals below.

# Set by start_parse_args (from the flags) and start_prepare_dir / start_pki_ports:
START_DIR=""          # --dir, made absolute
START_VERSION=""      # --version
START_USERS=""        # --users, made absolute (or DIR/users.csv)
START_NODES=2         # --gpu-nodes
START_GPUS=8          # --gpus-per-node
START_KUEUE=0         # --kueue (kueue-start.sh)
START_KBIN=""         # the k8s binaries of START_VERSION
START_TBIN=""         # etcd and kwok
START_PKI=""          # DIR/pki
START_SERVER=""       # https://127.0.0.1:API_PORT
START_TIMEOUT=120     # GQ_READY_TIMEOUT
START_T0=0            # SECONDS when the start (after any build) began
ETCD_PORT="" ETCD_PEER_PORT="" API_PORT="" KCM_PORT="" SCHED_PORT="" KWOK_PORT=""

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

start_parse_args() {
    local dir="" version=$DEFAULT_VERSION users="" nodes=2 gpus=8 kueue=0
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
            --kueue) kueue=1; shift ;;
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
    START_DIR=$dir START_VERSION=$version START_USERS=$users START_NODES=$nodes START_GPUS=$gpus
    START_KUEUE=$kueue
}

# start_prepare_dir: DIR absolute with logs/ pids/ pki/, refuses a running cluster, records us
start_prepare_dir() {
    local dir=$START_DIR
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    START_DIR=$dir
    RUN_DIR=$dir
    mkdir -p "$dir/logs" "$dir/pids" "$dir/pki"
    if pid_is real-cluster "$(cat "$dir/pids/real-cluster.pid" 2>/dev/null)"; then
        die "a cluster is already running for $dir (pid $(cat "$dir/pids/real-cluster.pid")); use stop first"
    fi
    cleanup_stale "$dir"
    echo "$$" >"$dir/pids/real-cluster.pid"
    rm -f "$dir/stop-requested"
    START_T0=$SECONDS
}

# start_ensure_built: build when missing (all output on stderr)
start_ensure_built() {
    local version=$START_VERSION c need=0
    START_KBIN="$CACHE_ROOT/k8s-$version/bin"
    START_TBIN="$TOOLS_DIR/bin"
    local kbin=$START_KBIN tbin=$START_TBIN
    for c in "${K8S_COMPONENTS[@]}"; do [[ -x $kbin/$c ]] || need=1; done
    [[ -x $tbin/etcd && -x $tbin/kwok ]] || need=1
    [[ -f $kbin/.stamp && $(cat "$kbin/.stamp") == "kubernetes=$(k8s_pin "$version") "* ]] || need=1
    if ((need)); then
        cmd_build --version "$version" >&2
        START_T0=$SECONDS
    fi
    if ((START_KUEUE)); then
        build_kueue
        START_T0=$SECONDS
    fi
}

# start_pki_ports: PKI, the users file and DIR/ports.env
start_pki_ports() {
    local dir=$START_DIR
    START_PKI="$dir/pki"
    make_pki "$START_PKI"
    if [[ -z $START_USERS ]]; then
        START_USERS="$dir/users.csv"
        [[ -s $START_USERS ]] || echo 'admin-token,admin,admin-uid,"system:masters"' >"$START_USERS"
    fi
    read -r ETCD_PORT ETCD_PEER_PORT API_PORT KCM_PORT SCHED_PORT KWOK_PORT <<<"$(free_ports 6)"
    cat >"$dir/ports.env" <<EOP
API_PORT=$API_PORT
ETCD_PORT=$ETCD_PORT
ETCD_PEER_PORT=$ETCD_PEER_PORT
KCM_PORT=$KCM_PORT
SCHED_PORT=$SCHED_PORT
KWOK_PORT=$KWOK_PORT
EOP
    START_SERVER="https://127.0.0.1:$API_PORT"
    START_TIMEOUT=${GQ_READY_TIMEOUT:-120}
}

start_etcd() {
    local etcd_port=$ETCD_PORT peer_port=$ETCD_PEER_PORT
    spawn etcd "$START_TBIN/etcd" --name=gpuquota --data-dir="$START_DIR/etcd" \
        --listen-client-urls="http://127.0.0.1:$etcd_port" --advertise-client-urls="http://127.0.0.1:$etcd_port" \
        --listen-peer-urls="http://127.0.0.1:$peer_port" --initial-advertise-peer-urls="http://127.0.0.1:$peer_port" \
        --initial-cluster="gpuquota=http://127.0.0.1:$peer_port" --initial-cluster-state=new \
        --unsafe-no-fsync=true --quota-backend-bytes=4294967296 --log-level=warn
    wait_for etcd "$START_TIMEOUT" "GET /health" curl -sf --max-time 2 "http://127.0.0.1:$etcd_port/health"
}

# start_apiserver: kube-apiserver, ready on /readyz; then the kubeconfigs of the clients
start_apiserver() {
    local pki=$START_PKI dir=$START_DIR server=$START_SERVER
    # GQ_APISERVER_EXTRA_ARGS: more flags, split on blanks (tests: --goaway-chance=0.02)
    local -a extra=()
    read -r -a extra <<<"${GQ_APISERVER_EXTRA_ARGS:-}"
    spawn kube-apiserver "$START_KBIN/kube-apiserver" \
        --etcd-servers="http://127.0.0.1:$ETCD_PORT" \
        --etcd-compaction-interval=10s \
        --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$API_PORT" \
        --tls-cert-file="$pki/serving.crt" --tls-private-key-file="$pki/serving.key" \
        --client-ca-file="$pki/ca.crt" \
        --authorization-mode=Node,RBAC \
        --token-auth-file="$START_USERS" \
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
        --allow-privileged=true --profiling=false --v=1 "${extra[@]}"
    CURL_TLS=(--cacert "$pki/ca.crt" --cert "$pki/admin.crt" --key "$pki/admin.key")
    wait_for kube-apiserver "$START_TIMEOUT" "GET /readyz" https_ok "$server/readyz" ok

    write_kubeconfig "$dir/kubeconfig" admin admin "$server" "$pki"
    write_kubeconfig "$dir/kube-controller-manager.kubeconfig" kube-controller-manager kube-controller-manager "$server" "$pki"
    write_kubeconfig "$dir/kube-scheduler.kubeconfig" kube-scheduler kube-scheduler "$server" "$pki"
    write_kubeconfig "$dir/kwok.kubeconfig" kwok kwok "$server" "$pki"
}

start_controllers() {
    local pki=$START_PKI dir=$START_DIR kbin=$START_KBIN
    spawn kube-controller-manager "$kbin/kube-controller-manager" \
        --kubeconfig="$dir/kube-controller-manager.kubeconfig" \
        --authentication-kubeconfig="$dir/kube-controller-manager.kubeconfig" \
        --authorization-kubeconfig="$dir/kube-controller-manager.kubeconfig" \
        --bind-address=127.0.0.1 --secure-port="$KCM_PORT" \
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
        --bind-address=127.0.0.1 --secure-port="$SCHED_PORT" \
        --tls-cert-file="$pki/serving.crt" --tls-private-key-file="$pki/serving.key" \
        --leader-elect=false --profiling=false --v=1
}

# start_kwok_nodes: kwok with our stages, then the Nodes gpu-node-1..N
start_kwok_nodes() {
    local dir=$START_DIR nodes=$START_NODES
    mkdir -p "$dir/kwok-home"
    cp "$ASSETS/kwok-stages.yaml" "$dir/kwok.yaml"
    # HOME: kwok also loads ~/.kwok/kwok.yaml when it exists; keep it to our config only
    HOME="$dir/kwok-home" spawn kwok "$START_TBIN/kwok" \
        --config="$dir/kwok.yaml" \
        --kubeconfig="$dir/kwok.kubeconfig" \
        --manage-all-nodes=false \
        --manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake \
        --node-ip=127.0.0.1 --node-port="$KWOK_PORT" --cidr=127.64.0.1/16 \
        --server-address="127.0.0.1:$KWOK_PORT"

    KUBECTL=("$START_KBIN/kubectl" --kubeconfig="$dir/kubeconfig" --request-timeout=10s)
    NODE_COUNT=$nodes
    if ((nodes > 0)); then
        write_nodes_yaml "$dir/nodes.yaml" "$nodes" "$START_GPUS"
        "${KUBECTL[@]}" apply -f "$dir/nodes.yaml" >"$dir/logs/nodes.log" 2>&1 ||
            fail_component nodes "could not be created"
    fi
}

start_wait_ready() {
    local pki=$START_PKI timeout=$START_TIMEOUT
    CURL_TLS=(--cacert "$pki/ca.crt")
    wait_for kube-controller-manager "$timeout" "GET /healthz" https_ok "https://127.0.0.1:$KCM_PORT/healthz" ok
    wait_for kube-scheduler "$timeout" "GET /healthz" https_ok "https://127.0.0.1:$SCHED_PORT/healthz" ok
    wait_for kwok "$timeout" "GET /healthz" curl -sf --max-time 2 "http://127.0.0.1:$KWOK_PORT/healthz"
    CURL_TLS=(--cacert "$pki/ca.crt" --cert "$pki/admin.crt" --key "$pki/admin.key")
    wait_for kwok "$timeout" "$START_NODES nodes Ready without taints" nodes_ready
    wait_for kube-controller-manager "$timeout" "ServiceAccount default/default" \
        https_ok "$START_SERVER/api/v1/namespaces/default/serviceaccounts/default"
}

# start_serve: in the foreground until "stop --dir DIR" (or a signal); a dead child fails it
start_serve() {
    local dir=$START_DIR
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

cmd_start() {
    start_parse_args "$@"
    start_prepare_dir

    trap 'on_signal TERM' TERM
    trap 'on_signal INT' INT
    trap 'on_signal HUP' HUP

    start_ensure_built
    start_pki_ports
    start_etcd
    start_apiserver
    start_controllers
    start_kwok_nodes
    ((START_KUEUE)) && start_kueue
    start_wait_ready
    ((START_KUEUE)) && start_kueue_wait_ready

    log "ready in $((SECONDS - START_T0))s: export KUBECONFIG=$START_DIR/kubeconfig (logs in $START_DIR/logs)"
    echo "ready $START_SERVER"
    start_serve
}
