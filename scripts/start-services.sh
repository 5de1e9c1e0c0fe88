#!/usr/bin/env bash
# Sourced by scripts/test-all.sh: starts the services the integration tests need on
# loopback, in a temporary directory, and exports where they are:
#   GQ_TEST_PG_URL   postgresql://gq@127.0.0.1:PORT/gq_test (trust auth on loopback)
#   GQ_TEST_PG_PASSWORD_URL, GQ_TEST_PG_PASSWORD   a role that must give its password
#   GQ_TEST_PROMETHEUS_URL   http://127.0.0.1:PORT, Debian's Prometheus scraping every second
#   GQ_TEST_EXPORTER_PORTS   PORT1,PORT2: where it scrapes (honor_labels true, false); the
#                            tests start gq-test-exporter there
# gq_stop_services stops them again (test-all.sh calls it from an EXIT trap).

GQ_SERVICES_DIR=$(mktemp -d /tmp/gq-services.XXXXXX)
chmod 755 "$GQ_SERVICES_DIR"
# As root the server runs as postgres, which must be able to write its log and its
# socket into this directory.
if [ "$(id -u)" -eq 0 ]; then chown postgres:postgres "$GQ_SERVICES_DIR"; fi

gq_free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# PostgreSQL refuses to run as root, so as root we run it as the postgres user.
gq_as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
GQ_PG_DATA="$GQ_SERVICES_DIR/pgdata"
GQ_PG_PORT=$(gq_free_port)
mkdir -p "$GQ_PG_DATA"
if [ "$(id -u)" -eq 0 ]; then chown postgres:postgres "$GQ_PG_DATA"; fi
gq_as_pg "$PG_BIN/initdb" -D "$GQ_PG_DATA" -U postgres --auth=trust -E UTF8 >"$GQ_SERVICES_DIR/initdb.log" 2>&1 \
  || { cat "$GQ_SERVICES_DIR/initdb.log"; return 1; }
# One role must give a password (scram), so passing the keychain's password through is
# tested for real; everything else is trust on loopback.
printf 'host all gq_pw 127.0.0.1/32 scram-sha-256\n%s\n' "$(cat "$GQ_PG_DATA/pg_hba.conf")" \
  | gq_as_pg tee "$GQ_PG_DATA/pg_hba.conf" >/dev/null
gq_as_pg "$PG_BIN/pg_ctl" -D "$GQ_PG_DATA" -l "$GQ_SERVICES_DIR/postgres.log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -p $GQ_PG_PORT -k $GQ_SERVICES_DIR -c fsync=off -c max_connections=200" start >/dev/null \
  || { cat "$GQ_SERVICES_DIR/postgres.log"; return 1; }
psql -h 127.0.0.1 -p "$GQ_PG_PORT" -U postgres -q -c "CREATE ROLE gq LOGIN SUPERUSER" >/dev/null
psql -h 127.0.0.1 -p "$GQ_PG_PORT" -U postgres -q -c "CREATE DATABASE gq_test OWNER gq" >/dev/null
psql -h 127.0.0.1 -p "$GQ_PG_PORT" -U postgres -q -c "CREATE ROLE gq_pw LOGIN PASSWORD 'gq-test-pw'" >/dev/null
psql -h 127.0.0.1 -p "$GQ_PG_PORT" -U postgres -q -c "CREATE DATABASE gq_pw OWNER gq_pw" >/dev/null
export GQ_TEST_PG_URL="postgresql://gq@127.0.0.1:$GQ_PG_PORT/gq_test"
# The password is not in the URL: tests hand it over as the keychain would.
export GQ_TEST_PG_PASSWORD_URL="postgresql://gq_pw@127.0.0.1:$GQ_PG_PORT/gq_pw"
export GQ_TEST_PG_PASSWORD="gq-test-pw"
echo "services: PostgreSQL on 127.0.0.1:$GQ_PG_PORT ($GQ_TEST_PG_URL)"

# Prometheus on loopback with a 1 s scrape interval and a throw-away data directory. The
# first job keeps the exporter's labels (honor_labels: true); the second renames them
# exported_* because its target labels name the exporter's own pod, as the Helm chart's
# ServiceMonitor does. Without the binary the variable stays unset; the Prometheus
# suite then skips, or fails under CI=true.
GQ_PROM_BIN="${GQ_PROMETHEUS_BIN:-/usr/bin/prometheus}"
GQ_PROM_PID=""
if [ -x "$GQ_PROM_BIN" ]; then
  GQ_PROM_PORT=$(gq_free_port)
  GQ_EXPORTER_PORT1=$(gq_free_port)
  GQ_EXPORTER_PORT2=$(gq_free_port)
  mkdir -p "$GQ_SERVICES_DIR/prometheus"
  cat >"$GQ_SERVICES_DIR/prometheus/prometheus.yml" <<PROM
global:
  scrape_interval: 1s
  scrape_timeout: 900ms
  evaluation_interval: 1s
scrape_configs:
  - job_name: dcgm-honor
    honor_labels: true
    static_configs:
      - targets: ["127.0.0.1:$GQ_EXPORTER_PORT1"]
  - job_name: dcgm-exported
    honor_labels: false
    static_configs:
      - targets: ["127.0.0.1:$GQ_EXPORTER_PORT2"]
        labels:
          namespace: gpu-operator
          pod: nvidia-dcgm-exporter-7kq2d
          container: nvidia-dcgm-exporter
PROM
  "$GQ_PROM_BIN" --config.file="$GQ_SERVICES_DIR/prometheus/prometheus.yml" \
    --storage.tsdb.path="$GQ_SERVICES_DIR/prometheus/data" --storage.tsdb.retention.time=2h \
    --web.listen-address="127.0.0.1:$GQ_PROM_PORT" --log.level=warn \
    >"$GQ_SERVICES_DIR/prometheus.log" 2>&1 &
  GQ_PROM_PID=$!
  gq_prom_ready() {
    python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' \
      "http://127.0.0.1:$GQ_PROM_PORT/-/ready" >/dev/null 2>&1
  }
  for _ in $(seq 1 120); do
    gq_prom_ready && break
    sleep 0.5
  done
  if gq_prom_ready; then
    export GQ_TEST_PROMETHEUS_URL="http://127.0.0.1:$GQ_PROM_PORT"
    export GQ_TEST_EXPORTER_PORTS="$GQ_EXPORTER_PORT1,$GQ_EXPORTER_PORT2"
    echo "services: Prometheus on 127.0.0.1:$GQ_PROM_PORT, scraping 127.0.0.1:$GQ_EXPORTER_PORT1 and :$GQ_EXPORTER_PORT2"
  else
    echo "services: Prometheus did not become ready:"
    tail -n 20 "$GQ_SERVICES_DIR/prometheus.log"
  fi
else
  echo "services: no Prometheus at $GQ_PROM_BIN (scripts/install-deps.sh installs it)"
fi

gq_stop_services() {
  if [ -n "$GQ_PROM_PID" ]; then kill "$GQ_PROM_PID" 2>/dev/null || true; wait "$GQ_PROM_PID" 2>/dev/null || true; fi
  gq_as_pg "$PG_BIN/pg_ctl" -D "$GQ_PG_DATA" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$GQ_SERVICES_DIR"
}
