"""Pydantic models of the ``/api/sessions`` requests and answers (for validation
of the simple bodies and for the OpenAPI document)."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PlayerIn(_Strict):
    seat: str | None = Field(None, description="E, S, W or N (default: the list order)")
    name: str


class CreateSession(_Strict):
    variant: str = Field(description="philippine | malaysian | wenzhou | riichi | taiwan")
    players: list[PlayerIn | str] = Field(description="3 (malaysian) or 4 players, in seat order E, S, W, N")
    options: dict = Field(default_factory=dict, description="the table rules (rates), see GET /api/variants")
    title: str = ""


class Versioned(_Strict):
    version: int = Field(strict=True, description="the session version you last saw (a whole number); a stale one "
                                                  "gets HTTP 409")


class RecordHand(Versioned):
    request: dict = Field(description="the engine's score request for the hand; dealer, streak, round wind and "
                                      "other carried state are filled in by the session")
    outcome: dict = Field(default_factory=dict, description="extra facts for the carried state, e.g. "
                                                            "{\"riichi\": [\"S\"]} for riichi declarations")
    note: str = ""


class RecordEvent(Versioned):
    event: str = Field(description="one of the variant's events (GET /api/variants)")
    fields: dict = Field(default_factory=dict, description="the event's fields for engine.event")
    outcome: dict = Field(default_factory=dict, description="extra facts for the carried state (riichi "
                                                            "multiple_ron / chombo: {\"riichi\": [seats]})")
    note: str = ""


class RecordDraw(Versioned):
    outcome: dict = Field(default_factory=dict, description="e.g. {\"tenpai\": [\"E\", \"W\"]}")
    payments_event: str | None = Field(None, description="a variant event whose payments go with the draw")
    fields: dict = Field(default_factory=dict)
    note: str = ""


class Undo(Versioned):
    seq: int | None = Field(None, description="the entry to undo (default: the last one)")
    reason: str = ""


class Edit(Versioned):
    request: dict
    outcome: dict | None = None
    reason: str = ""


class SessionSummary(_Open):
    id: str
    title: str
    variant: str
    version: int
    players: list[dict]
    totals: dict[str, int]
    totals_by_player: dict[str, int]
    state: dict
    next_context: dict
