"""nsnb: the helpers shared by the notebooks in this folder.

Each notebook starts with

    import os, sys
    sys.path[:0] = [d for d in (os.environ.get("NIMSIEVE_NOTEBOOKS"), "notebooks")
                    if d and os.path.isfile(os.path.join(d, "nsnb.py"))]
    from nsnb import about, nimsieve, load, patterns, work

Jupyter and nbconvert run a notebook in its own folder, where this file lies;
started from the repository root, "notebooks" is found; a copy elsewhere
either copies this file beside it or sets NIMSIEVE_NOTEBOOKS to this folder.

The binary is $NIMSIEVE, else ../build/nimsieve (from notebooks/), else
another build directory, else nimsieve on PATH. Tables and figures go to
$NIMSIEVE_WORK, else to nimsieve-out/ in the current directory.

What the helpers print is kept the same from run to run, so that the stored
outputs of the notebooks change only when the results do: paths under the
work folder are written relative to it, and run times and creation dates are
left out (see nimsieve()).
"""

import glob
import json
import os
import re
import shutil
import subprocess
import sys

import h5py
import matplotlib
import numpy as np

# Figures small enough to store in the notebooks (PNG, 80 dots per inch).
matplotlib.rcParams["figure.dpi"] = 80
matplotlib.rcParams["savefig.dpi"] = 80


def find_nimsieve():
    """The nimsieve binary: $NIMSIEVE, else ../build/nimsieve (from notebooks/),
    else another build directory next to it, else nimsieve on PATH."""
    env = os.environ.get("NIMSIEVE")
    if env:
        if not (os.path.isfile(env) and os.access(env, os.X_OK)):
            raise FileNotFoundError(f"NIMSIEVE={env} is not an executable file")
        return os.path.abspath(env)
    here = os.getcwd()
    candidates = [os.path.join(here, "..", "build", "nimsieve"), os.path.join(here, "build", "nimsieve")]
    candidates += sorted(glob.glob(os.path.join(here, "..", "build*", "nimsieve")))
    for c in candidates:
        if os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    on_path = shutil.which("nimsieve")
    if on_path:
        return on_path
    raise FileNotFoundError("nimsieve not found: build it with tools/quickstart.sh, "
                            "or set NIMSIEVE=/path/to/nimsieve before starting Jupyter")


NIMSIEVE = find_nimsieve()
WORK = os.path.abspath(os.environ.get("NIMSIEVE_WORK", "nimsieve-out"))
# how WORK is written in what the notebooks print
WORK_SHOWN = "$NIMSIEVE_WORK" if "NIMSIEVE_WORK" in os.environ else "nimsieve-out"
os.makedirs(WORK, exist_ok=True)


def work(name):
    """The path of the file NAME in the work folder."""
    return os.path.join(WORK, name)


def shown(path):
    """PATH as printed: relative to the work folder when it lies in it."""
    path = str(path)
    return path.replace(WORK + os.sep, WORK_SHOWN + "/") if path.startswith(WORK + os.sep) else path


def about():
    """Print which Python, libraries and nimsieve the notebook runs with."""
    print("python:", sys.executable)
    print("numpy", np.__version__, "| h5py", h5py.__version__, "| matplotlib", matplotlib.__version__)
    version = subprocess.run([NIMSIEVE, "--version"], capture_output=True, text=True).stdout.strip()
    print("nimsieve:", version or "(no --version)")
    print("files in:", WORK_SHOWN)


# Lines of nimsieve's output that change from run to run (left out by tidy()).
_VOLATILE_LINES = ("timing:", "created:")
# " in 0.13 s" after a figure's name in `plot` (left out by tidy()).
_RUN_TIME = re.compile(r" in [0-9]+(\.[0-9]+)? s\b")


def tidy(text):
    """TEXT with the work folder written as WORK_SHOWN, without run times
    (" in 0.13 s") and without the lines 'timing:' and 'created:' of `info`."""
    text = text.replace(WORK + os.sep, WORK_SHOWN + "/")
    lines = [_RUN_TIME.sub("", line) for line in text.splitlines()
             if not line.lstrip().startswith(_VOLATILE_LINES)]
    return "\n".join(lines) + ("\n" if text.endswith("\n") else "")


def nimsieve(*args, ok=(0,), raw=False):
    """Run nimsieve with these arguments (no shell) and return its stdout, tidied
    by tidy() unless raw=True. Raise when the exit status is not in ok."""
    r = subprocess.run([NIMSIEVE, *map(str, args)], capture_output=True, text=True)
    if r.returncode not in ok:
        raise RuntimeError(f"nimsieve {' '.join(map(str, args))} exited with {r.returncode}: {r.stderr.strip()}")
    return r.stdout if raw else tidy(r.stdout)


def load(path):
    """The Grundy table (or P/N flags), the P-positions and the root attributes of a table file."""
    with h5py.File(path, "r") as f:
        table = f["grundy"][...] if "grundy" in f else f["pn"][...]
        ppos = f["p_positions"][...]
        attrs = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in f.attrs.items()}
    return table, ppos, attrs


def patterns(path):
    """`nimsieve patterns --json FILE`, parsed; None (with the reason printed) when the
    command fails, so that the rest of the notebook still runs."""
    r = subprocess.run([NIMSIEVE, "patterns", "--json", path], capture_output=True, text=True)
    if r.returncode not in (0, 1):
        print(f"nimsieve patterns --json: exit {r.returncode}: {r.stderr.strip()}")
        return None
    return json.loads(r.stdout)


def fit_line(x, y):
    """Least squares y = slope x + intercept. Returns (slope, its standard error,
    intercept, relative scatter): the scatter is the root mean square of the
    residuals divided by the mean of y, a few per mille for points on one line."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    (slope, intercept), cov = np.polyfit(x, y, 1, cov=True)
    resid = y - (slope * x + intercept)
    return float(slope), float(np.sqrt(cov[0, 0])), float(intercept), float(np.sqrt(np.mean(resid ** 2)) / np.mean(y))
