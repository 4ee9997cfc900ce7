#!/bin/bash
# The census figure: `nimsieve plot CENSUS.h5` (kind census, the default
# for census files) draws each code's period against the code. The data
# file kept with --keep-script is checked row by row against /census read
# with h5py (code order, period, proven, saltus, the category drawn), the
# printed counts against counts made here, the figure is a non-blank PNG
# (the checker of test_plot.sh), and the kind/file mismatches and options
# that do not apply are refused with one line.
# Usage: bash test_plot_census.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
NS=$1 SRC=$2 WORK=$3
. "$SRC/tests/cli/cli_lib.sh"
rm -rf "$WORK"/*.h5 "$WORK"/fig
mkdir -p "$WORK/fig"
PY=/usr/bin/python3
if ! command -v gnuplot >/dev/null; then
    echo "gnuplot not installed" >&2
    exit 1
fi
sed -n "/^cat >\"\$WORK\/pngcheck.py\" <<'EOF'\$/,/^EOF\$/p" "$SRC/tests/cli/test_plot.sh" | sed '1d;$d' >"$WORK/pngcheck.py"
[ -s "$WORK/pngcheck.py" ] || { echo "no pngcheck.py in test_plot.sh" >&2; exit 1; }
F=$WORK/fig

expect_ok "$NS" census octal --digits 2 --size 150 -o "$WORK/c.h5" --threads 2
expect_ok "$NS" plot "$WORK/c.h5" -o "$F/c.png" --keep-script
expect_out '^census: '
expect_out '^56 codes of 2 digits, heap sizes n < 150$'
CHECKS=$((CHECKS + 1))
msg=$("$PY" "$WORK/pngcheck.py" "$F/c.png" 1000 800 2>&1) || fail "$F/c.png: $msg"
cp "$OUT" "$WORK/report.txt"

cat >"$WORK/check.py" <<'PYEOF'
import re, sys
import h5py
h5, dat, report = sys.argv[1], sys.argv[2], sys.argv[3]
t = h5py.File(h5, "r")["/census"][...]
rows = [l.split() for l in open(dat) if not l.startswith("#")]
bad = []
if len(rows) != len(t):
    bad.append("data rows %d, census rows %d" % (len(rows), len(t)))
counts = [0, 0, 0, 0]
for i, (r, c) in enumerate(zip(rows, t)):
    code = c["code"].decode()
    p, s, pr = int(c["period"]), int(c["saltus"]), int(c["proven"])
    cat = 3 if p <= 0 else 2 if s > 0 else 0 if pr else 1
    counts[cat] += 1
    want = [str(i), code, str(p), str(int(c["preperiod"])), str(pr), str(s), str(int(c["max_value"])), str(cat)]
    if r != want:
        bad.append("row %d: %s, expected %s" % (i, r, want))
codes = [c["code"].decode() for c in t]
if codes != sorted(codes, key=lambda x: x):
    bad.append("codes not in code order")
txt = open(report).read()
m = re.search(r"proven: (\d+); observed, not proven: (\d+); arithmetic \(observed\): (\d+); no period found: (\d+)", txt)
if not m or [int(x) for x in m.groups()] != counts:
    bad.append("report counts %s, expected %s" % (m.groups() if m else None, counts))
if counts[0] + counts[1] + counts[2]:
    pm = max(int(c["period"]) for c in t)
    if not re.search(r"longest period: %d \(" % pm, txt):
        bad.append("longest period %d not reported" % pm)
# Dawson's Kayles 0.07 has period 34 (Guy and Smith)
i = codes.index("0.07")
if int(t[i]["period"]) != 34:
    bad.append("0.07: period %d, expected 34" % t[i]["period"])
if bad:
    print("; ".join(bad[:5]))
    sys.exit(1)
PYEOF
CHECKS=$((CHECKS + 1))
msg=$("$PY" "$WORK/check.py" "$WORK/c.h5" "$F/c.png.dat" "$WORK/report.txt" 2>&1) || fail "census plot data: $msg"
# the key and the band of codes without a period are in the script
CHECKS=$((CHECKS + 1))
grep -q "title 'no period in range'" "$F/c.png.gp" || fail "no key entry for codes without a period"

# mismatches and options that do not apply
expect_ok "$NS" solve octal -D code=0.07 --size 100 -o "$WORK/s.h5"
expect_error 2 plot 'is a table' "$NS" plot "$WORK/s.h5" --kind census -o "$F/x.png"
expect_error 2 plot 'is a census file.*only kind for it is census' "$NS" plot "$WORK/c.h5" --kind sequence -o "$F/x.png"
expect_error 2 plot 'takes no --xrange' "$NS" plot "$WORK/c.h5" --range 0:10 -o "$F/x.png"
CHECKS=$((CHECKS + 1))
[ ! -e "$F/x.png" ] || fail "a refused plot left $F/x.png"
finish
