"""State carried between hands: the dealer, the 連莊 streak and the round wind.

Section 4: the dealer keeps the deal after winning or after an exhaustive draw
(連一, 連二, …); when another player wins the streak ends and the deal passes to
the next seat. A game (一荘) is the four rounds 東南西北; it ends when the deal
leaves the last dealer of the North round.
"""
from __future__ import annotations

from ...errors import EngineError

ROUNDS = ("E", "S", "W", "N")


def initial_state(variant) -> dict:
    return {"dealer": variant.seats[0], "dealer_streak": 0, "round_wind": "E", "hand_number": 1,
            "game_over": False}


def _winner(outcome: dict) -> str | None:
    if outcome.get("type") != "win":
        return None
    result = outcome.get("result") or {}
    if result.get("winning") is False:
        return None  # a refused win (過水, 相公) is not a result of the hand
    return (outcome.get("request") or {}).get("winner")


def advance(variant, state: dict, outcome: dict) -> dict:
    if state.get("game_over"):
        raise EngineError("game_over", "the game (一荘) is over after the North round: start a new session",
                          "outcome")
    kind = outcome.get("type")
    if kind not in ("win", "draw"):
        raise EngineError("bad_outcome", "a Taiwanese outcome is {'type': 'win', ...} or {'type': 'draw'}",
                          "outcome")
    new = dict(state)
    new["hand_number"] = state.get("hand_number", 1) + 1
    winner = _winner(outcome)
    if kind == "win" and winner is None:
        new["hand_number"] = state.get("hand_number", 1)
        return new  # nothing was decided: play the hand on
    dealer = state["dealer"]
    if kind == "draw" or winner == dealer:
        new["dealer_streak"] = state.get("dealer_streak", 0) + 1
        return new
    new["dealer"] = variant.next_seat(dealer)
    new["dealer_streak"] = 0
    if new["dealer"] == variant.seats[0]:
        round_wind = state.get("round_wind", "E")
        if round_wind == ROUNDS[-1]:
            new["game_over"] = True
        else:
            new["round_wind"] = ROUNDS[ROUNDS.index(round_wind) + 1]
    return new


def prefill(state: dict) -> dict:
    return {k: state[k] for k in ("dealer", "dealer_streak", "round_wind") if k in state}
