#!/usr/bin/env bash
# Runs every test suite of `make test` and closes with one "N passed, M failed" line.
# Suites: unit tests under ASan/UBSan (debug build), then every test (slow ones included)
# in the optimised build. The bench signature (debug+sanitizer and optimised builds search
# the same nodes) is a unit test: tests/bench_signature_test.cpp.
set -uo pipefail
cd "$(dirname "$0")/.."
passed=0
failed=0
status=0
run_suite() {
  local name=$1
  shift
  echo "== $name: $*"
  local out
  out=$(mktemp)
  "$@" 2>&1 | tee "$out"
  local rc=${PIPESTATUS[0]}
  local line
  line=$(grep -E '^\[doctest\] test cases:' "$out" | tail -1)
  local p f
  p=$(echo "$line" | sed -nE 's/.*\| *([0-9]+) passed.*/\1/p')
  f=$(echo "$line" | sed -nE 's/.*\| *([0-9]+) failed.*/\1/p')
  passed=$((passed + ${p:-0}))
  failed=$((failed + ${f:-0}))
  if [ "$rc" -ne 0 ]; then
    status=1
    [ "${f:-0}" -eq 0 ] && failed=$((failed + 1))  # a crash counts as a failure
  fi
  rm -f "$out"
}
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
run_suite "unit tests (ASan/UBSan)" build/sanitize/sashite_tests -tse=slow
run_suite "all tests (optimised, slow suite included)" build/sashite_tests
echo "tests: $passed passed, $failed failed"
exit $status
