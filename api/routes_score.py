"""``POST /api/score`` (the engine's JSON contract, passed through unchanged)
and ``GET /api/variants`` (each variant's options, flags and defaults)."""
from __future__ import annotations

import json
from functools import lru_cache

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

import engine
from engine.errors import EngineError

from .errors import error_response
from .models import ErrorBody, ScoreRequest, ScoreResponse, VariantSpec

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


@router.post(
    "/score",
    summary="Score a hand",
    description="Exactly the engine's JSON contract: the request below in, the result out. "
                "A hand the engine cannot take gives HTTP 422 with the engine's error JSON.",
    response_model=ScoreResponse,
    responses={422: {"model": ErrorBody, "description": "a bad hand or request (the engine's error JSON)"}},
    openapi_extra={"requestBody": {"required": True, "content": {
        "application/json": {"schema": inline_schema(ScoreRequest)}}}},
)
async def score(request: Request) -> JSONResponse:
    raw = await request.body()
    try:
        payload = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return error_response(422, "bad_json", f"The request body is not JSON: {exc}.")
    if not isinstance(payload, dict):
        return error_response(422, "bad_json", "The request body must be a JSON object (the engine's contract).")
    try:
        result = await run_in_threadpool(engine.score, payload)
    except EngineError as exc:
        return JSONResponse(exc.to_json(), status_code=422)
    return JSONResponse(result)


@lru_cache(maxsize=1)
def variants_table() -> dict:
    return engine.describe_variants()


@router.get("/variants", summary="Every variant's options, flags and defaults",
            response_model=dict[str, VariantSpec])
async def variants() -> JSONResponse:
    return JSONResponse(variants_table())
