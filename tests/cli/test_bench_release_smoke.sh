#!/bin/bash
# test_bench_release_smoke.sh NIMSIEVE SOURCE_DIR WORK_DIR
#
# tools/bench/release.sh keeps working (no timing is asserted): with the
# binary under test standing in for both the previous release and the
# current tree (--prev-bin, --cur-bin: nothing is built), --quick prints a
# row per case and thread count with a ratio, the load before and after;
# a case the "previous" binary cannot run prints n/a with its reason (a
# stand-in that fails the octal case); --which names the newest release of
# tools/bench/releases (the clone has no tags); bad arguments exit 2 with
# one line.
set -u
NS=$1 SRC=$2 WORK=$3
rm -rf "$WORK"
mkdir -p "$WORK"
fails=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}
B=$SRC/tools/bench/release.sh
out=$WORK/out
bash "$B" --quick --prev-bin "$NS" --cur-bin "$NS" --threads 1,2 --match wythoff >"$out" 2>&1 || fail "exited $?: $(cat "$out")"
for c in "wythoff grundy 512\^2 +262144" "wythoff p/n 2048\^2 +4194304" "loopy wythoff 128\^2 p/n/d +16384"; do
    n=$(grep -cE "^$c +[12] +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{2}x$" "$out")
    [ "$n" -eq 2 ] || fail "expected 2 rows (1 and 2 threads) of '$c', got $n: $(cat "$out")"
done
grep -q '^nim 3 piles' "$out" && fail "--match wythoff ran nim too"
[ "$(grep -c '^load average' "$out")" -eq 2 ] || fail "expected the load average before and after"
grep -q "^previous: nimsieve " "$out" || fail "no previous line: $(cat "$out")"
# a "previous release" that does not know octal codes
cat >"$WORK/old.sh" <<EOF
#!/bin/bash
for a in "\$@"; do [[ \$a == code=* ]] && { echo "nimsieve solve: -D: bad value for parameter 'code'" >&2; exit 2; }; done
exec "$NS" "\$@"
EOF
chmod +x "$WORK/old.sh"
bash "$B" --quick --prev-bin "$WORK/old.sh" --cur-bin "$NS" --threads 1 --match octal >"$out" 2>&1 || fail "exited $?: $(cat "$out")"
grep -qE "^octal 0\.1777 2\^16 +65536 +1 +n/a +[0-9]+\.[0-9]{3} +- +previous: nimsieve solve: -D: bad value" "$out" ||
    fail "no n/a row: $(cat "$out")"
# the previous release without tags (a landing drops them): tools/bench/releases
want=$(awk '$1 !~ /^#/ && NF == 2 { r = $0 } END { print r }' "$SRC/tools/bench/releases")
got=$(bash "$B" --which 2>&1)
[ -n "$want" ] && [ "$got" = "$want" ] || fail "--which: expected '$want' (the newest of tools/bench/releases), got '$got'"
got=$(bash "$B" --which --prev "${want%% *}" 2>&1)
[ "$got" = "$want" ] || fail "--which --prev ${want%% *}: expected '$want', got '$got'"
for bad in "--repeat 0" "--threads 1,,2" "--prev no-such-ref-xyz" "--bogus"; do
    # shellcheck disable=SC2086
    bash "$B" $bad --cur-bin "$NS" >"$out" 2>&1
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$out")" -eq 1 ] || fail "$bad: expected exit 2 and one line, got $rc: $(cat "$out")"
done
[ "$fails" -eq 0 ] && echo "bench release smoke: OK"
exit $((fails > 0))
