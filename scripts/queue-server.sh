#!/usr/bin/env bash
# The PostgreSQL server behind `--queue` (docs/queue.md), on loopback only.
#   scripts/queue-server.sh [start]  make sure a cluster runs on 127.0.0.1:5432 with the role and
#                                    database `spatialprobe`, then print the queue URL
#   scripts/queue-server.sh url      print the URL only
# Installs nothing: scripts/system-packages.sh installs Debian's `postgresql`. Uses Debian's cluster
# tools (pg_lsclusters, pg_createcluster, pg_ctlcluster), as root or through sudo. Idempotent: when the
# server already answers for the role, it only prints the URL.
set -euo pipefail

URL="postgres://spatialprobe:spatialprobe@127.0.0.1:5432/spatialprobe"
action="${1:-start}"
case "$action" in
  url) echo "$URL"; exit 0 ;;
  start) ;;
  *) echo "usage: $0 [start|url]" >&2; exit 2 ;;
esac

# Already up, with the role and database: nothing to do.
if command -v psql >/dev/null 2>&1 && psql "$URL" -qtAc "SELECT 1" >/dev/null 2>&1; then
  echo "$URL"
  exit 0
fi

if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  echo "PostgreSQL's Debian cluster tools are missing: run scripts/system-packages.sh (it installs the postgresql package)" >&2
  exit 1
fi

as_root=()
as_postgres=()
if [ "$(id -u)" -eq 0 ]; then
  as_postgres=(runuser -u postgres --)
elif [ "$(id -un)" = postgres ]; then
  :
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
  as_postgres=(sudo -u postgres)
else
  echo "starting PostgreSQL needs root (or sudo): run $0 as root" >&2
  exit 1
fi

version="$(ls /usr/lib/postgresql | sort -V | tail -n 1)"
[ -n "$version" ] || { echo "no PostgreSQL server under /usr/lib/postgresql" >&2; exit 1; }

# The cluster `main` of the newest version, on port 5432; created when missing.
if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" { found = 1 } END { exit !found }'; then
  "${as_root[@]}" pg_createcluster "$version" main --port 5432 >/dev/null
fi
port="$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" { print $3 }')"
if [ "$port" != 5432 ]; then
  echo "cluster $version/main listens on port $port, not 5432: change port in /etc/postgresql/$version/main/postgresql.conf" >&2
  exit 1
fi
if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" && $4 == "online" { found = 1 } END { exit !found }'; then
  # Its notes ("Removed stale pid file." after a crash) go to stderr: stdout is the URL alone.
  "${as_root[@]}" pg_ctlcluster "$version" main start >&2
fi
for _ in $(seq 1 50); do
  pg_isready -q -h 127.0.0.1 -p 5432 && break
  sleep 0.2
done
pg_isready -q -h 127.0.0.1 -p 5432 || { echo "PostgreSQL did not come up on 127.0.0.1:5432 (see /var/log/postgresql/)" >&2; exit 1; }

# The role (password login; Debian's pg_hba.conf allows it from 127.0.0.1 with scram-sha-256) and its database.
psql_admin=("${as_postgres[@]}" psql -p 5432 -qtAX -v ON_ERROR_STOP=1)
if [ "$("${psql_admin[@]}" -c "SELECT 1 FROM pg_roles WHERE rolname = 'spatialprobe'")" != 1 ]; then
  "${psql_admin[@]}" -c "CREATE ROLE spatialprobe LOGIN PASSWORD 'spatialprobe'" >/dev/null
fi
if [ "$("${psql_admin[@]}" -c "SELECT 1 FROM pg_database WHERE datname = 'spatialprobe'")" != 1 ]; then
  "${psql_admin[@]}" -c "CREATE DATABASE spatialprobe OWNER spatialprobe" >/dev/null
fi
psql "$URL" -qtAc "SELECT 1" >/dev/null || { echo "cannot log in as spatialprobe at $URL (check pg_hba.conf for host 127.0.0.1/32)" >&2; exit 1; }
echo "$URL"
