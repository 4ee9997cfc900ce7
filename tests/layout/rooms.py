#!/usr/bin/env python3
"""rooms.py - check the source tree's architecture (issue 13).

  rooms.py SRC_DIR [LIBRARY.a]

1. Every C file of src/ lives in one room: core game engine store analysis
   dist cli.
2. A room includes only the rooms below it (ALLOWED), naming them:
   #include "room/file.h".
3. Only store/ includes hdf5.h; only dist/ includes mpi.h, and store/
   only inside #ifdef NS_MPI (parallel HDF5 file access); only cli/ prints
   (printf, puts, stdout, stderr) or exits.
4. The quoted includes between files form no cycle.
5. With the library archive: the calls between its object files form no
   cycle, and no object calls into a room it may not include.
6. engine/: ns_engine.h is the only header (besides the internal
   ns_barrier.h, ns_seq_split3.h, ns_seq_group.h, ns_seq_mex.h, ns_seq_rc.h and
   ns_seq_pipe.h, which only engine/ and its tests include); every `const ns_engine` defined
   in a file of engine/ is listed in the table of ns_engine.c.
Prints one line per violation and exits 1 when there is any.
"""
import os
import re
import subprocess
import sys

ROOMS = ["core", "game", "engine", "store", "analysis", "dist", "cli"]
ALLOWED = {
    "core": {"core"},
    "game": {"core", "game"},
    "engine": {"core", "game", "engine"},
    "store": {"core", "game", "store"},
    "analysis": {"core", "game", "engine", "analysis"},
    # the ranks of an MPI job: drivers that share the analysis' and the
    # engines' work across ranks; never store/ (the CLI writes the files)
    "dist": {"core", "game", "engine", "analysis", "dist"},
    "cli": set(ROOMS),
}
PRINTS = re.compile(r"\b(printf|puts|fputs|putchar|exit|_Exit|abort|perror|stdout|stderr)\b")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def strip_comments_and_strings(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', text)


def under_ns_mpi(text, header):
    """Whether every #include <header> of text sits inside #ifdef NS_MPI /
    #if NS_MPI / #if defined(NS_MPI) (conditionals tracked by depth)."""
    stack = []
    for line in text.splitlines():
        m = re.match(r"\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b(.*)", line)
        if m:
            d, rest = m.group(1), m.group(2)
            if d in ("ifdef", "if"):
                stack.append(d != "ifndef" and "NS_MPI" in rest and "!" not in rest)
            elif d == "ifndef":
                stack.append(False)
            elif d in ("else", "elif") and stack:
                stack[-1] = False
            elif d == "endif" and stack:
                stack.pop()
            continue
        if re.match(r"\s*#\s*include\s*<" + re.escape(header) + ">", line) and not any(stack):
            return False
    return True


def find_cycle(graph):
    """A cycle of graph (dict node -> set of nodes) as a list, or None."""
    state = {}
    stack = []

    def visit(v):
        state[v] = 1
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if state.get(w) == 1:
                return stack[stack.index(w):] + [w]
            if w not in state:
                c = visit(w)
                if c:
                    return c
        stack.pop()
        state[v] = 2
        return None

    for v in sorted(graph):
        if v not in state:
            c = visit(v)
            if c:
                return c
    return None


def main():
    src = sys.argv[1]
    lib = sys.argv[2] if len(sys.argv) > 2 else None
    bad = []
    files = {}
    for dirpath, _, names in os.walk(src):
        for n in names:
            if n.endswith((".c", ".h", ".h.in")):
                rel = os.path.relpath(os.path.join(dirpath, n), src)
                files[rel] = open(os.path.join(dirpath, n), encoding="utf-8").read()
    graph = {}
    for rel, text in sorted(files.items()):
        parts = rel.split(os.sep)
        if len(parts) != 2 or parts[0] not in ROOMS:
            bad.append(f"{rel}: not in one of the rooms {', '.join(ROOMS)}")
            continue
        room = parts[0]
        graph.setdefault(rel, set())
        for kind, name in INCLUDE.findall(text):
            if kind == "<":
                if name == "hdf5.h" and room != "store":
                    bad.append(f"{rel}: includes hdf5.h (only store/ may)")
                if name == "mpi.h" and room not in ("dist", "store"):
                    bad.append(f"{rel}: includes mpi.h (only dist/ may, and store/ under NS_MPI)")
                if name == "mpi.h" and room == "store" and not under_ns_mpi(text, "mpi.h"):
                    bad.append(f"{rel}: includes mpi.h outside #ifdef NS_MPI (store/ may only under NS_MPI)")
                continue
            target = name.split("/")
            if len(target) != 2 or target[0] not in ROOMS:
                bad.append(f'{rel}: #include "{name}" does not name a room')
                continue
            if target[0] not in ALLOWED[room]:
                bad.append(f'{rel}: #include "{name}": {room}/ may not include {target[0]}/')
            if name in files:
                graph[rel].add(name)
        code = re.sub(r"format\s*\(\s*printf", "format(", strip_comments_and_strings(text))
        hit = PRINTS.search(code) if room != "cli" else None
        if hit:
            bad.append(f"{rel}: uses {hit.group(1)} (only cli/ prints or exits)")
    cyc = find_cycle(graph)
    if cyc:
        bad.append("include cycle: " + " -> ".join(cyc))

    # 6. one door to the engines
    headers = sorted(r for r in files if r.startswith("engine" + os.sep) and r.endswith(".h"))
    extra = [h for h in headers
             if h not in ("engine/ns_engine.h", "engine/ns_barrier.h", "engine/ns_seq_split3.h", "engine/ns_seq_group.h",
                          "engine/ns_seq_mex.h", "engine/ns_seq_rc.h", "engine/ns_seq_pipe.h")]
    if extra:
        bad.append("engine/: headers besides ns_engine.h (and the barrier): " + ", ".join(extra))
    table = files.get("engine/ns_engine.c", "")
    m = re.search(r"ns_engines\[\]\s*=\s*\{(.*?)\};", table, re.S)
    listed = set(re.findall(r"&(\w+)", m.group(1))) if m else set()
    if not m:
        bad.append("engine/ns_engine.c: no table ns_engines[]")
    for rel, text in files.items():
        if rel.startswith("engine" + os.sep):
            for name in re.findall(r"^const ns_engine (\w+)\s*=", text, re.M):
                if name not in listed:
                    bad.append(f"{rel}: engine {name} is not in the table of ns_engine.c")

    if lib:
        def nm(*args):
            return subprocess.run(["nm", "-A", *args, lib], capture_output=True, text=True, check=True).stdout
        defs = {}
        for line in nm("--defined-only").splitlines():
            p = line.split()
            if len(p) >= 3 and p[-2] in "TDRB":
                defs[p[-1]] = p[0].split(":")[1]
        room_of = {}
        for rel in files:
            room_of[os.path.basename(rel) + ".o"] = rel.split(os.sep)[0]
        calls = {}
        for line in nm("-u").splitlines():
            p = line.split()
            obj, sym = p[0].split(":")[1], p[-1]
            if sym in defs and defs[sym] != obj:
                calls.setdefault(obj, set()).add(defs[sym])
                a, b = room_of.get(obj), room_of.get(defs[sym])
                if a and b and b not in ALLOWED[a]:
                    bad.append(f"{obj} ({a}/) calls {sym} of {defs[sym]} ({b}/)")
        cyc = find_cycle(calls)
        if cyc:
            bad.append("call cycle between files: " + " -> ".join(cyc))
        if not defs:
            bad.append(f"{lib}: no symbols")

    for b in bad:
        print(b)
    print(f"rooms.py: {len(files)} files, {'ok' if not bad else str(len(bad)) + ' violations'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
