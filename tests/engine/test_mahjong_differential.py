"""Agari and shanten agree with the `mahjong` package on 20,000 random 14-tile hands."""
import random

import pytest

mahjong = pytest.importorskip("mahjong", reason="the mahjong package is a test-only dependency ([dev])")
from mahjong.agari import Agari  # noqa: E402
from mahjong.shanten import Shanten  # noqa: E402

from engine import tiles as T  # noqa: E402
from engine.forms import SEVEN_PAIRS, STANDARD, THIRTEEN_ORPHANS, HandView  # noqa: E402

from handgen import random_complete_hand  # noqa: E402

N_HANDS = 20_000


def _hands(seed: int):
    """Half dealt from a shuffled wall, half complete hands with one tile sometimes swapped."""
    rng = random.Random(seed)
    wall = [k for k in T.STANDARD_KINDS for _ in range(4)]
    for n in range(N_HANDS):
        if n % 2 == 0:
            rng.shuffle(wall)
            yield wall[:14]
        else:
            hand = random_complete_hand(rng, 4)
            if rng.random() < 0.5:
                i = rng.randrange(14)
                new = rng.choice(T.STANDARD_KINDS)
                if hand.count(new) < 4:
                    hand[i] = new
            if n % 10 == 1:  # some seven pairs and orphans shapes too
                pairs = rng.sample(T.STANDARD_KINDS, 7)
                hand = [k for k in pairs for _ in range(2)]
            yield hand


def test_agari_and_shanten_agree_with_mahjong_package():
    forms = (STANDARD, SEVEN_PAIRS, THIRTEEN_ORPHANS)  # the riichi variant's forms
    agari = Agari()
    shanten = Shanten()
    mismatches = []
    complete = 0
    for hand in _hands(20261122):
        counts = T.counts(hand)[:34]
        view = HandView(counts, 0, None, (), 4)
        ours_agari = any(f.complete(view) for f in forms)
        ours_shanten = min(f.shanten(view) for f in forms)
        theirs_agari = agari.is_agari(counts)
        theirs_shanten = shanten.calculate_shanten(counts)
        complete += ours_agari
        if ours_agari != theirs_agari or ours_shanten != theirs_shanten:
            mismatches.append((T.format_tiles(hand), ours_agari, theirs_agari, ours_shanten, theirs_shanten))
    assert not mismatches, mismatches[:10]
    assert complete > 3000  # the sample really exercises complete hands
