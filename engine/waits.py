"""Waits and shanten for any variant."""
from __future__ import annotations

from collections import Counter

from . import tiles as T
from .hand import Hand
from .variant import Variant


def _held(hand: Hand) -> Counter:
    seen = Counter(hand.all_tiles())
    if hand.indicator:
        seen[hand.indicator] += 1
    return seen


def waits(variant: Variant, hand: Hand, concealed: tuple[str, ...] | None = None) -> list[str]:
    """Every tile kind that completes ``concealed`` (default: the hand's), in tile order.

    A kind whose every copy is already in the hand (or is the indicator) is left
    out: it cannot be drawn. The variant's wild tile is left out too where other
    tiles complete the hand: drawing a wild completes any ready hand, so listing it
    says nothing. Where only a wild does (three fei waiting on the fourth, 四飛; two
    caishen on the third; a wait whose tile is all in the hand), it is the wait.
    """
    tiles = tuple(hand.concealed if concealed is None else concealed)
    held = _held(hand)
    if concealed is not None:
        held.subtract(Counter(hand.concealed))
        held.update(Counter(tiles))
    wild = variant.wild_kind(hand)
    allowed = variant.tile_counts_rule(hand)
    out = []
    wild_drawable = False  # looked at last, only where no other tile completes the hand
    for kind in variant.drawable():
        if held[kind] >= allowed.get(kind, 0):
            continue
        if kind == wild:
            wild_drawable = True
            continue
        if variant.is_complete(variant.view(hand, tiles + (kind,), kind)):
            out.append(kind)
    if not out and wild_drawable and variant.is_complete(variant.view(hand, tiles + (wild,), wild)):
        out.append(wild)
    return sorted(out, key=T.sort_key)


def shanten(variant: Variant, hand: Hand, concealed: tuple[str, ...] | None = None) -> int:
    tiles = tuple(hand.concealed if concealed is None else concealed)
    return variant.shanten(variant.view(hand, tiles, None))


def discards(variant: Variant, hand: Hand) -> dict[str, list[str]]:
    """For a hand one tile over (3n+2, not claimed): each discard that leaves it ready, with its waits."""
    out: dict[str, list[str]] = {}
    for kind in sorted(set(hand.concealed), key=T.sort_key):
        if not variant.can_discard(hand, kind):
            continue
        rest = list(hand.concealed)
        rest.remove(kind)
        w = waits(variant, hand, tuple(rest))
        if w:
            out[kind] = w
    return out
