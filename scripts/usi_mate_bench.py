#!/usr/bin/env python3
"""Times `go mate` of any USI engine over a problem file (one SFEN a line, `#` comments, as
`sashite mate` reads): per problem the answer (mate plies, nomate, timeout), the time the
engine took, and the totals, so that our solver and a reference one are measured in one run.

    scripts/usi_mate_bench.py FILE [--time-ms MS] [--hash-mb MB] [--option NAME=VALUE ...]
                              -- ENGINE [ARGS...]

Example: scripts/usi_mate_bench.py tests/data/mate/nomate_nogare17.sfen --hash-mb 1024
         -- build/sashite usi
"""
import argparse
import subprocess
import sys
import time


def problems(path):
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if line.startswith("sfen "):
                line = line[5:].strip()
            if line:
                yield number, line


class Engine:
    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix):
        """The first line starting with prefix; None when the engine ends first."""
        for line in self.proc.stdout:
            line = line.strip()
            if line.startswith(prefix):
                return line
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--time-ms", type=int, default=60000,
                        help="go mate's time per problem (default: 60000)")
    parser.add_argument("--hash-mb", type=int, default=0,
                        help="USI_Hash in MiB (default: the engine's own)")
    parser.add_argument("--option", action="append", default=[],
                        help="setoption NAME=VALUE (repeatable)")
    argv = sys.argv[1:]
    if "--" not in argv or argv.index("--") == len(argv) - 1:
        parser.error("no engine command after --")
    split = argv.index("--")
    args = parser.parse_args(argv[:split])
    command = argv[split + 1:]
    def start():
        engine = Engine(command)
        engine.send("usi")
        if engine.wait_for("usiok") is None:
            sys.exit("usi_mate_bench: the engine ended before usiok")
        options = list(args.option)
        if args.hash_mb:
            options.append(f"USI_Hash={args.hash_mb}")
        for option in options:
            name, _, value = option.partition("=")
            engine.send(f"setoption name {name} value {value}")
        engine.send("isready")
        if engine.wait_for("readyok") is None:
            sys.exit("usi_mate_bench: the engine ended before readyok")
        return engine

    def solve(engine, sfen):
        engine.send("usinewgame")
        engine.send("position startpos" if sfen == "startpos" else f"position sfen {sfen}")
        start_time = time.monotonic()
        engine.send(f"go mate {args.time_ms}")
        answer = engine.wait_for("checkmate")
        return answer, time.monotonic() - start_time

    engine = start()
    counts = {"mate": 0, "nomate": 0, "timeout": 0, "crash": 0}
    total = 0.0
    for number, sfen in problems(args.file):
        answer, seconds = solve(engine, sfen)
        if answer is None:
            # The engine died: once more on a fresh one, and counted as a crash if it dies again.
            print(f"line {number}\tthe engine ended without an answer; trying a fresh one",
                  flush=True)
            engine = start()
            answer, seconds = solve(engine, sfen)
            if answer is None:
                counts["crash"] += 1
                print(f"line {number}\t-\tcrash", flush=True)
                engine = start()
                continue
        words = answer.split()[1:]
        if words in (["nomate"], ["timeout"], ["notimplemented"]):
            kind, shown = words[0], words[0]
        else:
            kind, shown = "mate", f"mate {len(words)} plies: {' '.join(words)}"
        counts[kind if kind in counts else "timeout"] += 1
        total += seconds
        print(f"line {number}\t{seconds:.3f} s\t{shown}", flush=True)
    engine.send("quit")
    engine.proc.wait(timeout=30)
    print(f"total mate {counts['mate']} nomate {counts['nomate']} timeout {counts['timeout']} "
          f"crash {counts['crash']} time {total:.2f} s")


if __name__ == "__main__":
    main()
