"""Decomposition of concealed tiles into sets and a pair, with wild tiles.

The 34 standard kinds fall into four independent blocks (m, p, s and honors).
Each block's tile pattern is decomposed on its own, recording for every way of
splitting it how many wild tiles it used and whether it holds the pair; these
per-block tables are cached, because the same patterns recur across hands (the
same idea as the lookup tables of fast riichi calculators). A hand is then the
product of its blocks' tables, with leftover wilds forming wild-only groups.

Wild tiles only ever fill positions of groups that hold at least one natural
tile, or form wild-only sets and pairs. A wild filling a position of its own
kind is a wild "used at face value"; the reading records both.

Groups inside this module are tuples ``(kind, start_index, wild_mask)`` with
``kind`` one of ``"C"`` chow, ``"P"`` pung, ``"D"`` pair (d for duo), ``"S"``
wild-only set, ``"W"`` wild-only pair; bit ``k`` of ``wild_mask`` says position
``k`` is held by a wild.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import product

MAX_WILDS = 8  # more wilds than any variant has

BLOCKS = ((0, 9, True), (9, 18, True), (18, 27, True), (27, 34, False))  # start, end, chows allowed


def _block_walk(counts: list[int], chows: bool, max_wild: int, w_used: int, pair: int,
                acc: list, out: set) -> None:
    i = 0
    n = len(counts)
    while i < n and counts[i] == 0:
        i += 1
    if i == n:
        out.add((w_used, pair, tuple(sorted(acc))))
        return
    c = counts[i]
    # pung of i with k naturals
    for k in range(min(c, 3), 0, -1):
        need = 3 - k
        if w_used + need <= max_wild:
            counts[i] -= k
            acc.append(("P", i, (1 << need) - 1 << k if need else 0))
            _block_walk(counts, chows, max_wild, w_used + need, pair, acc, out)
            acc.pop()
            counts[i] += k
    # pair of i
    if not pair:
        for k in range(min(c, 2), 0, -1):
            need = 2 - k
            if w_used + need <= max_wild:
                counts[i] -= k
                acc.append(("D", i, 0b10 if need else 0))
                _block_walk(counts, chows, max_wild, w_used + need, 1, acc, out)
                acc.pop()
                counts[i] += k
    if not chows:
        return
    # chows holding i as their lowest natural tile
    for start in (i - 2, i - 1, i):
        if start < 0 or start + 2 >= n:
            continue
        counts[i] -= 1
        _chow_fill(counts, chows, max_wild, w_used, pair, acc, out, start, i, start, 0)
        counts[i] += 1


def _chow_fill(counts, chows, max_wild, w_used, pair, acc, out, start, i, pos, mask):
    """Choose natural or wild for each position of a chow starting at ``start``."""
    if pos == start + 3:
        acc.append(("C", start, mask))
        _block_walk(counts, chows, max_wild, w_used, pair, acc, out)
        acc.pop()
        return
    bit = 1 << (pos - start)
    if pos == i:
        _chow_fill(counts, chows, max_wild, w_used, pair, acc, out, start, i, pos + 1, mask)
        return
    if pos > i and counts[pos] > 0:
        counts[pos] -= 1
        _chow_fill(counts, chows, max_wild, w_used, pair, acc, out, start, i, pos + 1, mask)
        counts[pos] += 1
    if w_used < max_wild:
        _chow_fill(counts, chows, max_wild, w_used + 1, pair, acc, out, start, i, pos + 1, mask | bit)


@lru_cache(maxsize=1 << 16)
def block_table(pattern: tuple[int, ...], chows: bool, max_wild: int) -> dict:
    """All complete splittings of one block: ``{(wilds_used, has_pair): (groups, ...)}``.

    Group start indices are local to the block.
    """
    found: set = set()
    _block_walk(list(pattern), chows, max_wild, 0, 0, [], found)
    table: dict = {}
    for w, p, groups in sorted(found):
        table.setdefault((w, p), []).append(groups)
    return {k: tuple(v) for k, v in table.items()}


def decompositions(counts34: list[int], n_wild: int, n_sets: int) -> list[tuple]:
    """Every way to split the natural tiles plus ``n_wild`` wilds into ``n_sets`` sets and a pair.

    ``counts34`` counts natural tiles by standard kind index (0..33). Returns a
    list of tuples of groups ``(kind, global_index, wild_mask)``; empty when the
    tiles do not form ``n_sets`` sets and a pair.
    """
    natural = sum(counts34)
    if natural + n_wild != 3 * n_sets + 2:
        return []
    tables = []
    for start, end, chows in BLOCKS:
        pattern = tuple(counts34[start:end])
        if not any(pattern):
            tables.append((start, {(0, 0): ((),)}))
            continue
        if sum(pattern) % 3 == 1 and n_wild == 0:
            return []  # a block of 3k+1 naturals can't split without wilds
        t = block_table(pattern, chows, min(n_wild, MAX_WILDS))
        if not t:
            return []
        tables.append((start, t))
    results = []
    for keys in product(*(t.keys() for _, t in tables)):
        used = sum(k[0] for k in keys)
        pairs = sum(k[1] for k in keys)
        if used > n_wild or pairs > 1:
            continue
        left = n_wild - used
        extra: list = []
        if pairs == 0:
            if left < 2 or (left - 2) % 3:
                continue
            extra.append(("W", -1, 0b11))
            left -= 2
        elif left % 3:
            continue
        extra.extend([("S", -1, 0b111)] * (left // 3))
        per_block = [tables[b][1][k] for b, k in enumerate(keys)]
        for choice in product(*per_block):
            groups = list(extra)
            for (start, _), part in zip(tables, choice):
                groups.extend((kind, start + idx, mask) for kind, idx, mask in part)
            results.append(tuple(groups))
    return results


def is_complete(counts34: list[int], n_wild: int, n_sets: int) -> bool:
    """Whether the tiles form ``n_sets`` sets and a pair (fast check, no enumeration)."""
    natural = sum(counts34)
    if natural + n_wild != 3 * n_sets + 2:
        return False
    keys_per_block = []
    for start, end, chows in BLOCKS:
        pattern = tuple(counts34[start:end])
        if not any(pattern):
            keys_per_block.append(((0, 0),))
            continue
        if sum(pattern) % 3 == 1 and n_wild == 0:
            return False
        t = block_table(pattern, chows, min(n_wild, MAX_WILDS))
        if not t:
            return False
        keys_per_block.append(tuple(t.keys()))
    for keys in product(*keys_per_block):
        used = sum(k[0] for k in keys)
        pairs = sum(k[1] for k in keys)
        if used > n_wild or pairs > 1:
            continue
        left = n_wild - used
        if pairs == 0 and left >= 2 and (left - 2) % 3 == 0:
            return True
        if pairs == 1 and left % 3 == 0:
            return True
    return False


def naive_decompositions(counts34: list[int], n_wild: int, n_sets: int) -> set:
    """Reference: substitute every tile kind for each wild, decompose without wilds.

    Used only by the benchmark and the tests, to check :func:`decompositions`.
    Returns the set of group multisets (as sorted tuples of ``(kind, index)``,
    wild positions forgotten), which is what naive substitution can tell.
    """
    out: set = set()

    def rec(k: int, low: int, c: list[int]) -> None:
        if k == n_wild:
            for d in decompositions(c, 0, n_sets):
                out.add(tuple(sorted((g[0], g[1]) for g in d)))
            return
        for t in range(low, 34):
            c[t] += 1
            rec(k + 1, t, c)
            c[t] -= 1

    rec(0, 0, list(counts34))
    return out
