# shellcheck shell=bash
# kueue-start.sh - sourced by scripts/real-cluster.sh: "start --kueue". Installs the Kueue
# release's CRDs and its webhook configurations (clientConfig.url on 127.0.0.1, the CA of
# DIR/pki; see kueue-manifests.py) on the API server, and runs the Kueue manager
# (kueue-<version>/bin/kueue, see kueue-build.sh) with DIR/kueue/config.yaml: webhooks on
# 127.0.0.1:KUEUE_WEBHOOK_PORT with the serving certificate of DIR/pki (no internal cert
# management), integrations batch/job only, no leader election, the visibility server off.
# Ready when its /readyz answers and a server-side dry run of a v1beta1 LocalQueue went
# through its conversion and validation webhooks.
#
# Kueue's manager reads its metrics serving certificate from the fixed path
# /etc/kueue/metrics/certs (tls.crt, tls.key) when internal cert management is off; a
# self-signed one is made there once when it is missing (the metrics endpoint is on
# 127.0.0.1 and not scraped by the tests).

KUEUE_METRICS_CERTS=/etc/kueue/metrics/certs
KUEUE_WEBHOOK_PORT="" KUEUE_HEALTH_PORT="" KUEUE_METRICS_PORT=""

kueue_metrics_cert() {
    [[ -s $KUEUE_METRICS_CERTS/tls.crt && -s $KUEUE_METRICS_CERTS/tls.key ]] && return 0
    mkdir -p "$KUEUE_METRICS_CERTS" 2>/dev/null ||
        die "--kueue: cannot create $KUEUE_METRICS_CERTS (Kueue reads its metrics certificate there)"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 3650 \
        -subj "/CN=kueue-metrics" -addext "subjectAltName=IP:127.0.0.1" \
        -keyout "$KUEUE_METRICS_CERTS/tls.key.tmp" -out "$KUEUE_METRICS_CERTS/tls.crt.tmp" 2>/dev/null
    mv "$KUEUE_METRICS_CERTS/tls.key.tmp" "$KUEUE_METRICS_CERTS/tls.key"
    mv "$KUEUE_METRICS_CERTS/tls.crt.tmp" "$KUEUE_METRICS_CERTS/tls.crt"
}

kueue_config() { # FILE CERTDIR
    cat >"$1" <<EOF
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
namespace: kueue-system
health:
  healthProbeBindAddress: 127.0.0.1:$KUEUE_HEALTH_PORT
metrics:
  bindAddress: 127.0.0.1:$KUEUE_METRICS_PORT
webhook:
  host: 127.0.0.1
  port: $KUEUE_WEBHOOK_PORT
  certDir: $2
leaderElection:
  leaderElect: false
internalCertManagement:
  enable: false
manageJobsWithoutQueueName: false
integrations:
  frameworks:
  - batch/job
EOF
}

kueue_probe_object() {
    cat <<'EOF'
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata:
  name: gpuquota-kueue-probe
  namespace: default
spec:
  clusterQueue: gpuquota-kueue-probe
EOF
}

kueue_webhooks_answer() {
    kueue_probe_object | "${KUBECTL[@]}" create --dry-run=server -o name -f - >/dev/null
}

start_kueue() {
    local dir=$START_DIR kdir="$START_DIR/kueue" url
    mkdir -p "$kdir/certs"
    kueue_metrics_cert
    cp "$START_PKI/serving.crt" "$kdir/certs/tls.crt"
    (umask 077 && cp "$START_PKI/serving.key" "$kdir/certs/tls.key")
    read -r KUEUE_WEBHOOK_PORT KUEUE_HEALTH_PORT KUEUE_METRICS_PORT <<<"$(free_ports 3)"
    printf 'KUEUE_WEBHOOK_PORT=%s\nKUEUE_HEALTH_PORT=%s\nKUEUE_METRICS_PORT=%s\n' \
        "$KUEUE_WEBHOOK_PORT" "$KUEUE_HEALTH_PORT" "$KUEUE_METRICS_PORT" >>"$dir/ports.env"
    url="https://127.0.0.1:$KUEUE_WEBHOOK_PORT"
    "$PY" "$ASSETS/kueue-manifests.py" "$KUEUE_DIR/manifests" "$url" "$START_PKI/ca.crt" "$kdir" ||
        fail_component kueue "manifests could not be generated"
    kueue_config "$kdir/config.yaml" "$kdir/certs"
    {
        "${KUBECTL[@]}" create namespace kueue-system --dry-run=client -o yaml | "${KUBECTL[@]}" apply -f - &&
            "${KUBECTL[@]}" apply --server-side --force-conflicts -f "$kdir/crds.yaml" &&
            "${KUBECTL[@]}" wait --for=condition=Established --timeout=60s -f "$kdir/crds.yaml" &&
            "${KUBECTL[@]}" apply --server-side --force-conflicts -f "$kdir/webhooks.yaml"
    } >"$dir/logs/kueue-install.log" 2>&1 || fail_component kueue-install "failed (CRDs, webhooks)"
    KUBECONFIG="$dir/kubeconfig" spawn kueue "$KUEUE_DIR/bin/kueue" \
        --config="$kdir/config.yaml" --feature-gates=VisibilityOnDemand=false --zap-log-level=info
}

start_kueue_wait_ready() {
    CURL_TLS=()
    wait_for kueue "$START_TIMEOUT" "GET /readyz" curl -sf --max-time 2 "http://127.0.0.1:$KUEUE_HEALTH_PORT/readyz"
    wait_for kueue "$START_TIMEOUT" "its webhooks answer the API server" kueue_webhooks_answer
}
