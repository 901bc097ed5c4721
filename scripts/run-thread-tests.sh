#!/usr/bin/env bash
# The tests where threads meet, run under ThreadSanitizer (`make test-threads`): the search's
# thread and its stop, Lazy SMP (several search threads sharing the transposition table, whose
# entries are relaxed atomics: engine/tt.h), the USI loop and `go mate`, the client's session,
# record writer and status server, the book loaded and probed from several threads, the
# tools' workers, the council's members and its decision thread.
# Usage: scripts/run-thread-tests.sh TSAN_TEST_BINARY
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:?usage: scripts/run-thread-tests.sh TSAN_TEST_BINARY}
cases=(
  'stop ends an infinite search*' 'go nodes stops*' 'a search stopped*'
  'search stopped before depth 1*' 'Lazy SMP*' 'go mate*' 'usi:*' 'usi player*'
  'session:*' 'record writer*' 'status http*' 'status client*'
  'a connection dropped mid-game*' 'book probes from several threads*' 'book sharing*'
  'book: a loader failure*' 'parallel_for_with_progress*' 'learn fit: fitting lowers*'
  'learn curve: --threads*' 'match: game pairs for the SPRT*' 'match: fake engines*'
  'council:*'
)
filter=$(IFS=,; echo "${cases[*]}")
export TSAN_OPTIONS="suppressions=$PWD/scripts/tsan.supp halt_on_error=1 second_deadlock_stack=1"
exec "$binary" -tse=slow -tc="$filter"
