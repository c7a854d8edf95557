"""``POST /api/scan``: a photo in (multipart field ``photo``), the
``vision.scan`` result out.

Scans run on a worker pool (threads by default: OpenCV and onnxruntime release
the GIL), never on the event loop, and at most ``MAX_WAITING`` scans queue
behind the workers before the server answers 503.
"""
from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor

from fastapi import APIRouter, File, Request, UploadFile
from fastapi.responses import JSONResponse

from .errors import error_response
from .models import ErrorBody, ScanResponse

log = logging.getLogger("api.scan")
router = APIRouter(prefix="/api", tags=["scan"])
MAX_WAITING = 8


def _executor(app):
    if app.state.scan_executor is None:
        app.state.scan_executor = ThreadPoolExecutor(app.state.scan_workers, thread_name_prefix="scan")
        app.state.owns_executor = True
    return app.state.scan_executor


def shutdown_pool(app) -> None:
    if getattr(app.state, "owns_executor", False) and app.state.scan_executor is not None:
        app.state.scan_executor.shutdown(wait=False, cancel_futures=True)
        app.state.scan_executor = None
        app.state.owns_executor = False


def _scanner(app):
    if app.state.scanner is None:
        # Imported on first scan: the page and scoring do not need OpenCV loaded.
        # (Not ``vision.scan``: once the submodule vision.scan is imported that
        # package attribute names the module, not the function.)
        from vision.scan import scan as vision_scan

        app.state.scanner = vision_scan
    return app.state.scanner


def plain(value):
    """The value with numpy scalars and arrays turned into JSON types."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if hasattr(value, "tolist"):  # numpy array or scalar
        return plain(value.tolist())
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        return value.item()
    return value


@router.post(
    "/scan",
    summary="Scan a photo of a hand",
    description="Upload a photo (JPEG or PNG, at most 25 MB) in the multipart field `photo`. "
                "The answer is the `vision.scan` result: every tile found with its top-3 guesses and "
                "corners in image pixels, and the hand grouped into concealed tiles, melds and flowers.",
    response_model=ScanResponse,
    responses={400: {"model": ErrorBody, "description": "the body is not valid multipart data"},
               413: {"model": ErrorBody, "description": "the photo is over 25 MB"},
               422: {"model": ErrorBody, "description": "not a readable image"},
               500: {"model": ErrorBody, "description": "the scanner failed (e.g. no model installed)"},
               503: {"model": ErrorBody, "description": "too many scans waiting"}},
)
async def scan(request: Request, photo: UploadFile = File(..., description="the photo (JPEG or PNG)")):
    app = request.app
    waiting = getattr(app.state, "scans_waiting", 0)
    if waiting >= MAX_WAITING:  # checked before the photo is read into memory: 100 uploads at once stay cheap
        return error_response(503, "busy", "The server is busy with other scans; try again in a moment.",
                              headers={"Retry-After": "2"})
    app.state.scans_waiting = waiting + 1
    try:
        data = await photo.read()
        if not data:
            return error_response(422, "empty_photo", "The photo is empty.", "photo")
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(_executor(app), _scanner(app), data)
    except ValueError as exc:  # vision.decode.ScanError and friends: unreadable or unusable images
        code = getattr(exc, "code", None) or "bad_image"
        message = getattr(exc, "message", None) or str(exc) or "The photo could not be read as an image."
        return error_response(422, code, message, "photo")
    except Exception as exc:  # a broken install (no model file...) must still answer in the error shape
        log.exception("scan failed")
        # The file name of a missing model helps; a path or an exception's text would leak the server's layout.
        missing = f" ({str(exc.filename or exc).rsplit('/', 1)[-1]} is missing)" if isinstance(exc, FileNotFoundError) else ""
        return error_response(500, "scan_failed", f"The scan failed on the server: {type(exc).__name__}{missing}. See its log.")
    finally:
        app.state.scans_waiting -= 1
    return JSONResponse(plain(result))
