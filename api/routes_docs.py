"""``/docs``: the OpenAPI document in Swagger UI, served from the locally
installed ``swagger-ui-bundle`` package (FastAPI's default loads it from a
CDN, which a table without internet cannot reach). Without that package
``/docs`` shows a plain page that links ``/openapi.json``."""
from __future__ import annotations

from fastapi import APIRouter
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

try:
    from swagger_ui_bundle import swagger_ui_path
except ImportError:  # optional: see the module docstring
    swagger_ui_path = None

ASSETS = "/docs-assets"
router = APIRouter(include_in_schema=False)

PLAIN_DOCS = """<!doctype html><html><head><meta charset="utf-8"><title>Tilelens API</title></head>
<body><h1>Tilelens API</h1><p>The interactive viewer needs the <code>swagger-ui-bundle</code>
package. The OpenAPI document itself is at <a href="/openapi.json">/openapi.json</a>.</p></body></html>"""


@router.get("/docs")
async def docs():
    if swagger_ui_path is None:
        return HTMLResponse(PLAIN_DOCS)
    return get_swagger_ui_html(
        openapi_url="/openapi.json",
        title="Tilelens API",
        swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js",
        swagger_css_url=f"{ASSETS}/swagger-ui.css",
        swagger_favicon_url=f"{ASSETS}/favicon-32x32.png",
    )


def mount(app) -> None:
    if swagger_ui_path is not None:
        app.mount(ASSETS, StaticFiles(directory=swagger_ui_path), name="docs-assets")
