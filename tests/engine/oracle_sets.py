"""The brute-force referees' one shared piece: can these counts be split into sets alone?

Independent of the engine on purpose (a plain recursive check, no tables), so the referee tests
compare the engine with something that cannot share its mistakes. Counts are by standard kind
index (0-26 suits, 27-33 honors; shorter tuples hold suits only).
"""
from functools import lru_cache


@lru_cache(maxsize=None)
def only_sets(c: tuple) -> bool:
    i = next((j for j, v in enumerate(c) if v), None)
    if i is None:
        return True
    d = list(c)
    if d[i] >= 3:
        d[i] -= 3
        if only_sets(tuple(d)):
            return True
        d[i] += 3
    if i < 27 and i % 9 <= 6 and d[i + 1] and d[i + 2]:
        d[i] -= 1
        d[i + 1] -= 1
        d[i + 2] -= 1
        return only_sets(tuple(d))
    return False
