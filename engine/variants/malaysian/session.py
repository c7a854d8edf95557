"""State carried between Malaysian hands.

"上がった人が次局の東風となり勝負を繰り返すが、回数は各自で適当に決めて行う": the winner deals
the next hand (becomes East); there are no round winds and no fixed number of hands.
The document says nothing about a drawn hand: the dealer keeps the deal.
``dealer_streak`` counts the hands the dealer has kept the deal; it changes no payment.
"""
from __future__ import annotations


def initial_state(seats: tuple[str, ...]) -> dict:
    return {"dealer": seats[0], "dealer_streak": 0, "round_wind": "E", "hand_number": 1}


def winner_of(outcome: dict) -> str | None:
    """The seat that won, or None for a draw or a claim that did not win (below the minimum)."""
    if outcome.get("type") != "win":
        return None
    result = outcome.get("result") or {}
    if result.get("winning") is False:
        return None
    return (outcome.get("request") or {}).get("winner")


def advance(state: dict, outcome: dict, seats: tuple[str, ...]) -> dict:
    new = dict(state)
    new["hand_number"] = state.get("hand_number", 1) + 1
    new["round_wind"] = "E"
    dealer = state.get("dealer", seats[0])
    winner = winner_of(outcome)
    if winner is None or winner == dealer:
        new["dealer"] = dealer
        new["dealer_streak"] = state.get("dealer_streak", 0) + 1
    elif winner in seats:
        new["dealer"] = winner
        new["dealer_streak"] = 0
    return new


def prefill(state: dict) -> dict:
    return {k: state[k] for k in ("dealer", "dealer_streak") if k in state}
