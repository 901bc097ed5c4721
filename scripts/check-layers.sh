#!/usr/bin/env bash
# The layers' include rule, run by `make` before it archives the libraries: each directory
# includes only its own headers and those of the layers below it, so that the rules stay a
# library of their own and a forbidden include fails the build (the link order enforces the
# same for definitions). Layers, lowest first:
#   base     status, files, text, processes
#   shogi    the rules, notations and records (base)
#   engine   search, evaluation, mate solver, options, the USI loop (base, shogi)
#   book     the opening book (base, shogi; engine only in its adapter, book/engine_book.*,
#            and engine/book_mode.h, the retrieval mode the engine's book interface defines)
#   usi      USI engines as child processes (base, shogi)
#   council  a council of USI engines, itself a USI engine (base, shogi, engine's USI parsers,
#            usi)
#   client   the CSA client (all of the above)
#   tools    match, server, learning, book and mate tools (all of the above)
#   app, tests, fuzz: anything.
# Usage: scripts/check-layers.sh [ROOT]; prints each forbidden include and exits 1 if any.
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"

allowed() {  # allowed <file>: sets dirs, the directories it may include from
  case "$1" in
    base/*) dirs="base" ;;
    shogi/*) dirs="base shogi" ;;
    engine/*) dirs="base shogi engine" ;;
    book/engine_book.*) dirs="base shogi engine book" ;;
    book/*) dirs="base shogi book" ;;
    usi/*) dirs="base shogi usi" ;;
    council/*) dirs="base shogi engine usi council" ;;
    client/*) dirs="base shogi engine book usi client" ;;
    tools/*) dirs="base shogi engine book usi client tools" ;;
    *) dirs="*" ;;
  esac
}

bad=0
# One grep over the tree and no subshell per line: this runs on every build.
while IFS=: read -r file line text; do
  allowed "$file"
  [ "$dirs" = "*" ] && continue
  target=${text#*\"}
  target=${target%%\"*}
  # The one engine header below the adapter that the book may use (dependency inversion:
  # the engine defines what it asks of a book, the book implements it).
  [[ $file == book/* && $target == engine/book_mode.h ]] && continue
  case " $dirs " in
    *" ${target%%/*} "*) ;;
    *) echo "$file:$line: includes \"$target\"; its layer may include only from: $dirs" >&2
       bad=1 ;;
  esac
done < <(grep -rn --include='*.h' --include='*.cpp' --include='*.inc' \
           '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]*/' \
           base shogi engine book usi council client tools || true)
exit $bad
