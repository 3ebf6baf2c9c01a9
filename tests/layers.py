#!/usr/bin/env python3
"""The analyzer's layering, checked from its #include lines.

analyzer/ holds one folder a layer; a layer may include only itself and the
layers below it (the order below, the same as analyzer/README.md draws), and
the folder graph may have no cycle. include/ (the public header) is the
vocabulary of the API: any layer may include it, and it includes nothing of
the analyzer. The analyzer's root holds only the layer folders, meson.build
and README.md.

Prints the folder graph (who includes whom, how many lines) and every
violation; exits 1 on any.
Usage: layers.py [SOURCE_ROOT]
"""
import collections
import os
import re
import sys

LAYERS = ["core", "catalog", "parser", "print", "functions", "eval", "rules/lib", "check", "rules", "resolver", "statements",
          "driver"]
PUBLIC = "include"
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def folder_of(rel):
    """The layer folder of a path relative to analyzer/ (longest match)."""
    best = None
    for layer in LAYERS + [PUBLIC]:
        if rel == layer or rel.startswith(layer + "/"):
            if best is None or len(layer) > len(best):
                best = layer
    return best


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    an = os.path.join(root, "analyzer")
    problems = []

    allowed_root = set(f.split("/")[0] for f in LAYERS + [PUBLIC]) | {"meson.build", "README.md"}
    for entry in sorted(os.listdir(an)):
        if entry not in allowed_root:
            problems.append(f"analyzer/{entry}: the analyzer's root holds only the layer folders, meson.build and README.md")

    sources = []
    for d, _, files in os.walk(an):
        for f in files:
            if f.endswith((".c", ".h", ".def")):
                sources.append(os.path.relpath(os.path.join(d, f), an))
    edges = collections.Counter()
    for src in sorted(sources):
        sf = folder_of(src)
        if sf is None:
            problems.append(f"analyzer/{src}: not in any layer folder")
            continue
        text = open(os.path.join(an, src), encoding="utf-8").read()
        for name in INCLUDE.findall(text):
            here = os.path.normpath(os.path.join(os.path.dirname(src), name))
            if os.path.exists(os.path.join(an, here)):
                tgt = here
            elif os.path.exists(os.path.join(an, name)):
                tgt = os.path.normpath(name)
            elif os.path.exists(os.path.join(an, PUBLIC, name)):
                tgt = os.path.join(PUBLIC, name)
            else:
                problems.append(f"analyzer/{src}: #include \"{name}\" is no file of the analyzer")
                continue
            tf = folder_of(tgt)
            if tf is None:
                problems.append(f"analyzer/{src}: #include \"{name}\" is outside the layers")
                continue
            if tf != sf:
                edges[(sf, tf)] += 1
            if sf == PUBLIC and tf != PUBLIC:
                problems.append(f"analyzer/{src}: the public header includes analyzer/{tgt}")
            elif tf != PUBLIC and sf != PUBLIC and LAYERS.index(tf) > LAYERS.index(sf):
                problems.append(f"analyzer/{src}: #include \"{name}\": layer {sf} includes {tf}, a layer above it")

    # cycles between folders (Tarjan's strongly connected components)
    graph = collections.defaultdict(set)
    for (a, b) in edges:
        graph[a].add(b)
    index, low, stack, on, sccs = {}, {}, [], set(), []

    def strong(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

    for v in list(graph):
        if v not in index:
            strong(v)
    for comp in sccs:
        problems.append("include cycle between folders: " + " <-> ".join(comp))

    print("layers (lowest first): " + " < ".join(LAYERS) + f"; {PUBLIC}/ usable by all")
    for layer in [PUBLIC] + LAYERS:
        uses = sorted(((t, n) for (s, t), n in edges.items() if s == layer), key=lambda x: ([PUBLIC] + LAYERS).index(x[0]))
        print(f"  {layer:<11} -> " + (", ".join(f"{t} ({n})" for t, n in uses) if uses else "(nothing)"))
    print(f"{len(sources)} files, {sum(edges.values())} cross-folder includes, {len(problems)} violation(s)")
    for p in problems:
        print("  VIOLATION " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
