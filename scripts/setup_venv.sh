#!/usr/bin/env bash
# Create (or repair) the virtual environment and install chessrate with its dev tools into it.
#
# Recovers from a stale .venv: one made by another Python (say 3.10), one whose interpreter is
# gone, one without pip, or one whose install was interrupted (no .installed stamp). Fast when
# everything is in place. VENV and PYTHON come from the Makefile (defaults .venv, python3).
set -euo pipefail
venv="${VENV:-.venv}"
python="${PYTHON:-python3}"
stamp="$venv/.installed"
new_enough='import sys; sys.exit(sys.version_info < (3, 11))'

if ! "$python" -c "$new_enough" 2>/dev/null; then
  echo "chessrate needs Python 3.11 or newer; $python is $("$python" -V 2>&1 || echo missing)" >&2
  exit 1
fi
if [ -e "$venv" ] && ! { "$venv/bin/python" -c "$new_enough" && "$venv/bin/python" -m pip --version; } >/dev/null 2>&1; then
  echo "setup_venv.sh: $venv is stale or broken (old Python, no interpreter or no pip): making it again" >&2
  rm -rf "$venv"
fi
if [ -f "$stamp" ] && [ "$stamp" -nt pyproject.toml ] && "$venv/bin/python" -c 'import chessrate' 2>/dev/null; then
  exit 0
fi
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet -e '.[dev]'
touch "$stamp"
