"""Shared request builder for the Wenzhou tests (not a test module)."""
from engine import score


def wz(concealed: str, win: str, winner: str = "S", discarder: str | None = "W", indicator: str = "2m",
       **extra) -> dict:
    """Score a Wenzhou hand; dealer E unless given. ``discarder=None`` means self-drawn."""
    req = {"variant": "wenzhou", "concealed": concealed, "winning_tile": win, "winner": winner,
           "indicator": indicator, **extra}
    if discarder is None:
        req["self_drawn"] = True
    else:
        req["discarder"] = discarder
    return score(req)
