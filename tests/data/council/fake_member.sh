#!/usr/bin/env bash
# A scripted council member for the council's tests:
#   fake_member.sh MODE MOVE SCORE [DELAY_S [LOG [PONDER]]]
# Answers every go with "bestmove MOVE [ponder PONDER]" after an info line "score SCORE"
# ("cp 35", "mate 5", "mate -4"), DELAY_S seconds after the go (or the ponderhit; a stop
# answers at once); go mate with "checkmate MOVE" when SCORE is a mate, else
# "checkmate nomate". Every line received is appended to LOG unless it is "-".
# MODE: answer | silent (answers neither go nor stop) | crash (exits on go) | crashonce
# (exits on the first go of its first run: LOG.crashed marks it) | deaf (ignores stop: answers
# only after DELAY_S)
mode=$1 move=$2 score=$3 delay=${4:-0} log=${5:--} ponder=${6:-}
pondering=0
say() { echo "$@"; }
answer() {
  say "info depth 7 score $score nodes 1234 pv $move${ponder:+ $ponder}"
  if [ -n "$ponder" ]; then say "bestmove $move ponder $ponder"; else say "bestmove $move"; fi
}
# Waits DELAY_S for a stop (or, when pondering, for ponderhit/stop), then answers.
think() {
  local line
  if [ "$delay" != 0 ]; then
    while IFS= read -r -t "$delay" line; do
      [ "$log" != - ] && printf '%s\n' "$line" >> "$log"
      [ "$line" = stop ] && [ "$mode" != deaf ] && break
      [ "$line" = quit ] && exit 0
    done
  fi
  answer
}
while IFS= read -r line; do
  [ "$log" != - ] && printf '%s\n' "$line" >> "$log"
  set -- $line
  case "$1" in
    usi) say "id name FakeMember $mode"; say "option name EvalNoiseSeed type spin default 0 min 0 max 100"; say "usiok" ;;
    isready) say "readyok" ;;
    go)
      [ "$mode" = crash ] && exit 3
      if [ "$mode" = crashonce ] && [ ! -e "$log.crashed" ]; then : > "$log.crashed"; exit 3; fi
      [ "$mode" = silent ] && continue
      if [ "$2" = mate ]; then
        case "$score" in mate\ [0-9]*) say "checkmate $move" ;; *) say "checkmate nomate" ;; esac
        continue
      fi
      if [ "$2" = ponder ]; then pondering=1; continue; fi
      think ;;
    ponderhit) [ $pondering = 1 ] && { pondering=0; think; } ;;
    stop) [ $pondering = 1 ] && { pondering=0; answer; } ;;
    quit) exit 0 ;;
  esac
done
