#!/bin/sh
# First start: initdb with POSTGRES_USER/POSTGRES_PASSWORD, create POSTGRES_DB, listen on every
# address with password authentication. Then exec postgres with the given arguments.
set -eu
: "${POSTGRES_USER:=postgres}" "${POSTGRES_DB:=$POSTGRES_USER}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s\n' "${POSTGRES_PASSWORD:-postgres}" > "$pwfile"
  initdb --username="$POSTGRES_USER" --pwfile="$pwfile" --auth-host=scram-sha-256 --auth-local=trust -D "$PGDATA" >/dev/null
  rm -f "$pwfile"
  printf "host all all 0.0.0.0/0 scram-sha-256\nhost all all ::/0 scram-sha-256\n" >> "$PGDATA/pg_hba.conf"
  if [ "$POSTGRES_DB" != postgres ]; then
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres -c "CREATE DATABASE \"$POSTGRES_DB\"" >/dev/null
    pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  fi
fi
if [ "${1:-postgres}" = postgres ]; then
  [ $# -gt 0 ] && shift
  exec postgres -c listen_addresses='*' "$@"
fi
exec "$@"
