#!/usr/bin/env bash
# notebooks.sh - re-execute the notebooks in notebooks/ top to bottom and store
# their outputs (numbers and figures) in the .ipynb files, so that they can be
# read when browsing the repository. Builds nothing: give it a nimsieve binary.
#
# usage: tools/notebooks.sh [--into DIR] [--work DIR] [NIMSIEVE] [NOTEBOOK.ipynb ...]
#   NIMSIEVE      the binary the notebooks run (default: build/nimsieve of this tree)
#   NOTEBOOK      the notebooks to run (default: every notebooks/*.ipynb)
#   --into DIR    write the executed notebooks (and a copy of nsnb.py) to DIR
#                 instead of over the stored ones (the notebook test does this)
#   --work DIR    where the notebooks write their tables and figures (default:
#                 a temporary folder, removed at the end)
#
# The kernel is Debian's /usr/bin/python3 (h5py, numpy, matplotlib; nbconvert
# as /usr/bin/python3 -m nbconvert, tools/deps.sh installs them), whatever
# python3 comes first on PATH, in a private Jupyter setup: no user settings,
# site-packages or PYTHONPATH leak in. Cells are run without timing records,
# so that a notebook changes only where its outputs do.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=/usr/bin/python3
into= work=
while [ $# -gt 0 ]; do
    case $1 in
        --into) into=$2; shift 2 ;;
        --work) work=$2; shift 2 ;;
        -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) break ;;
    esac
done
ns=$ROOT/build/nimsieve
if [ $# -gt 0 ] && [[ $1 != *.ipynb ]]; then ns=$1; shift; fi
[ -x "$ns" ] || { echo "notebooks.sh: $ns: not an executable nimsieve (build it first, or give its path)" >&2; exit 2; }
ns=$(cd "$(dirname "$ns")" && pwd)/$(basename "$ns")
if [ $# -gt 0 ]; then notebooks=("$@"); else notebooks=("$ROOT"/notebooks/*.ipynb); fi

[ -x "$PY" ] || { echo "notebooks.sh: $PY is missing (tools/deps.sh installs it)" >&2; exit 2; }
"$PY" -c 'import nbconvert, ipykernel, h5py, numpy, matplotlib' ||
    { echo "notebooks.sh: $PY lacks nbconvert/ipykernel/h5py/numpy/matplotlib (tools/deps.sh installs them)" >&2; exit 2; }

jup=$(mktemp -d "${TMPDIR:-/tmp}/nimsieve-notebooks.XXXXXX")
trap 'rm -rf "$jup"' EXIT
if [ -z "$work" ]; then work=$jup/out; fi
mkdir -p "$work" "$jup/jupyter/kernels/python3"
work=$(cd "$work" && pwd)
cat >"$jup/jupyter/kernels/python3/kernel.json" <<EOF
{
 "argv": ["$PY", "-m", "ipykernel_launcher", "-f", "{connection_file}"],
 "display_name": "Python 3",
 "language": "python"
}
EOF
unset PYTHONPATH PYTHONHOME NIMSIEVE_NOTEBOOKS
export PYTHONNOUSERSITE=1 PYTHONHASHSEED=0 PYTHONDONTWRITEBYTECODE=1
export JUPYTER_PATH="$jup/jupyter" JUPYTER_CONFIG_DIR="$jup/config" JUPYTER_DATA_DIR="$jup/data"
export JUPYTER_RUNTIME_DIR="$jup/runtime" IPYTHONDIR="$jup/ipython" MPLCONFIGDIR="$jup/mpl"
export NIMSIEVE="$ns" NIMSIEVE_WORK="$work"

if [ -n "$into" ]; then
    mkdir -p "$into"
    cp "$ROOT/notebooks/nsnb.py" "$into/"
fi
status=0
for nb in "${notebooks[@]}"; do
    name=$(basename "$nb")
    if [ -n "$into" ]; then
        cp "$nb" "$into/$name"
        target=$into/$name
    else
        target=$nb
    fi
    # nbconvert runs the kernel in the notebook's folder, where nsnb.py lies
    if "$PY" -m nbconvert --to notebook --execute --inplace \
            --ExecutePreprocessor.kernel_name=python3 --ExecutePreprocessor.timeout=600 \
            --ExecutePreprocessor.record_timing=False "$target" >"$jup/log" 2>&1; then
        echo "ran: $target"
    else
        tail -40 "$jup/log" >&2
        echo "notebooks.sh: $name did not run to the end" >&2
        status=1
    fi
done
exit $status
