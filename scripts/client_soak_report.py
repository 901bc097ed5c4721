#!/usr/bin/env python3
"""Summarise a client soak (scripts/client_soak.sh): per game and in all, the server's result,
time losses, illegal moves, warnings and errors in both clients' logs, whether both record
formats of both clients hold the server's moves, the ponder hits and the score of client A.

    scripts/client_soak_report.py SOAK_DIR [--sashite build/sashite]
"""
import argparse
import glob
import math
import os
import re
import subprocess
import sys
import tempfile

MOVE = re.compile(r"^[+-]\d{4}[A-Z]{2}")
LOG_PROBLEM = re.compile(r"^\S+ \S+ (warning|error|critical) ")


def csa_moves(path):
    """The moves of a CSA record and its last special line (%TORYO, %TIME_UP, ...)."""
    moves, special = [], ""
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            for part in line.strip().split(","):
                if MOVE.match(part):
                    moves.append(part[:7])
                elif part.startswith("%"):
                    special = part
    return moves, special


def kif_moves(path, sashite):
    """The moves of a KIF record, read back through `sashite records convert --to csa`."""
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run([sashite, "records", "convert", "--to", "csa", "--out", tmp, path],
                              capture_output=True, text=True)
        converted = glob.glob(os.path.join(tmp, "*.csa"))
        if done.returncode != 0 or not converted:
            return None
        return csa_moves(converted[0])[0]


def results_row(side_dir, game_id):
    """The results.txt row of this game (its Game_ID is the second column)."""
    rows = []
    path = os.path.join(side_dir, "records", "results.txt")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    rows = [row for row in rows if len(row) > 1 and row[1] == game_id]
    return rows[-1] if rows else None


def log_problems(side_dir):
    lines = []
    for path in sorted(glob.glob(os.path.join(side_dir, "logs", "*"))):
        with open(path, encoding="utf-8", errors="replace") as f:
            lines += [line.rstrip() for line in f if LOG_PROBLEM.match(line)]
    return lines


def score_interval(wins, draws, losses):
    n = wins + draws + losses
    if n == 0:
        return 0.0, 0.0
    score = (wins + 0.5 * draws) / n
    var = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / n
    return score, 1.96 * math.sqrt(var / n)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("soak_dir")
    parser.add_argument("--sashite", default="build/sashite")
    parser.add_argument("--show-problems", type=int, default=5,
                        help="log lines shown per game (default 5)")
    args = parser.parse_args()

    games = sorted(d for d in glob.glob(os.path.join(args.soak_dir, "g[0-9][0-9][0-9]"))
                   if os.path.exists(os.path.join(d, "done")))
    totals = {"games": 0, "time_up": 0, "illegal": 0, "problems": 0, "incomplete": 0,
              "w": 0, "d": 0, "l": 0, "plies": 0}
    ponder = {"a": [0, 0, 0], "b": [0, 0, 0]}  # hits, searches, ms before the hits
    print("game\tplies\tend\tA\tA ponder\tB ponder\trecords\tlog problems")
    for game in games:
        server = sorted(glob.glob(os.path.join(game, "server", "*.csa")))
        if len(server) != 1:
            # None: the game was not played; several: two soaks shared the folder.
            print(f"{os.path.basename(game)}\t-\t{len(server)} server records")
            totals["incomplete"] += 1
            continue
        game_id = os.path.basename(server[0])[:-len(".csa")]
        moves, special = csa_moves(server[0])
        totals["games"] += 1
        totals["plies"] += len(moves)
        totals["time_up"] += special == "%TIME_UP"
        totals["illegal"] += special == "%ILLEGAL_MOVE"
        complete = True
        cells = {}
        problems = []
        for side in ("a", "b"):
            side_dir = os.path.join(game, side)
            record = os.path.join(side_dir, "records", game_id + ".csa")
            kif = os.path.join(side_dir, "records", game_id + ".kifu")
            if not os.path.exists(record) or not os.path.exists(kif) \
                    or csa_moves(record)[0] != moves or kif_moves(kif, args.sashite) != moves:
                complete = False
            row = results_row(side_dir, game_id)
            cells[side] = row
            if row and len(row) >= 11:
                hits, searches = (int(x) for x in row[9].split("/"))
                ponder[side][0] += hits
                ponder[side][1] += searches
                ponder[side][2] += int(row[10])
            problems += [f"[{side}] {line}" for line in log_problems(side_dir)]
        totals["incomplete"] += not complete
        totals["problems"] += len(problems)
        outcome = cells["a"][5] if cells["a"] and len(cells["a"]) > 5 else "?"
        totals["w"] += outcome == "WIN"
        totals["d"] += outcome in ("DRAW", "CENSORED")  # CENSORED: Max_Moves reached, a draw
        totals["l"] += outcome == "LOSE"
        cell = lambda r: r[9] if r and len(r) > 9 else "-"
        print(f"{os.path.basename(game)}\t{len(moves)}\t{special}\t{outcome}\t{cell(cells['a'])}"
              f"\t{cell(cells['b'])}\t{'complete' if complete else 'INCOMPLETE'}\t{len(problems)}")
        for line in problems[:args.show_problems]:
            print(f"    {line}")
    n = totals["games"]
    print(f"\ngames {n}, plies {totals['plies'] / max(n, 1):.1f} a game; time losses "
          f"{totals['time_up']}, illegal moves {totals['illegal']}, log warnings/errors "
          f"{totals['problems']}, games with a record missing or short {totals['incomplete']}")
    for side in ("a", "b"):
        hits, searches, ms = ponder[side]
        rate = 100.0 * hits / searches if searches else 0.0
        per_hit = ms / 1000.0 / hits if hits else 0.0
        print(f"ponder {side.upper()}: {hits}/{searches} hits ({rate:.1f}%), {ms / 1000.0:.0f} s "
              f"pondered before the hits ({per_hit:.2f} s a hit, {ms / 1000.0 / max(n, 1):.1f} s a game)")
    score, margin = score_interval(totals["w"], totals["d"], totals["l"])
    print(f"A: +{totals['w']} ={totals['d']} -{totals['l']}, score {100 * score:.1f}% "
          f"+- {100 * margin:.1f} (95%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
