"""What a recorded session can do: create, record hands, events and draws,
undo and edit, totals, carried state, end, export and import.

Every write is one database transaction that locks the session row, checks the
caller's ``version`` (optimistic versioning: a stale version is a
:class:`Conflict`, HTTP 409) and bumps it. Carried state (dealer, streak,
chips, honba, sticks...) is never typed in: it is replayed from the recorded
outcomes through the variant's ``initial_state`` / ``advance`` hooks, and the
next hand's context is filled in from ``prefill``.
"""
from __future__ import annotations

import csv
import io
import json
import os
import secrets
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from sqlalchemy import select, update
from sqlalchemy.orm import Session

import engine
from engine.contract import read_settings
from engine.errors import EngineError
from engine.variants import get_variant

from .db import Database
from .models import CorrectionRow, EntryRow, PlayerRow, SessionRow, utcnow

EXPORT_FORMAT = "tilelens-session"
EXPORT_VERSION = 1
MAX_OUTCOME_BYTES = 4096
MAX_NOTE = 500
# Variant events that are also outcomes for the carried state (riichi's multiple ron and chombo).
ADVANCING_EVENTS = ("multiple_ron", "chombo")
RIICHI_FLAGS = ("riichi", "double_riichi")
PHOTO_TYPES = ((b"\xff\xd8\xff", ".jpg"), (b"\x89PNG\r\n\x1a\n", ".png"))


class SessionError(Exception):
    """A request the session cannot take; ``status`` is the HTTP status."""

    status = 422

    def __init__(self, code: str, message: str, field: str | None = None, status: int | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        if status is not None:
            self.status = status

    def to_json(self) -> dict:
        return {"error": {"code": self.code, "message": self.message, "field": self.field}}


class NotFound(SessionError):
    status = 404


class Conflict(SessionError):
    status = 409


# ----------------------------------------------------------------------------- helpers
def _iso(dt: datetime | None) -> str | None:
    if dt is None:
        return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt.isoformat()


def _check_options(variant, options: Any) -> dict:
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise SessionError("bad_type", "options must be an object", "options")
    known = {o.name: o for o in variant.options}
    out = {}
    for key, value in options.items():
        if key not in known:
            names = ", ".join(sorted(known)) or "none"
            raise SessionError("unknown_option", f"unknown option '{str(key)[:40]}' (known: {names})",
                               f"options.{str(key)[:40]}")
        try:
            out[key] = known[key].check(value, f"options.{key}")
        except EngineError as exc:
            raise SessionError(exc.code, exc.message, exc.field) from exc
    try:  # the values the variant's scoring, events and hooks would refuse later (a negative rate...)
        variant.check_options(read_settings(out, variant.options, "options"))
    except EngineError as exc:
        raise SessionError(exc.code, exc.message, exc.field) from exc
    return out


def _check_players(variant, players: Any) -> list[tuple[str, str]]:
    seats = variant.seats
    if not isinstance(players, list) or len(players) != len(seats):
        raise SessionError("bad_players", f"{variant.name} needs exactly {len(seats)} players "
                           f"(seats {', '.join(seats)})", "players")
    out: list[tuple[str, str]] = []
    for i, p in enumerate(players):
        if isinstance(p, str):
            seat, name = seats[i], p
        elif isinstance(p, dict):
            seat, name = p.get("seat", seats[i]), p.get("name")
        else:
            raise SessionError("bad_players", "a player is a name or {seat, name}", f"players[{i}]")
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > 80:
            raise SessionError("bad_players", "a player's name is 1 to 80 characters", f"players[{i}].name")
        if seat not in seats:
            raise SessionError("bad_players", f"seat must be one of {', '.join(seats)}", f"players[{i}].seat")
        out.append((seat, name.strip()))
    if len({s for s, _ in out}) != len(seats):
        raise SessionError("bad_players", "each seat has exactly one player", "players")
    if len({n.casefold() for _, n in out}) != len(seats):
        raise SessionError("bad_players", "the players' names must differ", "players")
    return sorted(out, key=lambda sp: seats.index(sp[0]))


def _check_payments(payments: Any, seats, field: str = "payments") -> dict[str, int]:
    if not isinstance(payments, dict):
        raise SessionError("no_payments", "the engine gave no payments for this", field)
    out = {}
    for seat, amount in payments.items():
        if seat not in seats or not isinstance(amount, int) or isinstance(amount, bool):
            raise SessionError("bad_payments", "payments must map seats to whole amounts", field)
        out[seat] = amount
    if sum(out.values()) != 0:
        raise SessionError("bad_payments", "payments must sum to zero", field)
    return {s: out.get(s, 0) for s in seats}


def _check_outcome(outcome: Any, seats) -> dict:
    if outcome is None:
        return {}
    if not isinstance(outcome, dict):
        raise SessionError("bad_type", "outcome must be an object", "outcome")
    if "type" in outcome or "request" in outcome or "result" in outcome:
        raise SessionError("bad_outcome", "outcome may not set type, request or result", "outcome")
    if len(json.dumps(outcome)) > MAX_OUTCOME_BYTES:
        raise SessionError("bad_outcome", "outcome is too large", "outcome")
    for key, value in outcome.items():
        if key in ("tenpai", "riichi") and not (isinstance(value, list) and all(v in seats for v in value)):
            raise SessionError("bad_outcome", f"outcome.{key} must be a list of seats", f"outcome.{key}")
        if key in ("tenpai", "riichi") and len(set(value)) != len(value):
            what = "a player declares riichi once per hand" if key == "riichi" else "each seat once"
            raise SessionError("bad_outcome", f"outcome.{key} lists a seat more than once ({what})",
                               f"outcome.{key}")
    return dict(outcome)


def _event_fields(fields: Any) -> dict:
    if fields is None:
        return {}
    if not isinstance(fields, dict) or any(k in fields for k in ("variant", "event", "options")):
        raise SessionError("bad_request", "fields must be an object; the session sets variant, event and options",
                           "fields")
    return dict(fields)


def _note(note: Any) -> str:
    if note is None:
        return ""
    if not isinstance(note, str) or len(note) > MAX_NOTE:
        raise SessionError("bad_note", f"note is text of at most {MAX_NOTE} characters", "note")
    return note


def photo_suffix(data: bytes) -> str:
    for magic, suffix in PHOTO_TYPES:
        if data.startswith(magic):
            return suffix
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return ".webp"
    raise SessionError("bad_photo", "the photo must be a JPEG, PNG or WebP image", "photo")


def entry_outcome(e: EntryRow) -> dict | None:
    """What ``variant.advance`` is told about an entry (None: the entry moves money only), with the
    session's table rules its request was scored under (riichi's stick and noten points)."""
    options = e.request.get("options") if isinstance(e.request, dict) else None
    rules = {"options": options} if isinstance(options, dict) else {}
    if e.kind == "hand":
        return {**e.outcome, "type": "win", "request": e.request, "result": e.result, **rules}
    if e.kind == "draw":
        return {**e.outcome, "type": "draw", **rules}
    if e.name in ADVANCING_EVENTS:
        return {**e.outcome, "type": e.name, "request": e.request, "requests": e.request.get("hands", []),
                "offender": e.request.get("offender"), "result": e.result, **rules}
    return None


def replay(variant, entries: list[EntryRow]) -> tuple[dict, dict[int, dict]]:
    """The carried state after the active entries, and the state each was recorded under.

    Hands, draws and the events in ``ADVANCING_EVENTS`` go through
    ``variant.advance``; other events move money only. A hook that refuses an
    outcome (e.g. a finished riichi game) stops the replay; the state says so.
    """
    state = variant.initial_state()
    before: dict[int, dict] = {}
    last = None
    for e in entries:
        before[e.seq] = state
        outcome = entry_outcome(e)
        if outcome is None:
            continue
        last = e.seq
        try:
            state = variant.advance(state, outcome)
        except Exception as exc:  # noqa: BLE001 - a stored entry must never make reading the session fail
            return {**state, "replay_error": {"seq": e.seq, **_refusal(exc)}}, before
    try:
        variant.prefill(state)  # the next hand's context must come out of the state too
    except Exception as exc:  # noqa: BLE001
        state = {**state, "replay_error": {"seq": last, **_refusal(exc)}}
    return state, before


def _refusal(exc: Exception) -> dict:
    """A hook's refusal (EngineError, or a plain Python error on an odd stored outcome) as code and message."""
    if isinstance(exc, EngineError):
        return {"code": exc.code, "message": exc.message}
    if isinstance(exc, ValueError):  # a hook refusing the outcome in plain Python terms
        return {"code": "bad_outcome", "message": str(exc)}
    return {"code": "bad_outcome", "message": f"the recorded outcome has an unexpected shape ({type(exc).__name__})"}


def check_advances(variant, state: dict, e: EntryRow) -> None:
    """Refuse (422) a new entry that the variant's hooks would not replay from ``state``: recorded,
    it would stop the replay and block every later write."""
    outcome = entry_outcome(e)
    if outcome is None:
        return
    try:
        variant.advance(state, outcome)
    except Exception as exc:  # noqa: BLE001 - whatever the hook refuses, the entry is not written
        err = _refusal(exc)
        field = exc.field if isinstance(exc, EngineError) and exc.field else "outcome"
        raise SessionError(err["code"], err["message"], field) from exc


def check_open(state: dict) -> None:
    """Refuse a new hand when the carried state says the game is over."""
    if state.get("finished") or state.get("game_over"):
        raise Conflict("game_over", "the game is over by the variant's rules: end the session", None)
    if "replay_error" in state:
        err = state["replay_error"]
        raise Conflict("bad_history", f"entry {err['seq']} cannot be replayed ({err['message']}): "
                       "undo or edit it first", "seq")


def declared_this_hand(outcome: dict, requests: list) -> list[str]:
    """Seats that put a riichi stick on the table in this hand: ``outcome.riichi``
    plus any winner whose request says riichi (a winner in riichi declared this hand)."""
    seats = list(outcome.get("riichi", []))
    for r in requests:
        if isinstance(r, dict) and any(r.get(f) for f in RIICHI_FLAGS) and r.get("winner") and r["winner"] not in seats:
            seats.append(r["winner"])
    return seats


def hand_context(variant, state: dict, outcome: dict, requests: list) -> tuple[dict, dict]:
    """The context the hand is scored under, and the outcome extras to record with it.

    The context is the variant's ``prefill(state)``. Where it carries
    ``riichi_sticks`` (the sticks already on the table), the sticks declared in
    this hand are added: the engine's ``riichi_sticks`` counts "this hand's and
    earlier hands'" sticks, and the state hooks take this hand's declarations
    from ``outcome.riichi``.
    """
    context = variant.prefill(state)
    if "riichi_sticks" in context:
        declared = declared_this_hand(outcome, requests)
        if declared:
            outcome = {**outcome, "riichi": declared}
            context = {**context, "riichi_sticks": int(context["riichi_sticks"]) + len(declared)}
    return context, outcome


def event_with_context(name: str, fields: dict, context: dict) -> dict:
    """The carried context put into the events that are also outcomes (riichi's)."""
    if name == "chombo" and "dealer" in context:
        return {**fields, "dealer": context["dealer"]}
    if name == "multiple_ron":
        per_hand = {k: v for k, v in context.items() if k != "riichi_sticks"}
        hands = fields.get("hands")
        out = {**fields, "hands": [{**h, **per_hand} if isinstance(h, dict) else h for h in hands]
               if isinstance(hands, list) else hands}
        if "riichi_sticks" in context:
            out["riichi_sticks"] = context["riichi_sticks"]
        return out
    return fields


# ----------------------------------------------------------------------------- service
class SessionService:
    def __init__(self, db: Database, scorer: Callable[[dict], dict] = engine.score,
                 eventer: Callable[[dict], dict] = engine.event, variants: Callable[[Any], Any] = get_variant):
        self.db = db
        self.scorer = scorer
        self.eventer = eventer
        self._variant = variants

    # ---- reading ----------------------------------------------------------------------------
    def _load(self, s: Session, session_id: str, lock: bool = False) -> SessionRow:
        if not isinstance(session_id, str) or len(session_id) > 32:
            raise NotFound("no_session", "no such session", "session_id")
        q = select(SessionRow).where(SessionRow.id == session_id)
        if lock:
            q = q.with_for_update()
        row = s.scalars(q).one_or_none()
        if row is None:
            raise NotFound("no_session", "no such session", "session_id")
        return row

    @staticmethod
    def _entries(s: Session, session_id: str, active_only: bool = True) -> list[EntryRow]:
        q = select(EntryRow).where(EntryRow.session_id == session_id)
        if active_only:
            q = q.where(EntryRow.status == "active")
        return list(s.scalars(q.order_by(EntryRow.position, EntryRow.seq)))

    def _players(self, row: SessionRow) -> list[dict]:
        return [{"seat": p.seat, "name": p.name} for p in row.players]

    def _entry_json(self, e: EntryRow, row: SessionRow, running: dict | None = None) -> dict:
        out = {
            "seq": e.seq, "position": e.position, "kind": e.kind, "name": e.name, "status": e.status,
            "request": e.request, "context": e.context, "outcome": e.outcome, "result": e.result,
            "payments": e.payments, "note": e.note, "created_at": _iso(e.created_at),
            "photo": f"/api/sessions/{row.id}/entries/{e.seq}/photo" if e.photo else None,
        }
        if running is not None:
            out["running"] = dict(running)
        return out

    def _summary(self, s: Session, row: SessionRow, active: list[EntryRow] | None = None) -> dict:
        variant = self._variant(row.variant)
        if active is None:
            active = self._entries(s, row.id)
        state, _ = replay(variant, active)
        try:
            next_context = variant.prefill(state)
        except Exception:  # noqa: BLE001 - the state says why (replay_error); reading must not fail
            next_context = {}
        totals = {seat: 0 for seat in variant.seats}
        for e in active:
            for seat, amount in e.payments.items():
                totals[seat] += amount
        names = {p.seat: p.name for p in row.players}
        return {
            "id": row.id, "title": row.title, "variant": row.variant, "options": row.options,
            "version": row.version, "created_at": _iso(row.created_at), "ended_at": _iso(row.ended_at),
            "players": self._players(row),
            "hands": sum(1 for e in active if e.kind == "hand"),
            "entries": len(active),
            "totals": totals,
            "totals_by_player": {names[seat]: v for seat, v in totals.items()},
            "state": state,
            "next_context": next_context,
            "final": row.final,
        }

    def list_sessions(self) -> list[dict]:
        with self.db.session() as s:
            rows = s.scalars(select(SessionRow).order_by(SessionRow.created_at.desc(), SessionRow.id)).all()
            return [self._summary(s, r) for r in rows]

    def get(self, session_id: str) -> dict:
        """The session with its entries (all of them, with status) and the audit trail."""
        with self.db.session() as s:
            row = self._load(s, session_id)
            entries = self._entries(s, row.id, active_only=False)
            active = [e for e in entries if e.status == "active"]
            out = self._summary(s, row, active)
            running = {seat: 0 for seat in self._variant(row.variant).seats}
            listed = []
            for e in entries:
                if e.status == "active":
                    for seat, amount in e.payments.items():
                        running[seat] += amount
                    listed.append(self._entry_json(e, row, running))
                else:
                    listed.append(self._entry_json(e, row))
            out["history"] = listed
            out["corrections"] = [
                {"action": c.action, "entry_seq": c.entry_seq, "new_entry_seq": c.new_entry_seq,
                 "reason": c.reason, "created_at": _iso(c.created_at)}
                for c in s.scalars(select(CorrectionRow).where(CorrectionRow.session_id == row.id)
                                   .order_by(CorrectionRow.id))
            ]
            return out

    def totals(self, session_id: str) -> dict:
        with self.db.session() as s:
            row = self._load(s, session_id)
            summary = self._summary(s, row)
            keys = ("id", "version", "players", "hands", "entries", "totals", "totals_by_player", "state",
                    "next_context", "final")
            return {k: summary[k] for k in keys}

    def photo_path(self, session_id: str, seq: int) -> Path:
        with self.db.session() as s:
            row = self._load(s, session_id)
            e = s.scalars(select(EntryRow).where(EntryRow.session_id == row.id, EntryRow.seq == seq)).one_or_none()
            if e is None or not e.photo:
                raise NotFound("no_photo", "this entry has no photo", "seq")
            path = self.db.photo_dir / e.photo
            if not path.is_file():
                raise NotFound("no_photo", "the photo file is missing", "seq")
            return path

    # ---- writing ----------------------------------------------------------------------------
    def create(self, variant_name: Any, players: Any, options: Any = None, title: Any = "") -> dict:
        try:
            variant = self._variant(variant_name)
        except EngineError as exc:
            raise SessionError(exc.code, exc.message, exc.field) from exc
        if not isinstance(title, str) or len(title) > 200:
            raise SessionError("bad_title", "title is text of at most 200 characters", "title")
        opts = _check_options(variant, options)
        seated = _check_players(variant, players)
        with self.db.session() as s, s.begin():
            row = SessionRow(id=secrets.token_hex(8), title=title.strip(), variant=variant.name, options=opts,
                             version=1, created_at=utcnow())
            row.players = [PlayerRow(seat=seat, seat_index=variant.seats.index(seat), name=name)
                           for seat, name in seated]
            s.add(row)
        return self.get(row.id)

    def _write(self, session_id: str, version: Any, change: Callable[[Session, SessionRow, list[EntryRow]], dict],
               allow_ended: bool = False) -> dict:
        """Run ``change`` in one transaction under the optimistic version check."""
        if not isinstance(version, int) or isinstance(version, bool):
            raise SessionError("missing_version", "version (the session's version you last saw) is required",
                               "version")
        with self.db.session() as s, s.begin():
            row = self._load(s, session_id, lock=True)
            if row.version != version:
                raise Conflict("stale_version", f"the session changed (version {row.version}, you sent {version}): "
                               "reload it and try again", "version")
            if row.ended_at is not None and not allow_ended:
                raise Conflict("session_ended", "the session has ended", None)
            active = self._entries(s, row.id)
            extra = change(s, row, active)
            done = s.execute(update(SessionRow).where(SessionRow.id == row.id, SessionRow.version == version)
                             .values(version=version + 1))
            if done.rowcount != 1:
                raise Conflict("stale_version", "the session changed meanwhile: reload it and try again", "version")
            s.flush()
            s.expire(row)
            summary = self._summary(s, row)
        summary.update(extra)
        return summary

    def _next_seq(self, s: Session, session_id: str) -> int:
        from sqlalchemy import func

        last = s.scalar(select(func.max(EntryRow.seq)).where(EntryRow.session_id == session_id))
        return (last or 0) + 1

    def _score_hand(self, row: SessionRow, state: dict, request: Any,
                    outcome: dict) -> tuple[dict, dict, dict, dict, dict]:
        variant = self._variant(row.variant)
        if not isinstance(request, dict):
            raise SessionError("bad_type", "request must be an object (the engine's score request)", "request")
        if request.get("variant", row.variant) != row.variant:
            raise SessionError("bad_request", f"this is a {row.variant} session", "request.variant")
        if request.get("options", row.options) != row.options:
            raise SessionError("bad_request", "the session sets the table rules (options)", "request.options")
        context, outcome = hand_context(variant, state, outcome, [request])
        full = {**request, **context, "variant": row.variant, "options": dict(row.options)}
        try:
            result = self.scorer(full)
        except EngineError as exc:
            raise SessionError(exc.code, exc.message, f"request.{exc.field}" if exc.field else "request") from exc
        if not result.get("winning"):
            raise SessionError("not_winning", result.get("reason") or "the hand is not a winning hand", "request")
        payments = result.get("payments")
        if not isinstance(payments, dict):
            raise SessionError("scoring_unsupported", f"the engine cannot score {row.variant} hands yet", "request")
        return full, context, result, _check_payments(payments, variant.seats), outcome

    def _save_photo(self, photo: bytes | None) -> str | None:
        if not photo:
            return None
        name = secrets.token_hex(12) + photo_suffix(photo)
        path = self.db.photo_dir / name
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(photo)
            f.flush()
            os.fsync(f.fileno())
        return name

    def _drop_photo(self, name: str | None) -> None:
        if name:
            try:
                (self.db.photo_dir / name).unlink()
            except OSError:
                pass

    def record_hand(self, session_id: str, version: Any, request: Any, outcome: Any = None,
                    note: Any = None, photo: bytes | None = None) -> dict:
        note = _note(note)
        photo_name = self._save_photo(photo)  # before the transaction; removed again if it fails

        def change(s, row, active):
            _, extra, state = self._replayed(row, active, outcome)
            check_open(state)
            full, context, result, payments, extra = self._score_hand(row, state, request, extra)
            seq = self._add_entry(s, row, state, kind="hand", name="win", request=full, context=context, outcome=extra,
                                  result=result, payments=payments, photo=photo_name, note=note)
            return {"recorded": {"seq": seq, "payments": payments, "context": context, "result": result}}

        try:
            return self._write(session_id, version, change)
        except BaseException:
            self._drop_photo(photo_name)
            raise

    def _run_event(self, row: SessionRow, variant, name: Any, fields: dict, field: str) -> tuple[dict, dict, dict]:
        """Call the engine for one of the variant's events: (request, result, payments)."""
        if not isinstance(name, str) or name not in variant.events:
            known = ", ".join(sorted(variant.events)) or "none"
            raise SessionError("unknown_event", f"{row.variant} has no event '{str(name)[:40]}' (known: {known})",
                               field)
        request = {**fields, "variant": row.variant, "event": name, "options": dict(row.options)}
        try:
            result = self.eventer(request)
        except EngineError as exc:
            raise SessionError(exc.code, exc.message, exc.field) from exc
        return request, result, _check_payments(result.get("payments"), variant.seats)

    def _replayed(self, row: SessionRow, active: list[EntryRow], outcome: Any) -> tuple[Any, dict, dict]:
        """The session's variant, the checked outcome extras and the carried state now."""
        variant = self._variant(row.variant)
        extra = _check_outcome(outcome, variant.seats)
        state, _ = replay(variant, active)
        return variant, extra, state

    def _add_entry(self, s: Session, row: SessionRow, state: dict, **fields) -> int:
        """Add an active entry recorded under the carried ``state``; one the variant's hooks
        would not replay from there is refused (422) and nothing is written."""
        seq = self._next_seq(s, row.id)
        e = EntryRow(session_id=row.id, seq=seq, position=fields.pop("position", seq), status="active",
                     created_at=utcnow(), **fields)
        check_advances(self._variant(row.variant), state, e)
        s.add(e)
        return seq

    def record_event(self, session_id: str, version: Any, name: Any, fields: Any = None, note: Any = None,
                     outcome: Any = None) -> dict:
        note = _note(note)
        fields = _event_fields(fields)

        def change(s, row, active):
            variant, extra, state = self._replayed(row, active, outcome)
            context = variant.prefill(state)
            given = fields
            if name in ADVANCING_EVENTS:
                check_open(state)
                hands = fields.get("hands") if isinstance(fields.get("hands"), list) else []
                context, extra = hand_context(variant, state, extra, hands)
                given = event_with_context(name, fields, context)
            request, result, payments = self._run_event(row, variant, name, given, "event")
            seq = self._add_entry(s, row, state, kind="event", name=name, request=request, context=context,
                                  outcome=extra, result=result, payments=payments, note=note)
            return {"recorded": {"seq": seq, "payments": payments, "result": result}}

        return self._write(session_id, version, change)

    def record_draw(self, session_id: str, version: Any, outcome: Any = None, payments_event: Any = None,
                    fields: Any = None, note: Any = None) -> dict:
        """An exhaustive draw: advances the carried state (a draw for ``advance``).

        ``payments_event`` optionally names a variant event (e.g. noten payments)
        whose payments are recorded with the draw, in the same transaction.
        """
        note = _note(note)
        fields = _event_fields(fields)

        def change(s, row, active):
            variant, extra, state = self._replayed(row, active, outcome)
            check_open(state)
            result: dict = {}
            payments = {seat: 0 for seat in variant.seats}
            request: dict = {"variant": row.variant, "event": "draw", "options": dict(row.options)}
            if payments_event is not None:
                if "tenpai" in extra:
                    fields.setdefault("tenpai", extra["tenpai"])
                request, result, payments = self._run_event(row, variant, payments_event, fields, "payments_event")
            seq = self._add_entry(s, row, state, kind="draw", name="draw", request=request,
                                  context=variant.prefill(state), outcome=extra, result=result, payments=payments,
                                  note=note)
            return {"recorded": {"seq": seq, "payments": payments, "result": result}}

        return self._write(session_id, version, change)

    def _active_entry(self, s: Session, row: SessionRow, seq: Any) -> EntryRow:
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise SessionError("bad_type", "seq must be a whole number", "seq")
        e = s.scalars(select(EntryRow).where(EntryRow.session_id == row.id, EntryRow.seq == seq)).one_or_none()
        if e is None:
            raise NotFound("no_entry", f"no entry {seq} in this session", "seq")
        if e.status != "active":
            raise Conflict("already_corrected", f"entry {seq} was already {e.status}", "seq")
        return e

    def undo(self, session_id: str, version: Any, seq: Any = None, reason: Any = None) -> dict:
        """Mark an entry (default: the last active one) undone; it stays in the history."""
        reason = _note(reason)

        def change(s, row, active):
            target = seq
            if target is None:
                if not active:
                    raise SessionError("nothing_to_undo", "the session has no entry to undo", "seq")
                target = max(active, key=lambda e: (e.position, e.seq)).seq
            e = self._active_entry(s, row, target)
            e.status = "undone"
            s.add(CorrectionRow(session_id=row.id, action="undo", entry_seq=e.seq, reason=reason,
                                created_at=utcnow()))
            return {"undone": e.seq}

        return self._write(session_id, version, change)

    def edit(self, session_id: str, version: Any, seq: Any, request: Any, outcome: Any = None,
             reason: Any = None) -> dict:
        """Replace a recorded hand by a corrected one at the same place in the play.

        The old entry is kept, marked ``replaced``; the new one is scored under
        the carried state of its place. Later hands keep their recorded results.
        """
        reason = _note(reason)

        def change(s, row, active):
            e = self._active_entry(s, row, seq)
            if e.kind != "hand":
                raise SessionError("not_a_hand", "only hands can be edited; undo an event and record it again", "seq")
            variant = self._variant(row.variant)
            extra = _check_outcome(outcome if outcome is not None else e.outcome, variant.seats)
            state, before = replay(variant, active)
            if e.seq not in before:  # the replay stopped at an earlier entry
                check_open(state)
            full, context, result, payments, extra = self._score_hand(row, before[e.seq], request, extra)
            e.status = "replaced"
            new_seq = self._add_entry(s, row, before[e.seq], position=e.position, kind="hand", name="win",
                                      request=full, context=context, outcome=extra, result=result, payments=payments,
                                      photo=e.photo, note=e.note)
            s.add(CorrectionRow(session_id=row.id, action="edit", entry_seq=e.seq, new_entry_seq=new_seq,
                                reason=reason, created_at=utcnow()))
            return {"replaced": e.seq, "recorded": {"seq": new_seq, "payments": payments, "context": context,
                                                    "result": result}}

        return self._write(session_id, version, change)

    def end(self, session_id: str, version: Any) -> dict:
        """End the session; the final totals (with riichi uma where the engine has it) are kept."""

        def change(s, row, active):
            variant = self._variant(row.variant)
            totals = {seat: 0 for seat in variant.seats}
            for e in active:
                for seat, amount in e.payments.items():
                    totals[seat] += amount
            final: dict = {"totals": totals}
            state, _ = replay(variant, active)
            if "uma" in variant.events:
                scores = state.get("scores") if isinstance(state.get("scores"), dict) else totals
                request = {"variant": row.variant, "event": "uma", "options": dict(row.options), "scores": scores}
                if isinstance(state.get("penalties"), dict) and any(state["penalties"].values()):
                    # the state keeps a penalty as a signed change (-20000); the uma event
                    # takes the points taken off (20000)
                    request["penalties"] = {seat: abs(int(v)) for seat, v in state["penalties"].items() if v}
                try:
                    final["uma"] = self.eventer(request)
                except EngineError as exc:
                    raise SessionError(exc.code, f"uma: {exc.message}", exc.field) from exc
            row.ended_at = utcnow()
            row.final = final
            return {}

        return self._write(session_id, version, change)

    # ---- export / import --------------------------------------------------------------------
    def export_json(self, session_id: str) -> dict:
        full = self.get(session_id)
        return {
            "format": EXPORT_FORMAT, "format_version": EXPORT_VERSION,
            "session": {k: full[k] for k in ("id", "title", "variant", "options", "created_at", "ended_at",
                                             "players", "final")},
            "entries": [{k: e[k] for k in ("seq", "position", "kind", "name", "status", "request", "context",
                                           "outcome", "result", "payments", "note", "created_at")}
                        for e in full["history"]],
            "corrections": full["corrections"],
            "totals": full["totals"],
            "state": full["state"],
        }

    def export_csv(self, session_id: str) -> str:
        full = self.get(session_id)
        seats = [p["seat"] for p in full["players"]]
        names = {p["seat"]: p["name"] for p in full["players"]}
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["seq", "kind", "name", "winner", "discarder", "dealer", "points"]
                   + [f"{names[s]} ({s})" for s in seats] + [f"total {names[s]}" for s in seats])
        for e in full["history"]:
            if e["status"] != "active":
                continue
            req = e["request"] if e["kind"] == "hand" else {}
            points = (e["result"].get("score") or {}).get("total", "") if isinstance(e["result"].get("score"),
                                                                                       dict) else ""
            w.writerow([e["seq"], e["kind"], e["name"], req.get("winner", ""), req.get("discarder") or "",
                        e["context"].get("dealer", ""), points]
                       + [e["payments"].get(s, 0) for s in seats] + [e["running"][s] for s in seats])
        return buf.getvalue()

    def import_json(self, data: Any) -> dict:
        """A new session from a JSON export (from this or another machine).

        The recorded results are kept as they were (they are the evening's
        history); their shape and zero-sum payments are checked, and the active
        entries must replay through the variant's hooks (else 422, nothing saved).
        """
        if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
            raise SessionError("bad_import", f"not a {EXPORT_FORMAT} export", "format")
        if data.get("format_version") != EXPORT_VERSION:
            raise SessionError("bad_import", f"unsupported export version {data.get('format_version')!r}",
                               "format_version")
        meta = data.get("session")
        entries = data.get("entries")
        if not isinstance(meta, dict) or not isinstance(entries, list):
            raise SessionError("bad_import", "the export needs session and entries", "session")
        try:
            variant = self._variant(meta.get("variant"))
        except EngineError as exc:
            raise SessionError(exc.code, exc.message, "session.variant") from exc
        opts = _check_options(variant, meta.get("options"))
        seated = _check_players(variant, meta.get("players"))
        title = meta.get("title") or ""
        if not isinstance(title, str) or len(title) > 200:
            raise SessionError("bad_title", "title is text of at most 200 characters", "session.title")
        rows: list[EntryRow] = []
        seen: set[int] = set()
        for i, e in enumerate(entries):
            f = f"entries[{i}]"
            if not isinstance(e, dict):
                raise SessionError("bad_import", "an entry is an object", f)
            seq, pos = e.get("seq"), e.get("position")
            if not isinstance(seq, int) or not isinstance(pos, int) or seq < 1 or seq in seen:
                raise SessionError("bad_import", "seq and position are distinct whole numbers", f)
            seen.add(seq)
            if e.get("kind") not in ("hand", "event", "draw") or e.get("status") not in ("active", "undone",
                                                                                         "replaced"):
                raise SessionError("bad_import", "unknown kind or status", f)
            for key in ("request", "context", "outcome", "result"):
                if not isinstance(e.get(key), dict):
                    raise SessionError("bad_import", f"{key} must be an object", f"{f}.{key}")
            if e["kind"] == "hand" and e["request"].get("variant") != variant.name:
                raise SessionError("bad_import", "a hand of another variant", f"{f}.request")
            rows.append(EntryRow(seq=seq, position=pos, kind=e["kind"], name=str(e.get("name", ""))[:40],
                                 request=e["request"], context=e["context"],
                                 outcome=_check_outcome(e["outcome"], variant.seats), result=e["result"],
                                 payments=_check_payments(e.get("payments"), variant.seats, f"{f}.payments"),
                                 note=_note(e.get("note")), status=e["status"], created_at=utcnow()))
        corrections = data.get("corrections") or []
        if not isinstance(corrections, list):
            raise SessionError("bad_import", "corrections must be a list", "corrections")
        crows = []
        for i, c in enumerate(corrections):
            if not isinstance(c, dict) or c.get("action") not in ("undo", "edit") or c.get("entry_seq") not in seen:
                raise SessionError("bad_import", "a correction names an action and an entry", f"corrections[{i}]")
            new = c.get("new_entry_seq")
            if new is not None and new not in seen:
                raise SessionError("bad_import", "a correction names an unknown entry", f"corrections[{i}]")
            crows.append(CorrectionRow(action=c["action"], entry_seq=c["entry_seq"], new_entry_seq=new,
                                       reason=_note(c.get("reason")), created_at=utcnow()))
        active = sorted((r for r in rows if r.status == "active"), key=lambda r: (r.position, r.seq))
        state, _ = replay(variant, active)
        if "replay_error" in state:  # refused here: stored, it would block the session for good
            err = state["replay_error"]
            index = next((i for i, r in enumerate(rows) if r.seq == err["seq"]), None)
            raise SessionError("bad_import", f"entry {err['seq']} cannot be replayed ({err['message']})",
                               "entries" if index is None else f"entries[{index}]")
        final = meta.get("final")
        ended = meta.get("ended_at")
        with self.db.session() as s, s.begin():
            row = SessionRow(id=secrets.token_hex(8), title=title, variant=variant.name, options=opts, version=1,
                             created_at=utcnow(), ended_at=utcnow() if ended else None,
                             final=final if isinstance(final, dict) else None)
            row.players = [PlayerRow(seat=seat, seat_index=variant.seats.index(seat), name=name)
                           for seat, name in seated]
            s.add(row)
            s.flush()
            for r in rows + crows:
                r.session_id = row.id
                s.add(r)
        return self.get(row.id)
