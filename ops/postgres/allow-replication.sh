#!/usr/bin/env bash
# For docker-compose.scaled.yml: the official image's pg_hba.conf admits no replication connections;
# the streaming replica's pg_basebackup and walreceiver need one.
set -euo pipefail
echo "host replication all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
