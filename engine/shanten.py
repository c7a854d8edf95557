"""Shanten (distance to ready) for the standard form, with wild tiles.

Shanten is the number of tile exchanges a hand needs to be ready (0) or, for a
hand holding its winning tile, -1 when it is complete. The standard formula is
``2n - 2·sets - partials - pair`` with ``sets + partials <= n``, maximised over
every way to read the tiles; each wild tile lowers it by one, down to -1.
Per-block results are cached, like the decomposition tables.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import product

from .decompose import BLOCKS


def _walk(c: list[int], i: int, chows: bool, m: int, t: int, p: int, out: set) -> None:
    n = len(c)
    while i < n and c[i] == 0:
        i += 1
    if i == n:
        out.add((m, t, p))
        return
    if c[i] >= 3:
        c[i] -= 3
        _walk(c, i, chows, m + 1, t, p, out)
        c[i] += 3
    if chows and i + 2 < n and c[i + 1] and c[i + 2]:
        c[i] -= 1; c[i + 1] -= 1; c[i + 2] -= 1
        _walk(c, i, chows, m + 1, t, p, out)
        c[i] += 1; c[i + 1] += 1; c[i + 2] += 1
    if c[i] >= 2:
        c[i] -= 2
        if not p:
            _walk(c, i, chows, m, t, 1, out)
        _walk(c, i, chows, m, t + 1, p, out)
        c[i] += 2
    if chows:
        for d in (1, 2):
            if i + d < n and c[i + d]:
                c[i] -= 1; c[i + d] -= 1
                _walk(c, i, chows, m, t + 1, p, out)
                c[i] += 1; c[i + d] += 1
    c[i] -= 1
    _walk(c, i, chows, m, t, p, out)
    c[i] += 1


@lru_cache(maxsize=1 << 16)
def _block_options(pattern: tuple[int, ...], chows: bool) -> tuple[tuple[int, int, int], ...]:
    found: set = set()
    _walk(list(pattern), 0, chows, 0, 0, 0, found)
    # keep the Pareto front: no option dominated in (m, t, p)
    front = [o for o in found
             if not any(q != o and q[0] >= o[0] and q[1] >= o[1] and q[2] >= o[2] for q in found)]
    return tuple(sorted(front))


def standard_shanten(counts34: list[int], n_wild: int, n_sets: int) -> int:
    """Shanten of the natural tiles ``counts34`` plus ``n_wild`` wilds, needing ``n_sets`` sets."""
    options = []
    for start, end, chows in BLOCKS:
        pattern = tuple(counts34[start:end])
        options.append(_block_options(pattern, chows) if any(pattern) else ((0, 0, 0),))
    best = 2 * n_sets
    for combo in product(*options):
        m = sum(o[0] for o in combo)
        t = sum(o[1] for o in combo)
        p = 1 if any(o[2] for o in combo) else 0
        if m > n_sets:
            t, m = 0, n_sets
        t = min(t, n_sets - m)
        best = min(best, 2 * n_sets - 2 * m - t - p)
    total = sum(counts34) + n_wild
    floor = -1 if total % 3 == 2 else 0
    return max(floor, best - n_wild)
