#!/usr/bin/env python3
"""How often each engine of a `sashite match` played the opening book's moves: every position
of the match's records after the opening and up to SFEN move MAX_PLY (40, BookMaxPly's
default), looked up with `sashite book query` (relation-number retrieval, its defaults). Per
engine: the positions, those the book suggests moves for, those where the engine played one of
them, and where it played the book's favourite. Compares an engine guided by the book with
one that is not (docs/search-parameters.md).
Usage: book_agreement.py MATCH_DIR BOOK_DIR [FIRST LAST [MAX_PLY]]
e.g.   book_agreement.py relation-vs-off build/book/default 1 40"""
import os, re, subprocess, sys

from openings_from_records import moves_of
from search_agreement import Engine

SASHITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "sashite")


def sfen_of(usi, moves):
    """The position after the moves, from `sashite usi`'s `d` command."""
    usi.send("position startpos moves " + " ".join(moves))
    usi.send("d")
    return " ".join(usi.wait_for("sfen ")[1:])


def book_moves(book, sfen):
    """The book's suggested moves with their weights, best first."""
    out = subprocess.run([SASHITE, "book", "query", "--book", book, "--sfen", sfen],
                         capture_output=True, text=True, check=True).stdout
    moves, in_moves = [], False
    for line in out.splitlines():
        if line.startswith("moves"):
            in_moves = True
        elif in_moves and line.startswith("  "):
            fields = line.split()
            moves.append((float(fields[2]), fields[0]))
    return [m for _, m in sorted(moves, key=lambda x: -x[0])]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    match_dir, book = sys.argv[1], sys.argv[2]
    rows = open(os.path.join(match_dir, "summary.tsv")).read().splitlines()[1:]
    first = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    last = int(sys.argv[4]) if len(sys.argv) > 4 else len(rows)
    max_ply = int(sys.argv[5]) if len(sys.argv) > 5 else 40
    black_engine = {int(r.split("\t")[0]): ("engine1" if "(engine1)" in r.split("\t")[1]
                                            else "engine2") for r in rows}
    usi, totals = Engine(f"'{SASHITE}' usi"), {}
    for game in range(first, last + 1):
        path = os.path.join(match_dir, f"g{game:04d}.csa")
        text = open(path, encoding="utf-8").read()
        found = re.search(r"^'opening: .*\((\d+) moves\)$", text, re.M)
        opening = int(found.group(1)) if found else 0
        moves = moves_of(path)
        for ply in range(opening, min(len(moves), max_ply)):
            engine = black_engine[game] if ply % 2 == 0 else (
                "engine2" if black_engine[game] == "engine1" else "engine1")
            suggested = book_moves(book, sfen_of(usi, moves[:ply]))
            t = totals.setdefault(engine, [0, 0, 0, 0])
            t[0] += 1
            if suggested:
                t[1] += 1
                t[2] += moves[ply] in suggested
                t[3] += moves[ply] == suggested[0]
    for engine, (positions, suggested, played, favourite) in sorted(totals.items()):
        print(f"{engine}: {positions} positions, the book suggests moves in {suggested}, "
              f"played one of them in {played}, the favourite in {favourite}")


if __name__ == "__main__":
    main()
