#!/usr/bin/env python3
"""Openings for `sashite match --openings` from CSA records: the first N plies of each record
that starts from the initial position (PI, no handicap), distinct prefixes only, as
"startpos moves ..." lines. Usage: openings_from_records.py N MAX DIR... > file"""
import glob, os, sys

PROMOTED = {"TO": "FU", "NY": "KY", "NK": "KE", "NG": "GI", "UM": "KA", "RY": "HI"}
DROP_LETTER = {"FU": "P", "KY": "L", "KE": "N", "GI": "S", "KI": "G", "KA": "B", "HI": "R"}


def initial_board():
    board = {}
    back = ["KY", "KE", "GI", "KI", "OU", "KI", "GI", "KE", "KY"]
    for f in range(1, 10):
        board[(f, 1)] = back[9 - f]
        board[(f, 9)] = back[9 - f]
        board[(f, 3)] = "FU"
        board[(f, 7)] = "FU"
    board[(8, 2)] = "HI"; board[(2, 2)] = "KA"
    board[(2, 8)] = "HI"; board[(8, 8)] = "KA"
    return board


def usi_square(f, r):
    return f"{f}{chr(ord('a') + r - 1)}"


def moves_of(path, plies=None):
    """The first `plies` moves of a record from the initial position (all of them when plies
    is None) as USI moves; None for a handicap or set-up record, or one too short."""
    text = open(path, encoding="utf-8-sig", errors="replace").read().splitlines()
    if "PI" not in [l.strip() for l in text] or any(l.startswith("P1") for l in text):
        return None
    board, out = initial_board(), []
    for line in text:
        line = line.strip()
        if len(line) < 7 or line[0] not in "+-" or not line[1:5].isdigit():
            continue
        ff, fr, tf, tr, piece = int(line[1]), int(line[2]), int(line[3]), int(line[4]), line[5:7]
        if ff == 0:
            out.append(f"{DROP_LETTER[piece]}*{usi_square(tf, tr)}")
        else:
            before = board.pop((ff, fr), None)
            if before is None:
                return None
            promote = before != piece and PROMOTED.get(piece) == before
            out.append(usi_square(ff, fr) + usi_square(tf, tr) + ("+" if promote else ""))
        board[(tf, tr)] = piece
        if len(out) == plies:
            return out
    return out if plies is None else None


def main():
    plies, limit, dirs = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    seen, lines = set(), []
    for d in dirs:
        for path in sorted(glob.glob(os.path.join(d, "**", "*.csa"), recursive=True)):
            m = moves_of(path, plies)
            if m and tuple(m) not in seen:
                seen.add(tuple(m))
                lines.append("startpos moves " + " ".join(m))
    for l in lines[:limit]:
        print(l)


if __name__ == "__main__":
    main()
