"""Tile pictures, the phone page and the OpenAPI viewer: all served locally."""
from __future__ import annotations

import re

import pytest

from api.routes_page import STATIC_DIR
from api.routes_tiles import TILES_DIR
from engine.tiles import KINDS

HAVE_TILE_PNGS = (TILES_DIR / "5p.png").is_file() and (TILES_DIR / "back.png").is_file()
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.mark.skipif(not HAVE_TILE_PNGS, reason="api/static/tiles/*.png are not committed yet (classifier engineer)")
@pytest.mark.parametrize("code", list(KINDS) + ["back"])
def test_every_tile_has_a_png(authed, code):
    r = authed.get(f"/api/tiles/{code}.png")
    assert r.status_code == 200
    assert r.headers["content-type"] == "image/png"
    assert r.content.startswith(PNG_MAGIC)


@pytest.mark.parametrize("code", ["0m", "10p", "8z", "5q", "..%2Fapp", "BACK", "5p.png"])
def test_unknown_tile_codes_are_404(authed, code):
    r = authed.get(f"/api/tiles/{code}.png")
    assert r.status_code == 404
    assert r.json()["error"]["code"] in ("unknown_tile", "not_found")


def test_page_is_served_with_a_same_origin_only_policy(client):
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    csp = r.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "connect-src 'self'" in csp
    assert 'capture="environment"' in r.text and 'accept="image/*"' in r.text
    for asset in ("/static/app.js", "/static/app.css"):
        assert asset in r.text
        assert client.get(asset).status_code == 200


# XML namespace names (SVG, XLink) are identifiers, not addresses that anything fetches.
EXTERNAL = re.compile(r"(https?:)?//(?!www\.w3\.org/(2000/svg|1999/xlink))[a-z0-9.-]+\.[a-z]{2,}", re.I)


@pytest.mark.parametrize("name", ["index.html", "app.js", "app.css"])
def test_page_files_make_no_outside_request(name):
    text = (STATIC_DIR / name).read_text(encoding="utf-8")
    assert not EXTERNAL.search(text), EXTERNAL.search(text)


def test_docs_use_local_swagger_assets(client):
    r = client.get("/docs")
    assert r.status_code == 200
    urls = re.findall(r"""(?:src|href)=["']([^"']+)["']|url: ?'([^']+)'""", r.text)
    flat = [u for pair in urls for u in pair if u]
    assert flat, "the docs page loads nothing?"
    for url in flat:
        assert url.startswith("/"), f"/docs loads {url} from outside"
        assert client.get(url).status_code == 200, url


def test_openapi_describes_every_endpoint(client):
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    for path in ("/api/scan", "/api/score", "/api/variants", "/api/tiles/{code}.png"):
        assert path in paths
    score = paths["/api/score"]["post"]
    assert "variant" in score["requestBody"]["content"]["application/json"]["schema"]["properties"]
    assert "422" in score["responses"]
    ref = paths["/api/scan"]["post"]["requestBody"]["content"]["multipart/form-data"]["schema"]["$ref"]
    assert "photo" in spec["components"]["schemas"][ref.split("/")[-1]]["properties"]


@pytest.mark.parametrize("path", ["/", "/static/app.js", "/static/app.css"])
def test_page_files_revalidate_by_etag(client, path):
    first = client.get(path)
    assert first.status_code == 200 and first.headers["etag"]
    again = client.get(path, headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and not again.content
    name = "index.html" if path == "/" else path.rsplit("/", 1)[1]
    assert first.content == (STATIC_DIR / name).read_bytes()
