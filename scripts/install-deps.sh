#!/usr/bin/env bash
# Installs every build and test dependency of sashite from Debian's packages.
# Usage: scripts/install-deps.sh [--fuzz] [--check]
#   --fuzz   the packages `make fuzz` needs instead: clang 14 and its runtime libraries
#   --check  install nothing; exit 1 if something is missing
set -euo pipefail
fuzz=false
check=false
for arg in "$@"; do
  case "$arg" in
    --fuzz) fuzz=true ;;
    --check) check=true ;;
    *) echo "install-deps: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done
if $fuzz; then
  packages=(clang-14 libclang-rt-14-dev)  # libFuzzer, ASan and UBSan for clang
else
  packages=(
    g++ make
    libboost-dev libleveldb-dev libfmt-dev doctest-dev liblinear-dev libtoml11-dev
    libcli11-dev libspdlog-dev
    libosl-dev          # OpenShogiLib: independent move-generation oracle in tests
    gpsshogi fairy-stockfish  # reference engines
    gpsshogi-data       # GPS Shogi's evaluation: build/osl_agreement and its tests
    gnuplot-nox         # sashite learn curve --png
    chromium            # the status page's end-to-end test (headless)
    fonts-noto-cjk      # the kanji on the status page's screenshot
    clang-format        # make format-check (CI): the sources as .clang-format has them
  )
fi
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if $check; then
  echo "missing packages: ${missing[*]}" >&2
  exit 1
fi
echo "installing: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: run as root (or: sudo make deps)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
