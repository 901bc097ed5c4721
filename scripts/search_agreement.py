#!/usr/bin/env python3
"""How often a USI engine's search picks the record move: every position before every move
of the held-out records of DIR (those `sashite learn train --holdout-every EVERY` holds out:
the records in sorted path order, numbered from 0, whose number is EVERY-1 modulo EVERY),
records from the initial position only. Prints a running figure per record and the total.
Usage: search_agreement.py DIR "ENGINE COMMAND" "GO ARGUMENTS" [EVERY [NAME=VALUE...]]
e.g.   search_agreement.py records "build/sashite usi" "nodes 10000" 10 USI_OwnBook=false
Environment STEP=N takes every Nth position of each record only (slow engines)."""
import glob, os, subprocess, sys

from openings_from_records import moves_of


def held_out_records(root, every):
    paths = sorted(glob.glob(os.path.join(root, "**", "*.csa"), recursive=True),
                   key=lambda p: p.encode())
    return [p for i, p in enumerate(paths) if every > 0 and i % every == every - 1]


class Engine:
    def __init__(self, command):
        self.process = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait_for(self, prefix):
        while True:
            line = self.process.stdout.readline()
            if not line:
                sys.exit(f"search_agreement: the engine exited while we waited for '{prefix}'")
            if line.startswith(prefix):
                return line.split()


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    root, command, go = sys.argv[1], sys.argv[2], sys.argv[3]
    every = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    step = int(os.environ.get("STEP", "1"))
    engine = Engine(command)
    engine.send("usi")
    engine.wait_for("usiok")
    for option in sys.argv[5:]:
        name, value = option.split("=", 1)
        engine.send(f"setoption name {name} value {value}")
    engine.send("isready")
    engine.wait_for("readyok")
    engine.send("usinewgame")
    agree = total = 0
    for path in held_out_records(root, every):
        moves = moves_of(path)
        if moves is None:
            continue
        for ply in range(0, len(moves), step):
            engine.send("position startpos" + (" moves " + " ".join(moves[:ply]) if ply else ""))
            engine.send("go " + go)
            best = engine.wait_for("bestmove")[1]
            total += 1
            agree += best == moves[ply]
        if total:  # a record without moves before the first one that has some
            print(f"{os.path.basename(path)}: {agree}/{total} = {100 * agree / total:.2f}%",
                  flush=True)
    engine.send("quit")
    if total == 0:
        sys.exit("search_agreement: no held-out record from the initial position")
    print(f"agreement {agree}/{total} = {100 * agree / total:.2f}%")


if __name__ == "__main__":
    main()
