"""``GET /api/tiles/{code}.png``: the picture of one tile, so the page needs no
outside assets. The PNGs live in ``api/static/tiles/`` (drawn by the classifier
engineer); only engine tile codes and ``back`` are served."""
from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from engine.tiles import KINDS

from .errors import error_response
from .models import ErrorBody

TILES_DIR = Path(__file__).resolve().parent / "static" / "tiles"
VALID_CODES = frozenset(KINDS) | {"back"}

router = APIRouter(prefix="/api", tags=["tiles"])


@router.get(
    "/tiles/{code}.png",
    summary="The picture of a tile",
    response_class=FileResponse,
    responses={200: {"content": {"image/png": {}}},
               404: {"model": ErrorBody, "description": "not a tile code, or its picture is not installed"}},
)
async def tile_image(code: str):
    if code not in VALID_CODES:
        return error_response(404, "unknown_tile", f"'{code}' is not a tile code (e.g. 5p, 7z, 1f, back).", "code")
    path = TILES_DIR / f"{code}.png"
    if not path.is_file():
        return error_response(404, "tile_image_missing", f"No picture of tile '{code}' is installed in api/static/tiles.", "code")
    return FileResponse(path, media_type="image/png", headers={"Cache-Control": "private, max-age=86400"})
