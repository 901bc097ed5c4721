#!/usr/bin/env bash
# make demo: shows what sashite can do today. Until the CSA client and server exist, this
# runs move generation, the search benchmark, and one full game of the engine against
# itself through `sashite match` (USI over pipes), then prints the game record.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/sashite
echo "== sashite perft 5 (start position)"
$bin perft 5
echo
echo "== sashite bench --perft (move generation)"
$bin bench --perft
echo
echo "== sashite bench --depth 8 (search)"
$bin bench --depth 8
echo
out=$(mktemp -d /tmp/sashite-demo.XXXXXX)
echo "== sashite match: one game, sashite against itself at 20000 nodes per move"
$bin match --engine1 "$bin usi" --engine2 "$bin usi" --opt1 USI_Hash=64 --opt2 USI_Hash=64 \
  --games 1 --nodes 20000 --out "$out"
echo
echo "== the game record ($out/g0001.csa)"
cat "$out/g0001.csa"
rm -rf "$out"
