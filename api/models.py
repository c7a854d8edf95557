"""Pydantic models of the HTTP API, used for the OpenAPI document at ``/docs``.

The score endpoint passes the engine's JSON through unchanged (the engine owns
validation and its error JSON), so these models describe that contract rather
than re-validate it. They allow extra fields: the engine may add keys (variant
flags, new result fields) without the server changing.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Seat = Literal["E", "S", "W", "N"]
Variant = Literal["philippine", "malaysian", "wenzhou", "riichi", "taiwan"]


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


# ----------------------------------------------------------------- errors
class ErrorDetail(BaseModel):
    code: str = Field(description="stable machine-readable identifier, e.g. 'bad_notation'")
    message: str = Field(description="a sentence for people")
    field: str | None = Field(None, description="the request field at fault, if any")


class ErrorBody(BaseModel):
    """Every error the server returns has this shape (the engine's error JSON)."""

    error: ErrorDetail


# ----------------------------------------------------------------- score
class Meld(_Open):
    tiles: str = Field(description="mpsz tiles of the meld, e.g. '555z' or '1111m'")
    concealed: bool = Field(False, description="a concealed kong")


class ScoreRequest(_Open):
    """The engine's input contract. Variant flags (riichi: ``riichi``,
    ``dora_indicators``, ...) are further top-level keys."""

    variant: Variant
    concealed: str = Field(description="concealed tiles in mpsz, including the winning tile")
    melds: list[Meld] = Field(default_factory=list)
    flowers: str = Field("", description="bonus tiles in mpsz (f, a, h suits)")
    winning_tile: str | None = Field(None, description="absent: not claimed, the result reports waits")
    self_drawn: bool = False
    winner: Seat = "E"
    discarder: Seat | None = None
    dealer: Seat = "E"
    dealer_streak: int = 0
    round_wind: Seat = "E"
    indicator: str | None = Field(None, description="joker / caishen indicator tile")
    options: dict = Field(default_factory=dict, description="table rules, see GET /api/variants")


class ScoreItem(_Open):
    name: str
    value: float | int | str


class Score(_Open):
    unit: str
    total: float | int
    items: list[ScoreItem]


class ScoreResponse(_Open):
    winning: bool
    form: str | None = None
    flowers: object | None = None
    jokers: object | None = None
    score: Score | None = None
    payments: dict[str, int] | None = Field(None, description="seat -> signed amount, summing to 0")
    chips: object | None = None
    waits: list[str] | object | None = None
    explain: object | None = None
    reason: str | None = Field(None, description="why the hand is not winning")


MAX_MANY = 48  # requests in one POST /api/score/many: every single-tile change the page asks about, and more


class ScoreManyRequest(BaseModel):
    """Several hands to score in one call (the phone page asks which of the scan's other guesses
    would make a hand a winning one)."""

    requests: list[dict] = Field(min_length=1, max_length=MAX_MANY,
                                 description=f"1 to {MAX_MANY} JSON objects, each the engine's contract as for "
                                             "/api/score (ScoreRequest); one the engine cannot take gets "
                                             "its error in its item")


class ScoreManyItem(BaseModel):
    """One request's answer: ``result`` (exactly ``engine.score``'s) or ``error`` (the engine's error)."""

    result: ScoreResponse | None = None
    error: ErrorDetail | None = None


class ScoreManyResponse(BaseModel):
    results: list[ScoreManyItem] = Field(description="one answer per request, in the same order")


# ----------------------------------------------------------------- variants
class OptionSpec(_Open):
    name: str
    type: str
    default: object = None
    doc: str = ""
    choices: list | None = None


class VariantSpec(_Open):
    name: str
    title: str
    seats: list[str]
    options: list[OptionSpec]
    flags: list[OptionSpec]
    wilds: str


# ----------------------------------------------------------------- scan
class ScanTile(_Open):
    tile: str = Field(description="tile code, e.g. '5p'")
    confidence: float
    top3: list[list] = Field(description="[[code, score] x 3]: the classifier's named kind first, then the likeliest others")
    corners: list[list[float]] = Field(description="four [x, y] corners in image pixels")
    group: object = None
    moved_from: str | None = Field(None, description="the classifier's first choice, when this tile was moved to "
                                   "another kind of its top3 (why: moved_because)")
    moved_because: str | None = Field(None, description="'copies': the photo already held every copy of the first "
                                      "choice that a set has; 'in_row': a flower read inside a row of touching tiles, "
                                      "where none lies; 'meld': one changed tile makes a cluster apart from the row a "
                                      "set")


class ScanMeld(_Open):
    tiles: str
    concealed: bool = False


class ScanHand(_Open):
    concealed: str
    melds: list[ScanMeld] = Field(default_factory=list)
    flowers: str = ""


class ScanResponse(_Open):
    tiles: list[ScanTile]
    hand: ScanHand
    image: object = None
    timings_ms: dict[str, float] = Field(default_factory=dict)
