#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: `start` prints its admin URL, `stop DIR` ends it.
# `halt DIR` stops it keeping its data and `resume DIR` starts it again on the same port (tests of a
# database that goes away under a running server). Root cannot run the server, so it runs as the `postgres` user in a temporary folder, with trust
# authentication on 127.0.0.1 only (test data, never a real deployment).
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
case "${1:-}" in
  start)
    dir=$(mktemp -d /tmp/faultline-pg-XXXXXX)
    chown postgres "$dir"
    port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
    su postgres -c "$bin/initdb -D $dir/data -A trust -U postgres --locale=C.UTF-8 -E UTF8" >/dev/null
    # fsync off: a crash of the test machine loses a throwaway cluster, nothing else.
    echo "$port" > "$dir/port"
    su postgres -c "$bin/pg_ctl -D $dir/data -l $dir/log -w start -o '-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300'" >/dev/null
    echo "$dir postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  halt)
    su postgres -c "$bin/pg_ctl -D $2/data -m fast -w stop" >/dev/null
    ;;
  resume)
    port=$(cat "$2/port")
    su postgres -c "$bin/pg_ctl -D $2/data -l $2/log -w start -o '-p $port -k $2 -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300'" >/dev/null
    ;;
  stop)
    su postgres -c "$bin/pg_ctl -D $2/data -m immediate stop" >/dev/null || true
    rm -rf "$2"
    ;;
  *)
    echo "usage: $0 start | halt DIR | resume DIR | stop DIR" >&2
    exit 2
    ;;
esac
