#!/bin/bash
# test_bad_tables.sh NIMSIEVE SOURCE_DIR WORK_DIR
#
# Every subcommand that reads a table file, given a bad one: missing, a
# directory, empty, not HDF5, truncated (half the bytes), a byte flipped in
# every data chunk (Fletcher-32 must catch it), wrong schema (an HDF5 file
# of other datasets; /grundy of the wrong rank; attributes of the wrong
# type), and a checkpoint instead of a table. Each must print one line on
# stderr naming the file, exit 2, not crash, and leave no output file.
set -u
nimsieve=$1
src=$2
work=$3
. "$src/tests/cli/plain_lib.sh"

"$nimsieve" solve wythoff --size 300 -o good.h5 -q || { echo "FAIL: cannot solve"; exit 1; }

# the bad files
mkdir dir.h5
: >empty.h5
printf 'this is not an HDF5 file\n%.0s' $(seq 1 50) >text.h5
size=$(stat -c %s good.h5)
head -c $((size / 2)) good.h5 >truncated.h5
"$py" - <<'EOF'
import h5py, numpy as np, shutil
# a byte flipped in the middle of every chunk of every dataset
shutil.copy("good.h5", "flipped.h5")
spots = []
with h5py.File("flipped.h5", "r") as f:
    for name in f:
        d = f[name]
        for i in range(d.id.get_num_chunks()):
            c = d.id.get_chunk_info(i)
            spots.append(c.byte_offset + c.size // 2)
with open("flipped.h5", "r+b") as fh:
    for at in spots:
        fh.seek(at)
        b = fh.read(1)
        fh.seek(at)
        fh.write(bytes([b[0] ^ 0x5A]))
# other datasets, no nimsieve attributes
with h5py.File("foreign.h5", "w") as f:
    f["data"] = np.arange(100)
    f.attrs["title"] = "a file of some other program"
# the schema broken in place: /grundy of the wrong rank, bounds of the wrong type
shutil.copy("good.h5", "rank.h5")
with h5py.File("rank.h5", "r+") as f:
    del f["grundy"]
    f["grundy"] = np.zeros((300, 300, 2), dtype=np.uint16)
shutil.copy("good.h5", "attrs.h5")
with h5py.File("attrs.h5", "r+") as f:
    f.attrs["bounds"] = "300 x 300"
shutil.copy("good.h5", "kind.h5")
with h5py.File("kind.h5", "r+") as f:
    f.attrs["kind"] = "colours"
EOF
# a checkpoint of an unfinished solve
"$nimsieve" solve "$src/tests/cli/fib-general.rules" --size 700 -o ck.h5 --checkpoint-every 0.001 -q \
    >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 100); do
    [ -e ck.h5.ckpt ] && break
    sleep 0.05
done
kill -TERM "$pid" 2>/dev/null
wait "$pid"
bad=(missing.h5 dir.h5 empty.h5 text.h5 truncated.h5 flipped.h5 foreign.h5 rank.h5 attrs.h5 kind.h5)
[ -e ck.h5.ckpt ] && bad+=(ck.h5.ckpt)

# run_bad FILE CMD...: exit 2, one line naming FILE, no crash
run_bad() {
    local file=$1
    shift
    checks=$((checks + 1))
    "$nimsieve" "$@" >out.txt 2>err.txt
    local rc=$?
    if [ "$rc" -ne 2 ]; then
        fail "nimsieve $*: exit $rc, expected 2"
        head -3 err.txt out.txt
    elif [ "$(wc -l <err.txt)" -ne 1 ] || ! grep -qF "$file" err.txt; then
        fail "nimsieve $*: expected one line naming $file, got:"
        cat err.txt
    fi
}

for f in "${bad[@]}"; do
    run_bad "$f" info "$f"
    run_bad "$f" query "$f" 3 5
    run_bad "$f" verify "$f" --samples 50
    run_bad "$f" check wythoff-golden "$f"
    run_bad "$f" patterns "$f"
    run_bad "$f" move "$f" 3 5
    run_bad "$f" plot "$f" --kind grundy -o "plot-$f.png"
    [ -e "plot-$f.png" ] && fail "plot $f left plot-$f.png"
done
# and the good file passes the same commands
for cmd in "info good.h5" "query good.h5 3 5" "verify good.h5 --samples 50" "check wythoff-golden good.h5" \
    "patterns good.h5" "move good.h5 4 5" "plot good.h5 --kind grundy -o good.png"; do
    # shellcheck disable=SC2086
    "$nimsieve" $cmd >/dev/null 2>err.txt || { fail "nimsieve $cmd on the good file"; cat err.txt; }
done

echo "$checks bad-file runs"
if [ "$fails" -ne 0 ]; then
    echo "$fails failure(s)"
    exit 1
fi
echo "all bad-table checks passed"
