#!/usr/bin/env bash
# Makes sure the servers the tests talk to are up: start them if installed but stopped, install
# them if missing. In CI a server that cannot be brought up fails the run; tests never skip.
set -euo pipefail

redis_up() { redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG; }
pg_up() { pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; }

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

ensure_redis
ensure_postgres
echo "==> redis and postgres are up"
