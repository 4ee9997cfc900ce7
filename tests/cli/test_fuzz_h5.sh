#!/bin/bash
# test_fuzz_h5.sh NIMSIEVE SOURCE_DIR WORK_DIR
#
# Fuzz the HDF5 reader path (files built from the input through the HDF5 API: any
# attributes, datasets, types and shapes, flipped chunk bytes)
# with libFuzzer under ASan and UBSan (tools/fuzz.sh --target h5 builds the
# target with clang by itself): a fixed seed and a fixed number of inputs,
# so a failure reproduces (capped at 120 seconds). Skipped, with a message,
# only when clang is not installed.
set -u
src=$2
work=$3
if ! command -v "${CLANG:-clang}" >/dev/null 2>&1; then
    echo "skip: clang is not installed, so the libFuzzer target cannot be built"
    exit 0
fi
mkdir -p "$work"
FUZZ_SEED=${FUZZ_SEED:-20261122} FUZZ_RUNS=${FUZZ_RUNS:-500} FUZZ_LIB_DIR="$work/../fuzz-lib" bash "$src/tools/fuzz.sh" --target h5 120 "$work"
