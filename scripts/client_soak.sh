#!/usr/bin/env bash
# A client soak on the local server: N games between two `sashite csa` clients, one game at a
# time, each in a folder of its own (server record, both clients' logs, records and results.txt).
# Resumable: games whose folder holds `done` are skipped, an unfinished one is played again.
# scripts/client_soak_report.py summarises the folder (time losses, illegal moves, log warnings,
# records complete, ponder hits, score).
#
#   scripts/client_soak.sh OUT GAME_NAME GAMES A.toml B.toml [ENV_B]
#
# A.toml and B.toml are client configs (config/local.toml with an [engine] of one's own); the
# script overrides port, game, log and record folders, console and the game count. ENV_B, such
# as "OSL_HOME=/tmp/gps", is put in client B's environment (gpsusi needs its OSL_HOME).
# Run it from a folder holding build/sashite and data/ (a frozen copy while you rebuild).
set -uo pipefail
if [ $# -lt 5 ]; then
  sed -n '2,13p' "$0"
  exit 2
fi
out=$1 game=$2 games=$3 config_a=$4 config_b=$5 env_b=${6:-}
bin=${SASHITE:-build/sashite}
mkdir -p "$out"
# One soak a folder: a second one would remove the games the first is playing.
exec 9> "$out/.lock"
if ! flock -n 9; then
  echo "soak: $out is in use by another soak"
  exit 1
fi
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

client_config() {  # SOURCE SIDE_DIR -> the config with this game's folders
  sed -e "s|^log_dir = .*|log_dir = \"$2/logs\"|" \
      -e "s|^record_dir = .*|record_dir = \"$2/records\"|" \
      -e "s|^console = .*|console = false|" "$1" > "$2.toml"
}

for i in $(seq 1 "$games"); do
  dir=$(printf '%s/g%03d' "$out" "$i")
  [ -e "$dir/done" ] && continue
  rm -rf "$dir"
  mkdir -p "$dir"
  "$bin" server --port 0 --games 1 --records "$dir/server" > "$dir/server.out" 2>&1 &
  server=$!
  pids=("$server")
  port=""
  for _ in $(seq 100); do
    port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$dir/server.out" | head -1)
    [ -n "$port" ] && break
    sleep 0.1
  done
  if [ -z "$port" ]; then
    echo "soak: the server did not start"; cat "$dir/server.out"; exit 1
  fi
  client_config "$config_a" "$dir/a"
  client_config "$config_b" "$dir/b"
  "$bin" csa --config "$dir/a.toml" --port "$port" --name soak-a --game "$game" --games 1 \
    > "$dir/a.out" 2>&1 &
  client_a=$!
  env $env_b "$bin" csa --config "$dir/b.toml" --port "$port" --name soak-b --game "$game" \
    --games 1 > "$dir/b.out" 2>&1 &
  client_b=$!
  pids+=("$client_a" "$client_b")
  status_a=0 status_b=0
  wait "$client_a" || status_a=$?
  wait "$client_b" || status_b=$?
  wait "$server" || true
  pids=()
  echo "$status_a $status_b" > "$dir/exit"
  touch "$dir/done"
  echo "soak: game $i of $games: $(grep -h '^game ' "$dir/server.out" | tail -1) (exit $status_a $status_b)"
done
