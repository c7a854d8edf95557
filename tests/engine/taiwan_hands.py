"""Small helpers for the Taiwanese tests: build a request, score it, read the 台 lines.

Unless a test says otherwise the dealer is North with no streak and the winner
is South, so no dealer line (莊家, 連莊, 拉莊) applies: the document's worked
examples leave the dealer out of the picture.
"""
import engine
from score_lines import items, total  # noqa: F401 - re-exported for the tests


def req(concealed: str, win: str | None = None, *, melds=(), **kw) -> dict:
    """A Taiwanese request; the winning tile defaults to the last tile written, won on West's discard."""
    out = {"variant": "taiwan", "concealed": concealed, "winner": "S", "dealer": "N",
           "winning_tile": win if win is not None else concealed[-2:]}
    if melds:
        out["melds"] = [m if isinstance(m, dict) else {"tiles": m} for m in melds]
    if not kw.get("self_drawn"):
        out["discarder"] = "W"
    out.update(kw)
    return out


def score(concealed: str, win: str | None = None, **kw) -> dict:
    return engine.score(req(concealed, win, **kw))
