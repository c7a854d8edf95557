"""Property tests of decomposition and waits, with wild tiles."""
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import tiles as T
from engine.decompose import decompositions, is_complete, naive_decompositions

from handgen import random_complete_hand

SUITED = tuple(k for k in T.STANDARD_KINDS if T.is_number_tile(k))
PROP = settings(max_examples=150, deadline=None, derandomize=True)


def _with_jokers(seed: int, n_jokers: int):
    """A complete Philippine hand (5 sets + pair, suits only) with tiles swapped for the joker."""
    rng = random.Random(seed)
    hand = random_complete_hand(rng, 5, kinds=SUITED, max_copies=4)
    indicator = rng.choice([k for k in SUITED if hand.count(k) == 0])
    for i in rng.sample(range(len(hand)), n_jokers):
        hand[i] = indicator
    return hand, indicator, rng


@PROP
@given(st.integers(0, 10**9), st.integers(0, 3))
def test_sets_plus_pair_with_random_wilds_always_win(seed, n_jokers):
    hand, indicator, rng = _with_jokers(seed, n_jokers)
    win = rng.choice(hand)
    out = engine.score({"variant": "philippine", "concealed": T.format_tiles(hand), "indicator": indicator,
                        "winning_tile": win, "winner": "E", "self_drawn": True})
    assert out["winning"], out
    assert out["jokers"]["count"] == n_jokers
    assert len(out["jokers"]["uses"]) == n_jokers


@PROP
@given(st.integers(0, 10**9), st.integers(0, 3))
def test_fei_hands_win_for_any_wild_placement(seed, n_fei):
    rng = random.Random(seed)
    kinds = tuple(k for k in T.STANDARD_KINDS if k[1] in "pz")
    hand = random_complete_hand(rng, 4, kinds=kinds)
    for i in rng.sample(range(len(hand)), n_fei):
        hand[i] = "1j"
    counts = T.counts(hand)[:34]
    assert is_complete(counts, n_fei, 4)
    assert decompositions(counts, n_fei, 4)


@PROP
@given(st.integers(0, 10**9), st.integers(0, 2))
def test_removing_any_tile_leaves_a_hand_waiting_on_it(seed, n_jokers):
    hand, indicator, rng = _with_jokers(seed, n_jokers)
    removed = rng.choice(hand)
    rest = list(hand)
    rest.remove(removed)
    out = engine.score({"variant": "philippine", "concealed": T.format_tiles(rest), "indicator": indicator})
    assert out["shanten"] == 0
    if removed == indicator:
        assert out["waits"]  # a joker removed: the rest is ready on something
    else:
        assert removed in out["waits"], (T.format_tiles(rest), removed, out["waits"])


@PROP
@given(st.integers(0, 10**9), st.integers(1, 2))
def test_wild_decomposition_agrees_with_naive_substitution(seed, n_wild):
    rng = random.Random(seed)
    hand = random_complete_hand(rng, 4)
    for i in sorted(rng.sample(range(len(hand)), n_wild), reverse=True):
        del hand[i]
    counts = T.counts(hand)[:34]
    ours = {tuple(sorted((k if k not in "SW" else "", i) for k, i, _ in d)) for d in decompositions(counts, n_wild, 4)}
    naive = naive_decompositions(counts, n_wild, 4)
    # every naive reading is one of ours (ours also keeps wild-only groups unassigned)
    ours_concrete = {d for d in ours if all(k for k, _ in d)}
    naive_nonwild = {d for d in naive}
    assert ours_concrete <= naive_nonwild
    assert bool(ours) == bool(naive)


def test_every_wild_use_is_reported():
    out = engine.score({"variant": "wenzhou", "concealed": "123m456m78m123p456p99s2s", "indicator": "2s",
                        "winning_tile": "2s", "winner": "E", "self_drawn": True})
    assert out["winning"]
    assert out["jokers"]["count"] == 1
    assert out["jokers"]["uses"][0]["tile"] == "2s" and out["jokers"]["uses"][0]["as"] in ("3m", "6m", "9m")


def test_caishen_white_stand_in_is_not_wild():
    out = engine.score({"variant": "wenzhou", "concealed": "123m456m789m123p456p5z", "indicator": "2s"})
    assert "5z" in out["waits"] and out["jokers"]["stand_ins"] == [{"tile": "5z", "as": "2s"}]


def test_four_of_a_kind_is_not_seven_pairs_when_pairs_must_differ():
    from engine.forms import SEVEN_PAIRS, HandView, Pairs

    counts = T.counts(T.parse("1111m2233p4455s66z"))[:34]
    assert not SEVEN_PAIRS.complete(HandView(counts, 0, None, (), 4))
    assert Pairs(distinct=False).complete(HandView(counts, 0, None, (), 4))


def test_pairs_form_readings_agree_with_complete():
    from engine.forms import HandView, Pairs

    form = Pairs(name="seven_first", n_pairs=7, sets=1, distinct=False)
    rng = random.Random(5)
    for _ in range(300):
        kinds = rng.sample(SUITED, 8)
        hand = [k for k in kinds[:7] for _ in range(2)] + [kinds[7]] * 3
        n_wild = rng.randrange(3)
        for i in rng.sample(range(len(hand)), n_wild):
            hand[i] = None
        counts = T.counts([t for t in hand if t])[:34]
        view = HandView(counts, n_wild, "5z", (), 5)
        assert form.complete(view) and form.readings(view)
        counts[T.INDEX[kinds[0]]] -= 1
        counts[T.INDEX[kinds[1]]] += 1 if counts[T.INDEX[kinds[1]]] < 4 else 0
        view = HandView(counts, n_wild, "5z", (), 5)
        assert form.complete(view) == bool(form.readings(view))
