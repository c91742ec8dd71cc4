#!/usr/bin/env bash
# A local Spark Connect server for Baton's Spark tests (docs/spark.md): start|stop|status|url.
#   start   install the `spark` extra into the venv if needed, check Java 17+, start the server
#           on 127.0.0.1 and wait until it answers (idempotent: does nothing if it is already up)
#   stop    stop it (idempotent)
#   status  say whether it runs (exit 0) or not (exit 3)
#   url     print the Spark Connect URL
# State lives in .spark/ (gitignored): a Hive metastore (Derby) and a warehouse dir, so tables
# survive restarts; logs in .spark/logs. Environment: BATON_SPARK_PORT (15002),
# BATON_SPARK_UI_PORT (4050), BATON_SPARK_MASTER (local[2]), BATON_SPARK_DRIVER_MEMORY (2g), VENV (.venv).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"

VENV="${VENV:-.venv}"
[[ "$VENV" = /* ]] || VENV="$ROOT/$VENV"
PORT="${BATON_SPARK_PORT:-15002}"
UI_PORT="${BATON_SPARK_UI_PORT:-4050}"
MASTER="${BATON_SPARK_MASTER:-local[2]}"
DRIVER_MEMORY="${BATON_SPARK_DRIVER_MEMORY:-2g}"
STATE="$ROOT/.spark"
HOST=127.0.0.1
URL="sc://$HOST:$PORT"
WAIT_SECONDS=90

export SPARK_LOCAL_IP=$HOST SPARK_LOG_DIR="$STATE/logs" SPARK_PID_DIR="$STATE" SPARK_IDENT_STRING=baton
export SPARK_CONF_DIR="$STATE/conf"  # an empty conf dir: no stray spark-defaults from elsewhere
PID_FILE="$STATE/spark-baton-org.apache.spark.sql.connect.service.SparkConnectServer-1.pid"

say() { echo "spark-connect: $*"; }
die() { echo "spark-connect: ERROR: $*" >&2; exit 1; }

port_open() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }

our_pid() {  # the pid of the server this script started, if it is alive
  [[ -f "$PID_FILE" ]] || return 1
  local pid
  pid="$(cat "$PID_FILE")"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
  # a reused pid is not ours: the process must be a Spark Connect server
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q SparkConnectServer && echo "$pid"
}

locked() {  # one start/stop at a time in this checkout (two `make test-spark` runs, CI and a shell)
  mkdir -p "$STATE"
  exec 9>"$STATE/.lock"
  flock 9
  "$@"
}

log_tail() {
  local log
  log="$(ls -t "$STATE"/logs/*.out 2>/dev/null | head -n1 || true)"
  if [[ -n "$log" ]]; then
    echo "---- last 40 lines of $log ----" >&2
    tail -n 40 "$log" >&2
  else
    echo "(no log in $STATE/logs)" >&2
  fi
}

spark_home() {
  "$VENV/bin/python" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))'
}

ensure_pyspark() {
  if [[ ! -x "$VENV/bin/python" ]]; then
    say "no venv at $VENV; creating it (make $VENV/.installed)"
    make -s "$VENV/.installed" VENV="$VENV" || die "could not create the venv $VENV"
  fi
  if ! "$VENV/bin/python" -c 'import pyspark' 2>/dev/null; then
    say "installing the spark extra (pyspark[connect], about 460 MB) into $VENV"
    "$VENV/bin/python" -m pip install --quiet -e "$ROOT[spark]" || die "pip install -e '.[spark]' failed"
  fi
}

java_major() {  # 17 for 'openjdk version "17.0.15"', 8 for '"1.8.0_392"'
  java -version 2>&1 | sed -n 's/.*version "\([0-9][0-9.]*\).*/\1/p' | head -n1 |
    awk -F. '{ print ($1 == 1 ? $2 : $1) }'
}

ensure_java() {
  if ! command -v java >/dev/null 2>&1 && [[ -z "${JAVA_HOME:-}" ]]; then
    command -v apt-get >/dev/null 2>&1 || die "Java 17+ is required (no java on PATH, no apt-get to install it)"
    local sudo=""
    [[ "$(id -u)" = 0 ]] || sudo="sudo"
    say "no java on PATH; installing openjdk-17-jre-headless"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq || die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq openjdk-17-jre-headless >/dev/null ||
      die "apt-get install openjdk-17-jre-headless failed"
  fi
  if [[ -n "${JAVA_HOME:-}" ]]; then PATH="$JAVA_HOME/bin:$PATH"; fi
  local major
  major="$(java_major)"
  [[ -n "$major" && "$major" -ge 17 ]] || die "Spark 4 needs Java 17+, found: $(java -version 2>&1 | head -n1)"
}

start() {
  if pid="$(our_pid)" && port_open "$PORT"; then
    say "already running (pid $pid)"
    echo "$URL"
    return 0
  fi
  if port_open "$PORT"; then
    die "port $PORT on $HOST is taken by another process (not started from $STATE); stop it or set BATON_SPARK_PORT"
  fi
  if port_open "$UI_PORT"; then
    die "UI port $UI_PORT on $HOST is taken by another process; stop it or set BATON_SPARK_UI_PORT"
  fi
  if pid="$(our_pid)" && [[ "$(cat "$STATE/port" 2>/dev/null)" != "$PORT" ]]; then
    die "this checkout's server (pid $pid) runs on port $(cat "$STATE/port" 2>/dev/null || echo '?'), not $PORT; stop it first"
  fi
  if pid="$(our_pid)"; then  # alive but not answering: still starting (wait for it) or hung (restart)
    say "pid $pid is alive but port $PORT does not answer yet; waiting up to 90 s"
    for _ in $(seq 1 90); do
      port_open "$PORT" && { say "up (pid $pid)"; return 0; }
      sleep 1
    done
    say "pid $pid still does not answer; stopping it first"
    stop
  fi
  ensure_pyspark
  ensure_java
  mkdir -p "$STATE/logs" "$STATE/warehouse" "$STATE/tmp" "$SPARK_CONF_DIR"
  rm -f "$PID_FILE"
  echo "$PORT" >"$STATE/port"
  local home
  home="$(spark_home)" || die "pyspark is installed in $VENV but cannot be imported"
  say "starting Spark Connect on $HOST:$PORT (UI $HOST:$UI_PORT, master $MASTER, state in $STATE)"
  PATH="$VENV/bin:$PATH" SPARK_HOME="$home" "$home/sbin/start-connect-server.sh" \
    --master "$MASTER" --driver-memory "$DRIVER_MEMORY" \
    --conf spark.connect.grpc.binding.address=$HOST --conf spark.connect.grpc.binding.port="$PORT" \
    --conf spark.driver.host=$HOST --conf spark.driver.bindAddress=$HOST \
    --conf spark.ui.port="$UI_PORT" --conf spark.port.maxRetries=0 \
    --conf spark.sql.catalogImplementation=hive --conf spark.sql.warehouse.dir="$STATE/warehouse" \
    --conf "spark.driver.extraJavaOptions=-Dderby.system.home=$STATE -Djava.io.tmpdir=$STATE/tmp" \
    --conf spark.local.dir="$STATE/tmp" \
    --conf spark.sql.shuffle.partitions=2 \
    --conf spark.sql.ui.retainedExecutions=10000 \
    --conf spark.sql.connect.ui.retainedStatements=10000 --conf spark.sql.connect.ui.retainedSessions=2000 \
    >/dev/null 9>&- ||  # the server must not inherit the lock (fd 9): it would hold it for its life
    { log_tail; die "start-connect-server.sh failed"; }
  local waited=0
  until port_open "$PORT"; do
    if ! our_pid >/dev/null; then
      log_tail
      die "the server exited while starting (see the log above)"
    fi
    if ((waited >= WAIT_SECONDS)); then
      log_tail
      die "port $PORT did not answer within ${WAIT_SECONDS}s (server pid $(cat "$PID_FILE" 2>/dev/null), still running)"
    fi
    sleep 1
    waited=$((waited + 1))
  done
  say "port $PORT answers after ${waited}s; warming up (first query, Hive metastore)"
  warm_up || { log_tail; die "the server answers on $PORT but a first query failed (see above)"; }
  say "up (pid $(our_pid)); UI http://$HOST:$UI_PORT"
  echo "$URL"
}

warm_up() {  # the first query and the first catalog access take ~10 s each: pay them here, not in a test
  timeout "$WAIT_SECONDS" "$VENV/bin/python" -W ignore - "$URL" <<'PY'
import sys
from pyspark.sql import SparkSession

spark = SparkSession.builder.remote(sys.argv[1]).create()
try:
    assert spark.sql("SELECT 1").collect()[0][0] == 1
    spark.sql("SHOW DATABASES").collect()
finally:
    spark.stop()
PY
}

stop() {
  local pid
  if ! pid="$(our_pid)"; then
    rm -f "$PID_FILE"
    say "not running"
    return 0
  fi
  say "stopping pid $pid"
  if "$VENV/bin/python" -c 'import pyspark' 2>/dev/null; then
    SPARK_HOME="$(spark_home)" "$(spark_home)/sbin/stop-connect-server.sh" >/dev/null 2>&1 || true
  else
    kill "$pid" 2>/dev/null || true
  fi
  for _ in $(seq 1 30); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 1
  done
  if kill -0 "$pid" 2>/dev/null; then
    say "pid $pid did not stop in 30 s; killing it"
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$PID_FILE"
  say "stopped"
}

status() {
  local pid
  if pid="$(our_pid)" && port_open "$PORT"; then
    say "running (pid $pid) at $URL, UI http://$HOST:$UI_PORT, state in $STATE"
    return 0
  fi
  if pid="$(our_pid)"; then
    say "pid $pid is alive but $HOST:$PORT does not answer (starting, or hung: see $STATE/logs)"
  else
    say "not running"
  fi
  return 3
}

case "${1:-}" in
  start) locked start ;;
  stop) locked stop ;;
  status) status ;;
  url) echo "$URL" ;;
  *) echo "usage: $0 start|stop|status|url" >&2; exit 2 ;;
esac
