#!/bin/bash
# Every example of every subcommand's --help runs, as a newcomer would paste
# it, in seconds: the lines under "example:"/"examples ...:" are taken from
# the help text itself (so a new example is tested without editing this
# file) and run in a scratch directory (with data/ of the source tree) with
# a limit of 30 s each (issue 15: `solve --help` showed a 192 s, 3.2 GiB
# solve). A solve example starts from scratch: its -o file is removed first
# (the "--resume ... # after a stop" example then starts from the beginning).
# The figure example needs gnuplot; it is skipped without one.
# Usage: bash test_cli_help_examples.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
LIMIT=30
D="$WORK/ex"
rm -rf "$D"
mkdir -p "$D"
ln -s "$SRC/data" "$D/data"

# the subcommands, from `nimsieve --help`, solve first (the others read its files)
subs=$("$NS" --help | awk '/^subcommands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {on = 0}')
expect_eq "subcommands listed by --help" "$(echo "$subs" | grep -c .)" "14"
subs="solve $(echo "$subs" | grep -vx solve)"

nex=0
for sub in $subs; do
    "$NS" "$sub" --help >"$WORK/help.txt" || fail "$sub --help exits $?"
    # the lines after a line "example:" or "examples...:", up to a blank line
    awk '/^examples?( .*)?:$/ {on = 1; next} on && /^$/ {on = 0} on {sub(/^  /, ""); print}' "$WORK/help.txt" \
        >"$WORK/examples.txt"
    while IFS= read -r line; do
        [ -n "$line" ] || continue
        case "$line" in *nimsieve*) ;; *) fail "$sub --help: example '$line' does not run nimsieve"; continue ;; esac
        if [ "$sub" = plot ] && ! command -v gnuplot >/dev/null; then
            echo "skipped (no gnuplot): $line"
            continue
        fi
        if [ "$sub" = solve ]; then
            out=$(echo "$line" | sed -n 's/.*-o \([^ ]*\).*/\1/p')
            [ -n "$out" ] && rm -f "$D/$out" "$D/$out.ckpt"
        fi
        nex=$((nex + 1))
        CHECKS=$((CHECKS + 1))
        t0=$(date +%s.%N)
        (cd "$D" && NS="$NS" timeout $LIMIT bash -c "nimsieve() { \"\$NS\" \"\$@\"; }; $line" >"$OUT" 2>"$ERR")
        RC=$?
        t1=$(date +%s.%N)
        LAST="$line"
        secs=$(echo "$t1 - $t0" | bc)
        if [ "$RC" -eq 124 ]; then
            fail "$sub --help example ran past ${LIMIT} s"
            show
        elif [ "$RC" -ne 0 ]; then
            fail "$sub --help example failed"
            show
        else
            echo "ok ${secs} s: $line"
        fi
    done <"$WORK/examples.txt"
done
# solve, query, rules, check, patterns, move, poj1067, poj1704, monks, plot, census, sweep
# have examples today; fewer means the extraction broke
[ "$nex" -ge 18 ] || fail "only $nex examples found in the --help texts"
finish
