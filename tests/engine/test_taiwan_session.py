"""The carried state between hands: 連荘 on a dealer win or a draw, the deal passing on, 一荘制."""
import pytest

from engine.errors import EngineError
from engine.variants import get_variant

V = get_variant("taiwan")


def win(winner: str, winning: bool = True) -> dict:
    return {"type": "win", "request": {"winner": winner}, "result": {"winning": winning}}


def test_initial_state_and_prefill():
    s = V.initial_state()
    assert V.prefill(s) == {"dealer": "E", "dealer_streak": 0, "round_wind": "E"}


def test_dealer_win_and_draw_extend_the_streak():
    s = V.advance(V.initial_state(), win("E"))
    assert (s["dealer"], s["dealer_streak"]) == ("E", 1)
    s = V.advance(s, {"type": "draw"})
    assert (s["dealer"], s["dealer_streak"]) == ("E", 2)


def test_non_dealer_win_passes_the_deal():
    s = V.advance(V.advance(V.initial_state(), win("E")), win("W"))
    assert V.prefill(s) == {"dealer": "S", "dealer_streak": 0, "round_wind": "E"}


def test_refused_win_changes_nothing():
    s0 = V.advance(V.initial_state(), win("E"))
    s = V.advance(s0, win("S", winning=False))
    assert V.prefill(s) == V.prefill(s0)


def test_round_wind_moves_and_the_game_ends_after_north():
    s = V.initial_state()
    rounds = []
    for _ in range(16):
        rounds.append(s["round_wind"])
        s = V.advance(s, win(V.next_seat(s["dealer"])))
    assert rounds == ["E"] * 4 + ["S"] * 4 + ["W"] * 4 + ["N"] * 4
    assert s["game_over"]
    with pytest.raises(EngineError) as exc:
        V.advance(s, {"type": "draw"})
    assert exc.value.code == "game_over"


def test_unknown_outcome_is_refused():
    with pytest.raises(EngineError) as exc:
        V.advance(V.initial_state(), {"type": "kong_bonus"})
    assert exc.value.code == "bad_outcome"
