"""``/api/sessions``: the HTTP face of :mod:`api.sessions.service`.

Mounted by ``init_sessions(app, data_dir)``. The pairing-token guard in front
of every ``/api`` path (``api.guard.TokenGuard``) protects these routes too.
Errors have the server's shape ``{"error": {code, message, field}}``; a stale
``version`` is HTTP 409.
"""
from __future__ import annotations

import json
from pathlib import Path

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect

from ..models import ErrorBody
from .db import open_database
from .schemas import CreateSession, Edit, RecordDraw, RecordEvent, RecordHand, SessionSummary, Undo, Versioned
from .service import SessionError, SessionService

router = APIRouter(prefix="/api/sessions", tags=["sessions"], responses={
    status: {"model": ErrorBody, "description": what} for status, what in (
        (400, "the upload was cut off (the client disconnected)"), (404, "no such session, entry or photo"),
        (409, "stale version"),
        (413, "the body or photo is too large"), (422, "a request the session cannot take"))})
MB = 1024 * 1024
MAX_PHOTO = 20 * MB


def init_sessions(app: FastAPI, data_dir: Path, url: str | None = None) -> SessionService:
    """Open the sessions database (running its migrations) and mount the router."""
    service = SessionService(open_database(Path(data_dir), url))
    app.state.sessions = service
    app.include_router(router)
    return service


def _error(exc: SessionError) -> JSONResponse:
    return JSONResponse(exc.to_json(), status_code=exc.status)


async def _call(fn, *args, **kwargs):
    try:
        return JSONResponse(await run_in_threadpool(fn, *args, **kwargs))
    except SessionError as exc:
        return _error(exc)


def _svc(request: Request) -> SessionService:
    return request.app.state.sessions


@router.get("", summary="List the sessions, newest first", response_model=list[SessionSummary])
async def list_sessions(request: Request):
    return await _call(_svc(request).list_sessions)


@router.post("", summary="Start a session", response_model=SessionSummary)
async def create_session(body: CreateSession, request: Request):
    players = [p if isinstance(p, str) else p.model_dump(exclude_none=True) for p in body.players]
    return await _call(_svc(request).create, body.variant, players, body.options, body.title)


@router.post("/import", summary="Import a session from a JSON export (a new session id)")
async def import_session(request: Request):
    try:
        data = json.loads(await request.body())
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return _error(SessionError("bad_json", f"the body is not JSON: {exc}"))
    except RecursionError:
        return _error(SessionError("bad_json", "the body is nested too deeply to read as JSON"))
    except ClientDisconnect:
        return _error(_cut_off())
    return await _call(_svc(request).import_json, data)


@router.get("/{session_id}", summary="A session with its history and corrections")
async def get_session(session_id: str, request: Request):
    return await _call(_svc(request).get, session_id)


@router.get("/{session_id}/totals", summary="Running totals, carried state and the next hand's context")
async def totals(session_id: str, request: Request):
    return await _call(_svc(request).totals, session_id)


def _cut_off() -> SessionError:
    return SessionError("client_disconnect", "the upload was cut off: the client disconnected", None, status=400)


async def _hand_body(request: Request) -> tuple[dict, bytes | None]:
    """A JSON body, or multipart with a ``record`` JSON field and an optional ``photo`` file."""
    try:
        text, data = await _read_hand_body(request)
    except ClientDisconnect as exc:  # nobody is left to answer: no error in the log (as /api/scan)
        raise _cut_off() from exc
    try:
        body = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SessionError("bad_json", f"the record is not JSON: {exc}", "record") from exc
    except RecursionError as exc:
        raise SessionError("bad_json", "the record is nested too deeply to read as JSON", "record") from exc
    try:
        parsed = RecordHand.model_validate(body)
    except ValueError as exc:
        first = getattr(exc, "errors", lambda: [{}])()[0]
        field = ".".join(str(p) for p in first.get("loc", ())) or None
        raise SessionError("bad_request", f"{field}: {first.get('msg', 'invalid')}", field) from exc
    return parsed.model_dump(), data or None


async def _read_hand_body(request: Request) -> tuple[str, bytes | None]:
    """The record's JSON text and the photo's bytes (None: no photo)."""
    ctype = request.headers.get("content-type", "")
    if ctype.startswith("multipart/form-data"):
        form = await request.form(max_files=1, max_fields=4)
        raw = form.get("record")
        if not isinstance(raw, str):
            raise SessionError("bad_request", "the multipart body needs a 'record' JSON field", "record")
        photo = form.get("photo")
        data = None
        if photo is not None and not isinstance(photo, str):
            data = await photo.read(MAX_PHOTO + 1)
            if len(data) > MAX_PHOTO:
                raise SessionError("too_large", f"the photo is too large: the limit is {MAX_PHOTO // MB} MB",
                                   "photo", status=413)
        return raw, data
    return (await request.body()).decode("utf-8", "replace"), None


@router.post("/{session_id}/hands", summary="Record a winning hand (JSON, or multipart with a photo)",
             openapi_extra={"requestBody": {"required": True, "content": {
                 "application/json": {"schema": RecordHand.model_json_schema()},
                 "multipart/form-data": {"schema": {"type": "object", "properties": {
                     "record": {"type": "string", "description": "the JSON body as text"},
                     "photo": {"type": "string", "format": "binary"}}, "required": ["record"]}}}}})
async def record_hand(session_id: str, request: Request):
    try:
        body, photo = await _hand_body(request)
    except SessionError as exc:
        return _error(exc)
    return await _call(_svc(request).record_hand, session_id, body["version"], body["request"],
                       body["outcome"], body["note"], photo)


@router.post("/{session_id}/events", summary="Record a non-hand event (kong bonus, false win...)")
async def record_event(session_id: str, body: RecordEvent, request: Request):
    return await _call(_svc(request).record_event, session_id, body.version, body.event, body.fields, body.note,
                       body.outcome)


@router.post("/{session_id}/draws", summary="Record an exhaustive draw (optionally with its payments event)")
async def record_draw(session_id: str, body: RecordDraw, request: Request):
    return await _call(_svc(request).record_draw, session_id, body.version, body.outcome, body.payments_event,
                       body.fields, body.note)


@router.post("/{session_id}/undo", summary="Undo an entry (kept in the history as undone)")
async def undo(session_id: str, body: Undo, request: Request):
    return await _call(_svc(request).undo, session_id, body.version, body.seq, body.reason)


@router.post("/{session_id}/entries/{seq}/edit", summary="Replace a recorded hand by a corrected one")
async def edit(session_id: str, seq: int, body: Edit, request: Request):
    return await _call(_svc(request).edit, session_id, body.version, seq, body.request, body.outcome, body.reason)


@router.post("/{session_id}/end", summary="End the session (final totals, riichi uma)")
async def end(session_id: str, body: Versioned, request: Request):
    return await _call(_svc(request).end, session_id, body.version)


async def _download(fn, session_id: str, make) -> Response:
    try:
        data = await run_in_threadpool(fn, session_id)
    except SessionError as exc:
        return _error(exc)
    return make(data)


def _attachment(session_id: str, suffix: str) -> dict:
    return {"Content-Disposition": f'attachment; filename="session-{session_id}.{suffix}"'}


@router.get("/{session_id}/export.json", summary="The whole session as JSON (importable)")
async def export_json(session_id: str, request: Request):
    return await _download(_svc(request).export_json, session_id,
                           lambda data: JSONResponse(data, headers=_attachment(session_id, "json")))


@router.get("/{session_id}/export.csv", summary="The active entries with payments and running totals as CSV")
async def export_csv(session_id: str, request: Request):
    return await _download(_svc(request).export_csv, session_id,
                           lambda text: Response(text, media_type="text/csv; charset=utf-8",
                                                 headers=_attachment(session_id, "csv")))


@router.get("/{session_id}/entries/{seq}/photo", summary="The photo of a recorded hand")
async def photo(session_id: str, seq: int, request: Request):
    try:
        path = await run_in_threadpool(_svc(request).photo_path, session_id, seq)
    except SessionError as exc:
        return _error(exc)
    media = {".jpg": "image/jpeg", ".png": "image/png", ".webp": "image/webp"}.get(path.suffix, "application/octet-stream")
    return FileResponse(path, media_type=media, headers={"Cache-Control": "private, max-age=86400",
                                                         "X-Content-Type-Options": "nosniff"})
