#!/usr/bin/env bash
# make demo: a full game on the bundled local CSA server. Starts `sashite server` on a free
# loopback port, connects two `sashite csa` clients (the bundled weights; Fischer 10 s + 1 s),
# plays one game to its end, prints the record and the result, and leaves no process behind.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/sashite
work=$(mktemp -d /tmp/sashite-demo.XXXXXX)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "== sashite perft 5 (move generation)"
$bin perft 5
echo
echo "== sashite bench --depth 8 (search, one thread)"
$bin bench --depth 8 | tail -2
echo

$bin server --port 0 --games 1 --records "$work/server" > "$work/server.out" 2>&1 &
pids+=($!)
port=""
for _ in $(seq 100); do
  port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/server.out" | head -1)
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "demo: the server did not start"; cat "$work/server.out"; exit 1; }
echo "== sashite server listening on 127.0.0.1:$port; two sashite csa clients log in (game demo-10-1F)"

# Each client gets its own log and record directories.
for side in sente gote; do
  sed -e "s|^log_dir = .*|log_dir = \"$work/$side/logs\"|" \
      -e "s|^record_dir = .*|record_dir = \"$work/$side/records\"|" \
      -e "s|^console = .*|console = false|" \
      config/local.toml > "$work/$side.toml"
done
$bin csa --config "$work/sente.toml" --port "$port" --name sashite-a --game demo-10-1F --games 1 \
  > "$work/sente.out" 2>&1 &
pids+=($!)
client_a=$!
$bin csa --config "$work/gote.toml" --port "$port" --name sashite-b --game demo-10-1F --games 1 \
  > "$work/gote.out" 2>&1 &
pids+=($!)
client_b=$!
status=0
wait "$client_a" || status=$?
wait "$client_b" || status=$?
wait "${pids[0]}" || true
echo
echo "== the record the server wrote"
cat "$work"/server/*.csa
echo
echo "== the result"
grep -h '^game ' "$work/server.out" || true
cat "$work"/sente/records/results.txt 2>/dev/null || true
echo
echo "== the client's KIF record (for ShogiHome, Kifu for Windows, ShogiGUI), its first and last lines"
for kif in "$work"/sente/records/*.kifu; do
  [ -e "$kif" ] || continue
  head -14 "$kif"
  echo "..."
  tail -3 "$kif"
done
if [ "$status" -ne 0 ]; then
  echo "demo: a client exited with status $status"
  tail -20 "$work/sente.out" "$work/gote.out"
  exit "$status"
fi
