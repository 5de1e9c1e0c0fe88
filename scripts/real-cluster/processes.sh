# shellcheck shell=bash
# processes.sh - sourced by scripts/real-cluster.sh: the child processes of a start. Free ports
# and pid checks, spawn (each child with PR_SET_PDEATHSIG=SIGKILL, logging to RUN_DIR/logs and
# recording RUN_DIR/pids), fail_component/check_children (a dead child stops the rest and
# shows its log), stop_children and on_signal (stop in reverse order), wait_for/https_ok
# (readiness polling) and cleanup_stale (children left by an earlier run).

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
