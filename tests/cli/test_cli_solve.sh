#!/bin/bash
# nimsieve solve / info / help: every preset in every mode, the summary's
# counts against independent values, and the one-line errors for bad input.
# Usage: bash test_cli_solve.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -rf "$WORK"/*.h5 "$WORK"/*.part
PY=/usr/bin/python3

# ---- help, version, dispatch ----
expect_ok "$NS" --help
expect_out '^  solve '
for sub in solve info query verify rules check patterns move poj1067 poj1704 monks plot census sweep; do
    expect_out "^  $sub "
done
expect_ok "$NS" help
expect_out '^  verify '
expect_ok "$NS" --version
expect_out '^nimsieve [0-9]+\.[0-9]+\.[0-9]+'
expect_error 2 "" "unknown subcommand 'frobnicate'" "$NS" frobnicate
expect_error 2 "" "unknown option '--frob'" "$NS" --frob
expect_error 2 "" "unknown subcommand 'frob'" "$NS" help frob
LAST="nimsieve (no arguments)"
CHECKS=$((CHECKS + 1))
run "$NS"
[ "$RC" -eq 2 ] || { fail "no subcommand must exit 2"; show; }

PRESETS="nim wythoff a-wythoff bash subtraction moore staircase euclid fibonacci-nim"
for sub in solve info query verify; do
    expect_ok "$NS" $sub --help
    expect_out "^usage: nimsieve $sub"
    expect_ok "$NS" help $sub
    expect_out "^usage: nimsieve $sub"
done
expect_ok "$NS" solve --help
for g in $PRESETS; do
    expect_out "^  $g "
done
# every short option solve takes is listed in --help ("  -X, --long"), and
# every letter not listed there is an unknown option (-E, -S and -L were
# taken without being listed)
"$NS" solve --help >"$WORK/solve_help.txt"
for o in {a..z} {A..Z}; do
    CHECKS=$((CHECKS + 1))
    run "$NS" solve "-$o"
    listed=0
    grep -Eq -- "^  -$o, --" "$WORK/solve_help.txt" && listed=1
    unknown=0
    grep -q "unknown option '-$o'" "$ERR" && unknown=1
    if [ "$listed" = "$unknown" ]; then
        fail "solve -$o: $([ $listed = 1 ] && echo "listed in --help but an unknown option" ||
            echo "taken but not listed in --help")"
        show
    fi
done

# ---- every preset, Grundy and P/N, normal and misere; verify each file ----
for g in $PRESETS; do
    for mode in "" "--pn-only" "--misere" "--pn-only --misere"; do
        f="$WORK/$g${mode// /}.h5"
        expect_ok "$NS" solve "$g" --size 7 $mode -o "$f"
        expect_out "^game: +$g$"
        [ -s "$f" ] || fail "solve $g $mode wrote no file"
        expect_ok "$NS" info "$f"
        expect_out "^game: +$g$"
        case "$mode" in
        *pn-only*) expect_out '^kind: +P/N$' ;;
        *) expect_out '^kind: +grundy$'
           expect_out '^largest value: +[0-9]+$' ;;
        esac
        case "$mode" in
        *misere*) expect_out '^play: +misere$' ;;
        *) expect_out '^play: +normal$' ;;
        esac
        expect_out '^complete: +yes$'
        expect_ok "$NS" verify "$f"
        expect_out '^verified [0-9]+ cells: OK$'
    done
done

# ---- Wythoff 10 x 10: P-positions (floor(n phi), floor(n phi^2)), exact ----
want=$($PY -c '
from math import isqrt
N = 10
ps = set()
for n in range(N):
    a = (n + isqrt(5 * n * n)) // 2      # floor(n * phi)
    b = a + n                            # floor(n * phi^2)
    for x, y in ((a, b), (b, a)):
        if x < N and y < N:
            ps.add((x, y))
print(len(ps))')
expect_eq "independent Wythoff 10x10 P count" "$want" 7
expect_ok "$NS" solve wythoff --size 10 -o "$WORK/w10.h5"
expect_out "^P-positions: +$want$"
expect_out '^bounds: +10 x 10 \(100 cells'
expect_ok "$NS" info "$WORK/w10.h5"
expect_out "^P-positions: +$want \("
expect_out '^bounds: +10 x 10 \(100 cells, 100 positions\)$'
expect_out '^params: +\(defaults\)$'
expect_out '^timing: +[0-9.]+ s wall on [0-9]+ threads?$'
# values 0..9 of the 10x10 Wythoff table, counted from a naive mex solver
hist=$($PY -c '
N = 10
g = {}
for x in range(N):
    for y in range(N):
        opts = {g[(x - t, y)] for t in range(1, x + 1)} | {g[(x, y - t)] for t in range(1, y + 1)} \
             | {g[(x - t, y - t)] for t in range(1, min(x, y) + 1)}
        m = 0
        while m in opts:
            m += 1
        g[(x, y)] = m
print(" ".join(str(sum(1 for v in g.values() if v == i)) for i in range(10)), max(g.values()))')
set -- $hist
for i in 0 1 2 3 4 5 6 7 8 9; do
    c=$1
    shift
    expect_out "^ +$i: +$c +"
done
expect_out "^largest value: +$1$"
expect_ok "$NS" solve wythoff --bounds 10,10 --pn-only -o "$WORK/w10pn.h5"
expect_out "^P-positions: +$want$"
expect_ok "$NS" info "$WORK/w10pn.h5"
expect_out "^P-positions: +$want \("
expect_out "^N-positions: +$((100 - want)) \("
expect_no_out '^largest value'

# Nim, 3 piles, 12^3: P iff xor = 0 (Bouton), counted independently
want=$($PY -c 'print(sum(1 for a in range(12) for b in range(12) for c in range(12) if a ^ b ^ c == 0))')
expect_ok "$NS" solve nim -D piles=3 --size 12 --pn-only --threads 2 -o "$WORK/nim3.h5"
expect_out "^P-positions: +$want$"
expect_out '^time: .* on 2 threads$'
expect_ok "$NS" info "$WORK/nim3.h5"
expect_out '^params: +piles=3$'
expect_out '^timing: .* on 2 threads$'
# --bounds sets the pile count of nim; -D with a list
expect_ok "$NS" solve nim --bounds 4,5,6,7 -o "$WORK/nim4.h5"
expect_out '^bounds: +4 x 5 x 6 x 7 \(840 cells'
expect_ok "$NS" solve subtraction -D set=2,5 --size 30 -o "$WORK/sub.h5"
# subtraction {2,5} on n = 0..29, by a naive P/N recursion
want=$($PY -c '
p = []
for n in range(30):
    p.append(not any(n >= s and p[n - s] for s in (2, 5)))
print(sum(p))')
expect_out "^P-positions: +$want$"
expect_out '^params: +set=2,5$'

# --quiet prints nothing; no progress bar when stderr is not a terminal
expect_ok "$NS" solve wythoff --size 64 --quiet -o "$WORK/q.h5"
CHECKS=$((CHECKS + 1))
[ -s "$OUT" ] && { fail "--quiet printed on stdout"; show; }
[ -s "$WORK/q.h5" ] || fail "--quiet wrote no file"

# ---- overwriting ----
sum_before=$(md5sum <"$WORK/w10.h5")
expect_error 2 solve "w10\.h5' exists: use --force" "$NS" solve wythoff --size 12 -o "$WORK/w10.h5"
expect_eq "file untouched without --force" "$(md5sum <"$WORK/w10.h5")" "$sum_before"
expect_ok "$NS" solve wythoff --size 12 --force -o "$WORK/w10.h5"
expect_ok "$NS" info "$WORK/w10.h5"
expect_out '^bounds: +12 x 12 '

# ---- bad input: exit 2, one line naming what is wrong, no file ----
X="$WORK/never.h5"
expect_error 2 solve "unknown game 'nosuchgame'" "$NS" solve nosuchgame --size 5 -o "$X"
expect_error 2 solve "missing -o" "$NS" solve wythoff --size 5
expect_error 2 solve "--size and --bounds are mutually exclusive" "$NS" solve wythoff --size 5 --bounds 5,5 -o "$X"
expect_error 2 solve "expected --size N or --bounds" "$NS" solve wythoff -o "$X"
expect_error 2 solve "missing GAME" "$NS" solve --size 5 -o "$X"
expect_error 2 solve "-D: bad parameter 'piles'.*name=value" "$NS" solve nim -D piles --size 5 -o "$X"
expect_error 2 solve "bad value 'x' for parameter 'piles'" "$NS" solve nim -D piles=x --size 5 -o "$X"
expect_error 2 solve "wythoff has no parameter 'zz'" "$NS" solve wythoff -D zz=3 --size 5 -o "$X"
expect_error 2 solve "piles" "$NS" solve nim -D piles=9 --size 5 -o "$X"
expect_error 2 solve "1048576 x 1048576 \(1099511627776 cells\) needs .* but only .* is available" \
    "$NS" solve a-wythoff --bounds 1048576,1048576 -o "$X"
# Wythoff could stream (only the line sets in memory), but even those do not fit
expect_error 2 solve "1048576 x 1048576 streaming still needs [0-9.]+ GiB of memory \(line sets and buffers\) but only .*; use smaller bounds" \
    "$NS" solve wythoff --bounds 1048576,1048576 -o "$X"
expect_error 2 solve "needs .* but only .* is available" \
    "$NS" solve euclid --bounds 1048576,1048576 --pn-only -o "$X"
# a Wythoff P/N table streams (only line flags in memory), within its budget
expect_error 2 solve "1048576 x 1048576 streaming still needs [0-9.]+ MiB of memory \(line sets and buffers\) but --memory allows 1.00 MiB" \
    "$NS" solve wythoff --bounds 1048576,1048576 --pn-only --memory 1M -o "$X"
# --memory: the budget counts the table (32 MiB of uint16) and the line sets
# (Euclid's game does not stream)
expect_error 2 solve "2048 x 2048 \(4194304 cells\) needs [0-9.]+ MiB of memory \(table 8.00 MiB \+ line sets [0-9.]+ [KM]?i?B\) but --memory allows 7.00 MiB; use smaller bounds or --pn-only" \
    "$NS" solve euclid --size 2048 --memory 7M -o "$X"
# Wythoff over the budget streams instead (tests/cli/test_stream.sh checks the file)
run "$NS" solve wythoff --size 4096 --memory 32M -o "$WORK/stream32.h5"
[ "$RC" -eq 0 ] && grep -q streaming "$OUT" || { fail "--memory 32M should stream a 4096^2 Wythoff solve"; show; }
expect_error 2 solve "--memory 'lots': expected a size such as 4G" "$NS" solve wythoff --size 8 --memory lots -o "$X"
expect_error 2 solve "--memory '-1G': expected a size" "$NS" solve wythoff --size 8 --memory -1G -o "$X"
expect_error 2 solve "--memory '5Q': expected a size" "$NS" solve wythoff --size 8 --memory 5Q -o "$X"
run "$NS" solve wythoff --size 4096 --memory 80M -q -o "$WORK/mem80.h5"
[ "$RC" -eq 0 ] && [ -s "$WORK/mem80.h5" ] || { fail "--memory 80M should fit a 4096^2 Grundy solve"; show; }
run "$NS" solve wythoff --size 4096 --memory 0.08GiB -q -o "$WORK/mem008.h5"
[ "$RC" -eq 0 ] || { fail "--memory 0.08GiB (81.9 MiB) should fit"; show; }
expect_error 2 solve "--checkpoint-every 'soon': expected a number of seconds" \
    "$NS" solve wythoff --size 8 --checkpoint-every soon -o "$X"
expect_error 2 solve "--size is -5: expected a positive size" "$NS" solve wythoff --size -5 -o "$X"
expect_error 2 solve "--size is 0: expected a positive size" "$NS" solve wythoff --size 0 -o "$X"
expect_error 2 solve "--size '99999999999999999999' is too large" "$NS" solve wythoff --size 99999999999999999999 -o "$X"
expect_error 2 solve "--size '12x' is not an integer" "$NS" solve wythoff --size 12x -o "$X"
expect_error 2 solve "more than 2\^62 cells" "$NS" solve nim -D piles=8 --size 1000 -o "$X"
expect_error 2 solve "--bounds size 2 is -3" "$NS" solve wythoff --bounds 5,-3 -o "$X"
expect_error 2 solve "--bounds '5,,5': size 2 is empty" "$NS" solve nim --bounds 5,,5 -o "$X"
expect_error 2 solve "more than 8 sizes" "$NS" solve nim --bounds 2,2,2,2,2,2,2,2,2 -o "$X"
expect_error 2 solve "wythoff has 2 piles but 3 bounds" "$NS" solve wythoff --bounds 5,5,5 -o "$X"
expect_error 2 solve "--threads is 0" "$NS" solve wythoff --size 5 --threads 0 -o "$X"
expect_error 2 solve "unknown option '--frob'" "$NS" solve wythoff --size 5 --frob -o "$X"
expect_error 2 solve "option '--size' needs a value" "$NS" solve wythoff -o "$X" --size
expect_error 2 solve "unexpected argument 'extra'" "$NS" solve wythoff extra --size 5 -o "$X"
expect_error 2 solve "directory '$WORK/nodir' does not exist" "$NS" solve wythoff --size 5 -o "$WORK/nodir/x.h5"
expect_error 2 solve "is a directory" "$NS" solve wythoff --size 5 -o "$WORK"
expect_error 2 solve "no-such\.rules" "$NS" solve "$WORK/no-such.rules" --size 5 -o "$X"
CHECKS=$((CHECKS + 1))
[ -e "$X" ] && fail "a failed solve left $X behind"
ls "$WORK"/*.part >/dev/null 2>&1 && fail "a .part file was left behind"

# ---- info on bad files ----
expect_error 2 info "missing FILE" "$NS" info
expect_error 2 info "no-such\.h5" "$NS" info "$WORK/no-such.h5"
echo "not hdf5" >"$WORK/bad.h5"
expect_error 2 info "bad\.h5" "$NS" info "$WORK/bad.h5"
expect_error 2 info "unexpected argument" "$NS" info "$WORK/w10.h5" "$WORK/w10.h5"

finish
