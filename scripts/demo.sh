#!/usr/bin/env bash
# make demo: shows what sashite can do today. Until the CSA client and server exist this
# runs move generation: perft from the start position and the benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/sashite
echo "== sashite perft 5 (start position)"
$bin perft 5
echo
echo "== sashite perft 2 --divide on a middle-game position"
$bin perft 2 --divide --sfen "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1" | tail -5
echo
echo "== sashite bench (move generation)"
$bin bench
