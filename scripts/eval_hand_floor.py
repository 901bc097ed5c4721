#!/usr/bin/env python3
"""A variant of a weight file whose hand values never fall below the board's: every n-th
piece in hand (n >= 2) is worth at least the piece's material value on the board. Used as
the second engine of the self-play that `sashite learn fit` learned from (two slightly
different evaluations make the two games of an opening differ).
Usage: eval_hand_floor.py IN.eval OUT.eval"""
import sys

HAND_LIMITS = [18, 4, 4, 4, 2, 2, 4]  # pawn lance knight silver bishop rook gold


def main(src, dst):
    out, material, section, row = [], None, None, 0
    for line in open(src).read().split("\n"):
        words = line.split()
        if line.startswith("section "):
            section = words[1]
        elif words and not line.startswith("#") and section == "material":
            material = [float(v) for v in words]
        elif words and not line.startswith("#") and section == "hand":
            values = [float(v) for v in words]
            for n in range(1, HAND_LIMITS[row]):
                values[n] = max(values[n], material[row])
            line = " ".join(repr(v) for v in values)
            row += 1
        out.append(line)
    open(dst, "w").write("\n".join(out))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
