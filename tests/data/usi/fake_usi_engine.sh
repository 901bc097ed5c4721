#!/usr/bin/env bash
# A scripted USI engine for the CSA client's tests: fake_usi_engine.sh MODE ANSWER...
# ANSWER k ("7g7f:3c3d", best move and ponder move) answers the positions with 2k or 2k+1
# moves. Every line received is appended to $FAKE_LOG when it is set.
# MODE: normal | crash (exits on go) | silent (never answers go) | illegal (answers an
# illegal move) | double (two bestmoves per go) | early (answers go ponder at once) |
# slowstart (no usiok for 5 s) | crashonce (exits on its first go, then behaves; needs
# $FAKE_STATE, a file it creates) | crashslow (as crashonce, and every later start takes 3 s
# before usiok, as gpsusi loading its tables on a busy machine) | oldgo (exits on "go ponder" and on binc/winc, as gpsusi
# 0.7 does) | noweights (reports an error before each readyok, then behaves as normal) |
# late (thinks to the end of the time it is told, its side's btime or wtime plus the byoyomi,
# and answers $FAKE_LATE_MS after it, or at once on stop) | gpsopts (offers gpsusi's Thread,
# 1..2, instead of Threads) | hashopts (offers Hash, Stockfish's, and no threads option) |
# council (says its vote first, as sashite council does)
mode=$1
shift
answers=("$@")
moves=0
pondering=0
answer() {
  local a=${answers[$((moves / 2))]:-resign}
  local best=${a%%:*} reply=${a#*:}
  [ "$mode" = council ] && echo "info string council: majority $best 2/2 (weight 2/2) from a; a $best -42, b $best -50"
  echo "info depth 3 score cp -42 pv $best $reply"
  if [ "$best" = resign ] || [ "$reply" = "$a" ]; then echo "bestmove $best"
  else echo "bestmove $best ponder $reply"; fi
  if [ "$mode" = double ]; then echo "bestmove $best"; fi
}
while IFS= read -r line; do
  [ -n "$FAKE_LOG" ] && printf '%s\n' "$line" >> "$FAKE_LOG"
  set -- $line
  case "$1" in
    usi)
      [ "$mode" = slowstart ] && sleep 5
      [ "$mode" = crashslow ] && [ -e "$FAKE_STATE" ] && sleep 3
      echo "id name FakeEngine 1.0"
      case "$mode" in
        gpsopts) echo "option name Thread type spin default 2 min 1 max 2" ;;
        hashopts) echo "option name Hash type spin default 16 min 1 max 1024" ;;
        *) echo "option name Threads type spin default 1 min 1 max 64" ;;
      esac
      echo "option name MaxMovesToDraw type spin default 0 min 0 max 100000"
      echo "option name EnteringKingRule type combo default CSARule27 var NoEnteringKing var CSARule27"
      echo "usiok" ;;
    isready)
      [ "$mode" = noweights ] && echo "info string error: isready: w.eval: cannot open"
      echo "readyok" ;;
    position)
      moves=0
      seen=0
      for w in "$@"; do
        [ $seen = 1 ] && moves=$((moves + 1))
        [ "$w" = moves ] && seen=1
      done ;;
    go)
      if [ "$mode" = crash ]; then exit 3; fi
      if [ "$mode" = oldgo ]; then
        for w in "$@"; do case "$w" in ponder|binc|winc) echo "unknown option in go $w" >&2; exit 134;; esac; done
      fi
      if [ "$mode" = crashonce ] || [ "$mode" = crashslow ] && [ ! -e "$FAKE_STATE" ]; then : > "$FAKE_STATE"; exit 3; fi
      [ "$mode" = silent ] && continue
      if [ "$2" = ponder ]; then
        pondering=1
        if [ "$mode" = early ]; then answer; pondering=0; fi
        continue
      fi
      if [ "$mode" = illegal ]; then echo "bestmove 5e5d"; continue; fi
      if [ "$mode" = late ]; then
        told=0 prev=""
        for w in "$@"; do
          case "$prev" in
            btime) [ $((moves % 2)) = 0 ] && told=$((told + w)) ;;
            wtime) [ $((moves % 2)) = 1 ] && told=$((told + w)) ;;
            byoyomi) told=$((told + w)) ;;
          esac
          prev=$w
        done
        ms=$((told + ${FAKE_LATE_MS:-0}))
        if IFS= read -r -t "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))" next; then
          [ -n "$FAKE_LOG" ] && printf '%s\n' "$next" >> "$FAKE_LOG"
          [ "$next" = quit ] && exit 0
        fi
      fi
      answer ;;
    ponderhit) [ $pondering = 1 ] && answer; pondering=0 ;;
    stop) [ $pondering = 1 ] && [ "$mode" != silent ] && answer; pondering=0 ;;
    quit) exit 0 ;;
  esac
done
