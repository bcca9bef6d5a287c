#!/usr/bin/env bash
# Local Apache Kafka for development, tests and CI: one KRaft node (broker + controller, no ZooKeeper),
# run straight from the broker jars on Maven Central, so a machine with Java and Maven needs no Docker.
#
# usage: scripts/kafka/kafka.sh start [--fresh] [--lease ID] | stop | status | logs [-f] | release ID
#
#   start          fetch the jars (first run only), start the broker in the background on the data of its
#                  last run (formatting a cluster only the first time), wait until it answers a metadata
#                  request; prints the log path, then the bootstrap address (e.g. 127.0.0.1:19092) as the
#                  LAST stdout line. Already running: prints the same.
#   start --fresh  as start, on a freshly formatted, empty cluster: the previous data is deleted. Refused
#                  (exit 2) while the broker runs: stop it first.
#   start --lease ID  as start, and records a lease held by the calling process (test global setups).
#                  A broker started this way is stopped by the `release` of its last live lease.
#   release ID     drops lease ID; stops the broker when no live lease is left and a lease-start started it.
#   stop           SIGTERM, then SIGKILL after TC_KAFKA_STOP_TIMEOUT seconds. Not running: no-op.
#   status         "running pid=… address=… log=…" or "stopped".
#   logs [-f]      the broker log (last 200 lines, or follow).
#
# Exit codes: 0 ok (status: running) · 1 the broker failed to start or stop · 2 usage error
#             3 status: not running · 4 a prerequisite is missing (java, mvn, node) or the download failed
#             5 the broker or controller port is taken by another process
#
# Environment (all optional):
#   TC_KAFKA_PORT           broker port, default 19092; the controller listens on port+1
#   TC_KAFKA_VERSION        Apache Kafka version from Maven Central, default 3.9.1
#   TC_KAFKA_HOME           jar cache, default ${XDG_CACHE_HOME:-$HOME/.cache}/tokencircuit/kafka-<version>
#   TC_KAFKA_STATE_DIR      pid, log, config and data of one broker, default $TC_KAFKA_HOME/run-<port>
#   TC_KAFKA_HEAP           JVM max heap, default 512m
#   TC_KAFKA_START_TIMEOUT  seconds to wait for readiness, default 120
#   TC_KAFKA_STOP_TIMEOUT   seconds between SIGTERM and SIGKILL, default 30
#   TC_KAFKA_MVN_ARGS       extra Maven arguments, e.g. -Dmaven.repo.local=/tmp/m2
#   TC_KAFKA_LEASE_PID      the process holding a lease, default the caller ($PPID)
#
# Topics and records survive `stop`/`start` (a projector's checkpoints refer to them): only
# `start --fresh` deletes them.
set -euo pipefail

# Builtins only up to the prerequisite checks, so a bare PATH still gets a clear message.
HERE="${BASH_SOURCE[0]%/*}"
[[ "$HERE" == "${BASH_SOURCE[0]}" ]] && HERE=.
HERE="$(cd "$HERE" && pwd)"
readonly HERE
readonly KAFKA_VERSION="${TC_KAFKA_VERSION:-3.9.1}"
readonly PORT="${TC_KAFKA_PORT:-19092}"
readonly CACHE_ROOT="${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/tokencircuit"
readonly KAFKA_HOME_DIR="${TC_KAFKA_HOME:-$CACHE_ROOT/kafka-$KAFKA_VERSION}"
readonly LIBS_DIR="$KAFKA_HOME_DIR/libs"
readonly STATE_DIR="${TC_KAFKA_STATE_DIR:-$KAFKA_HOME_DIR/run-$PORT}"
readonly PID_FILE="$STATE_DIR/kafka.pid"
readonly LOG_FILE="$STATE_DIR/kafka.log"
readonly LEASES_DIR="$STATE_DIR/leases"
# Present while the broker was started by a lease holder, which may then stop it on release.
readonly AUTO_STOP_MARK="$STATE_DIR/auto-stop"
readonly HEAP="${TC_KAFKA_HEAP:-512m}"
readonly START_TIMEOUT="${TC_KAFKA_START_TIMEOUT:-120}"
readonly STOP_TIMEOUT="${TC_KAFKA_STOP_TIMEOUT:-30}"

fail() { # exit-code message…
  local code="$1"
  shift
  echo "kafka.sh: $*" >&2
  exit "$code"
}
note() { echo "kafka.sh: $*" >&2; }

usage() { # exit-code
  sed -n '4,23p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit "$1"
}

check_port_setting() {
  [[ "$PORT" =~ ^[0-9]+$ ]] && ((PORT >= 1024 && PORT <= 65534)) ||
    fail 2 "TC_KAFKA_PORT must be a number from 1024 to 65534 (the controller uses port+1), got '$PORT'"
}

controller_port() { echo $((PORT + 1)); }
address() { echo "127.0.0.1:$PORT"; }

# JAVA_HOME wins when set, as with Kafka's own scripts; otherwise `java` on PATH.
find_java() {
  if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then
    echo "$JAVA_HOME/bin/java"
  else
    command -v java || true
  fi
}

require_java() {
  JAVA="$(find_java)"
  [[ -n "$JAVA" ]] ||
    fail 4 "no 'java' on PATH (and JAVA_HOME is not set): install a JDK 17+ (Debian: apt-get install openjdk-17-jre-headless), or point KAFKA_BROKERS at a running Kafka instead"
  local version
  version="$("$JAVA" -version 2>&1 | awk -F'"' 'NR == 1 { split($2, v, "."); print (v[1] == "1" ? v[2] : v[1]) }')"
  [[ "$version" =~ ^[0-9]+$ ]] || fail 4 "could not read the version of $JAVA"
  # Kafka 3.9 brokers need Java 11+; the project standardises on 17.
  ((version >= 11)) || fail 4 "$JAVA is Java $version; Kafka $KAFKA_VERSION needs Java 11 or newer (17 recommended)"
}

require_node() {
  command -v node >/dev/null || fail 4 "no 'node' on PATH: the readiness probe and port check are Node scripts"
}

# A pid file alone proves nothing (stale files, reused pids): the process must exist, not be a zombie,
# and be a Kafka broker.
pid_is_broker() {
  local pid="$1" state
  [[ "$pid" =~ ^[0-9]+$ && -d "/proc/$pid" ]] || return 1
  state="$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$pid/status" 2>/dev/null || true)"
  [[ "$state" != "Z" ]] || return 1
  local cmdline
  cmdline="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)"
  [[ "$cmdline" == *" kafka.Kafka "* ]]
}

running_pid() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid
  pid="$(cat "$PID_FILE" 2>/dev/null || true)"
  pid_is_broker "$pid" || return 1
  echo "$pid"
}

# Serialises start/stop/release per state dir; the lock fd is closed for the broker itself (9>&-).
lock_state() {
  mkdir -p "$STATE_DIR"
  exec 9>"$STATE_DIR/.lock"
  flock -w 600 9 || fail 1 "timed out waiting for the lock on $STATE_DIR (another kafka.sh still running?)"
}

fetch_libs() {
  [[ -f "$LIBS_DIR/.complete" ]] && return 0
  command -v mvn >/dev/null ||
    fail 4 "no 'mvn' on PATH, and Kafka $KAFKA_VERSION is not cached in $LIBS_DIR yet: install Maven (Debian: apt-get install maven) for the one-time download from Maven Central"
  mkdir -p "$KAFKA_HOME_DIR"
  # Two launchers on different ports may share the cache: one downloads, the other waits.
  exec 8>"$KAFKA_HOME_DIR/.fetch.lock"
  flock -w 900 8 || fail 4 "timed out waiting for another download into $KAFKA_HOME_DIR"
  if [[ ! -f "$LIBS_DIR/.complete" ]]; then
    note "fetching Apache Kafka $KAFKA_VERSION from Maven Central into $KAFKA_HOME_DIR (first run only)…"
    sed "s/@KAFKA_VERSION@/$KAFKA_VERSION/g" "$HERE/pom.xml.in" >"$KAFKA_HOME_DIR/pom.xml"
    rm -rf "$LIBS_DIR.partial"
    local -a extra=()
    # shellcheck disable=SC2206 # word splitting of user-supplied Maven flags is intended
    if [[ -n "${TC_KAFKA_MVN_ARGS:-}" ]]; then extra=($TC_KAFKA_MVN_ARGS); fi
    if ! mvn -q -B -f "$KAFKA_HOME_DIR/pom.xml" "${extra[@]}" dependency:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory="$LIBS_DIR.partial" >"$KAFKA_HOME_DIR/fetch.log" 2>&1; then
      tail -n 20 "$KAFKA_HOME_DIR/fetch.log" >&2
      fail 4 "Maven could not fetch org.apache.kafka:kafka_2.13:$KAFKA_VERSION (full output: $KAFKA_HOME_DIR/fetch.log)"
    fi
    rm -rf "$LIBS_DIR"
    mv "$LIBS_DIR.partial" "$LIBS_DIR"
    touch "$LIBS_DIR/.complete"
  fi
  exec 8>&-
}

# Kafka cluster ids are 16 random bytes in URL-safe base64 (22 chars); a leading '-' would read as a flag.
new_cluster_id() {
  node -e "const c=require('node:crypto');let id;do{id=c.randomBytes(16).toString('base64url')}while(id.startsWith('-'));process.stdout.write(id)"
}

jvm_common() {
  printf '%s\n' "-Djava.awt.headless=true" "-Dlog4j.configuration=file:$HERE/log4j.properties" \
    "-Dkafka.logs.dir=$STATE_DIR" -cp "$LIBS_DIR/*"
}

start_broker() { # fresh(0|1)
  local fresh="$1" cport data cluster_id pid
  cport="$(controller_port)"
  data="$STATE_DIR/data"
  if ! node "$HERE/port-free.mjs" "$PORT" "$cport" 2>"$STATE_DIR/port-check.err"; then
    fail 5 "$(cat "$STATE_DIR/port-check.err") — another process holds it; stop that process or choose another port with TC_KAFKA_PORT (the controller uses port+1)"
  fi
  fetch_libs

  rm -rf "$LEASES_DIR" "$AUTO_STOP_MARK"
  # A data dir is reused only when formatting completed (meta.properties is written last).
  if ((fresh)) || [[ ! -f "$data/meta.properties" ]]; then rm -rf "$data"; fi
  if [[ -f "$LOG_FILE" ]]; then mv -f "$LOG_FILE" "$LOG_FILE.previous"; fi
  sed -e "s|@PORT@|$PORT|g" -e "s|@CONTROLLER_PORT@|$cport|g" -e "s|@DATA_DIR@|$data|g" \
    "$HERE/server.properties.in" >"$STATE_DIR/server.properties"

  local -a jvm
  mapfile -t jvm < <(jvm_common)
  if [[ -f "$data/meta.properties" ]]; then
    note "reusing the data of the last run in $data (start --fresh for an empty cluster)"
  else
    cluster_id="$(new_cluster_id)"
    if ! "$JAVA" -Xmx256m "${jvm[@]}" kafka.tools.StorageTool format -t "$cluster_id" \
      -c "$STATE_DIR/server.properties" >>"$LOG_FILE" 2>&1 9>&-; then
      tail -n 20 "$LOG_FILE" >&2
      rm -rf "$data"
      fail 1 "formatting KRaft storage in $data failed (log: $LOG_FILE)"
    fi
  fi

  # setsid: the broker outlives the shell, terminal or test runner that started it, and a Ctrl-C
  # there does not reach it. The child writes its own pid, then execs into the JVM (same pid).
  rm -f "$PID_FILE"
  setsid bash -c 'echo $$ >"$0"; exec "$@"' "$PID_FILE" \
    "$JAVA" "-Xmx$HEAP" -Xms128m -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:+ExitOnOutOfMemoryError \
    "${jvm[@]}" kafka.Kafka "$STATE_DIR/server.properties" </dev/null >>"$LOG_FILE" 2>&1 9>&- &
  local launcher=$!
  local waited=0
  while [[ ! -s "$PID_FILE" ]] && ((waited < 50)); do
    sleep 0.1
    waited=$((waited + 1))
  done
  pid="$(cat "$PID_FILE" 2>/dev/null || echo "$launcher")"

  local probe=0
  node "$HERE/wait-ready.mjs" "$(address)" "$((START_TIMEOUT * 1000))" "$pid" 9>&- || probe=$?
  if ((probe != 0)); then
    note "last lines of $LOG_FILE:"
    tail -n 30 "$LOG_FILE" >&2 || true
    if pid_is_broker "$pid"; then
      kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$PID_FILE"
    fail 1 "Kafka did not become ready on $(address) (log: $LOG_FILE)"
  fi
  note "started Kafka $KAFKA_VERSION (pid $pid), data in $data"
}

cmd_start() {
  local lease="" fresh=0
  while (($#)); do
    case "$1" in
      --fresh)
        fresh=1
        shift
        ;;
      --lease)
        [[ $# -ge 2 && "$2" =~ ^[A-Za-z0-9._-]+$ ]] || fail 2 "--lease needs an id of letters, digits, '.', '_' or '-'"
        lease="$2"
        shift 2
        ;;
      *) fail 2 "start: unknown argument '$1'" ;;
    esac
  done
  check_port_setting
  require_java
  require_node
  lock_state
  if running_pid >/dev/null; then
    ((fresh)) && fail 2 "--fresh: Kafka is running on $(address); stop it first (its data would be deleted)"
    note "already running on $(address)"
    # A manual start says "keep it": a test run's release must not stop it afterwards.
    if [[ -z "$lease" ]]; then rm -f "$AUTO_STOP_MARK"; fi
  else
    start_broker "$fresh"
    if [[ -n "$lease" ]]; then touch "$AUTO_STOP_MARK"; fi
  fi
  if [[ -n "$lease" ]]; then
    mkdir -p "$LEASES_DIR"
    echo "${TC_KAFKA_LEASE_PID:-$PPID}" >"$LEASES_DIR/$lease"
  fi
  echo "log: $LOG_FILE"
  address
}

stop_pid() {
  local pid="$1" ticks=0 limit=$((STOP_TIMEOUT * 10))
  kill -TERM "$pid" 2>/dev/null || true
  while pid_is_broker "$pid" && ((ticks < limit)); do
    sleep 0.1
    ticks=$((ticks + 1))
  done
  if pid_is_broker "$pid"; then
    note "broker $pid ignored SIGTERM for ${STOP_TIMEOUT}s: sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    ticks=0
    while pid_is_broker "$pid" && ((ticks < 50)); do
      sleep 0.1
      ticks=$((ticks + 1))
    done
    pid_is_broker "$pid" && fail 1 "broker $pid survived SIGKILL"
  fi
  return 0
}

cmd_stop() {
  check_port_setting
  lock_state
  local pid
  if pid="$(running_pid)"; then
    stop_pid "$pid"
    echo "stopped Kafka on $(address) (pid $pid)"
  else
    echo "not running on $(address)"
  fi
  rm -f "$PID_FILE" "$AUTO_STOP_MARK"
  rm -rf "$LEASES_DIR"
}

lease_alive() {
  local holder
  holder="$(cat "$1" 2>/dev/null || true)"
  [[ "$holder" =~ ^[0-9]+$ ]] && kill -0 "$holder" 2>/dev/null
}

cmd_release() {
  [[ $# -eq 1 && "$1" =~ ^[A-Za-z0-9._-]+$ ]] || fail 2 "usage: kafka.sh release LEASE_ID"
  check_port_setting
  lock_state
  rm -f "$LEASES_DIR/$1"
  local live=0 file
  for file in "$LEASES_DIR"/*; do
    [[ -e "$file" ]] || continue
    if lease_alive "$file"; then live=$((live + 1)); else rm -f "$file"; fi
  done
  local pid
  if ! pid="$(running_pid)"; then
    echo "not running on $(address)"
  elif ((live > 0)); then
    echo "kept Kafka on $(address) running: $live other lease(s) still hold it"
  elif [[ -f "$AUTO_STOP_MARK" ]]; then
    stop_pid "$pid"
    rm -f "$PID_FILE" "$AUTO_STOP_MARK"
    echo "stopped Kafka on $(address) (pid $pid): its last lease was released"
  else
    echo "kept Kafka on $(address) running: it was started by hand, not by a lease"
  fi
}

cmd_status() {
  check_port_setting
  local pid
  if pid="$(running_pid)"; then
    echo "running pid=$pid address=$(address) log=$LOG_FILE"
  else
    if [[ -f "$PID_FILE" ]]; then echo "stopped (stale pid file $PID_FILE)"; else echo "stopped"; fi
    exit 3
  fi
}

cmd_logs() {
  [[ -f "$LOG_FILE" ]] || fail 1 "no log yet at $LOG_FILE"
  if [[ "${1:-}" == "-f" ]]; then
    exec tail -n 200 -F "$LOG_FILE"
  fi
  tail -n 200 "$LOG_FILE"
}

main() {
  local command="${1:-}"
  (($#)) && shift
  case "$command" in
    start) cmd_start "$@" ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    logs) cmd_logs "$@" ;;
    release) cmd_release "$@" ;;
    -h | --help | help) usage 0 ;;
    *) usage 2 ;;
  esac
}

main "$@"
