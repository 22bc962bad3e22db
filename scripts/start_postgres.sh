#!/usr/bin/env bash
# Start a throwaway PostgreSQL cluster for the rating-list tests and print its SQLAlchemy URL.
#
# Needs Debian's `postgresql` package already installed (apt-get install -y postgresql); installs
# nothing. Run as root (the server runs as the `postgres` user) or as any non-root user (the server
# runs as that user). The cluster lives in a new temporary directory /tmp/chessrate-pg.XXXXXX (or
# the empty one given as argument) on a free local port; stop it and delete the directory with
# scripts/stop_postgres.sh DIR, as printed on stderr. `make test` does all of this itself. Usage:
#   export CHESSRATE_TEST_POSTGRES_URL="$(scripts/start_postgres.sh)"
set -euo pipefail

bindir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "start_postgres.sh: PostgreSQL is not installed (apt-get install -y postgresql)" >&2
  exit 1
fi

# A free TCP port on the loopback interface, chosen by the kernel.
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
dir="${1:-$(mktemp -d /tmp/chessrate-pg.XXXXXX)}"
# On any failure: show why, then stop whatever started and delete the directory.
trap 'cat "$dir"/*.log >&2 2>/dev/null; "$(dirname "$0")/stop_postgres.sh" "$dir"' ERR

if [ "$(id -u)" -eq 0 ]; then
  owner=postgres
  chown "$owner" "$dir"
  as_owner() { runuser -u "$owner" -- "$@"; }
else
  owner="$(id -un)"
  as_owner() { "$@"; }
fi

as_owner "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --no-locale >"$dir/initdb.log" 2>&1
as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir -c fsync=off" start >/dev/null
as_owner "$bindir/psql" -h 127.0.0.1 -p "$port" -U postgres -qc "CREATE DATABASE chessrate_test" >/dev/null

[ -n "${1:-}" ] || echo "start_postgres.sh: stop it with: scripts/stop_postgres.sh $dir" >&2
echo "postgresql+psycopg://postgres@127.0.0.1:$port/chessrate_test"
