#!/usr/bin/env bash
# Runs every test suite of `make test` and closes with one "N passed, M failed" line.
# Suites: unit tests under ASan/UBSan (debug build), and every test (slow ones included) in
# the optimised build. Each suite is one thread, so with two cores or more they run side by
# side (TESTS_SERIAL=1: one after the other); each one's output is printed whole, in order.
# The bench signature (debug+sanitizer and optimised builds search the same nodes) is a unit
# test: tests/bench_signature_test.cpp.
set -uo pipefail
cd "$(dirname "$0")/.."
passed=0
failed=0
status=0
# tally NAME OUTPUT_FILE EXIT_CODE: prints the suite's output and adds up its counts.
tally() {
  local name=$1 out=$2 rc=$3
  echo "== $name"
  cat "$out"
  local line p f
  line=$(grep -E '^\[doctest\] test cases:' "$out" | tail -1)
  p=$(echo "$line" | sed -nE 's/.*\| *([0-9]+) passed.*/\1/p')
  f=$(echo "$line" | sed -nE 's/.*\| *([0-9]+) failed.*/\1/p')
  passed=$((passed + ${p:-0}))
  failed=$((failed + ${f:-0}))
  if [ "$rc" -ne 0 ]; then
    status=1
    [ "${f:-0}" -eq 0 ] && failed=$((failed + 1))  # a crash counts as a failure
  fi
}
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
sanitized=(build/sanitize/sashite_tests -tse=slow)
optimised=(build/sashite_tests)
san_out=$(mktemp)
opt_out=$(mktemp)
trap 'rm -f "$san_out" "$opt_out"' EXIT
if [ "${TESTS_SERIAL:-0}" != 1 ] && [ "$(nproc)" -ge 2 ]; then
  echo "== running side by side: ${sanitized[*]} | ${optimised[*]}"
  "${sanitized[@]}" > "$san_out" 2>&1 &
  san_pid=$!
  "${optimised[@]}" > "$opt_out" 2>&1
  opt_rc=$?
  wait "$san_pid"
  san_rc=$?
else
  "${sanitized[@]}" > "$san_out" 2>&1
  san_rc=$?
  "${optimised[@]}" > "$opt_out" 2>&1
  opt_rc=$?
fi
tally "unit tests (ASan/UBSan): ${sanitized[*]}" "$san_out" "$san_rc"
tally "all tests (optimised, slow suite included): ${optimised[*]}" "$opt_out" "$opt_rc"
echo "tests: $passed passed, $failed failed"
exit $status
