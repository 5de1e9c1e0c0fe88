#!/usr/bin/env bash
# The webhook's open-loop latency side by side with nginx answering a fixed
# AdmissionReview over TLS on loopback (issue 31 item 6): the same load generator
# (bench_webhook --rate) against both. Needs nginx (apt-get install nginx-light) and a
# built bench_webhook; CI does not run this.
#
#   bench/controller/webhook-vs-nginx.sh [BUILD_DIR] [RATE] [CONNECTIONS] [SECONDS]
#   bench/controller/webhook-vs-nginx.sh build/ci 500 25,200 10
set -euo pipefail
build=${1:-build/ci}
rate=${2:-500}
connections=${3:-25,200}
seconds=${4:-10}
bench="$build/bin/bench_webhook"
nginx=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$bench" ] || { echo "no $bench: build the bench_webhook target" >&2; exit 1; }
[ -x "$nginx" ] || { echo "no nginx: apt-get install nginx-light" >&2; exit 1; }

dir=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$dir/tls.key" -out "$dir/tls.crt" 2>/dev/null
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
answer='{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"u-1","allowed":true}}'
cat > "$dir/nginx.conf" <<CONF
worker_processes 1;
daemon off;
error_log $dir/error.log;
pid $dir/nginx.pid;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $dir;
    keepalive_requests 100000;
    keepalive_timeout 120s;
    server {
        listen 127.0.0.1:$port ssl;
        ssl_certificate $dir/tls.crt;
        ssl_certificate_key $dir/tls.key;
        location / {
            default_type application/json;
            return 200 '$answer';
        }
    }
}
CONF
"$nginx" -c "$dir/nginx.conf" -p "$dir" &
pid=$!
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done

echo "== gpuquota webhook (in-process HttpServer, SQLite budget check)"
"$bench" --rate "$rate" --connections "$connections" --seconds "$seconds"
echo "== HttpServer alone: the same server answering a fixed AdmissionReview (as nginx below)"
"$bench" --rate "$rate" --connections "$connections" --seconds "$seconds" --fixed 1
echo "== nginx $("$nginx" -v 2>&1 | sed 's/.*\///'), 1 worker, fixed AdmissionReview"
"$bench" --rate "$rate" --connections "$connections" --seconds "$seconds" --url "https://127.0.0.1:$port/validate/pods"
