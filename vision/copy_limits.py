"""One photo shows one player's tiles from one physical set, so no kind can appear more often
than the set holds it: four of each suit and honour tile, four fei, one of each flower, animal
and face tile. When the classifier names more copies than that (two `4f`, five `3p`), the
readings it is least sure of are impossible as they stand; :func:`limit_copies` moves them to
their next likeliest kind (:func:`likely`) that still fits, choosing the moves that cost the least
probability. A tile with no such kind left among its likeliest keeps its reading (the player
fixes it on the phone; the engine reports the extra copy).
"""
from __future__ import annotations

from collections import Counter

from engine.tiles import BONUS_KINDS, FEI, STANDARD_KINDS

COPIES: dict[str, int] = {**{k: 4 for k in STANDARD_KINDS}, FEI: 4, **{k: 1 for k in BONUS_KINDS}}


def likely(t: dict) -> list:
    """A tile's likeliest kinds with their scores, its named kind first: its ``likely`` list where the
    classifier gave one (the table scan asks for six), else its ``top3``."""
    return t.get("likely") or t.get("top3", [])


def has_room(counts: Counter, kind: str, copies: dict[str, int] = COPIES) -> bool:
    """Can one more ``kind`` join tiles counted in ``counts``? Kinds not in ``copies``
    (``back``) are unlimited."""
    return counts[kind] < copies.get(kind, 1 << 30)


def move(t: dict, kind: str, score: float, because: str) -> None:
    """Re-read tile ``t`` as ``kind`` scored ``score``; its first reading and the first reason it
    was moved stay in ``"moved_from"`` and ``"moved_because"``."""
    t["moved_from"] = t.get("moved_from", t["tile"])
    t["moved_because"] = t.get("moved_because", because)
    t["tile"], t["confidence"] = kind, score


def limit_copies(tiles: list[dict], copies: dict[str, int] = COPIES) -> list[dict]:
    """Re-read tiles (dicts with ``tile``, ``confidence``, ``top3`` or ``likely``) so that no kind exceeds
    ``copies``; kinds not in ``copies`` (``back``) are unlimited. Returns the same list; a moved
    tile gets its new ``tile`` and that kind's score as ``confidence``, ``"moved_from"`` and
    ``"moved_because": "copies"``."""
    while True:
        counts = Counter(t["tile"] for t in tiles)
        over = {k for k, n in counts.items() if n > copies.get(k, n)}
        if not over:
            return tiles
        best = None  # (cost, tile, new kind, its score)
        for t in tiles:
            if t["tile"] not in over:
                continue
            for kind, score in likely(t):
                if kind != t["tile"] and has_room(counts, kind, copies):
                    cost = float(t["confidence"]) - float(score)
                    if best is None or cost < best[0]:
                        best = (cost, t, kind, float(score))
                    break  # only the likeliest kind that fits
        if best is None:
            return tiles  # nothing left to move to: keep the readings as they are
        _, t, kind, score = best
        move(t, kind, score, "copies")
