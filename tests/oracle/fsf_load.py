#!/usr/bin/env python3
"""Loads a written variants.ini into a fresh pyffish and checks every section it names.

Reads one JSON object on standard input:
  {"ini_text": TEXT, "sections": [{"name": NAME, "fen": FEN}, ...]}
Each named section must not be a built-in variant before loading (Fairy-Stockfish would refuse
it and keep its own rules), must be a variant after `load_variant_config`, and its `start_fen`
must be FEN. Prints {"problems": [TEXT, ...]} as JSON. Exit status 0 when it ran (problems are
data), 3 when pyffish is missing.
"""
import json
import sys

try:
    import pyffish as sf
except ImportError:
    print("pyffish is not installed (pip install pyffish)", file=sys.stderr)
    sys.exit(3)


def main():
    job = json.load(sys.stdin)
    built_in = set(sf.variants())
    problems = []
    for s in job["sections"]:
        if s["name"] in built_in:
            problems.append(f"[{s['name']}] is a built-in variant")
    sf.load_variant_config(job["ini_text"])
    loaded = set(sf.variants())
    for s in job["sections"]:
        name = s["name"]
        if name in built_in:
            continue
        if name not in loaded:
            problems.append(f"[{name}] did not load")
            continue
        fen = sf.start_fen(name)
        if fen != s["fen"]:
            problems.append(f"[{name}] starts at {fen}, not the written {s['fen']}")
    print(json.dumps({"problems": problems}))


if __name__ == "__main__":
    main()
