"""The hand and its context, as the engine sees them after validation."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import tiles as T


class Settings:
    """A frozen, attribute-style view of validated options or flags.

    Values live in the instance ``__dict__`` so reading one is a plain attribute
    lookup (scoring reads them often); assignment is refused.
    """

    def __init__(self, values: dict[str, Any]):
        self.__dict__.update(values)

    def __setattr__(self, name, value):
        raise AttributeError("settings are read-only")

    def __delattr__(self, name):
        raise AttributeError("settings are read-only")

    def __getitem__(self, name: str) -> Any:
        return self.__dict__[name]

    def get(self, name: str, default: Any = None) -> Any:
        return self.__dict__.get(name, default)

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    def __repr__(self) -> str:
        return f"Settings({self.__dict__!r})"


@dataclass(frozen=True)
class Meld:
    kind: str  # chow | pung | kong
    tiles: tuple[str, ...]  # physical tiles, sorted
    concealed: bool = False  # True only for a concealed kong

    @property
    def key(self) -> str:
        return self.tiles[0]


@dataclass(frozen=True)
class Hand:
    variant: str
    concealed: tuple[str, ...]  # physical concealed tiles, sorted, winning tile included
    melds: tuple[Meld, ...] = ()
    flowers: tuple[str, ...] = ()
    winning_tile: str | None = None
    self_drawn: bool = False
    robbed_kong: bool = False  # won on a tile robbed from another player's added kong
    replacement: bool = False  # won on the replacement tile after a kong (or a flower)
    winner: str | None = None  # seat wind letter E/S/W/N
    discarder: str | None = None
    dealer: str = "E"
    dealer_streak: int = 0
    round_wind: str = "E"
    indicator: str | None = None
    flags: Settings = field(default_factory=lambda: Settings({}))
    options: Settings = field(default_factory=lambda: Settings({}))
    seats: tuple[str, ...] = T.SEATS

    @property
    def claimed(self) -> bool:
        """The hand is claimed as a win (a winning tile was given)."""
        return self.winning_tile is not None

    @property
    def seat_wind(self) -> str | None:
        """The winner's seat wind as a tile code (1z-4z)."""
        return T.WIND_OF_SEAT[self.winner] if self.winner else None

    @property
    def round_wind_tile(self) -> str:
        return T.WIND_OF_SEAT[self.round_wind]

    @property
    def is_open(self) -> bool:
        """Any exposed (not concealed) meld."""
        return any(not m.concealed for m in self.melds)

    @property
    def winner_is_dealer(self) -> bool:
        return self.winner == self.dealer

    def all_tiles(self) -> list[str]:
        """Every physical tile of the hand: concealed, melds and flowers."""
        return list(self.concealed) + [t for m in self.melds for t in m.tiles] + list(self.flowers)

    def others(self, seat: str) -> tuple[str, ...]:
        return tuple(s for s in self.seats if s != seat)
