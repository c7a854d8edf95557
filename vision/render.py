"""Render one tile: a face from one of several sources, on a tile body with rounded corners and
a visible thickness showing the coloured back.

- :func:`render_face` -> the face only (BGR, portrait 3:4).
- :func:`render_tile` -> the whole physical tile seen from straight above (BGRA, transparent
  outside the tile) and the corners of its face in that image.

Every random choice comes from the ``rng`` passed in, so output is reproducible from a seed.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from engine.tiles import INDEX

from .faces import FACE_SOURCES, FLOWERS_NEED_INDEX, ink_layer, sources_for
from .faces.drawn import FLOWER_CHARS, NUMERALS, Canvas, index_mark
from .faces.ink import ink, paste, pick
from .faces.photos import PHOTO_SOURCE, photo_face

__all__ = ["render_tile", "render_face", "FACE_SOURCES", "BACK_COLOURS", "SetColours", "face_colour", "back_colour"]

BACK_COLOURS = {  # BGR
    "green": (55, 135, 35), "dark_green": (45, 85, 20), "blue": (170, 95, 30), "navy": (105, 50, 20),
    "yellow": (40, 195, 225), "orange": (35, 125, 230),
}
CORNER_INDEX = {
    **{f"{n}{s}": str(n) for s in "mps" for n in range(1, 10)},
    "1z": "E", "2z": "S", "3z": "W", "4z": "N", "5z": "PB", "6z": "FG", "7z": "CR",
    **{f"{n}h": str(n) for n in range(1, 5)},
}


def _check(code: str) -> None:
    if code != "back" and code not in INDEX:
        raise ValueError(f"unknown tile code {code!r}")


def face_colour(rng: np.random.Generator) -> np.ndarray:
    """Ivory to white, BGR float."""
    t = rng.random()
    white = np.array([246, 246, 244], np.float32)
    ivory = np.array([190, 226, 240], np.float32)
    c = white * (1 - t) + ivory * t
    return np.clip(c + rng.normal(0, 4, 3), 0, 255)


def back_colour(rng: np.random.Generator, name: str | None = None) -> np.ndarray:
    name = name or str(rng.choice(list(BACK_COLOURS)))
    return np.clip(np.array(BACK_COLOURS[name], np.float32) + rng.normal(0, 12, 3), 0, 255)


@dataclass(frozen=True)
class SetColours:
    """The face and back colours of one tile set. Every tile of a real set has the same two
    colours, up to a little jitter; scenes draw one set per photo (``SetColours.draw``)."""

    face: np.ndarray
    back: np.ndarray

    @classmethod
    def draw(cls, rng: np.random.Generator) -> "SetColours":
        return cls(face_colour(rng), back_colour(rng))

    def face_of(self, rng: np.random.Generator) -> np.ndarray:
        return np.clip(self.face + rng.normal(0, 1.5, 3), 0, 255).astype(np.float32)

    def back_of(self, rng: np.random.Generator) -> np.ndarray:
        return np.clip(self.back + rng.normal(0, 3, 3), 0, 255).astype(np.float32)


def _face_of(colours: SetColours | None, rng) -> np.ndarray:
    return colours.face_of(rng) if colours else face_colour(rng)


def _back_of(colours: SetColours | None, rng) -> np.ndarray:
    return colours.back_of(rng) if colours else back_colour(rng)


def _face_background(h: int, w: int, colour: np.ndarray, rng, clean: bool = False) -> np.ndarray:
    if clean:
        return np.broadcast_to(colour[None, None, :], (h, w, 3)).astype(np.float32)
    yy = np.linspace(-1, 1, h, dtype=np.float32)[:, None, None]
    xx = np.linspace(-1, 1, w, dtype=np.float32)[None, :, None]
    shade = 1 + rng.uniform(-0.04, 0.04) * yy + rng.uniform(-0.04, 0.04) * xx
    img = colour[None, None, :] * shade
    return np.clip(img + rng.normal(0, 1.5, (h, w, 1)), 0, 255)


def render_face(code: str, rng: np.random.Generator, *, height: int = 160, source: str | None = None,
                exclude_sources: tuple[str, ...] = (), clean: bool = False,
                colours: SetColours | None = None) -> np.ndarray:
    """The face of ``code`` (BGR uint8, ``height`` x ``round(0.75 * height)``).

    ``clean``: a flat ivory face without noise or added corner index (for icons).
    ``colours``: the set's colours (default: drawn at random for this tile)."""
    _check(code)
    h, w = int(height), max(1, int(round(height * 0.75)))
    if code == "back":
        bg = _face_background(h, w, _back_of(colours, rng), rng)
        return bg.astype(np.uint8)
    if source == PHOTO_SOURCE:  # a real tile's photographed face, as it is (vision.faces.photos)
        return photo_face(code, rng, h, w, ivory=_face_of(colours, rng))
    if source is None:
        choices = sources_for(code, exclude_sources)
        if not choices:
            raise ValueError(f"no face source left for {code} after excluding {exclude_sources}")
        # the drawn source covers every kind; keep it from dominating kinds that art also covers
        weights = np.array([0.6 if s == "drawn" and len(choices) > 1 else 1.0 for s in choices])
        source = choices[int(rng.choice(len(choices), p=weights / weights.sum()))]
    elif source not in sources_for(code):
        raise ValueError(f"face source {source!r} cannot draw {code}")
    canvas = Canvas(240, 180) if h > 110 else Canvas(160, 120)
    layer = ink_layer(code, source, rng, (canvas.h, canvas.w))
    margin_y, margin_x = rng.uniform(0.03, 0.1), rng.uniform(0.03, 0.1)
    box = [margin_y, margin_x, 1 - margin_y, 1 - margin_x]
    index_text = None
    if code[1] == "f" and source in FLOWERS_NEED_INDEX:
        p_digit, p_char = FLOWERS_NEED_INDEX[source]
        _flower_marks(code, rng, canvas, p_digit, p_char)
        box = [0.22, 0.08, 0.97, 0.92]
    elif code in CORNER_INDEX and code[1] != "h":  # drawn face tiles carry their number already
        if rng.random() < 0.22 and not clean:
            options = CORNER_INDEX[code]
            index_text = options[int(rng.integers(len(options)))]
    if index_text:
        right = rng.random() < 0.3
        s = rng.uniform(0.16, 0.22)
        ibox = (0.02, 0.96 - s * 0.85, 0.02 + s, 0.96) if right else (0.02, 0.03, 0.02 + s, 0.03 + s * 0.85)
        colour = ink(pick(rng, {"red": 3, "blue": 2, "black": 2, "green": 1}), rng)
        index_mark(index_text, rng, colour, ibox, canvas)
        box = [0.12, 0.04, 0.97, 0.96] if right else [0.12, 0.08, 0.97, 0.98]
    paste(canvas.img, layer, tuple(box))
    small = cv2.resize(canvas.img, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)
    bg = _face_background(h, w, np.array([200, 228, 238], np.float32) if clean else _face_of(colours, rng), rng, clean)
    a = small[..., 3:] / 255.0
    face = small[..., :3] * a + bg * (1 - a)
    return np.clip(face, 0, 255).astype(np.uint8)


def _flower_marks(code: str, rng, canvas: Canvas, p_digit: float, p_char: float) -> None:
    n = int(code[0])
    left = rng.random() < 0.5
    s = rng.uniform(0.17, 0.24)
    if rng.random() < p_digit:
        d = (n - 1) % 4 + 1
        text = str(d) if rng.random() < 0.8 else NUMERALS[d - 1]
        box = (0.02, 0.04, 0.02 + s, 0.04 + s * 0.85) if left else (0.02, 0.96 - s * 0.85, 0.02 + s, 0.96)
        index_mark(text, rng, ink(pick(rng, {"red": 4, "blue": 2, "green": 2, "black": 2}), rng), box, canvas)
    if rng.random() < p_char:
        box = (0.02, 0.96 - s, 0.02 + s, 0.96) if left else (0.02, 0.04, 0.02 + s, 0.04 + s)
        canvas.text(FLOWER_CHARS[n - 1], box, ink(pick(rng, {"black": 3, "red": 2, "blue": 2, "green": 2}), rng), rng)


def _rounded_mask(h: int, w: int, x0: float, y0: float, x1: float, y1: float, r: float, ss: int = 4) -> np.ndarray:
    """Antialiased mask (float 0..1) of a rounded rectangle, drawn supersampled."""
    big = np.zeros((h * ss, w * ss), np.uint8)
    X0, Y0, X1, Y1, R = (int(round(v * ss)) for v in (x0, y0, x1, y1, r))
    R = max(1, min(R, (X1 - X0) // 2, (Y1 - Y0) // 2))
    cv2.rectangle(big, (X0 + R, Y0), (X1 - R, Y1), 255, -1)
    cv2.rectangle(big, (X0, Y0 + R), (X1, Y1 - R), 255, -1)
    for cx, cy in ((X0 + R, Y0 + R), (X1 - R, Y0 + R), (X0 + R, Y1 - R), (X1 - R, Y1 - R)):
        cv2.circle(big, (cx, cy), R, 255, -1)
    return cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


@dataclass(frozen=True)
class TileBody:
    """What a tile's visible thickness is made of, for a scene that draws it where its camera
    would see it: the layers from the table up (``layers``: (share of the thickness from the
    table, BGR colour) pairs, the far one first, as :func:`render_tile` draws them) and the
    face's corner radius in pixels of the tile image."""
    layers: tuple[tuple[float, np.ndarray], ...]
    radius: float


def render_tile(code: str, rng: np.random.Generator, *, height: int = 160, source: str | None = None,
                exclude_sources: tuple[str, ...] = (), colours: SetColours | None = None,
                with_body: bool = False):
    """One whole tile seen from straight above; ``colours``: the set's (default: drawn at random).

    Returns ``(image, face_quad)``: image is BGRA uint8, transparent outside the tile;
    face_quad is 4x2 float32, the face corners (top-left, top-right, bottom-right, bottom-left).
    With ``with_body``, also its :class:`TileBody` (the random draws are the same either way).
    """
    _check(code)
    fh = int(height)
    fw = max(1, int(round(fh * 0.75)))
    # thickness seen on one or two sides: (dy, dx) direction of the body relative to the face
    thick = fh * rng.uniform(0.06, 0.2)
    sides = pick(rng, {"one": 1, "two": 2})
    angle = rng.uniform(0, 2 * np.pi) if sides == "two" else rng.choice([0, 0.5, 1, 1.5]) * np.pi
    dx, dy = thick * np.cos(angle), thick * np.sin(angle)
    pad = 2
    W = int(np.ceil(fw + abs(dx))) + 2 * pad
    H = int(np.ceil(fh + abs(dy))) + 2 * pad
    fx0 = pad + max(0.0, -dx)
    fy0 = pad + max(0.0, -dy)
    r = fw * rng.uniform(0.05, 0.12)
    back = _back_of(colours, rng)
    ivory = _face_of(colours, rng)
    face_down = code == "back"
    frac = rng.uniform(0.35, 0.65)  # share of the thickness that is the back-coloured layer
    img = np.zeros((H, W, 3), np.float32)
    alpha = np.zeros((H, W), np.float32)
    # far layer first: the body's bottom layer, then the layer next to the face
    layers = [(1.0, ivory if face_down else back), (frac if not face_down else 1 - frac, back if face_down else ivory)]
    shaded = []
    for k, (t, colour) in enumerate(layers):
        ox, oy = fx0 + dx * t, fy0 + dy * t
        m = _rounded_mask(H, W, ox, oy, ox + fw, oy + fh, r)
        shade = 0.78 + 0.1 * k + rng.uniform(-0.05, 0.05)
        shaded.append((float(t), colour * shade))
        img = img * (1 - m[..., None]) + (colour * shade)[None, None, :] * m[..., None]
        alpha = np.maximum(alpha, m)
    if face_down:
        face = render_face("back", rng, height=fh, colours=colours)
        face = np.clip(face.astype(np.float32) * (back / np.maximum(face.reshape(-1, 3).mean(0), 1)), 0, 255)
    else:
        face = render_face(code, rng, height=fh, source=source, exclude_sources=exclude_sources,
                           colours=colours).astype(np.float32)
    fm = _rounded_mask(H, W, fx0, fy0, fx0 + fw, fy0 + fh, r)
    placed = np.zeros((H, W, 3), np.float32)
    ix, iy = int(round(fx0)), int(round(fy0))
    hh, ww = min(fh, H - iy), min(fw, W - ix)
    placed[iy: iy + hh, ix: ix + ww] = face[:hh, :ww]
    # a soft bevel: the face edge is slightly darker
    edge = cv2.GaussianBlur(fm, (0, 0), max(1.0, fw * 0.02))
    bevel = 1 - 0.12 * np.clip((1 - edge) * 2, 0, 1)
    placed *= bevel[..., None]
    img = img * (1 - fm[..., None]) + placed * fm[..., None]
    alpha = np.maximum(alpha, fm)
    out = np.dstack([np.clip(img, 0, 255), alpha * 255]).astype(np.uint8)
    quad = np.array([[fx0, fy0], [fx0 + fw, fy0], [fx0 + fw, fy0 + fh], [fx0, fy0 + fh]], np.float32)
    if with_body:
        return out, quad, TileBody(tuple(shaded), float(r))
    return out, quad
