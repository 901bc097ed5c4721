#!/usr/bin/env bash
# Installs a built sashite: `scripts/install.sh ROOT [BUILD]` (make install runs it with
# ROOT = $(DESTDIR)$(PREFIX)). ROOT/bin/sashite; ROOT/share/sashite/ holds data/weights,
# data/nnue (the networks, for EvalFile), data/mate, data/openings, book/default (the built default book) and config/*.toml, which
# the binary finds beside its own ../share/sashite or in the PREFIX it was built for.
# Whatever was installed before under share/sashite is replaced, never mixed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=${1:?usage: scripts/install.sh ROOT [BUILD]}
build=${2:-build}
for needed in "$build/sashite" "$build/book/default/CURRENT"; do
  [ -e "$needed" ] || { echo "install: $needed is missing; run make first" >&2; exit 1; }
done
share="$root/share/sashite"
new="$share.new.$$"
rm -rf "$new"
trap 'rm -rf "$new"' EXIT
install -d "$root/bin" "$new/data/weights" "$new/data/nnue" "$new/data/mate" \
  "$new/data/openings" "$new/book/default" "$new/config"
install -m 644 data/weights/*.eval "$new/data/weights/"
install -m 644 data/nnue/*.nnue "$new/data/nnue/"
install -m 644 data/mate/svm.model "$new/data/mate/"
install -m 644 data/openings/*.txt data/openings/*.sfen "$new/data/openings/"
install -m 644 config/*.toml "$new/config/"
# The book without LevelDB's lock and log (the engine reads a book it may not write).
for f in "$build/book/default"/*; do
  case "$(basename "$f")" in LOCK | LOG | LOG.old) continue ;; esac
  install -m 644 "$f" "$new/book/default/"
done
install -m 755 "$build/sashite" "$root/bin/sashite.new.$$"
mv "$root/bin/sashite.new.$$" "$root/bin/sashite"
rm -rf "$share.old.$$"
[ -e "$share" ] && mv "$share" "$share.old.$$"
mv "$new" "$share"
rm -rf "$share.old.$$"
trap - EXIT
echo "installed $root/bin/sashite and $share"
