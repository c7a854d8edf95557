"""Properties over seeded random Philippine hands: valid input scores or fails with EngineError only;
payments cover every seat, sum to zero, and the winner gains exactly score.total."""
import random

from phwz_random import random_request

from engine import score
from engine.errors import EngineError


def test_random_hands():
    rng = random.Random(20261122)
    wins = 0
    for _ in range(300):
        req = random_request(rng, "philippine")
        try:
            out = score(req)
        except EngineError as exc:
            assert exc.code in ("too_many_copies", "wild_in_meld"), exc.code
            continue
        if not out["winning"]:
            continue
        wins += 1
        pay = out["payments"]
        assert set(pay) == {"E", "S", "W", "N"} and sum(pay.values()) == 0
        assert pay[req["winner"]] == out["score"]["total"] > 0
        assert all(v <= 0 for s, v in pay.items() if s != req["winner"])
        assert out["chips"]["earned"] in (1, 2)
    assert wins > 150
