#!/usr/bin/env bash
# Makes sure the servers the tests talk to are up: start them if installed but stopped, install
# them if missing. In CI a server that cannot be brought up fails the run; tests never skip.
# Idempotent: a server already up is reused.
#   Redis           127.0.0.1:6379
#   PostgreSQL      127.0.0.1:5432, database test
#   PgBouncer       127.0.0.1:6432 → 127.0.0.1:5432 (pool_mode transaction), database test
#   Redis Cluster   127.0.0.1:7000–7005, 3 masters + 3 replicas
set -euo pipefail

redis_up() { redis-cli -h 127.0.0.1 -p "${1:-6379}" ping 2>/dev/null | grep -q PONG; }
pg_up() { pg_isready -h 127.0.0.1 -p "${1:-5432}" -q 2>/dev/null; }

apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q "$@"
}

ensure_redis() {
  redis_up && return
  command -v redis-server >/dev/null 2>&1 || apt_install redis-server
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  for _ in $(seq 1 50); do redis_up && return; sleep 0.2; done
  echo "Redis did not come up on 127.0.0.1:6379" >&2
  exit 1
}

ensure_postgres() {
  if ! pg_up; then
    command -v pg_ctlcluster >/dev/null 2>&1 || apt_install postgresql
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
    for _ in $(seq 1 50); do pg_up && break; sleep 0.2; done
    pg_up || { echo "PostgreSQL did not come up on 127.0.0.1:5432" >&2; exit 1; }
  fi
  if ! psql "postgres://postgres@127.0.0.1:5432/test" -qtAc "select 1" >/dev/null 2>&1; then
    psql "postgres://postgres@127.0.0.1:5432/postgres" -qc "create database test" >/dev/null
  fi
}

PGBOUNCER_DIR=/var/run/baton-pgbouncer
PGBOUNCER_PORT=6432

pgbouncer_supervised() {
  [ -f "$PGBOUNCER_DIR/supervisor.pid" ] && kill -0 "$(cat "$PGBOUNCER_DIR/supervisor.pid")" 2>/dev/null
}

# PgBouncer in transaction pooling mode, the way managed Postgres offerings run it: each
# transaction may land on a different server connection, so no session state survives between
# transactions. Its defaults are kept where they matter to clients (it refuses unknown startup
# parameters such as statement_timeout).
ensure_pgbouncer() {
  if pgbouncer_supervised && psql "postgres://postgres@127.0.0.1:${PGBOUNCER_PORT}/test" -qtAc "select 1" >/dev/null 2>&1; then
    return
  fi
  # A PgBouncer started some other way (daemonized, by hand) would not be restarted if it
  # exits: replace it with a supervised one.
  pkill -f "pgbouncer.*${PGBOUNCER_DIR}/pgbouncer.ini" 2>/dev/null || true
  sleep 0.5
  command -v pgbouncer >/dev/null 2>&1 || apt_install pgbouncer
  mkdir -p "$PGBOUNCER_DIR"
  chown postgres:postgres "$PGBOUNCER_DIR"
  cat >"$PGBOUNCER_DIR/pgbouncer.ini" <<INI
[databases]
test = host=127.0.0.1 port=5432 dbname=test user=postgres

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${PGBOUNCER_PORT}
auth_type = trust
auth_file = ${PGBOUNCER_DIR}/userlist.txt
pool_mode = transaction
default_pool_size = 20
max_client_conn = 1000
logfile = ${PGBOUNCER_DIR}/pgbouncer.log
pidfile = ${PGBOUNCER_DIR}/pgbouncer.pid
unix_socket_dir =
INI
  echo '"postgres" ""' >"$PGBOUNCER_DIR/userlist.txt"
  chown postgres:postgres "$PGBOUNCER_DIR"/*
  # A pid file left by a PgBouncer that died makes the new one refuse to start.
  rm -f "$PGBOUNCER_DIR/pgbouncer.pid"
  local user_flag=""
  [ "$(id -u)" = "0" ] && user_flag="-u postgres"
  # PgBouncer 1.18 (Debian 12) can exit with "disconnect_client(): bad client state" when a
  # cancel request races a client's disconnect, which the State's statement timeouts send. A
  # supervisor starts it again at once, so such an exit fails at most the queries in flight
  # instead of every later PgBouncer test of the run.
  setsid nohup bash -c "while true; do rm -f '$PGBOUNCER_DIR/pgbouncer.pid'; pgbouncer $user_flag '$PGBOUNCER_DIR/pgbouncer.ini'; echo \"\$(date -u +%FT%TZ) pgbouncer exited (\$?); restarting\"; sleep 0.2; done" \
    >>"$PGBOUNCER_DIR/supervisor.log" 2>&1 </dev/null &
  echo $! >"$PGBOUNCER_DIR/supervisor.pid"
  for _ in $(seq 1 50); do
    psql "postgres://postgres@127.0.0.1:${PGBOUNCER_PORT}/test" -qtAc "select 1" >/dev/null 2>&1 && return
    sleep 0.2
  done
  echo "PgBouncer did not come up on 127.0.0.1:${PGBOUNCER_PORT}" >&2
  tail -n 20 "$PGBOUNCER_DIR/pgbouncer.log" >&2 || true
  exit 1
}

CLUSTER_DIR=/var/lib/baton-redis-cluster
CLUSTER_PORTS=(7000 7001 7002 7003 7004 7005)

cluster_ok() { redis-cli -h 127.0.0.1 -p "$1" cluster info 2>/dev/null | grep -q "cluster_state:ok"; }

cluster_healthy() {
  # Every node answers, sees the cluster ok, and the cluster has three masters with a replica
  # each (a failover test may have left the roles swapped; that is still a healthy cluster).
  for port in "${CLUSTER_PORTS[@]}"; do cluster_ok "$port" || return 1; done
  local nodes
  nodes="$(redis-cli -h 127.0.0.1 -p "${CLUSTER_PORTS[0]}" cluster nodes 2>/dev/null)"
  [ "$(grep -c "master" <<<"$nodes" | tr -d ' ')" -ge 3 ] || return 1
  ! grep -q "fail" <<<"$nodes"
}

# A local Redis Cluster of three masters and three replicas with a short node timeout, so a
# killed master is replaced by its replica within a few seconds.
ensure_redis_cluster() {
  cluster_healthy && return
  command -v redis-server >/dev/null 2>&1 || apt_install redis-server
  mkdir -p "$CLUSTER_DIR"
  local fresh=0
  for port in "${CLUSTER_PORTS[@]}"; do
    if redis_up "$port"; then continue; fi
    mkdir -p "$CLUSTER_DIR/$port"
    redis-server --port "$port" --bind 127.0.0.1 --cluster-enabled yes \
      --cluster-config-file "$CLUSTER_DIR/$port/nodes.conf" --cluster-node-timeout 2000 \
      --save "" --appendonly no --dir "$CLUSTER_DIR/$port" \
      --logfile "$CLUSTER_DIR/$port/redis.log" --daemonize yes
  done
  for port in "${CLUSTER_PORTS[@]}"; do
    for _ in $(seq 1 50); do redis_up "$port" && break; sleep 0.2; done
    redis_up "$port" || { echo "Redis Cluster node did not come up on 127.0.0.1:$port" >&2; exit 1; }
  done
  # Nodes that know no slots yet are formed into a cluster; nodes that restarted from their
  # nodes.conf rejoin on their own.
  if redis-cli -h 127.0.0.1 -p "${CLUSTER_PORTS[0]}" cluster info | grep -q "cluster_slots_assigned:0"; then
    fresh=1
    local hosts=()
    for port in "${CLUSTER_PORTS[@]}"; do hosts+=("127.0.0.1:$port"); done
    redis-cli --cluster create "${hosts[@]}" --cluster-replicas 1 --cluster-yes >/dev/null
  fi
  for _ in $(seq 1 100); do cluster_healthy && return; sleep 0.2; done
  echo "Redis Cluster on 127.0.0.1:${CLUSTER_PORTS[0]}-${CLUSTER_PORTS[5]} is not healthy (fresh=$fresh):" >&2
  redis-cli -h 127.0.0.1 -p "${CLUSTER_PORTS[0]}" cluster nodes >&2 || true
  exit 1
}

ensure_redis
ensure_postgres
ensure_pgbouncer
ensure_redis_cluster
echo "==> redis, postgres, pgbouncer (:${PGBOUNCER_PORT}) and redis cluster (:7000-7005) are up"
