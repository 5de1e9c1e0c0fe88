#!/usr/bin/env bash
# Sourced by scripts/test-all.sh: starts the services the integration tests need on
# loopback, in a temporary directory, and exports where they are:
#   GQ_TEST_PG_URL   postgresql://gq@127.0.0.1:PORT/gq_test (trust auth on loopback)
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
gq_as_pg "$PG_BIN/pg_ctl" -D "$GQ_PG_DATA" -l "$GQ_SERVICES_DIR/postgres.log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -p $GQ_PG_PORT -k $GQ_SERVICES_DIR -c fsync=off -c max_connections=200" start >/dev/null \
  || { cat "$GQ_SERVICES_DIR/postgres.log"; return 1; }
psql -h 127.0.0.1 -p "$GQ_PG_PORT" -U postgres -q -c "CREATE ROLE gq LOGIN SUPERUSER" >/dev/null
psql -h 127.0.0.1 -p "$GQ_PG_PORT" -U postgres -q -c "CREATE DATABASE gq_test OWNER gq" >/dev/null
export GQ_TEST_PG_URL="postgresql://gq@127.0.0.1:$GQ_PG_PORT/gq_test"
echo "services: PostgreSQL on 127.0.0.1:$GQ_PG_PORT ($GQ_TEST_PG_URL)"

gq_stop_services() {
  gq_as_pg "$PG_BIN/pg_ctl" -D "$GQ_PG_DATA" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$GQ_SERVICES_DIR"
}
