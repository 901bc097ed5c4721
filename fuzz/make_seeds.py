#!/usr/bin/env python3
"""Writes the seed corpora of fuzz/corpus/ from tests/data (run from the repository root).

csa_line_fuzzer:    what one player of a transcript received (CR LF lines), and sent
csa_record_fuzzer:  a few record files, as they are
sfen_fuzzer:        positions of tests/data/*.sfen, some followed by the moves of a short game
csa_session_fuzzer: a transcript turned into the session fuzzer's script (driver lines "!!...")
"""
import os
import re
import shutil

DATA = "tests/data"
OUT = "fuzz/corpus"
TRANSCRIPTS = ["csa.txt", "x1.txt", "reject.txt", "kachi.txt", "illegal.txt", "timeup.txt"]
RECORDS = ["g000001.csa", "synthetic_illegal_last_move.csa", "utf8_WCSC28_L5_WDF_GIR.csa",
           "utf8_WCSC28_L1_762_KFW.csa"]
LINE_RE = re.compile(r"^\s*([0-9.]+) (\S+)\s+(>>|<<) ?(.*)$")


def transcript(name, player="alice"):
    """(seconds, arrow, text) for one player."""
    out = []
    with open(os.path.join(DATA, "csa-transcripts", name), encoding="utf-8") as f:
        for raw in f:
            m = LINE_RE.match(raw.rstrip("\n"))
            if not m or m.group(2) != player:
                continue
            text = m.group(4)
            if text == "[empty line]":
                text = ""
            out.append((float(m.group(1)), m.group(3), text))
    return out


def write(target, name, text):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "w", encoding="utf-8", newline="") as f:
        f.write(text)


def session_script(entries):
    out = []
    login = next(t for _, a, t in entries if a == ">>" and t.startswith("LOGIN "))
    out.append("!!L" + login)
    if any(a == ">>" and t.startswith("REJECT") for _, a, t in entries):
        out.append("!!F")
    game = next((t for _, a, t in entries if a == ">>" and t.startswith("%%GAME ")), None)
    if game:
        out.append("!!X" + game[len("%%GAME "):])
    last = 0.0
    for secs, arrow, text in entries:
        if secs - last >= 1.0:
            out.append("!!T%d" % int((secs - last) * 1000))
        last = secs
        if arrow == "<<":
            out.append("!!D" if text == "[connection closed by server]" else text)
        elif text.startswith(("+", "-")):
            move, _, comment = text.partition(",'")
            words = comment.split()
            out.append("!!M" + move + (" %d %s" % (int(words[1]) + 50000, " ".join(words[2:]))
                                       if len(words) >= 2 and words[0] == "*" else ""))
        elif text == "%TORYO":
            out.append("!!R")
        elif text == "%KACHI":
            out.append("!!W")
        elif text == "LOGOUT":
            out.append("!!Q")
        elif text == "%CHUDAN":
            out.append("!!QI")
        elif text.startswith("%%") and not text.startswith("%%GAME"):
            out.append("!!U" + text)
    return "\n".join(out) + "\n"


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    for name in TRANSCRIPTS:
        entries = transcript(name)
        stem = name[:-4]
        write("csa_line_fuzzer", stem + "_received.txt",
              "".join(t + "\r\n" for _, a, t in entries if a == "<<"))
        write("csa_session_fuzzer", stem + ".txt", session_script(entries))
    write("csa_line_fuzzer", "client_lines.txt",
          "".join(t + "\n" for n in TRANSCRIPTS for _, a, t in transcript(n) if a == ">>"))
    os.makedirs(os.path.join(OUT, "csa_record_fuzzer"), exist_ok=True)
    for name in RECORDS:
        shutil.copy(os.path.join(DATA, "records", name), os.path.join(OUT, "csa_record_fuzzer", name))
    sfens = []
    for name in ["evasion_cases.sfen", "checkgen_cases.sfen"]:
        with open(os.path.join(DATA, "mate", name), encoding="utf-8") as f:
            sfens += [l.split("#")[0].strip() for l in f if l.strip() and not l.startswith("#")]
    with open(os.path.join(DATA, "record_positions.sfen"), encoding="utf-8") as f:
        sfens += [next(f).strip() for _ in range(4)]
    for i, s in enumerate(sfens[:10]):
        write("sfen_fuzzer", "position_%02d.txt" % i, s + "\n")
    write("sfen_fuzzer", "startpos_game.txt",
          "startpos\n7g7f 3c3d 8h2b+ 3a2b B*4e 2b3c\n+2726FU -8384FU P*5e\n")
    write("sfen_fuzzer", "drops.txt", sfens[0] + "\nR*5e B*1a P*2b S*3c 9a9b\n")


if __name__ == "__main__":
    main()
