#!/usr/bin/env bash
# Installs what `make fuzz` needs besides the build dependencies: clang 14 and its runtime
# libraries (libFuzzer, ASan, UBSan) from Debian's packages.
# Usage: scripts/install-fuzz-deps.sh [--check]   (--check: exit 1 if something is missing)
set -euo pipefail
packages=(clang-14 libclang-rt-14-dev)
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "${1:-}" = "--check" ]; then
  echo "missing packages: ${missing[*]}" >&2
  exit 1
fi
echo "installing: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "install-fuzz-deps: run as root (or: sudo scripts/install-fuzz-deps.sh)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
