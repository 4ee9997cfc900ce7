# test_analysis_poj1067_slow.sh - `nimsieve poj1067` agrees with a solved
# 4096 x 4096 Wythoff table on every one of its 16.7 million positions.
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
. "$SRC/tests/cli/poj1067_lib.sh"
cd "$WORK" || exit 1
rm -f ./*.h5
poj1067_vs_table 4096
rm -f ./*.h5
finish
