"""Random and mutated contract requests, for the engine fuzz test (CI slice) and benchmark."""
from __future__ import annotations

import random

from engine import tiles as T

BASES = [
    {"variant": "riichi", "concealed": "123m456m789m123p55s", "winning_tile": "5s", "winner": "S",
     "discarder": "E", "riichi": True, "dora_indicators": "4s"},
    {"variant": "riichi", "concealed": "1133557799m1199p", "winning_tile": "1p", "winner": "E", "self_drawn": True},
    {"variant": "taiwan", "concealed": "123m456m789m123p456p99s", "winning_tile": "9s", "winner": "E",
     "self_drawn": True, "flowers": "1f5f"},
    {"variant": "philippine", "concealed": "123m456m789m123p456p9s5s", "indicator": "5s", "winning_tile": "9s",
     "winner": "W", "discarder": "N", "flowers": "1z2z3f"},
    {"variant": "wenzhou", "concealed": "123m456m789m123p456p9s2s", "indicator": "2s", "winning_tile": "2s",
     "winner": "E", "self_drawn": True},
    {"variant": "malaysian", "concealed": "123p456p789p11z1j", "melds": [{"tiles": "222z"}], "winning_tile": "1z",
     "winner": "S", "discarder": "W", "flowers": "1f2a"},
    {"variant": "taiwan", "concealed": "123m456m789m123p456p9s"},
]

FIELDS = ["variant", "concealed", "melds", "flowers", "winning_tile", "self_drawn", "robbed_kong", "replacement",
          "winner", "discarder", "dealer", "dealer_streak", "round_wind", "indicator", "options", "riichi",
          "ippatsu", "dora_indicators", "caishen_held", "event"]


def junk(rng: random.Random, depth: int = 0):
    r = rng.random()
    if r < 0.12:
        return rng.randint(-10**12, 10**12)
    if r < 0.2:
        return rng.choice([0.5, float("nan"), float("inf"), -1e308, 1e-9])
    if r < 0.28:
        return None
    if r < 0.36:
        return rng.choice([True, False])
    if r < 0.5:
        return random_tiles(rng)
    if r < 0.56:
        return "x" * rng.choice([1000, 100_000])
    if r < 0.62:
        return "".join(chr(rng.randrange(0x20, 0x3000)) for _ in range(rng.randrange(12)))
    if r < 0.7:
        deep: object = []
        for _ in range(rng.choice([10, 500, 5000])):
            deep = [deep]
        return deep
    if r < 0.8 and depth < 3:
        return [junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    if r < 0.9 and depth < 3:
        return {rng.choice(FIELDS + ["x", ""]): junk(rng, depth + 1) for _ in range(rng.randrange(4))}
    return rng.choice(["E", "S", "W", "N", "X", "", "e", "tiles", "1j", "5z"])


def random_tiles(rng: random.Random) -> str:
    n = rng.choice([0, 1, 3, 13, 14, 16, 17, 18, 40])
    tiles = [rng.choice(T.KINDS) for _ in range(n)]
    text = T.format_tiles(tiles)
    if rng.random() < 0.2 and text:
        pos = rng.randrange(len(text))
        text = text[:pos] + rng.choice("0123456789mpszfahjx ") + text[pos:]
    return text


def mutate(rng: random.Random, request: dict) -> dict:
    req = dict(request)
    for _ in range(rng.randrange(1, 4)):
        op = rng.random()
        key = rng.choice(FIELDS)
        if op < 0.25 and req:
            req.pop(rng.choice(list(req)), None)
        elif op < 0.55:
            req[key] = junk(rng)
        elif op < 0.7:
            req[key] = random_tiles(rng)
        elif op < 0.8:
            req["dealer_streak"] = rng.randint(-5, 2000)
        elif op < 0.9:
            req["melds"] = [{"tiles": random_tiles(rng)[:8], "concealed": rng.random() < 0.3}
                            for _ in range(rng.randrange(6))]
        else:
            req["options"] = {rng.choice(["base", "per_tai", "kuitan", "x", "fan_rate"]): junk(rng)}
    return req


def request(rng: random.Random) -> object:
    r = rng.random()
    if r < 0.05:
        return junk(rng)
    if r < 0.15:
        return {rng.choice(FIELDS): junk(rng) for _ in range(rng.randrange(6))}
    return mutate(rng, rng.choice(BASES))
