"""The direction of the project's dependencies, read off the source (every import, at any depth in a
module, lazy ones too):

- ``engine/`` knows nothing of images or HTTP: the standard library only;
- ``vision/`` knows nothing of rules or HTTP: of the engine it uses the tile codes alone;
- inside ``vision/``, the detector's steps import one another only downward (docs/vision.md, "How
  it works"), so that each can be read, tested and changed without the ones above it."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# the detector's modules by layer: a module imports only modules of a lower layer
DETECTOR_LAYERS = {
    "quads": 0, "small_stats": 0, "white_balance": 0, "outlines": 0, "background": 0,
    "table_colour": 1, "face_mask": 1, "body_side": 1,
    "seams": 2, "face_down": 2,
    "detect": 3,
}


def _imports(path: Path) -> list[tuple[int, str]]:
    """(level, dotted name) of every import in ``path``: ``from .x import y`` gives (1, "x.y") and
    (1, "x"), ``import a.b`` (0, "a.b")."""
    out = []
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.Import):
            out += [(0, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            out.append((node.level, base))
            out += [(node.level, f"{base}.{a.name}" if base else a.name) for a in node.names]
    return out


def _files(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def test_the_engine_imports_the_standard_library_only():
    stdlib = set(sys.stdlib_module_names)
    for path in _files("engine"):
        for level, name in _imports(path):
            if level == 0:
                assert name.split(".")[0] in stdlib | {"engine"}, f"{path.relative_to(ROOT)} imports {name}"


def test_vision_uses_the_engine_for_tile_codes_only_and_nothing_of_the_server():
    for path in _files("vision"):
        for level, name in _imports(path):
            top = name.split(".")[0]
            where = f"{path.relative_to(ROOT)} imports {name}"
            assert level > 0 or top not in ("api", "fastapi", "starlette", "uvicorn", "sqlalchemy"), where
            if level == 0 and top == "engine":
                assert name == "engine" or name.startswith("engine.tiles"), where


@pytest.mark.parametrize("module", sorted(DETECTOR_LAYERS))
def test_the_detectors_steps_import_only_downward(module):
    layer = DETECTOR_LAYERS[module]
    for level, name in _imports(ROOT / "vision" / f"{module}.py"):
        if level != 1 or not name:
            continue
        other = name.split(".")[0]
        if other in DETECTOR_LAYERS:
            assert DETECTOR_LAYERS[other] < layer, f"vision/{module}.py imports vision.{other}"
