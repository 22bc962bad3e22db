#!/usr/bin/env bash
# `make test`: every check, with everything it needs set up first, on a fresh Debian or Ubuntu.
#
# 1. Debian packages: python3-venv, Node.js and npm, chromium and libatomic1 (browser tests),
#    stockfish (strength analysis), postgresql (the store tests); installed when run as root, else a hint and exit 1.
# 2. .venv and the browser assets (make setup assets), then ruff, ruff format and mypy (make lint).
# 3. A throwaway PostgreSQL server in /tmp/chessrate-pg.XXXXXX, stopped and deleted on every exit:
#    tests passed, tests failed, Ctrl-C or kill.
# 4. The whole suite; its exit code is the script's (5, "no tests collected", is a failure too).
# Extra arguments go to pytest: scripts/test.sh tests/test_cli.py -x
set -euo pipefail
cd "$(dirname "$0")/.."
make="${MAKE:-make}"

scripts/system_packages.sh test
"$make" --no-print-directory setup assets lint

pg_dir=""
pytest_pid=""
clean_up() {
  set +e  # every step runs, whatever the one before returned
  if [ -n "$pytest_pid" ] && kill -0 "$pytest_pid" 2>/dev/null; then
    kill -TERM "$pytest_pid" 2>/dev/null
    wait "$pytest_pid" 2>/dev/null
  fi
  if [ -n "$pg_dir" ]; then
    scripts/stop_postgres.sh "$pg_dir"
    pg_dir=""
  fi
}
trap clean_up EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

pg_dir="$(mktemp -d /tmp/chessrate-pg.XXXXXX)"
CHESSRATE_TEST_POSTGRES_URL="$(scripts/start_postgres.sh "$pg_dir")"
export CHESSRATE_TEST_POSTGRES_URL
echo "test.sh: a throwaway PostgreSQL server in $pg_dir, stopped and deleted when the tests end" >&2
export PATH="$PATH:/usr/games"   # Debian installs stockfish in /usr/games

# pytest runs in the background and the script waits for it, so that a signal to this script
# (Ctrl-C, kill) runs the traps at once rather than after the whole suite.
status=0
# Two workers (pytest-xdist): the suite in about two thirds of the time on a 2-core machine;
# TEST_WORKERS=0 runs it in one process.
"${VENV:-.venv}/bin/python" -m pytest -q -n "${TEST_WORKERS:-2}" "$@" &
pytest_pid=$!
wait "$pytest_pid" || status=$?
pytest_pid=""
if [ "$status" -eq 5 ]; then
  echo "test.sh: pytest collected no tests" >&2
fi
exit "$status"
