#!/usr/bin/env bash
# Makes sure Postgres and Redis answer on loopback: starts the installed servers, installing them
# with apt-get first where missing. Skipped for a dependency whose URL points at another host.
set -euo pipefail

DATABASE_URL="${DATABASE_URL:-postgres://postgres:postgres@127.0.0.1:5432/switchyard}"
REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"

is_local() { [[ "$1" =~ @(127\.0\.0\.1|localhost)[:/] || "$1" =~ ^redis://(127\.0\.0\.1|localhost)[:/]?([0-9]+)?$ ]]; }
apt_updated=0
apt_install() {
  if [ "$apt_updated" = 0 ]; then $SUDO apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

pg_up() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
ensure_postgres() {
  if command -v pg_isready >/dev/null && pg_up; then return; fi
  local fresh=0
  if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
    echo "services: installing PostgreSQL with apt-get"; apt_install postgresql; fresh=1
  fi
  local version; version=$(ls /etc/postgresql | sort -V | tail -n1)
  echo "services: starting PostgreSQL $version"
  $SUDO pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  for _ in $(seq 1 30); do pg_up && break; sleep 1; done
  pg_up || { echo "services: PostgreSQL did not come up" >&2; exit 1; }
  if [ "$fresh" = 1 ]; then
    # A fresh Debian cluster asks for a password on TCP; give the postgres role the one in the default URL.
    $SUDO -u postgres psql -q -c "alter user postgres password 'postgres'" >/dev/null
  fi
}

redis_up() { redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG; }
ensure_redis() {
  if command -v redis-cli >/dev/null && redis_up; then return; fi
  if ! command -v redis-server >/dev/null; then echo "services: installing Redis with apt-get"; apt_install redis-server; fi
  echo "services: starting Redis"
  mkdir -p /tmp/switchyard-redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /tmp/switchyard-redis --logfile /tmp/switchyard-redis/redis.log
  for _ in $(seq 1 30); do redis_up && break; sleep 0.5; done
  redis_up || { echo "services: Redis did not come up" >&2; exit 1; }
}

ensure_chromium() {
  if [ -x /usr/bin/chromium ]; then return; fi
  echo "services: installing Debian's chromium for Playwright"; apt_install chromium
}

# promtool checks and unit-tests the shipped alert rules (ops/prometheus); Debian ships it in `prometheus`.
ensure_promtool() {
  if command -v promtool >/dev/null; then return; fi
  echo "services: installing Debian's prometheus for promtool"; apt_install --no-install-recommends prometheus
}

# PgBouncer for the pooler test (test/pgbouncer.test.ts) and the scaled soak; only the binary is used.
ensure_pgbouncer() {
  if command -v pgbouncer >/dev/null || [ -x /usr/sbin/pgbouncer ]; then return; fi
  echo "services: installing Debian's pgbouncer"; apt_install pgbouncer
}

# Patroni and etcd for the scaled soak's Postgres failover (bench/soak/patroni.ts); only the binaries are used.
ensure_patroni() {
  local missing=()
  command -v patroni >/dev/null || missing+=(patroni)
  command -v etcd >/dev/null || missing+=(etcd-server)
  if [ "${#missing[@]}" -eq 0 ]; then return; fi
  echo "services: installing Debian's ${missing[*]}"; apt_install "${missing[@]}"
}

if is_local "$DATABASE_URL"; then ensure_postgres; fi
if is_local "$REDIS_URL"; then ensure_redis; fi
for option in "$@"; do
  case "$option" in
    --with-chromium) ensure_chromium ;;
    --with-promtool) ensure_promtool ;;
    --with-pgbouncer) ensure_pgbouncer ;;
    --with-patroni) ensure_patroni ;;
  esac
done
