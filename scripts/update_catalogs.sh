#!/bin/sh
# Re-extract the web calculator's messages and merge them into the es, ca and en catalogs.
# The .po files are committed; the app compiles them in memory when it starts (no .mo files).
set -e
cd "$(dirname "$0")/.."
LOCALE=src/chessrate/web/locale
pybabel extract -F babel.cfg -k gettext -k said -k said_plural:1,2 --no-location --sort-output --omit-header \
  -o "$LOCALE/messages.pot" .
for lang in es ca en; do
  if [ -f "$LOCALE/$lang/LC_MESSAGES/messages.po" ]; then
    pybabel update -i "$LOCALE/messages.pot" -d "$LOCALE" -l "$lang" --no-fuzzy-matching --ignore-obsolete
  else
    pybabel init -i "$LOCALE/messages.pot" -d "$LOCALE" -l "$lang"
  fi
done
