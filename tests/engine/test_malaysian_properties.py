"""Random Malaysian hands: only EngineError escapes, payments sum to zero and follow the fan."""
import random

import engine
from engine.errors import EngineError

KINDS = [f"{n}p" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
FLOWERS = ["1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f", "1a", "2a", "3h", "1j"]


def random_request(rng: random.Random) -> dict:
    hand: list[str] = []
    while len(hand) < 12:
        k = rng.choice(KINDS)
        if k[1] == "p" and int(k[0]) <= 7 and rng.random() < 0.5:
            hand += [k, f"{int(k[0]) + 1}p", f"{int(k[0]) + 2}p"]
        else:
            hand += [k] * 3
    hand = hand[:12] + [rng.choice(KINDS)] * 2
    hand = ["1j" if rng.random() < 0.1 else t for t in hand]
    request = {"variant": "malaysian", "concealed": "".join(hand), "winning_tile": hand[-1],
               "winner": rng.choice("ESW"), "flowers": "".join(rng.sample(FLOWERS, rng.randint(0, 3)))}
    if rng.random() < 0.5:
        request["self_drawn"] = True
    else:
        request["discarder"] = rng.choice([s for s in "ESW" if s != request["winner"]])
    return request


def test_random_hands_pay_by_their_fan():
    rng = random.Random(7)
    wins = 0
    for _ in range(400):
        request = random_request(rng)
        try:
            r = engine.score(request)
        except EngineError as e:
            assert e.code and e.message
            continue
        if not r.get("winning"):
            continue
        wins += 1
        fan = r["score"]["total"]
        units = 20 if fan >= 10 else fan
        assert 5 <= fan <= 10 and r["score"]["paid_as"] == units
        pay = r["payments"]
        assert sum(pay.values()) == 0
        expected = units * 400 if request.get("self_drawn") else units * 300
        assert pay[request["winner"]] == expected
    assert wins > 50
