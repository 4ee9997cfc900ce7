#!/bin/bash
# test_fuzz_rules.sh NIMSIEVE SOURCE_DIR WORK_DIR
#
# Fuzz the rule-set compiler for 15 seconds with libFuzzer under ASan and
# UBSan (tools/fuzz.sh builds the target with clang by itself). Skipped,
# with a message, only when clang is not installed.
set -u
src=$2
work=$3
if ! command -v "${CLANG:-clang}" >/dev/null 2>&1; then
    echo "skip: clang is not installed, so the libFuzzer target cannot be built"
    exit 0
fi
mkdir -p "$work"
bash "$src/tools/fuzz.sh" 15 "$work"
