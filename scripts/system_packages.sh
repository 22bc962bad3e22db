#!/usr/bin/env bash
# Check the Debian packages a make target needs; install the missing ones when run as root.
#
#   scripts/system_packages.sh run    # python3-venv, Node.js and npm (the browser assets)
#   scripts/system_packages.sh test   # the same, plus chromium, libatomic1 (Playwright's node),
#                                     # stockfish and postgresql
#
# As another user it installs nothing: it prints the one apt-get line to run and fails.
set -euo pipefail

missing=()
python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
command -v npm >/dev/null || missing+=(nodejs npm)
if [ "${1:-run}" = test ]; then
  [ -x /usr/bin/chromium ] || missing+=(chromium)            # the browser tests
  case "$(/sbin/ldconfig -p)" in *"libatomic.so.1 "*) ;; *) missing+=(libatomic1) ;; esac  # Playwright's driver
  [ -x /usr/games/stockfish ] || missing+=(stockfish)        # the strength-analysis tests
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)  # the store tests
fi
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$EUID" -ne 0 ]; then
  echo "missing Debian packages; install them with: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "installing Debian packages: ${missing[*]}" >&2
if [[ " ${missing[*]} " == *" postgresql "* ]] && [ ! -e /etc/postgresql-common/createcluster.conf ]; then
  # The tests start their own throwaway server: no system-wide cluster left running after install.
  mkdir -p /etc/postgresql-common
  echo "create_main_cluster = false" >/etc/postgresql-common/createcluster.conf
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends \
  -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "${missing[@]}"
