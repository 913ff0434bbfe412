#!/usr/bin/env bash
# A point-in-time-restore drill following docs/operations.md ("PostgreSQL: WAL archiving and a
# restore to a point in time") command by command, against a real PostgreSQL of its own: WAL
# archiving on, a base backup, Hamlet writing topics before a moment T and after it, maintenance
# mode on, the restore to T into a new data directory, and Hamlet started on the restored cluster,
# which must serve every write before T and none after. Only paths and ports differ from the
# page (a temporary directory; ports PITR_PG_PORT, PITR_RESTORED_PORT, PITR_HAMLET_PORT).
# Run from the checkout: scripts/pitr-drill.sh (as root or as a user who may run PostgreSQL).
# Prints what it did and "PITR drill: ok" at the end; exits 1 when the restore is not exact.
set -euo pipefail
cd "$(dirname "$0")/.."
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$PGBIN" ]; then echo "pitr-drill: PostgreSQL is not installed" >&2; exit 1; fi
MAIN_PORT=${PITR_PG_PORT:-5466}
RPORT=${PITR_RESTORED_PORT:-5467}
HPORT=${PITR_HAMLET_PORT:-18466}
W=$(mktemp -d /tmp/hamlet-pitr.XXXXXX)
ARCHIVE=$W/wal-archive
BASE=$W/base-$(date +%F)
RESTORED=$W/restored
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
pg() { as_pg "$PGBIN/$1" "${@:2}"; }
psql_on() { local port=$1; shift; pg psql -h 127.0.0.1 -p "$port" -U postgres -v ON_ERROR_STOP=1 "$@"; }
hamlet() { node bin/hamlet.js "$@"; }
SERVER_PID=
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true
  pg pg_ctl -D "$RESTORED" -m immediate stop >/dev/null 2>&1 || true
  pg pg_ctl -D "$W/main" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$W"
}
trap cleanup EXIT
[ "$(id -u)" = 0 ] && chown postgres "$W"
step() { printf '\n== %s (%s)\n' "$*" "$(date -u +%T)"; }

step "a primary with WAL archiving (the page's postgresql.conf lines)"
pg initdb -D "$W/main" -U postgres -A trust --no-sync >/dev/null
cat >>"$W/main/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $MAIN_PORT
unix_socket_directories = '$W'
wal_level = replica
archive_mode = on
archive_command = 'test ! -f $ARCHIVE/%f && cp %p $ARCHIVE/%f'
archive_timeout = 300
CONF
as_pg install -d -m 700 "$ARCHIVE"
pg pg_ctl -D "$W/main" -l "$W/main.log" -w start >/dev/null
psql_on "$MAIN_PORT" -qc 'create database hamlet'
psql_on "$MAIN_PORT" -c 'select pg_switch_wal()' >/dev/null
sleep 1
psql_on "$MAIN_PORT" -Atc 'select archived_count, failed_count, last_archived_wal from pg_stat_archiver'

export DATABASE_URL="postgres://postgres@127.0.0.1:$MAIN_PORT/hamlet" LOG_LEVEL=warn
step "Hamlet's schema, a community and an agent key"
hamlet migrate >/dev/null
hamlet community create acme --name Acme >/dev/null
KEY=$(hamlet agent create --community acme --name pitr-writer --scopes topic:create | sed -n 's/^key: *//p')
[ -n "$KEY" ] || { echo "no agent key printed" >&2; exit 1; }

step "a base backup (before every write of the drill: they must come from the WAL archive)"
pg pg_basebackup -h 127.0.0.1 -p "$MAIN_PORT" -U postgres -D "$BASE" -Ft -z -X fetch -c fast
ls "$BASE"

step "hamlet serve, writes before T, T, writes after T"
(PORT=$HPORT HOST=127.0.0.1 exec node bin/hamlet.js serve --no-migrate >"$W/serve.log" 2>&1) &
SERVER_PID=$!
ready() { for _ in $(seq 1 150); do curl -fsS "http://127.0.0.1:$1/readyz" >/dev/null 2>&1 && return 0; sleep 0.2; done; echo "Hamlet on $1 not ready" >&2; cat "$W/serve.log" >&2; exit 1; }
ready "$HPORT"
write() { # $1 title; prints the HTTP status
  curl -sS -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$HPORT/c/acme/api/v1/topics" \
    -H "authorization: Bearer $KEY" -H 'content-type: application/json' \
    -H "idempotency-key: pitr-$(echo "$1" | tr -c 'a-zA-Z0-9' -)" \
    -d "{\"category\":\"general\",\"title\":\"$1\",\"body\":\"Written by the PITR drill.\"}"
}
for i in 1 2 3 4 5; do s=$(write "PITR drill before T number $i"); [ "$s" = 201 ] || { echo "write answered $s" >&2; exit 1; }; done
sleep 1
T=$(psql_on "$MAIN_PORT" -Atc "select to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS.US') || '+00'")
echo "T = $T"
sleep 1
for i in 1 2 3 4 5; do s=$(write "PITR drill after T number $i"); [ "$s" = 201 ] || { echo "write answered $s" >&2; exit 1; }; done
echo "acknowledged: 5 writes before T, 5 after"

step "restore to T, as the page says"
hamlet maintenance on --message "Restoring the database: writing is paused for a few minutes."
sleep 2.5
during=$(write 'PITR drill during maintenance')
echo "a write during maintenance: HTTP $during"
[ "$during" = 503 ] || { echo "maintenance mode did not refuse the write" >&2; exit 1; }
SEG=$(psql_on "$MAIN_PORT" -Atc 'select pg_walfile_name(pg_switch_wal())')
for _ in $(seq 1 50); do
  last=$(psql_on "$MAIN_PORT" -Atc 'select last_archived_wal from pg_stat_archiver')
  [[ "$last" > "$SEG" || "$last" == "$SEG" ]] && break
  sleep 0.2
done
echo "switched $SEG; last archived: $(psql_on "$MAIN_PORT" -Atc 'select last_archived_wal from pg_stat_archiver')"
as_pg install -d -m 700 "$RESTORED"
as_pg tar -xzf "$BASE/base.tar.gz" -C "$RESTORED"
as_pg tee -a "$RESTORED/postgresql.auto.conf" >/dev/null <<CONF
restore_command = 'cp $ARCHIVE/%f %p'
recovery_target_time = '$T'
recovery_target_action = 'promote'
CONF
as_pg touch "$RESTORED/recovery.signal"
pg pg_ctl -D "$RESTORED" -o "-p $RPORT" -l "$W/restored.log" -w start >/dev/null
for _ in $(seq 1 100); do [ "$(psql_on "$RPORT" -Atc 'select pg_is_in_recovery()')" = f ] && break; sleep 0.2; done
echo "restored cluster in recovery: $(psql_on "$RPORT" -Atc 'select pg_is_in_recovery()')"
grep -E 'recovery stopping|starting point-in-time|selected new timeline' "$W/restored.log" | sed 's/^.*LOG: */  log: /'

step "Hamlet on the restored cluster"
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
export DATABASE_URL="postgres://postgres@127.0.0.1:$RPORT/hamlet"
hamlet maintenance status
(PORT=$HPORT HOST=127.0.0.1 exec node bin/hamlet.js serve --no-migrate >"$W/serve.log" 2>&1) &
SERVER_PID=$!
ready "$HPORT"
TITLES=$(curl -fsS "http://127.0.0.1:$HPORT/c/acme/api/v1/topics?limit=50" -H "authorization: Bearer $KEY")
count() { { grep -o "$1" <<<"$TITLES" || true; } | sort -u | wc -l; }
before=$(count 'PITR drill before T number [0-9]')
after=$(count 'PITR drill after T number [0-9]')
during=$(grep -c 'PITR drill during maintenance' <<<"$TITLES" || true)
echo "served by Hamlet on the restored cluster: $before of 5 writes before T, $after of 5 after T, $during written during maintenance"
echo "a write on the restored cluster: HTTP $(write 'PITR drill after the restore')"
if [ "$before" = 5 ] && [ "$after" = 0 ] && [ "$during" = 0 ]; then echo; echo "PITR drill: ok"; else echo "PITR drill: FAILED" >&2; exit 1; fi
