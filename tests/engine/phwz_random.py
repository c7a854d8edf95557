"""Seeded random winning-shaped hands for the Philippine and Wenzhou property tests (not a test module)."""
import random

NUMBERS = [f"{n}{s}" for s in "mps" for n in range(1, 10)]
HONORS = [f"{n}z" for n in range(1, 8)]


def random_request(rng: random.Random, variant: str) -> dict:
    """A 17-tile hand built from sets and pairs, up to 3 wilds, sometimes one tile spoilt, some melds."""
    kinds = NUMBERS + (HONORS if variant == "wenzhou" else [])
    indicator = rng.choice(NUMBERS if variant == "philippine" else kinds)
    left = {k: 4 for k in kinds}
    left[indicator] -= 1
    hand: list[str] = []
    melds: list[dict] = []
    n_melds = rng.choice([0, 0, 0, 1, 2])
    while len(hand) + 3 * len(melds) < 15:
        if rng.random() < 0.5:
            k = rng.choice(NUMBERS)
            group = [f"{int(k[0]) + i}{k[1]}" for i in range(3)] if int(k[0]) <= 7 else []
        else:
            k = rng.choice(kinds)
            group = [k] * 3
        if not group or indicator in group or any(left[t] < group.count(t) for t in group):
            continue
        for t in group:
            left[t] -= 1
        if len(melds) < n_melds:
            melds.append({"tiles": "".join(group)})
        else:
            hand.extend(group)
    while len(hand) + 3 * len(melds) < 17:
        k = rng.choice(kinds)
        if left[k] >= 2 and k != indicator:
            left[k] -= 2
            hand += [k, k]
    for _ in range(rng.randint(0, 3)):
        if left[indicator]:
            left[indicator] -= 1
            hand[rng.randrange(len(hand))] = indicator
    if rng.random() < 0.3:
        hand[rng.randrange(len(hand))] = rng.choice(kinds)
    winner = rng.choice("ESWN")
    req = {"variant": variant, "concealed": "".join(hand), "winning_tile": rng.choice(hand), "winner": winner,
           "indicator": indicator, "melds": melds}
    if rng.random() < 0.5:
        req["self_drawn"] = True
    else:
        req["discarder"] = rng.choice([s for s in "ESWN" if s != winner])
    if variant == "philippine":
        req["flowers"] = rng.choice(["", "1z", "1z2z3f"])
    else:
        req["dealer_streak"] = rng.randint(0, 3)
    return req
