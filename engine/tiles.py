"""Tile kinds and the extended mpsz notation shared by every part of Tilelens.

Notation: digits group before their suit letter, e.g. ``123m456p11z``.

==== ======================================================================
suit meaning
==== ======================================================================
m    characters 萬 1-9
p    circles 筒 1-9
s    bamboo 索 1-9
z    honors: 1 East 2 South 3 West 4 North 5 White 白 6 Green 發 7 Red 中
f    flowers: 1-4 seasons 春夏秋冬, 5-8 plants 梅蘭菊竹
a    Malaysian animals: 1 cat 貓, 2 rat 鼠, 3 rooster 雞, 4 centipede 蜈蚣
h    Malaysian face (human figure) tiles 1-4
j    ``1j`` the Malaysian fei 飛 wild tile
==== ======================================================================

Every kind has a small integer index (``INDEX``) so hands can be held as count
arrays; ``KINDS[i]`` is the code for index ``i``.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Iterable

from .errors import EngineError

SUIT_SIZES = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8, "a": 4, "h": 4, "j": 1}
SUIT_ORDER = "mpszfahj"

KINDS: tuple[str, ...] = tuple(f"{n}{s}" for s in SUIT_ORDER for n in range(1, SUIT_SIZES[s] + 1))
INDEX: dict[str, int] = {k: i for i, k in enumerate(KINDS)}
N_KINDS = len(KINDS)

NUMBER_SUITS = "mps"
STANDARD_KINDS = KINDS[:34]  # 1m..7z, the 34 kinds of every variant
HONORS = tuple(f"{n}z" for n in range(1, 8))
WINDS = ("1z", "2z", "3z", "4z")
DRAGONS = ("5z", "6z", "7z")
TERMINALS = tuple(f"{n}{s}" for s in NUMBER_SUITS for n in (1, 9))
ORPHANS = TERMINALS + HONORS  # the thirteen orphans
FLOWERS = tuple(f"{n}f" for n in range(1, 9))
SEASONS = FLOWERS[:4]
PLANTS = FLOWERS[4:]
ANIMALS = tuple(f"{n}a" for n in range(1, 5))
FACES = tuple(f"{n}h" for n in range(1, 5))
FEI = "1j"
BONUS_KINDS = FLOWERS + ANIMALS + FACES  # tiles that are never part of a set

SEATS = ("E", "S", "W", "N")
WIND_OF_SEAT = {"E": "1z", "S": "2z", "W": "3z", "N": "4z"}

NAMES = {
    **{f"{n}m": f"{n} characters" for n in range(1, 10)},
    **{f"{n}p": f"{n} circles" for n in range(1, 10)},
    **{f"{n}s": f"{n} bamboo" for n in range(1, 10)},
    "1z": "East", "2z": "South", "3z": "West", "4z": "North",
    "5z": "White dragon", "6z": "Green dragon", "7z": "Red dragon",
    "1f": "Spring", "2f": "Summer", "3f": "Autumn", "4f": "Winter",
    "5f": "Plum", "6f": "Orchid", "7f": "Chrysanthemum", "8f": "Bamboo",
    "1a": "Cat", "2a": "Rat", "3a": "Rooster", "4a": "Centipede",
    "1h": "Face 1", "2h": "Face 2", "3h": "Face 3", "4h": "Face 4",
    "1j": "Fei",
}
CHARACTERS = {
    **{f"{n}m": f"{'一二三四五六七八九'[n - 1]}萬" for n in range(1, 10)},
    **{f"{n}p": f"{'一二三四五六七八九'[n - 1]}筒" for n in range(1, 10)},
    **{f"{n}s": f"{'一二三四五六七八九'[n - 1]}索" for n in range(1, 10)},
    "1z": "東", "2z": "南", "3z": "西", "4z": "北", "5z": "白", "6z": "發", "7z": "中",
    "1f": "春", "2f": "夏", "3f": "秋", "4f": "冬", "5f": "梅", "6f": "蘭", "7f": "菊", "8f": "竹",
    "1a": "貓", "2a": "鼠", "3a": "雞", "4a": "蜈蚣",
    "1h": "人1", "2h": "人2", "3h": "人3", "4h": "人4",
    "1j": "飛",
}


def suit(code: str) -> str:
    return code[1]


def number(code: str) -> int:
    return int(code[0])


def is_number_tile(code: str) -> bool:
    return code[1] in NUMBER_SUITS


def is_honor(code: str) -> bool:
    return code[1] == "z"


def is_terminal(code: str) -> bool:
    return code[1] in NUMBER_SUITS and code[0] in "19"


_BONUS_SET = frozenset(BONUS_KINDS)


def is_bonus(code: str) -> bool:
    """A flower, animal or face tile. Only a tile code is one: ``back`` (whose second letter
    is a suit letter) and the scanner's ``reject`` are not."""
    return code in _BONUS_SET


_GROUP = re.compile(r"([0-9]+)([mpszfahj])")
_SPACES = str.maketrans("", "", " ,\t\n")


def parse(text: str, field: str = "tiles") -> list[str]:
    """Parse mpsz text into a list of tile codes, in the order written.

    Spaces (and commas) are ignored. Raises :class:`EngineError` with code
    ``bad_notation`` or ``unknown_tile`` on anything else.
    """
    if not isinstance(text, str):
        raise EngineError("bad_type", f"{field} must be a string of tiles such as '123m11z'", field)
    if len(text) > 400:
        raise EngineError("bad_notation", f"{field} is too long to be a hand ({len(text)} characters)", field)
    compact = text.translate(_SPACES)
    groups = _GROUP.findall(compact)
    if sum(len(d) + 1 for d, _ in groups) == len(compact):  # well formed: the fast path
        out = [d + s for digits, s in groups for d in digits]
        if all(code in INDEX for code in out):
            return out
    return _parse_slowly(text, field)


def _parse_slowly(text: str, field: str) -> list[str]:
    """Character by character, to name exactly what is wrong."""
    tiles: list[str] = []
    digits: list[str] = []
    for ch in text:
        if ch in " ,\t\n":
            continue
        if ch.isdigit() and ch.isascii():
            digits.append(ch)
        elif ch in SUIT_SIZES:
            if not digits:
                raise EngineError("bad_notation", f"suit letter '{ch}' in {field} has no digits before it", field)
            for d in digits:
                code = f"{d}{ch}"
                if code not in INDEX:
                    raise EngineError("unknown_tile", f"'{code}' is not a tile (in {field})", field)
                tiles.append(code)
            digits = []
        else:
            raise EngineError("bad_notation", f"unexpected character {ch!r} in {field}", field)
    if digits:
        raise EngineError("bad_notation", f"digits {''.join(digits)!r} at the end of {field} have no suit letter", field)
    return tiles


def sort_key(code: str) -> int:
    return INDEX[code]


def format_tiles(tiles: Iterable[str]) -> str:
    """Write tiles in canonical sorted form: ``['2m','1m','5z'] -> '12m5z'``."""
    out: list[str] = []
    current = ""
    for code in sorted(tiles, key=sort_key):
        if code[1] != current and current:
            out.append(current)
        if code[1] != current:
            current = code[1]
        out.append(code[0])
    if current:
        out.append(current)
    return "".join(out)


def counts(tiles: Iterable[str]) -> list[int]:
    """A count array of length ``N_KINDS``."""
    c = [0] * N_KINDS
    for t in tiles:
        c[INDEX[t]] += 1
    return c


def counter(tiles: Iterable[str]) -> Counter:
    return Counter(tiles)
