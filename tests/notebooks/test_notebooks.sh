#!/usr/bin/env bash
# test_notebooks.sh - every notebook in notebooks/ is stored without outputs
# and runs top to bottom without an error, under Debian's Python
# (/usr/bin/python3 with h5py, numpy, matplotlib), whatever python3 comes
# first on PATH: nbconvert is started as /usr/bin/python3 -m nbconvert and
# the kernel "python3" is pinned to /usr/bin/python3 by a kernel spec in
# WORK_DIR; the first cell of each executed notebook must report it.
# usage: bash test_notebooks.sh NIMSIEVE_BIN SOURCE_DIR WORK_DIR
set -u
NS=$1 SRC=$2 WORK=$3
PY=/usr/bin/python3
rm -rf "$WORK"
mkdir -p "$WORK/run" "$WORK/out"
fails=0
fail() {
    echo "FAIL: $*" >&2
    fails=$((fails + 1))
}

[ -x "$PY" ] || { echo "FAIL: $PY is missing (tools/deps.sh installs python3-h5py and friends)" >&2; exit 1; }
if ! "$PY" -c 'import nbconvert, ipykernel, h5py, numpy, matplotlib' 2>"$WORK/import.err"; then
    cat "$WORK/import.err" >&2
    echo "FAIL: $PY lacks nbconvert/ipykernel/h5py/numpy/matplotlib (tools/deps.sh installs them)" >&2
    exit 1
fi

# A private Jupyter setup: our kernel spec "python3" first on JUPYTER_PATH,
# fresh runtime/config/IPython/matplotlib directories, no user site-packages
# or PYTHONPATH from another Python.
mkdir -p "$WORK/jupyter/kernels/python3"
cat >"$WORK/jupyter/kernels/python3/kernel.json" <<EOF
{
 "argv": ["$PY", "-m", "ipykernel_launcher", "-f", "{connection_file}"],
 "display_name": "Python 3 (Debian, for the nimsieve tests)",
 "language": "python"
}
EOF
unset PYTHONPATH PYTHONHOME
export PYTHONNOUSERSITE=1
export JUPYTER_PATH="$WORK/jupyter"
export JUPYTER_CONFIG_DIR="$WORK/jupyter-config"
export JUPYTER_DATA_DIR="$WORK/jupyter-data"
export JUPYTER_RUNTIME_DIR="$WORK/jupyter-runtime"
export IPYTHONDIR="$WORK/ipython"
export MPLCONFIGDIR="$WORK/mpl"
export NIMSIEVE="$NS"
export NIMSIEVE_WORK="$WORK/out"

shopt -s nullglob
notebooks=("$SRC"/notebooks/*.ipynb)
for want in wythoff variants nim-and-sums; do
    [ -f "$SRC/notebooks/$want.ipynb" ] || fail "notebooks/$want.ipynb is missing"
done

for nb in "${notebooks[@]}"; do
    name=$(basename "$nb" .ipynb)
    # stored without outputs, and for the kernel "python3"
    if ! "$PY" - "$nb" >"$WORK/$name.clean" 2>&1 <<'EOF'; then
import json, sys
nb = json.load(open(sys.argv[1]))
bad = [i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code" and (c.get("outputs") or c.get("execution_count") is not None)]
if bad:
    sys.exit("code cells with outputs or execution counts: %s (clear them before committing)" % bad)
ks = nb.get("metadata", {}).get("kernelspec", {}).get("name")
if ks != "python3":
    sys.exit("kernelspec name is %r, expected 'python3'" % ks)
EOF
        fail "notebooks/$name.ipynb: $(tail -1 "$WORK/$name.clean")"
    fi

    # run a copy top to bottom in WORK_DIR
    cp "$nb" "$WORK/run/$name.ipynb"
    if ! (cd "$WORK/run" && "$PY" -m nbconvert --to notebook --execute \
            --ExecutePreprocessor.kernel_name=python3 --ExecutePreprocessor.timeout=300 \
            --output "$name.executed.ipynb" "$name.ipynb") >"$WORK/$name.log" 2>&1; then
        tail -40 "$WORK/$name.log" >&2
        fail "notebooks/$name.ipynb does not run to the end (log: $WORK/$name.log)"
        continue
    fi
    # no error outputs, and the kernel ran /usr/bin/python3
    if ! "$PY" - "$WORK/run/$name.executed.ipynb" "$PY" >"$WORK/$name.check" 2>&1 <<'EOF'; then
import json, sys
nb = json.load(open(sys.argv[1]))
code = [c for c in nb["cells"] if c["cell_type"] == "code"]
for i, c in enumerate(code):
    for o in c.get("outputs", []):
        if o.get("output_type") == "error":
            sys.exit("cell %d raised %s: %s" % (i, o.get("ename"), o.get("evalue")))
    if c.get("execution_count") is None:
        sys.exit("cell %d was not executed" % i)
text = lambda o: "".join(o.get("text", "")) if isinstance(o.get("text"), list) else o.get("text", "")
first = "".join(text(o) for o in code[0].get("outputs", []) if o.get("output_type") == "stream")
if ("python: %s\n" % sys.argv[2]) not in first:
    sys.exit("the kernel did not run %s; the first cell printed: %r" % (sys.argv[2], first[:300]))
EOF
        fail "notebooks/$name.ipynb: $(tail -1 "$WORK/$name.check")"
    else
        echo "ok: notebooks/$name.ipynb"
    fi
done
[ ${#notebooks[@]} -ge 3 ] || fail "expected at least 3 notebooks, found ${#notebooks[@]}"
if [ "$fails" -ne 0 ]; then
    echo "$fails notebook check(s) failed" >&2
    exit 1
fi
echo "all ${#notebooks[@]} notebooks ran"
