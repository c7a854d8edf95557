"""Small helpers for the Malaysian tests: build a request, score it, read the fan items."""
import engine
from score_lines import items, total  # noqa: F401 - re-exported for the tests


def req(concealed: str, win: str | None = None, **kw) -> dict:
    """A Malaysian request; the winning tile defaults to the last tile written, self-drawn by East."""
    out = {"variant": "malaysian", "concealed": concealed, "winner": "E"}
    out["winning_tile"] = win if win is not None else concealed[-2:]
    if "discarder" not in kw:
        out["self_drawn"] = True
    out.update(kw)
    return out


def score(concealed: str, win: str | None = None, **kw) -> dict:
    return engine.score(req(concealed, win, **kw))
