#!/usr/bin/env bash
# For docker-compose.scaled.yml: the official image's pg_hba.conf admits no replication connections; the
# streaming replica's pg_basebackup and walreceiver need one. They log in as `replicator` (replication
# only, not a superuser), from the replication network's subnet only.
set -euo pipefail
: "${REPLICATION_PASSWORD:?set REPLICATION_PASSWORD}" "${REPLICATION_SUBNET:?set REPLICATION_SUBNET}"
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" -v password="$REPLICATION_PASSWORD" <<'SQL'
CREATE ROLE replicator WITH REPLICATION LOGIN PASSWORD :'password';
SQL
echo "host replication replicator ${REPLICATION_SUBNET} scram-sha-256" >> "$PGDATA/pg_hba.conf"
