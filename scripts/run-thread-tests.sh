#!/usr/bin/env bash
# The tests where threads meet, run under ThreadSanitizer (`make test-threads`): the search's
# thread and its stop, Lazy SMP (several search threads sharing the transposition table, whose
# entries are relaxed atomics: engine/tt.h), the USI loop and `go mate`, the client's session,
# record writer and status server, the book loaded and probed from several threads, the
# tools' workers, the council's members and its decision thread.
# Usage: scripts/run-thread-tests.sh TSAN_TEST_BINARY
#        scripts/run-thread-tests.sh --files
# --files prints the test files that hold these cases (every file with a TEST_CASE whose name
# starts as a pattern does, before its '*'), the only ones the TSan build compiles (Makefile:
# tsan-tests-bin); a pattern that no file's test case matches is an error, so that a renamed
# case cannot drop out of the run unseen.
set -euo pipefail
cd "$(dirname "$0")/.."
cases=(
  'stop ends an infinite search*' 'go nodes stops*' 'a search stopped*'
  'search stopped before depth 1*' 'Lazy SMP*' 'go mate*' 'usi:*' 'usi player*'
  'session:*' 'record writer*' 'status http*' 'status client*'
  'a connection dropped mid-game*' 'book probes from several threads*' 'book sharing*'
  'book: a loader failure*' 'parallel_for_with_progress*' 'learn fit: fitting lowers*'
  'learn curve: --threads*' 'match: game pairs for the SPRT*' 'match: fake engines*'
  'council:*'
)
if [ "${1:-}" = --files ]; then
  files=()
  for c in "${cases[@]}"; do
    prefix=${c%%\**}
    # doctest's filters ignore case; a name may follow TEST_CASE( on the next line.
    if ! found=$(grep -lizP "TEST_CASE\(\s*\"\Q$prefix\E" tests/*.cpp); then
      echo "run-thread-tests: no test case in tests/*.cpp matches '$c'" >&2
      exit 1
    fi
    files+=($found)
  done
  printf '%s\n' "${files[@]}" | sort -u | paste -sd' '
  exit 0
fi
binary=${1:?usage: scripts/run-thread-tests.sh TSAN_TEST_BINARY | --files}
filter=$(IFS=,; echo "${cases[*]}")
export TSAN_OPTIONS="suppressions=$PWD/scripts/tsan.supp halt_on_error=1 second_deadlock_stack=1"
exec "$binary" -tse=slow -tc="$filter"
