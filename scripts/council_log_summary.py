#!/usr/bin/env python3
"""What a council's log says over a game or a match (`sashite council --log FILE`).

Usage: scripts/council_log_summary.py LOG...

Prints the decisions, the council's own cost (from the last member's answer to the council's,
median, 90th percentile and largest, in ms), how often every voter chose the same move, each
member's faults (late, crashed, illegal, not running) and restarts.
"""
import re
import statistics
import sys
from collections import Counter

DECIDED = re.compile(r"council: decided (\d+) ms after the go(?:, (\d+) ms after the last answer)?: (.*)$")
AGREED = re.compile(r" (\d+)/(\d+)[ ;(]")
MEMBER = re.compile(r"^(?:[^;]*); (.*)$")
RESTART = re.compile(r"\d ([^ :]+(?: [^ :]+)*): (?:starting it again|exited)")


def main(paths):
    overheads, decisions, unanimous = [], 0, 0
    faults, restarts = Counter(), Counter()
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = DECIDED.search(line)
                if m:
                    decisions += 1
                    if m.group(2) is not None:
                        overheads.append(int(m.group(2)))
                    vote = m.group(3)
                    a = AGREED.search(vote)
                    if a and a.group(1) == a.group(2):
                        unanimous += 1
                    members = MEMBER.match(vote)
                    for part in (members.group(1).split(", ") if members else []):
                        for fault in ("late", "crashed", "illegal", "not running"):
                            if part.endswith(" " + fault) or f" {fault} " in part:
                                faults[(part.split(" ")[0], fault)] += 1
                    continue
                if "starting it again" in line:
                    r = RESTART.search(line)
                    restarts[r.group(1) if r else "?"] += 1
    print(f"decisions {decisions}")
    if decisions:
        print(f"all voters agreed {unanimous} ({100.0 * unanimous / decisions:.1f}%)")
    if overheads:
        overheads.sort()
        p90 = overheads[min(len(overheads) - 1, int(0.9 * len(overheads)))]
        print(f"council's cost after the last answer: median {statistics.median(overheads):.1f} ms, "
              f"90% {p90} ms, max {overheads[-1]} ms")
    for (member, fault), n in sorted(faults.items()):
        print(f"{member} {fault} {n}")
    for member, n in sorted(restarts.items()):
        print(f"{member} restarted {n}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
