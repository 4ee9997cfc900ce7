# mpi_lib.sh - helpers sourced by tests/mpi/test_*.sh (after cli_lib.sh).
# mpirun from NS_MPIEXEC (CMake's MPIEXEC_EXECUTABLE), every run bounded by
# `timeout` so that a hung job fails the test instead of the suite.
MPIEXEC=${NS_MPIEXEC:-mpirun}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# one OpenMP thread a rank unless a test says otherwise: the ranks share 2 cores
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} OMP_WAIT_POLICY=PASSIVE
MPI_TIMEOUT=${MPI_TIMEOUT:-120}

# mpi R CMD...: run CMD under mpirun with R ranks (stdout $OUT, stderr $ERR, $RC)
mpi() {
    local r=$1
    shift
    run timeout -k 5 "$MPI_TIMEOUT" "$MPIEXEC" --oversubscribe -np "$r" "$@"
}

# compare REF.h5 GOT.h5 RANKS: two sweep catalogues equal in every column but
# seconds and every attribute but threads, wall_seconds, created_utc and
# mpi_ranks, which must be RANKS (h5py); prints what differs, exit 1
compare() { # compare REF.h5 GOT.h5 RANKS
    /usr/bin/python3 - "$@" <<'PYEOF'
import sys, h5py, numpy as np
ref, got, ranks = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r"), int(sys.argv[3])
a, b = ref["sweep"][...], got["sweep"][...]
bad = []
if a.dtype.names != b.dtype.names or a.shape != b.shape:
    bad.append(f"rows {a.shape} {a.dtype.names} vs {b.shape} {b.dtype.names}")
else:
    for c in a.dtype.names:
        if c == "seconds":
            continue
        x, y = a[c], b[c]
        same = np.array_equal(x, y, equal_nan=True) if x.dtype.kind == "f" else np.array_equal(x, y)
        if not same:
            bad.append(f"column {c} differs")
skip = {"threads", "wall_seconds", "created_utc", "mpi_ranks"}
for k in set(ref.attrs) | set(got.attrs):
    if k in skip:
        continue
    if k not in ref.attrs or k not in got.attrs or ref.attrs[k] != got.attrs[k]:
        bad.append(f"attribute {k}: {ref.attrs.get(k)!r} vs {got.attrs.get(k)!r}")
if int(got.attrs.get("mpi_ranks", -1)) != ranks:
    bad.append(f"mpi_ranks {got.attrs.get('mpi_ranks')!r}, expected {ranks}")
for b_ in bad:
    print(b_)
sys.exit(1 if bad else 0)
PYEOF
}

# The files of an MPI run against a single process's: PY, SAME (h5same.py),
# SKIP (the run's own attributes, mpi_ranks, mpi_write and mpi_sets, and the
# build's: its flags, parallel HDF5),
# REF_NS (the single-process reference: the default OpenMP build when there
# is one, else this binary without mpirun); needs NS and SRC.
PY=/usr/bin/python3
SAME="$SRC/tests/cli/h5same.py"
SKIP="mpi_ranks,mpi_write,mpi_sets,build_flags,hdf5_version,git_revision"
REF_NS=$NS
[ -x "$SRC/build/nimsieve" ] && REF_NS="$SRC/build/nimsieve"

text_attr_is() { # FILE NAME VALUE: the root attribute NAME, as text, is VALUE
    $PY - "$@" <<'PY'
import sys, h5py
v = h5py.File(sys.argv[1], "r").attrs.get(sys.argv[2])
v = v.decode() if isinstance(v, bytes) else v
sys.exit(0 if v == sys.argv[3] else 1)
PY
}

# closed_form GAME FILE: the file's /grundy is two-pile Nim's x XOR y
# (Bouton 1901; GAME nim), or its zeros are Wythoff's pairs (a_k, a_k + k),
# a_k = floor(k phi), and their mirrors (Wythoff 1907; GAME wythoff), in
# exact integers
closed_form() {
    $PY - "$@" <<'PY'
import sys, math, h5py, numpy as np
g = h5py.File(sys.argv[2], "r")["grundy"][...].astype(np.int64)
n = g.shape[0]
x, y = np.indices((n, n))
if sys.argv[1] == "nim":
    sys.exit(0 if np.array_equal(g, x ^ y) else 1)
want = np.zeros((n, n), bool)
for k in range(n):
    a = (k + math.isqrt(5 * k * k)) // 2  # floor(k phi), Wythoff 1907
    if a + k < n:
        want[a, a + k] = want[a + k, a] = True
sys.exit(0 if np.array_equal(g == 0, want) else 1)
PY
}

attr_is() { # FILE NAME VALUE: the root attribute NAME is VALUE
    $PY - "$@" <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
v = f.attrs.get(sys.argv[2])
sys.exit(0 if v is not None and str(int(v)) == sys.argv[3] else 1)
PY
}

# units_of: "N M" from the resume line "resuming from ...: N of M units done"
units_of() {
    sed -n 's/^resuming from .*: \([0-9]*\) of \([0-9]*\) units done.*/\1 \2/p' "$OUT" | head -1
}

# resume_all LABEL FILE REF RANKS -- ARGS...: resume copies of FILE's
# checkpoint (and .part) under each of RANKS (quoted list); each must be REF
# and start from at least MIN_UNITS (default 1) units done, part of the way
MIN_UNITS=1
resume_all() {
    local label=$1 f=$2 ref=$3 ranks=$4 r u
    shift 5
    cp "$f.ckpt" "$f.ckpt.saved"
    [ -e "$f.part" ] && cp "$f.part" "$f.part.saved"
    for r in $ranks; do
        cp "$f.ckpt.saved" "$f.ckpt"
        [ -e "$f.part.saved" ] && cp "$f.part.saved" "$f.part"
        rm -f "$f"
        CHECKS=$((CHECKS + 1))
        if [ "$r" -eq 1 ]; then
            run timeout 60 "$NS" solve "$@" -o "$f" --resume
        else
            mpi "$r" "$NS" solve "$@" -o "$f" --resume
        fi
        if [ "$RC" -ne 0 ]; then
            fail "$label: resume at $r ranks: exit $RC"
            show
            continue
        fi
        u=$(units_of)
        if [ -z "$u" ] || [ "${u% *}" -lt "$MIN_UNITS" ] || [ "${u% *}" -ge "${u#* }" ]; then
            fail "$label: resume at $r ranks: expected to resume a checkpoint of at least $MIN_UNITS units, part of the way ('$u')"
            show
        fi
        $PY "$SAME" "$ref" "$f" --skip "$SKIP" >"$WORK/diff" 2>&1 ||
            fail "$label: resumed at $r ranks: not the single-process file: $(head -3 "$WORK/diff")"
        [ -e "$f.ckpt" ] && fail "$label: resumed at $r ranks: the checkpoint is left behind"
    done
    rm -f "$f.ckpt.saved" "$f.part.saved"
}
