#!/usr/bin/env bash
# One generation of the NNUE loop on one machine, from nothing to a network: self-play
# positions (sashite gensfen) and GPS Shogi's labels (build/osl_label) side by side for the
# given minutes, the labelling finished, a training run, and the network's agreement with the
# record moves. Every stage resumes: run the same command again after a kill and it goes on
# from the files already in OUT (gensfen numbers new files after the old ones, osl_label skips
# labelled files, nnue train --resume needs the same data: see below).
#
# Usage: scripts/nnue_generation.sh OUT [options]
#   --minutes M        generation time (default 60): gensfen on one core, osl_label on the
#                      other; then the rest is labelled on every core
#   --nodes N          gensfen's nodes a move (default 400)
#   --depth D          osl_label's quiescence depth (default 4)
#   --init NET         warm start: train from this network (e.g. data/nnue/candidate.nnue);
#                      gensfen plays with it too when --play-with-init is given. A warm start
#                      defaults to one pass at lr 0.0003 with the bucket rows trained: more
#                      passes at the fresh start's rate lowered the held-out loss but lost
#                      record agreement (data/nnue/README.md)
#   --play-with-init   gensfen plays with the --init network instead of the linear evaluation
#   --epochs E         training epochs (default 6; 1 with --init)
#   --lr R             the training's learning rate (default: nnue train's; 0.0003 with --init)
#   --teacher T        the teacher's share of the target (default 0.7)
#   --lambda L         of the rest, the search value's share; the game result's is 1 - L
#                      (default 1: the results of 400-node games taught the network less)
#   --train-args "..."  more nnue train options (default "--no-bucket-rows --quiet-margin 100";
#                      "--quiet-margin 100 --holdout 0.02" with --init)
#   --records DIR      measure the agreement on these records' held-out games (learn curve
#                      --held-out-every 10 --agreement-depth 1); default ../shared/data/records
#                      when it exists
#   --seed S           gensfen's seed (default: from the clock)
#   --openings F       gensfen's openings: a file as sashite match reads them, or "book" for
#                      every position of the shipped GPS Shogi book (data/book, 50,802
#                      positions from the start to the middle game, written to OUT/openings.txt)
#                      with the floodgate openings (default: the floodgate openings alone)
#   --random-plies R   random moves after the opening, N or MIN,MAX (default 0,6)
#   --leaves K         gensfen writes up to K leaves a position too (a random other move and
#                      the quiescence PV after it) to OUT/leaves-gen, labelled into
#                      OUT/leaves-lab on the positions' scale; the training takes both
# Writes OUT/gen (positions), OUT/lab (labelled), OUT/next.nnue, OUT/log.txt (every stage's
# output with its rate).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/nnue_generation.sh OUT [--minutes M] [--nodes N] [--depth D] [--init NET] [--epochs E]}
shift
minutes=60 nodes=400 depth=4 init="" play_with_init=false epochs="" lr="" teacher=0.7 lambda=1
train_args=""
records="" seed="" openings=data/openings/floodgate2016-400x4to8ply.txt random_plies=0,6 leaves=0
[ -d ../shared/data/records ] && records=../shared/data/records
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) minutes=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --depth) depth=$2; shift 2 ;;
    --init) init=$2; shift 2 ;;
    --play-with-init) play_with_init=true; shift ;;
    --epochs) epochs=$2; shift 2 ;;
    --lr) lr=$2; shift 2 ;;
    --teacher) teacher=$2; shift 2 ;;
    --lambda) lambda=$2; shift 2 ;;
    --train-args) train_args=$2; shift 2 ;;
    --records) records=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --openings) openings=$2; shift 2 ;;
    --random-plies) random_plies=$2; shift 2 ;;
    --leaves) leaves=$2; shift 2 ;;
    *) echo "nnue_generation: unknown option '$1'" >&2; exit 2 ;;
  esac
done
# A fresh start trains several passes without the bucket rows (too many weights for one
# generation's positions); a warm start one gentle pass over the fresh positions with them.
if [ -n "$init" ]; then
  : "${epochs:=1}" "${lr:=0.0003}"
  [ -n "$train_args" ] || train_args="--quiet-margin 100 --holdout 0.02"
else
  : "${epochs:=6}"
  [ -n "$train_args" ] || train_args="--no-bucket-rows --quiet-margin 100"
fi
for bin in build/sashite build/osl_label; do
  [ -x "$bin" ] || { echo "nnue_generation: $bin is missing: run make first" >&2; exit 1; }
done
if [ -n "$records" ] && [ ! -d "$records" ]; then
  echo "nnue_generation: --records $records: no such directory" >&2
  exit 1
fi
if [ -n "$init" ] && [ ! -f "$init" ]; then
  echo "nnue_generation: --init $init: no such file" >&2
  exit 1
fi
mkdir -p "$out/gen" "$out/lab"
log="$out/log.txt"
say() { echo "[$(date '+%F %T')] $*" | tee -a "$log"; }
if [ "$openings" = book ]; then
  # The book's positions are 'sfen BOARD SIDE HANDS PLY' lines, as the openings reader takes them.
  { cat data/openings/floodgate2016-400x4to8ply.txt
    gzip -dc data/book/gpsshogi-joseki.yaneuraou.db.gz | grep '^sfen '; } > "$out/openings.txt"
  openings="$out/openings.txt"
fi
[ -f "$openings" ] || { echo "nnue_generation: --openings $openings: no such file" >&2; exit 1; }

# 1. Positions and labels side by side. Positions in check are never written; the search's
# mate calls and the root's mate guard are off (a third of gensfen's time at 400 nodes and
# nothing the teacher's labels need).
gen_opts=(--out "$out/gen" --nodes "$nodes" --threads 1 --random-plies "$random_plies" --min-ply 4
          --openings "$openings" --progress 300
          --option MateSearch=false --option MateGuardNodes=0)
[ -n "$seed" ] && gen_opts+=(--seed "$seed")
[ "$leaves" -gt 0 ] && gen_opts+=(--leaves "$leaves" --leaves-out "$out/leaves-gen")
if $play_with_init && [ -n "$init" ]; then gen_opts+=(--option "EvalFile=$init")
else gen_opts+=(--option EvalFile=linear); fi
say "gensfen for $minutes minutes: ${gen_opts[*]}"
build/sashite gensfen "${gen_opts[@]}" >> "$log" 2>&1 &
gen_pid=$!
trap 'kill $gen_pid 2>/dev/null || true' EXIT
# The leaves are labelled on the scale fitted to the positions' game results (theirs are the
# games' results, not their own): the positions' scale file is copied beside them first.
label_leaves() {
  [ "$leaves" -gt 0 ] && [ -f "$out/lab/teacher-scale.txt" ] || return 0
  mkdir -p "$out/leaves-lab"
  [ -f "$out/leaves-lab/teacher-scale.txt" ] || cp "$out/lab/teacher-scale.txt" "$out/leaves-lab/"
  ${2:+timeout "$2"} build/osl_label --in "$out/leaves-gen" --out "$out/leaves-lab" \
    --quiescence-depth "$depth" --threads "$1" >> "$log" 2>&1
}
end=$(( $(date +%s) + minutes * 60 ))
while [ "$(date +%s)" -lt "$end" ] && kill -0 $gen_pid 2>/dev/null; do
  sleep 30
  # Fails only while gensfen has written no file yet (said in the log); the run after the
  # generation below must succeed. Each pass stops at the generation's end (the labels fall
  # behind gensfen; a killed osl_label loses only the file it was writing).
  left=$(( end - $(date +%s) )); [ "$left" -gt 0 ] || break
  timeout "$left" build/osl_label --in "$out/gen" --out "$out/lab" --quiescence-depth "$depth" \
    --threads 1 >> "$log" 2>&1 || true
  left=$(( end - $(date +%s) )); [ "$left" -gt 0 ] || break
  label_leaves 1 "$left" || true
done
kill $gen_pid 2>/dev/null || true  # the batches being filled are lost (under 10,000 positions)
wait $gen_pid 2>/dev/null || true
trap - EXIT
# 2. The rest of the labels on every core.
say "labelling what is left"
build/osl_label --in "$out/gen" --out "$out/lab" --quiescence-depth "$depth" \
  --threads "$(nproc)" >> "$log" 2>&1
label_leaves "$(nproc)"
# 3. Training (a checkpoint an epoch: after a kill, rerun with --train-args "... --resume").
# The leaves first: the held-out positions are the last of the data, the games' positions.
data=("$out/lab")
[ "$leaves" -gt 0 ] && data=("$out/leaves-lab" "$out/lab")
train_opts=(--data "${data[@]}" --out "$out/next.nnue" --teacher "$teacher" --lambda "$lambda"
            --threads "$(nproc)" --epochs "$epochs")
[ -n "$init" ] && train_opts+=(--init "$init")
[ -n "$lr" ] && train_opts+=(--lr "$lr")
# shellcheck disable=SC2206
train_opts+=($train_args)
say "nnue train ${train_opts[*]}"
build/sashite nnue train "${train_opts[@]}" 2>&1 | tee -a "$log"
# 4. The cheap measure: agreement with the record moves at depth 1.
if [ -n "$records" ]; then
  say "agreement on $records"
  if ! build/sashite learn curve --records "$records" --held-out-every 10 --agreement-depth 1 \
    --weights "$out/next.nnue" > "$out/agreement.txt" 2>&1; then
    cat "$out/agreement.txt" >&2
    say "agreement: learn curve failed (above; $out/agreement.txt)"
    exit 1
  fi
  grep -E "^(positions|agreement|logistic)" "$out/agreement.txt" | tee -a "$log"
fi
say "done: $out/next.nnue"
