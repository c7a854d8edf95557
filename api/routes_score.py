"""``POST /api/score`` (the engine's JSON contract, passed through unchanged),
``POST /api/score/many`` (several of them in one call) and ``GET /api/variants`` (each
variant's options, flags and defaults)."""
from __future__ import annotations

import json
from functools import lru_cache

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

import engine
from engine.errors import EngineError

from .errors import error_response
from .models import MAX_MANY, ErrorBody, ScoreManyRequest, ScoreManyResponse, ScoreRequest, ScoreResponse, VariantSpec

router = APIRouter(prefix="/api", tags=["score"])


def inline_schema(model) -> dict:
    """The model's JSON schema with its ``$defs`` references written out in place."""
    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})

    def resolve(node):
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                return resolve(defs[ref.split("/")[-1]])
            return {k: resolve(v) for k, v in node.items()}
        if isinstance(node, list):
            return [resolve(v) for v in node]
        return node

    return resolve(schema)


def json_body(model) -> dict:
    """The ``openapi_extra`` of a route that reads its JSON body itself: ``model``'s schema, inlined."""
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": inline_schema(model)}}}}


@router.post(
    "/score",
    summary="Score a hand",
    description="Exactly the engine's JSON contract: the request below in, the result out. "
                "A hand the engine cannot take gives HTTP 422 with the engine's error JSON.",
    response_model=ScoreResponse,
    responses={422: {"model": ErrorBody, "description": "a bad hand or request (the engine's error JSON)"}},
    openapi_extra=json_body(ScoreRequest),
)
async def score(request: Request) -> JSONResponse:
    must = "The request body must be a JSON object (the engine's contract)."
    payload, refused = _json_object(await request.body(), must)
    if refused is not None:
        return refused
    try:
        result = await run_in_threadpool(engine.score, payload)
    except EngineError as exc:
        return JSONResponse(exc.to_json(), status_code=422)
    return JSONResponse(result)


@router.post(
    "/score/many",
    summary="Score several hands at once",
    description=f"`{{\"requests\": [...]}}`: 1 to {MAX_MANY} requests, each exactly the engine's contract as for "
                "`POST /api/score`. The answer holds one item per request, in order: `{\"result\": ...}` with "
                "exactly `engine.score`'s answer, or `{\"error\": ...}` with the engine's error for that hand; a bad "
                "hand does not fail the others. A body that is not such an object (each request a JSON object) "
                "gives HTTP 422.",
    response_model=ScoreManyResponse,
    responses={422: {"model": ErrorBody, "description": f"not a JSON object with 1 to {MAX_MANY} requests"}},
    openapi_extra=json_body(ScoreManyRequest),
)
async def score_many(request: Request) -> JSONResponse:
    must = 'The request body must be a JSON object {"requests": [...]} holding a list of score requests.'
    payload, refused = _json_object(await request.body(), must, "requests")
    if refused is not None:
        return refused
    requests = payload.get("requests")
    if not isinstance(requests, list):
        return error_response(422, "bad_json", must, "requests")
    if not 1 <= len(requests) <= MAX_MANY:
        return error_response(422, "bad_request", f"Send 1 to {MAX_MANY} score requests at once, "
                              f"not {len(requests)}.", "requests")
    odd = next((i for i, req in enumerate(requests) if not isinstance(req, dict)), None)
    if odd is not None:
        return error_response(422, "bad_json", f"Request {odd} is not a JSON object (the engine's contract).",
                              "requests")
    return JSONResponse({"results": await run_in_threadpool(_score_each, requests)})


def _json_object(raw: bytes, must: str, field: str | None = None) -> tuple[dict | None, JSONResponse | None]:
    """(the body as a JSON object, None), or (None, the 422 ``bad_json`` answer: ``must`` where it is
    JSON but no object)."""
    try:
        payload = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, error_response(422, "bad_json", f"The request body is not JSON: {exc}.")
    except RecursionError:
        return None, error_response(422, "bad_json", "The request body is nested too deeply to read as JSON.")
    if not isinstance(payload, dict):
        return None, error_response(422, "bad_json", must, field)
    return payload, None


def _score_each(requests: list) -> list[dict]:
    """``engine.score`` of each request: ``{"result": ...}`` or the engine's ``{"error": ...}``."""
    out = []
    for req in requests:
        try:
            out.append({"result": engine.score(req)})
        except EngineError as exc:
            out.append(exc.to_json())
    return out


@lru_cache(maxsize=1)
def variants_table() -> dict:
    return engine.describe_variants()


@router.get("/variants", summary="Every variant's options, flags and defaults",
            response_model=dict[str, VariantSpec])
async def variants() -> JSONResponse:
    return JSONResponse(variants_table())
