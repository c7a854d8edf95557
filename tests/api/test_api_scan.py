"""POST /api/scan: upload caps, bad images, the worker pool, and a real scan of a rendered scene."""
from __future__ import annotations

import asyncio
import json
import importlib.util
import threading
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from api.app import create_app

TOKEN = "test-token-0123456789"  # the conftest's token
AUTH = {"Authorization": f"Bearer {TOKEN}"}
MB = 1024 * 1024
REPO = Path(__file__).resolve().parents[2]
HAVE_CLASSIFIER = importlib.util.find_spec("vision.classify") is not None and (REPO / "models" / "tiles.onnx").is_file()


def photo(data: bytes, name="hand.jpg", kind="image/jpeg"):
    return {"files": {"photo": (name, data, kind)}}


def test_a_photo_over_25_mb_gets_413_with_a_clear_message(authed):
    r = authed.post("/api/scan", **photo(b"\xff" * (25 * MB + 1)))
    assert r.status_code == 413
    err = r.json()["error"]
    assert err["code"] == "too_large" and "25 MB" in err["message"] and err["field"] == "photo"


def test_a_streamed_upload_without_length_is_cut_at_the_cap(tmp_path):
    calls = []
    app = create_app(tmp_path, TOKEN, scanner=lambda b: calls.append(b) or {}, photo_limit=64 * 1024)
    body = (b"--b\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\n"
            b"Content-Type: image/jpeg\r\n\r\n" + b"\xff" * (200 * 1024) + b"\r\n--b--\r\n")

    def chunks():
        for i in range(0, len(body), 8192):
            yield body[i:i + 8192]

    with TestClient(app) as c:
        r = c.post("/api/scan", content=chunks(),
                   headers={**AUTH, "Content-Type": "multipart/form-data; boundary=b"})
    assert r.status_code == 413
    assert r.json()["error"]["code"] == "too_large"
    assert calls == []


def test_a_photo_just_under_the_cap_is_accepted(tmp_path):
    seen = []
    app = create_app(tmp_path, TOKEN, scanner=lambda b: seen.append(len(b)) or {"tiles": [], "hand": {}})
    with TestClient(app, headers=AUTH) as c:
        r = c.post("/api/scan", **photo(b"\xff" * (25 * MB - 4096)))
    assert r.status_code == 200
    assert seen == [25 * MB - 4096]


@pytest.mark.parametrize("data", [b"not an image at all", b"\x89PNG\r\n\x1a\n" + b"\x00" * 40, b"\xff\xd8\xff\xe0" + b"\x00" * 40])
def test_bad_images_get_422(authed, data):
    r = authed.post("/api/scan", **photo(data))
    assert r.status_code == 422
    err = r.json()["error"]
    assert err["field"] == "photo" and err["message"]


def test_an_empty_photo_gets_422(authed):
    r = authed.post("/api/scan", **photo(b""))
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "empty_photo"


def test_a_missing_photo_field_gets_422_naming_it(authed):
    r = authed.post("/api/scan", files={"picture": ("a.jpg", b"x", "image/jpeg")})
    assert r.status_code == 422
    assert r.json()["error"]["field"] == "photo"


def test_numpy_values_in_a_scan_result_become_json(tmp_path):
    np = pytest.importorskip("numpy")
    result = {"tiles": [{"tile": "5p", "confidence": np.float32(0.5), "top3": [["5p", np.float64(0.5)]],
                         "corners": np.array([[1, 2], [3, 4], [5, 6], [7, 8]]), "group": "concealed"}],
              "hand": {"concealed": "5p", "melds": [], "flowers": ""}, "timings_ms": {"total": np.float64(3.5)}}
    app = create_app(tmp_path, TOKEN, scanner=lambda b: result)
    with TestClient(app, headers=AUTH) as c:
        r = c.post("/api/scan", **photo(b"\xff\xd8"))
    assert r.status_code == 200
    assert r.json()["tiles"][0]["corners"] == [[1, 2], [3, 4], [5, 6], [7, 8]]
    assert r.json()["tiles"][0]["confidence"] == 0.5


def test_scans_run_off_the_event_loop(tmp_path):
    """While a slow scan runs in the pool, other requests are answered at once."""
    release = threading.Event()

    def slow_scan(data):
        release.wait(5)
        return {"tiles": [], "hand": {"concealed": "", "melds": [], "flowers": ""}}

    app = create_app(tmp_path, TOKEN, scanner=slow_scan)

    async def go():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t", headers=AUTH) as c:
            scan = asyncio.create_task(c.post("/api/scan", **photo(b"\xff\xd8")))
            await asyncio.sleep(0.05)
            t0 = time.perf_counter()
            quick = await c.post("/api/score", json={"variant": "riichi", "concealed": "123m"})
            quick_s = time.perf_counter() - t0
            assert not scan.done()
            release.set()
            return (await scan).status_code, quick.status_code, quick_s

    scan_status, quick_status, quick_s = asyncio.run(go())
    assert scan_status == 200 and quick_status in (200, 422)
    assert quick_s < 2.0


SCENE_HAND = {"concealed": "234m567m345p678s55z", "melds": ["777z"], "flowers": "3f"}


def scene():
    from vision.scenes import make_scene

    # A face style that exists with or without ../shared (Debian's Symbola), so the test reads the
    # same photo everywhere; this scene reads right with the shipped model. How often scenes read
    # right across styles is measured by bench/scan_accuracy.py (docs/vision.md), not here.
    return make_scene(5, hand=SCENE_HAND, width=1600, clutter=False, tilt=15, roll=5, source="symbola")


def test_the_scan_route_answers_what_vision_scan_finds(tmp_path):
    """The real vision pipeline (decode, detect, group) behind the route, with vision's own
    truth stand-in for the classifier: the route returns exactly what ``vision.scan`` finds
    (timings aside), whatever the quality of the model."""
    from vision.scan import scan
    from vision.scenes import truth_classifier

    jpeg, truth = scene()

    def scanner(data):
        return scan(data, classify_fn=truth_classifier(truth))

    direct = json.loads(json.dumps(scanner(jpeg)))
    app = create_app(tmp_path, TOKEN, scanner=scanner)
    with TestClient(app, headers=AUTH) as c:
        r = c.post("/api/scan", **photo(jpeg, "table.jpg"))
    assert r.status_code == 200, r.text
    body = r.json()
    assert set(body["timings_ms"]) == set(direct["timings_ms"])
    body.pop("timings_ms"), direct.pop("timings_ms")
    assert body == direct
    assert body["tiles"] and body["image"]["width"] == truth["image"]["width"]


@pytest.mark.skipif(not HAVE_CLASSIFIER, reason="the tile classifier (vision.classify, models/tiles.onnx) is not in the tree yet")
def test_a_rendered_scene_scans_to_the_right_hand(authed):
    jpeg, truth = scene()
    r = authed.post("/api/scan", **photo(jpeg, "table.jpg"))
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["hand"]["concealed"] == truth["hand"]["concealed"]
    assert [m["tiles"] for m in body["hand"]["melds"]] == [m["tiles"] for m in truth["hand"]["melds"]]
    assert body["hand"]["flowers"] == truth["hand"]["flowers"]
    for tile in body["tiles"]:
        assert len(tile["top3"]) == 3 and len(tile["corners"]) == 4


def test_caps_per_path():
    from api.guard import BodyLimit

    lim = BodyLimit(None, photo_limit=25 * MB, other_limit=1 * MB)
    assert lim.limit_for("/api/scan") == 25 * MB
    assert lim.limit_for("/api/sessions/abc/hands") == 25 * MB  # a recorded hand may carry its photo
    assert lim.limit_for("/api/sessions/import") == 25 * MB
    assert lim.limit_for("/api/score") == 1 * MB
    assert lim.limit_for("/api/sessionsX") == 1 * MB


def test_a_failing_scanner_answers_500_in_the_error_shape(tmp_path):
    def broken(data):
        raise FileNotFoundError("models/tiles.onnx")

    app = create_app(tmp_path, TOKEN, scanner=broken)
    with TestClient(app, headers=AUTH) as c:
        r = c.post("/api/scan", **photo(b"\xff\xd8"))
    assert r.status_code == 500
    assert r.json()["error"]["code"] == "scan_failed" and "tiles.onnx" in r.json()["error"]["message"]
