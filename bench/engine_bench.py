"""Engine benchmark: full decomposition of random complete 17-tile hands with 0-3 wilds.

Prints the median time per hand for our decomposition and for naive
substitution (try every tile kind for each wild, then decompose without wilds),
measured in the same run, and their ratio. Run: ``.venv/bin/python bench/engine_bench.py``.
Two figures are given for ours: with the per-block tables warm (steady state in
a running server) and cold (tables cleared before every hand).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "engine"))

from engine import tiles as T  # noqa: E402
from engine.decompose import block_table, decompositions, naive_decompositions  # noqa: E402
from handgen import random_complete_hand  # noqa: E402


def hands_with_wilds(n: int, n_wild: int, seed: int):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        hand = random_complete_hand(rng, 5)
        for i in sorted(rng.sample(range(len(hand)), n_wild), reverse=True):
            del hand[i]
        out.append(T.counts(hand)[:34])
    return out


def median_us(fn, cases, clear=False) -> float:
    times = []
    for c in cases:
        if clear:
            block_table.cache_clear()
        t0 = time.perf_counter()
        fn(c)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=400)
    ap.add_argument("--naive-hands", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--riichi-hands", type=int, default=2000)
    args = ap.parse_args()
    print(f"# full decomposition of random complete 17-tile hands (5 sets + pair), python {sys.version.split()[0]}")
    print("| wilds | ours warm (µs) | ours cold (µs) | naive (µs) | naive / ours warm | naive / ours cold |")
    print("|---|---|---|---|---|---|")
    for n_wild in range(4):
        cases = hands_with_wilds(args.hands, n_wild, args.seed + n_wild)
        for c in cases:  # warm the tables once
            decompositions(c, n_wild, 5)
        warm = median_us(lambda c: decompositions(c, n_wild, 5), cases)
        cold = median_us(lambda c: decompositions(c, n_wild, 5), cases[: args.naive_hands], clear=True)
        naive = median_us(lambda c: naive_decompositions(c, n_wild, 5), cases[: args.naive_hands])
        print(f"| {n_wild} | {warm:.1f} | {cold:.1f} | {naive:.1f} | {naive / warm:.0f}× | {naive / cold:.1f}× |")
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from riichi_bench import riichi_section  # the riichi section: ours against the mahjong package

    print()
    print(riichi_section(hands=args.riichi_hands))

if __name__ == "__main__":
    main()
