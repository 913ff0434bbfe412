#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster on a loopback port (as the postgres user when run as root),
# exports TEST_POSTGRES_URL (and TEST_POSTGRES_LOG, the server's log file) for the command given,
# runs it, and stops the cluster afterwards.
set -euo pipefail
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$PGBIN" ]; then echo "with-postgres: PostgreSQL is not installed" >&2; exit 1; fi
PORT=${HAMLET_TEST_PG_PORT:-54329}
DIR=$(mktemp -d /tmp/hamlet-pg.XXXXXX)
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$DIR"
as_pg "$PGBIN/initdb" -D "$DIR/data" -U postgres -A trust --no-sync >/dev/null
as_pg "$PGBIN/pg_ctl" -D "$DIR/data" -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" -l "$DIR/log" -w start >/dev/null
trap 'as_pg "$PGBIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$DIR"' EXIT
export TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$PORT/postgres"
export TEST_POSTGRES_LOG="$DIR/log"
"$@"
