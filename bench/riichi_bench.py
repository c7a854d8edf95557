"""Riichi benchmark: our engine against the `mahjong` package on the same random winning hands.

Both score the same N random winning hands (closed and open, kongs, dora, ura,
riichi, tsumo... from ``tests/engine/test_riichi_differential.py``) in one run:

* ours, ``engine.score(request)``: the whole contract (parse + validate + every
  reading + yaku/fu/payments), from the JSON-shaped request;
* ours, scoring only: ``variant.readings`` + ``variant.score`` on an already
  validated hand;
* theirs, ``HandCalculator.estimate_hand_value`` with the 136-tile arrays, melds and
  config built beforehand (conversion not timed).

Run alone: ``.venv/bin/python bench/riichi_bench.py [--hands 2000] [--differential 5000]``;
``bench/engine_bench.py`` calls :func:`riichi_section`.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (str(ROOT), str(ROOT / "tests" / "engine")):
    if p not in sys.path:
        sys.path.insert(0, p)


def _time_all(fns: dict, repeat: int, chunk: int = 250) -> dict:
    """Total time of each scorer over its items, robust to a busy shared machine.

    The items are cut into chunks of ``chunk`` hands; every chunk is timed
    ``repeat`` times for each scorer, the scorers interleaved, and the best time
    of each chunk is kept. Load that comes and goes then slows the scorers alike.
    A chunk is larger than the mahjong package's 128-entry decomposition cache, so
    a repeat never finds its hands still cached (that would flatter it).
    """
    n = len(next(iter(fns.values()))[1])
    total = {name: 0.0 for name in fns}
    for lo in range(0, n, chunk):
        best = {name: float("inf") for name in fns}
        for _ in range(repeat):
            for name, (fn, items) in fns.items():
                part = items[lo:lo + chunk]
                t0 = time.perf_counter()
                for it in part:
                    fn(it)
                best[name] = min(best[name], time.perf_counter() - t0)
        for name in fns:
            total[name] += best[name]
    return total


def riichi_section(hands: int = 2000, seed: int = 2016, repeat: int = 5, differential: int = 0) -> str:
    """Markdown lines with the timings and the ratio; optionally runs the differential first."""
    try:
        from mahjong.hand_calculating.hand import HandCalculator
    except ImportError:
        return "# riichi: skipped (the mahjong package is not installed; it is a test-only dependency)"
    import test_riichi_differential as diff

    from engine import score
    from engine.contract import parse_request
    from engine.variants import get_variant

    lines = []
    if differential:
        t0 = time.perf_counter()
        tally = diff.run_differential(differential, seed)
        lines.append(f"# riichi differential: {differential} hands agree with the mahjong package "
                     f"({tally}) in {time.perf_counter() - t0:.1f} s")
    rng = random.Random(seed)
    requests = [diff.random_request(rng) for _ in range(hands)]
    args = [diff.reference_args(r) for r in requests]
    variant = get_variant("riichi")
    parsed = [parse_request(r, variant) for r in requests]

    def ours(req):
        score(req)

    def ours_scoring(hand):
        readings = variant.readings(hand)
        if readings:
            variant.score(hand, readings)

    def theirs(a):
        tiles, win, melds, dora, ura, config = a
        HandCalculator.estimate_hand_value(tiles, win, melds=melds or None, dora_indicators=dora or None,
                                           config=config, ura_dora_indicators=ura or None)

    best = _time_all({"ours": (ours, requests), "scoring": (ours_scoring, parsed), "theirs": (theirs, args)}, repeat)
    t_ours, t_scoring, t_theirs = best["ours"], best["scoring"], best["theirs"]
    per = lambda t: t / hands * 1e6  # noqa: E731
    lines += [
        f"# riichi: {hands} random winning hands (seed {seed}), best of {repeat} per 250-hand chunk, "
        f"python {sys.version.split()[0]}",
        "| scorer | total (s) | per hand (µs) | mahjong / this |",
        "|---|---|---|---|",
        f"| ours, engine.score (parse + validate + score) | {t_ours:.3f} | {per(t_ours):.0f} | "
        f"{t_theirs / t_ours:.2f} |",
        f"| ours, readings + score on a parsed hand | {t_scoring:.3f} | {per(t_scoring):.0f} | "
        f"{t_theirs / t_scoring:.2f} |",
        f"| mahjong {_version()} HandCalculator.estimate_hand_value | {t_theirs:.3f} | {per(t_theirs):.0f} | 1.00 |",
    ]
    return "\n".join(lines)


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("mahjong")
    except Exception:  # noqa: BLE001 - only a label
        return "?"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=2016)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--differential", type=int, default=0, help="also run the differential on this many hands")
    a = ap.parse_args()
    print(riichi_section(a.hands, a.seed, a.repeat, a.differential))


if __name__ == "__main__":
    main()
