"""Philippine payments against an independent brute-force referee (philippine.ja.txt).

The referee tries every number tile for every joker ("トランプのジョーカーのようにオールマイティー")
and pays the best of the document's rules: 10 from the discarder or 10 from each on a self-draw,
Seven First / Escalera 10 from each, single joker 15 from each (the hand less the winning tile and
one joker is complete: "ジョーカーの単騎待ち"), no flores 15 from each. Seeded hands shaped like Seven
First or Escalera, with 0-3 jokers; the engine must pay the winner exactly the referee's best.
"""
import random
from collections import Counter
from itertools import combinations_with_replacement

from engine import score
from engine.errors import EngineError
from oracle_sets import only_sets
from engine.tiles import parse

NUM = [f"{n}{s}" for s in "mps" for n in range(1, 10)]
IDX = {k: i for i, k in enumerate(NUM)}


def _take(c, tiles):
    d = list(c)
    for t in tiles:
        d[t] -= 1
    return d if min(d) >= 0 else None


def _standard(c) -> bool:
    return any(c[i] >= 2 and only_sets(tuple(_take(c, [i, i]))) for i in range(27))


def _pairs_and_set(c) -> bool:
    """Pairs (alike allowed) and exactly one set."""
    for i in range(27):
        for g in ([i] * 3, [i, i + 1, i + 2] if i % 9 <= 6 else None):
            d = _take(c, g) if g else None
            if d is not None and all(v % 2 == 0 for v in d):
                return True
    return False


def _escalera(c) -> bool:
    for s in range(3):
        d = _take(c, [s * 9 + k for k in range(9)])
        if d is not None and _standard(d):
            return True
    return False


def referee(concealed: list[str], win: str, joker: str, self_drawn: bool, flores: bool) -> int | None:
    base = [0] * 27
    for t in concealed:
        if t != joker:
            base[IDX[t]] += 1
    n_joker = concealed.count(joker)
    # a joker only helps as a kind within 2 of a natural of its suit (pairs and pungs may be alike)
    near = sorted({j for i in range(27) if base[i] for j in range(i - 2, i + 3) if 0 <= j < 27 and j // 9 == i // 9})
    complete = special = False
    for kinds in combinations_with_replacement(near, n_joker):
        c = list(base)
        for k in kinds:
            c[k] += 1
        std = _standard(c)
        complete |= std or _pairs_and_set(c)
        special |= _pairs_and_set(c) or (std and _escalera(c))
    rest, left = list(base), n_joker - 1
    if win == joker:
        left -= 1
    else:
        rest[IDX[win]] -= 1
    single = False
    if left >= 0:
        for kinds in combinations_with_replacement(near, left):
            c = list(rest)
            for k in kinds:
                c[k] += 1
            if only_sets(tuple(c)) or _pairs_and_set(c):
                single = True
                break
    if not (complete or single):
        return None
    best = [30 if self_drawn else 10]
    best += [30] if special else []
    best += [45] if single or not flores else []
    return max(best)


def _hand(rng: random.Random, joker: str) -> list[str]:
    kinds = [k for k in NUM if k != joker]

    def a_set():
        k = rng.choice(kinds)
        n = int(k[0])
        return [k] * 3 if rng.random() < 0.5 or n > 7 else [k, f"{n + 1}{k[1]}", f"{n + 2}{k[1]}"]

    if rng.random() < 0.5:  # Seven First shape
        tiles = [t for _ in range(7) for t in [rng.choice(kinds)] * 2] + a_set()
    else:  # Escalera shape
        s = rng.choice("mps")
        tiles = [f"{n}{s}" for n in range(1, 10)] + a_set() + a_set() + [rng.choice(kinds)] * 2
    for _ in range(rng.randint(0, 3)):
        tiles[rng.randrange(len(tiles))] = joker
    return tiles


def test_engine_pays_what_the_brute_force_referee_pays():
    rng = random.Random(20261122)
    checked = 0
    while checked < 40:
        joker = rng.choice(NUM)
        tiles = _hand(rng, joker)
        counts = Counter(tiles)
        if counts[joker] > 3 or max(counts.values()) > 4:
            continue
        win = rng.choice(tiles)
        req = {"variant": "philippine", "concealed": "".join(tiles), "winning_tile": win, "winner": "S",
               "indicator": joker, "flowers": rng.choice(["1z", "1z", ""])}
        if rng.random() < 0.5:
            req["self_drawn"] = True
        else:
            req["discarder"] = "E"
        try:
            out = score(req)
        except EngineError:
            continue
        checked += 1
        expected = referee(parse(req["concealed"]), win, joker, "self_drawn" in req, bool(req["flowers"]))
        got = out["payments"]["S"] if out["winning"] else None
        assert got == expected, req
