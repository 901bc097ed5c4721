#!/usr/bin/env python3
"""Reference LLR of the pentanomial GSPRT (logistic Elo), computed apart from tools/match/sprt.cpp.

For each hypothesis score s it finds the constrained maximum-likelihood pair distribution p
(sum p = 1, sum p_k a_k = s, a_k = k/4) by plain bisection on the Lagrange multiplier in
60-digit decimal arithmetic, then checks the optimality (KKT) conditions directly: the
gradient q_k / p_k must be an affine function of a_k, i.e. q_k / p_k = 1 + x (a_k - s).
Empty bins count 1e-3 pair. Prints the LLR with 12 decimals, for tests/sprt_test.cpp.

  scripts/sprt_reference.py ELO0 ELO1 LL LD DD WD WW
"""
import sys
from decimal import Decimal, getcontext

getcontext().prec = 60


def score(elo):
    return Decimal(1) / (Decimal(1) + Decimal(10) ** (-Decimal(elo) / Decimal(400)))


def mle(q, s):
    a = [Decimal(k) / 4 for k in range(5)]
    b = [ak - s for ak in a]
    lo = -1 / max(b)
    hi = -1 / min(b)

    def f(x):
        return sum(qk * bk / (1 + x * bk) for qk, bk in zip(q, b))

    for _ in range(400):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    x = (lo + hi) / 2
    p = [qk / (1 + x * bk) for qk, bk in zip(q, b)]
    assert abs(sum(p) - 1) < Decimal("1e-40"), sum(p)
    assert abs(sum(pk * ak for pk, ak in zip(p, a)) - s) < Decimal("1e-40")
    for qk, pk, bk in zip(q, p, b):  # KKT: q/p = 1 + x b
        assert abs(qk / pk - (1 + x * bk)) < Decimal("1e-40")
    return p


def llr(elo0, elo1, counts):
    c = [Decimal(n) if n > 0 else Decimal("0.001") for n in counts]
    n = sum(c)
    q = [ck / n for ck in c]
    p0 = mle(q, score(elo0))
    p1 = mle(q, score(elo1))
    return n * sum(qk * ((p1k / p0k).ln()) for qk, p0k, p1k in zip(q, p0, p1))


if __name__ == "__main__":
    elo0, elo1 = sys.argv[1], sys.argv[2]
    counts = [int(v) for v in sys.argv[3:8]]
    print(f"{llr(elo0, elo1, counts):.12f}")
