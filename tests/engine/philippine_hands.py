"""Shared request builder for the Philippine tests (not a test module)."""
from engine import score


def ph(concealed: str, win: str, winner: str = "S", discarder: str | None = "E", indicator: str = "1p",
       flowers: str = "1z", **extra) -> dict:
    """Score a Philippine hand; the joker is 1p unless given. ``discarder=None`` means self-drawn."""
    req = {"variant": "philippine", "concealed": concealed, "winning_tile": win, "winner": winner,
           "indicator": indicator, "flowers": flowers, **extra}
    if discarder is None:
        req["self_drawn"] = True
    else:
        req["discarder"] = discarder
    return score(req)
