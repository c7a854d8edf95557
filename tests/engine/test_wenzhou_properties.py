"""Properties over seeded random Wenzhou hands: valid input scores or fails with EngineError only;
payments sum to zero; without caishen money the winner gains score.total = sum of base x multiplier."""
import random

from phwz_random import random_request

from engine import score
from engine.errors import EngineError


def test_random_hands():
    rng = random.Random(20261122)
    wins = 0
    for _ in range(300):
        req = random_request(rng, "wenzhou")
        req["options"] = {"caishen_money": 0}
        try:
            out = score(req)
        except EngineError as exc:
            # or a win on a discarded caishen, which no hand discards (財神を捨てられません)
            assert exc.code in ("too_many_copies", "wild_in_meld") or (
                exc.code == "bad_context" and exc.field == "winning_tile" and not req.get("self_drawn")), exc.code
            continue
        if not out["winning"]:
            continue
        wins += 1
        pay = out["payments"]
        mult = out["value"]["multiplier"]
        assert mult in (1, 2, 4) and sum(pay.values()) == 0
        assert pay[req["winner"]] == out["score"]["total"]
        unit = int("2468"[req["dealer_streak"]])
        for seat, v in pay.items():
            if seat != req["winner"]:
                base = unit if "E" in (seat, req["winner"]) else 1
                assert v == -base * mult
        if req.get("self_drawn"):
            assert mult >= 2
    assert wins > 150
