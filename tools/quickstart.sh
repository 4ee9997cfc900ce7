#!/usr/bin/env bash
# quickstart.sh - from a fresh Debian 12 checkout to a first table:
# install missing packages, build in build/ (Release), solve Wythoff's game
# to 4096 x 4096 with Grundy values into wythoff.h5 and print its summary.
# Exits non-zero on the first failure.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
JOBS=$(nproc 2>/dev/null || echo 2)

step() { printf '\n==> %s\n' "$*"; }

step "Debian packages"
bash tools/deps.sh

step "configure and build (build/, Release, -j$JOBS)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$JOBS"

step "solve Wythoff's game, 4096 x 4096, Grundy values -> wythoff.h5"
build/nimsieve solve wythoff --size 4096 -o wythoff.h5 --force

step "summary of wythoff.h5"
build/nimsieve info wythoff.h5

step "cross-check: recompute 10000 random cells naively, then every cell against the golden-ratio formula"
build/nimsieve verify wythoff.h5 --samples 10000
build/nimsieve check wythoff-golden wythoff.h5

# --- plot (issue 6) ---------------------------------------------------------
step "figure: the P-positions of wythoff.h5 -> wythoff-p-positions.png"
build/nimsieve plot wythoff.h5 --kind p-positions -o wythoff-p-positions.png
printf 'figure: %s/wythoff-p-positions.png\n' "$ROOT"

printf '\nquickstart: OK (table in %s/wythoff.h5)\n' "$ROOT"
