#!/usr/bin/env bash
# Stop a server started by scripts/start_postgres.sh and delete its directory. Safe to call on a
# directory whose server never started or already stopped. Usage: scripts/stop_postgres.sh DIR
set -uo pipefail
dir="${1:?usage: scripts/stop_postgres.sh /tmp/chessrate-pg.XXXXXX}"
case "$dir" in /tmp/chessrate-pg.*) ;; *) echo "stop_postgres.sh: not a chessrate-pg directory: $dir" >&2; exit 2 ;; esac
[ -d "$dir" ] || exit 0
bindir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
if [ -n "$bindir" ] && [ -f "$dir/data/postmaster.pid" ]; then
  owner="$(stat -c %U "$dir/data")"
  if [ "$(id -u)" -eq 0 ] && [ "$owner" != root ]; then
    runuser -u "$owner" -- "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1
  else
    "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1
  fi
fi
# If pg_ctl could not stop it, end the server this directory's pid file names (immediate shutdown).
if [ -f "$dir/data/postmaster.pid" ]; then
  pid="$(head -n 1 "$dir/data/postmaster.pid")"
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -QUIT "$pid" 2>/dev/null
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  fi
fi
rm -rf "$dir"
