#!/bin/bash
# test_sweep_resume.sh NIMSIEVE SOURCE_DIR WORK_DIR
#
# A sweep stopped by SIGTERM keeps the rows done in OUT.part and --resume
# finishes a catalogue equal, row by row in every column but seconds (and
# in the root attributes but timing and threads), to an uninterrupted
# run's, at 1 and 2 threads, with and without --keep-tables. A sweep killed
# with SIGKILL resumes from the last flush to the same catalogue. Refused
# with one line: --resume with other ranges, size, game or --keep-tables,
# on a finished file, without a .part, with --force; a fresh run over a
# .part. Kept tables: a subtraction game's against a naive mex written
# here, an a-Wythoff variant's against `nimsieve solve` of that variant.
# The progress line appears on a terminal (script(1)).
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
PY=/usr/bin/python3
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK" || exit 1

# a-Wythoff, a = 21..40 at N = 320: 0.06 to 0.14 s a variant on an idle
# core of this machine, 2 s in all (under ASan N = 200: 0.2 to 0.3 s)
N=320
[ "$SANITIZED" = 1 ] && N=200
GAME=(a-wythoff -D a=21..40 --size $N)

cat >"$WORK/same.py" <<'PYEOF'
# same.py A B [ATTR]: the catalogues A and B agree in every column but
# seconds, row by row, and in the root attributes but timing, threads,
# created_utc (and ATTR)
import sys, math
import h5py
a, b = (h5py.File(p, "r") for p in sys.argv[1:3])
ta, tb = a["/sweep"][()], b["/sweep"][()]
bad = 0
if ta.dtype.names != tb.dtype.names or len(ta) != len(tb):
    print("columns or row counts differ:", ta.dtype.names, len(ta), tb.dtype.names, len(tb))
    sys.exit(1)
if len(ta) != a.attrs["variants"] or a.attrs["variants_done"] != len(ta):
    print("rows", len(ta), "variants", a.attrs["variants"], "variants_done", a.attrs["variants_done"])
    bad += 1
for i in range(len(ta)):
    for c in ta.dtype.names:
        if c == "seconds":
            continue
        x, y = ta[i][c], tb[i][c]
        if isinstance(x, float) and math.isnan(x) and math.isnan(y):
            continue
        if x != y:
            print("row", i, "column", c, x, "!=", y)
            bad += 1
for k in a.attrs:
    if k in ("wall_seconds", "threads", "created_utc") or k in sys.argv[3:]:
        continue
    if str(a.attrs[k]) != str(b.attrs.get(k)):
        print("attribute", k, a.attrs[k], "!=", b.attrs.get(k))
        bad += 1
sys.exit(1 if bad else 0)
PYEOF

# expect_match WHAT TEXT REGEX: TEXT matches the extended regex
expect_match() {
    CHECKS=$((CHECKS + 1))
    echo "$2" | grep -Eq -- "$3" || fail "$1: got '$2', expected to match '$3'"
}

# rows FILE: the rows of /sweep in FILE
rows() { $PY -c 'import h5py,sys; print(len(h5py.File(sys.argv[1],"r")["/sweep"]))' "$1"; }

expect_ok "$NS" sweep "${GAME[@]}" -o ref.h5 --threads 2

# stop T SIG [--keep-tables]: start a sweep on T threads into cut-T-SIG.h5,
# send SIG once its .part exists and a delay (0.3 s at first) has passed;
# after SIGTERM, check the exit status, the message and that the .part
# holds some rows but not all. A stop that came too early (no row yet: a
# slow build, ASan, a loaded machine) or too late (every row) means nothing
# for the resume: it is run again with the delay doubled or halved, up to
# five times, before it counts as a failure.
stop() {
    local t=$1 sig=$2 keep=${3:-} delay=0.3 try n st
    F="cut-$1-$2${3:-}.h5"
    for try in 1 2 3 4 5; do
        rm -f "$F" "$F.part"
        "$NS" sweep "${GAME[@]}" -o "$F" --threads "$t" $keep >"$WORK/stop.out" 2>"$WORK/stop.err" &
        local pid=$!
        for _ in $(seq 200); do [ -e "$F.part" ] && break; sleep 0.05; done
        sleep "$delay"
        kill "-$sig" "$pid"
        wait "$pid" 2>/dev/null
        st=$?
        [ "$sig" = TERM ] && [ -e "$F.part" ] && [ ! -e "$F" ] || break
        n=$(rows "$F.part")
        if [ "$n" -lt 1 ]; then
            delay=$(awk -v d="$delay" 'BEGIN { print 2 * d }')
        elif [ "$n" -ge 20 ]; then
            delay=$(awk -v d="$delay" 'BEGIN { print d / 2 }')
        else
            break
        fi
    done
    CHECKS=$((CHECKS + 1))
    if [ ! -e "$F.part" ] || [ -e "$F" ]; then
        fail "$t threads, $sig: expected $F.part and no $F after the stop (status $st)"
        return
    fi
    [ "$sig" = TERM ] || return
    CHECKS=$((CHECKS + 2))
    [ "$st" -eq 143 ] || fail "$t threads, SIGTERM: exit status $st, expected 143"
    grep -Eq "^nimsieve sweep: stopped by SIGTERM after .*$F.part holds [0-9]+ of 20 variants; continue .*--resume" \
        "$WORK/stop.err" || { fail "$t threads: no 'stopped by SIGTERM' line"; sed 's/^/  /' "$WORK/stop.err" >&2; }
    n=$(rows "$F.part")
    # else the stop came too early or too late five times over
    if [ "$n" -lt 1 ] || [ "$n" -ge 20 ]; then
        fail "$t threads: $F.part holds $n of 20 rows after SIGTERM (expected some, not all; last delay $delay s)"
    fi
}

# resume T [--keep-tables]: continue $F, compare with ref.h5
resume() {
    local t=$1 keep=${2:-}
    expect_ok "$NS" sweep "${GAME[@]}" -o "$F" --threads "$t" $keep --resume
    expect_match "$F: resume line" "$(head -1 "$OUT")" "^resuming from $F.part: [0-9]+ of 20 variants done"
    CHECKS=$((CHECKS + 1))
    [ -e "$F.part" ] && fail "$F.part left after the resume"
    CHECKS=$((CHECKS + 1))
    $PY "$WORK/same.py" "$F" ref.h5 keep_tables >&2 || fail "$F: the resumed catalogue differs from the uninterrupted one"
}

stop 1 TERM
# refusals, one line each, before any work; the .part stays as it was
expect_error 2 sweep "$F.part: the interrupted sweep there has ranges '-D a=21..40', this command '-D a=21..41': give the same, or --force" \
    "$NS" sweep a-wythoff -D a=21..41 --size $N -o "$F" --resume
expect_error 2 sweep "$F.part: the interrupted sweep there has size $N, this command $((N + 1))" \
    "$NS" sweep a-wythoff -D a=21..40 --size $((N + 1)) -o "$F" --resume
expect_error 2 sweep "$F.part: the interrupted sweep there has game 'a-wythoff', this command '.*a-wythoff.rules'" \
    "$NS" sweep "$SRC/data/rules/a-wythoff.rules" -D a=21..40 --size $N -o "$F" --resume
expect_error 2 sweep "$F.part: an interrupted sweep without --keep-tables: drop it" \
    "$NS" sweep "${GAME[@]}" -o "$F" --resume --keep-tables
expect_error 2 sweep "an interrupted sweep '$F.part' exists: add --resume to continue it, or --force" \
    "$NS" sweep "${GAME[@]}" -o "$F"
expect_error 2 sweep "--resume and --force exclude each other" "$NS" sweep "${GAME[@]}" -o "$F" --resume --force
expect_error 2 sweep "'ref.h5' is a finished sweep already: nothing to resume" "$NS" sweep "${GAME[@]}" -o ref.h5 --resume
expect_error 2 sweep "--resume: no interrupted sweep 'none.h5.part'" "$NS" sweep "${GAME[@]}" -o none.h5 --resume
expect_error 2 sweep "--report FILE takes only --csv" "$NS" sweep --report ref.h5 --resume
resume 1
stop 2 TERM --keep-tables
resume 2 --keep-tables
KEPT=$F
# SIGKILL: what the last flush recorded (maybe no row yet) is read back
stop 2 KILL
resume 2

# a .part that HDF5 cannot open (a kill in the middle of a flush; here its
# superblock zeroed): made again from its journal FILE.part.rows, the same
# catalogue; refused in one line with --keep-tables (the tables were only
# in the .part) and without a journal; the journal goes with the finish
stop 1 TERM
n=$(rows "$F.part")
CHECKS=$((CHECKS + 1))
[ -s "$F.part.rows" ] || fail "$F.part.rows: no journal beside the .part"
dd if=/dev/zero of="$F.part" bs=512 count=8 conv=notrunc 2>/dev/null
expect_error 2 sweep "$F.part.rows: an interrupted sweep without --keep-tables: drop it" \
    "$NS" sweep "${GAME[@]}" -o "$F" --resume --keep-tables
expect_error 2 sweep "$F.part.rows: the interrupted sweep there has size $N, this command $((N + 1))" \
    "$NS" sweep a-wythoff -D a=21..40 --size $((N + 1)) -o "$F" --resume
expect_ok "$NS" sweep "${GAME[@]}" -o "$F" --threads 2 --resume
expect_match "$F: resume from the journal" "$(head -1 "$OUT")" \
    "^resuming from $F.part.rows: $F.part could not be opened .*journal: $n of 20 variants done"
CHECKS=$((CHECKS + 2))
[ -e "$F.part" ] || [ -e "$F.part.rows" ] && fail "$F.part or its journal left after the resume"
$PY "$WORK/same.py" "$F" ref.h5 >&2 || fail "$F: the catalogue resumed from the journal differs from the uninterrupted one"
stop 1 TERM --keep-tables
n=$(rows "$F.part")
dd if=/dev/zero of="$F.part" bs=512 count=8 conv=notrunc 2>/dev/null
expect_error 2 sweep "$F.part: cannot open \(damaged\?\); its journal $F.part.rows keeps the $n rows done but not their kept tables: --force starts over" \
    "$NS" sweep "${GAME[@]}" -o "$F" --resume --keep-tables
rm "$F.part.rows"
expect_error 2 sweep "$F.part: cannot open .*, and no journal $F.part.rows: .*: --force starts over" \
    "$NS" sweep "${GAME[@]}" -o "$F" --resume --keep-tables
expect_ok "$NS" sweep "${GAME[@]}" -o "$F" --threads 2 --keep-tables --force
CHECKS=$((CHECKS + 1))
[ -e "$F.part" ] || [ -e "$F.part.rows" ] && fail "--force: $F.part or its journal left after the sweep"

# a kept table of the interrupted, resumed sweep equals solve's for a = 27
CHECKS=$((CHECKS + 1))
expect_ok "$NS" solve a-wythoff -D a=27 --size $N -o a27.h5
$PY - "$KEPT" a27.h5 $N <<'PYEOF' >&2 || fail "/tables/v0000006 (a=27) of $KEPT differs from nimsieve solve's /grundy"
import sys
import h5py, numpy as np
s, g = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
tab = s["/tables/v0000006"]
ok = tab.attrs["params"] in (b"a=27", "a=27") and tab.attrs["variant"] == 6 and tab.shape == (int(sys.argv[3]),) * 2
ok = ok and np.array_equal(tab[()].astype(np.int64), g["/grundy"][()].astype(np.int64))
ok = ok and tab.dtype == (np.uint8 if tab[()].max() < 256 else np.uint16)
ok = ok and len(s["/tables"]) == 20
sys.exit(0 if ok else 1)
PYEOF

# kept tables of a one-pile sweep against a naive mex, and their width
expect_ok "$NS" sweep subtraction -D 'set=subsets(1..6,2)' --size 200 -o sub.h5 --keep-tables
CHECKS=$((CHECKS + 1))
$PY - sub.h5 <<'PYEOF' >&2 || fail "kept subtraction tables differ from a naive mex"
import sys, itertools
import h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
sets = list(itertools.combinations(range(1, 7), 2))
bad = len(f["/tables"]) != len(sets)
for i, S in enumerate(sets):
    g = []
    for n in range(200):
        opts = {g[n - s] for s in S if s <= n}
        m = 0
        while m in opts:
            m += 1
        g.append(m)
    t = f["/tables/v%07d" % i]
    p = t.attrs["params"]
    p = p.decode() if isinstance(p, bytes) else p
    if t.dtype != np.uint8 or list(t[()]) != g or p != "set=" + ",".join(map(str, S)):
        print("variant", i, S, p, t.dtype)
        bad = True
sys.exit(1 if bad else 0)
PYEOF

# --force starts over from a .part
# the progress line, on a terminal only (expect_ok above: none on a pipe)
if command -v script >/dev/null; then
    script -qc "'$NS' sweep ${GAME[*]} -o tty.h5 --threads 1" /dev/null >tty.out 2>&1
    CHECKS=$((CHECKS + 1))
    tr '\r' '\n' <tty.out | grep -aEq '^sweep: [0-9]+ of 20 variants, at a=(2[1-9]|3[0-9]|40), [0-9.]+/s, about [0-9]+ s left' ||
        { fail "no progress line on a terminal"; head -c 600 tty.out >&2; }
else
    echo "skipped (no script(1)): the progress line on a terminal"
fi
cp ref.h5 f.h5.part
expect_ok "$NS" sweep subtraction -D 'set=subsets(1..6,2)' --size 200 -o f.h5 --force
CHECKS=$((CHECKS + 1))
$PY "$WORK/same.py" f.h5 sub.h5 keep_tables >&2 || fail "--force over a .part: differs from sub.h5"

# groups across a resume: every 3-subset of {1..7} has variants after row
# 12 whose tables equal earlier rows' (row 13, {1,4,7}, is row 6's {1,3,5}:
# both give n mod 2); a .part cut after 12 rows (the finished catalogue
# shrunk with h5py) resumes to the same groups as the uninterrupted run,
# and each group is checked against naive mex sequences here
SUB3=(subtraction -D 'set=subsets(1..7,3)' --size 200)
expect_ok "$NS" sweep "${SUB3[@]}" -o g-ref.h5 --threads 2
cp g-ref.h5 g.h5.part
$PY - g.h5.part <<'PYEOF' || fail "cannot cut g.h5.part"
import sys, h5py
f = h5py.File(sys.argv[1], "r+")
f["/sweep"].resize((12,))
f.attrs["variants_done"] = 12
PYEOF
expect_ok "$NS" sweep "${SUB3[@]}" -o g.h5 --resume --threads 2
expect_out '^groups: +26 distinct tables among 35 variants'
CHECKS=$((CHECKS + 1))
$PY "$WORK/same.py" g.h5 g-ref.h5 >&2 || fail "groups after a resume differ from an uninterrupted run"
CHECKS=$((CHECKS + 1))
$PY - g.h5 <<'PYEOF' >&2 || fail "groups after a resume differ from naive sequences"
import sys, itertools, h5py
t = h5py.File(sys.argv[1], "r")["/sweep"][()]
seqs = []
for S in itertools.combinations(range(1, 8), 3):
    g = []
    for n in range(200):
        o = {g[n - s] for s in S if s <= n}
        m = 0
        while m in o:
            m += 1
        g.append(m)
    seqs.append(g)
want = [seqs.index(s) for s in seqs]
sys.exit(0 if list(t["group"]) == want and want[13] == 6 else 1)
PYEOF
finish
