# poj1067_lib.sh - sourced by test_analysis_poj1067*.sh (not a test itself):
# poj1067_vs_table N: solve Wythoff's game on [0,N)^2 with the sieve, feed
# every position to `nimsieve poj1067` and compare with the table's /pn.
poj1067_vs_table() {
    local n=$1
    "$NS" solve wythoff --size "$n" --pn-only --quiet --force -o "w$n.h5" >/dev/null || {
        fail "solve wythoff --size $n"
        return
    }
    /usr/bin/python3 -c '
import sys
import h5py
n = int(sys.argv[2])
with h5py.File(sys.argv[1], "r") as f:
    pn = f["pn"][...]
assert pn.shape == (n, n)
with open("all.in", "w") as fin, open("all.want", "w") as fw:
    for x in range(n):
        fin.write("".join("%d %d\n" % (x, y) for y in range(n)))
        fw.write("".join("1\n" if v else "0\n" for v in pn[x].tolist()))
' "w$n.h5" "$n" || { fail "python could not read w$n.h5"; return; }
    "$NS" poj1067 <all.in >all.got 2>all.err
    expect_eq "poj1067 exit on $n x $n positions" "$?" 0
    if cmp -s all.got all.want; then
        CHECKS=$((CHECKS + 1))
    else
        fail "poj1067 differs from the $n x $n table: $(cmp all.got all.want 2>&1 | head -1)"
    fi
    expect_eq "lines answered" "$(wc -l <all.got)" "$((n * n))"
    rm -f all.in all.want all.got
}
