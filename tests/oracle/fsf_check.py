#!/usr/bin/env python3
"""Compares zogkit's legal moves with Fairy-Stockfish's (pyffish), position by position.

Reads one JSON object on standard input:
  {"variant": NAME, "ini": PATH or null, "ini_text": TEXT or null, "fen": FEN or null,
   "stop_at_end": bool, "castling_piece": LETTER or null,
   "nodes": [{"path": [UCI, ...], "moves": [UCI, ...]}, ...]}
where every path is a list of zogkit moves from the start (UCI without promotion or flip
suffixes) and "moves" lists zogkit's legal moves there. For each node it replays the path in
pyffish (each zogkit move must name exactly one Fairy-Stockfish move once suffixes are
stripped), asks pyffish for the legal moves and compares the two multisets. "ini_text" is a
variants.ini given inline. With "castling_piece", moves of that piece (either colour) that
change its file by two or more, that is castling, are left out of pyffish's lists (a rule the
caller knows to differ and leaves out of its own lists too).
Prints {"nodes": N, "mismatches": [...], "fsf_leaves": total number of pyffish moves at the
deepest nodes given} as JSON. Exit status 0 when it ran (mismatches are data), 3 when pyffish
is missing.
"""
import json
import re
import sys

try:
    import pyffish as sf
except ImportError:
    print("pyffish is not installed (pip install pyffish)", file=sys.stderr)
    sys.exit(3)

SQUARES = re.compile(r"^([A-Z+]*@)?([a-z]+\d+)?([a-z]+\d+)")


def strip(uci):
    """from+to (or PIECE@to) without promotion or flip suffixes."""
    m = SQUARES.match(uci)
    if not m:
        return uci
    if m.group(1):
        return "@" + m.group(3)
    return (m.group(2) or "") + m.group(3)


def squares(fen):
    """Square name -> piece letter of a FEN's board."""
    out = {}
    rows = fen.split()[0].split("[")[0].split("/")
    for i, row in enumerate(rows):
        rank = len(rows) - i
        file = 0
        for n, c in re.findall(r"(\d+)|([A-Za-z])", row):
            if n:
                file += int(n)
            else:
                out[chr(ord("a") + file) + str(rank)] = c
                file += 1
    return out


def castles(board, move, letter):
    """A move of `letter`'s piece that changes its file by two or more."""
    m = re.match(r"^([a-z])(\d+)([a-z])(\d+)$", move)
    if not m:
        return False
    frm = m.group(1) + m.group(2)
    return (board.get(frm, "").lower() == letter
            and abs(ord(m.group(1)) - ord(m.group(3))) >= 2)


def main():
    job = json.load(sys.stdin)
    variant = job["variant"]
    if job.get("ini"):
        with open(job["ini"], encoding="utf-8") as f:
            sf.load_variant_config(f.read())
    if job.get("ini_text"):
        sf.load_variant_config(job["ini_text"])
    if variant not in sf.variants():
        print(f"variant {variant} did not load", file=sys.stderr)
        sys.exit(4)
    castler = (job.get("castling_piece") or "").lower()
    fen = job.get("fen") or sf.start_fen(variant)
    stop_at_end = job.get("stop_at_end", False)
    exact = {(): []}  # our path -> pyffish's exact moves along it

    def fsf_moves(path):
        if stop_at_end and sf.is_immediate_game_end(variant, fen, path)[0]:
            return []
        return sf.legal_moves(variant, fen, path)

    def resolve(path):
        key = tuple(path)
        if key in exact:
            return exact[key]
        prefix = resolve(path[:-1])
        if prefix is None:
            return None
        hits = [m for m in fsf_moves(prefix) if strip(m) == path[-1]]
        exact[key] = prefix + [hits[0]] if len(hits) == 1 else None
        return exact[key]

    mismatches = []
    deepest = max((len(n["path"]) for n in job["nodes"]), default=0)
    leaves = 0
    for node in job["nodes"]:
        fsf_path = resolve(node["path"])
        if fsf_path is None:
            mismatches.append({"path": node["path"], "error": "path not legal in Fairy-Stockfish"})
            continue
        listed = [strip(m) for m in fsf_moves(fsf_path)]
        if castler:
            board = squares(sf.get_fen(variant, fen, fsf_path))
            listed = [m for m in listed if not castles(board, m, castler)]
        theirs = sorted(listed)
        ours = sorted(node["moves"])
        if len(node["path"]) == deepest:
            leaves += len(theirs)
        if theirs != ours:
            only_ours = sorted(set(ours) - set(theirs))
            only_theirs = sorted(set(theirs) - set(ours))
            mismatches.append({"path": node["path"], "only_zogkit": only_ours,
                               "only_fsf": only_theirs, "zogkit": len(ours), "fsf": len(theirs)})
    json.dump({"nodes": len(job["nodes"]), "mismatches": mismatches[:20],
               "mismatch_count": len(mismatches), "fsf_leaves": leaves}, sys.stdout)


if __name__ == "__main__":
    main()
