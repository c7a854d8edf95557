import random

from engine import tiles as T


def random_complete_hand(rng: random.Random, n_sets: int, kinds=T.STANDARD_KINDS, max_copies: int = 4) -> list[str]:
    """n_sets random sets plus a pair, respecting max_copies per kind."""
    while True:
        used: dict[str, int] = {}
        hand: list[str] = []

        def take(tiles: list[str]) -> bool:
            for t in tiles:
                if used.get(t, 0) + tiles.count(t) > max_copies:
                    return False
            for t in tiles:
                used[t] = used.get(t, 0) + 1
            hand.extend(tiles)
            return True

        ok = True
        for _ in range(n_sets):
            for _attempt in range(20):
                k = rng.choice(kinds)
                if T.is_number_tile(k) and T.number(k) <= 7 and rng.random() < 0.6:
                    s = [k, f"{T.number(k) + 1}{k[1]}", f"{T.number(k) + 2}{k[1]}"]
                    if all(x in kinds for x in s) and take(s):
                        break
                elif take([k] * 3):
                    break
            else:
                ok = False
        for _attempt in range(20):
            if take([rng.choice(kinds)] * 2):
                break
        else:
            ok = False
        if ok and len(hand) == 3 * n_sets + 2:
            return hand
