"""Synthetic table photos with exact ground truth, for tests and benchmarks.

``make_scene(seed)`` lays a hand out on a table plane the way players do (a
touching concealed row, separate exposed melds, flowers set to one side, clutter
around), then photographs it with a simulated phone camera:

* table: green/blue felt, wood grain, a woven cloth or a bamboo mat (a white, cream or light
  grey cloth, ``table="pale"``, only when asked for);
* camera: tilt up to 40 degrees, any in-plane rotation, a phone lens (f = 0.7-0.95 W);
* light: warm or cool tint, an uneven gradient, vignetting, glare spots, soft shadows;
* optics and file: lens blur, sensor noise, JPEG quality 70-95 at phone sizes (a hand's shake
  during the exposure, a streak along one direction, only when asked for: ``shake``).

Tiles come from :func:`vision.render.render_tile`.  One face style is used per
scene (real sets are uniform); ``source`` picks it, by default at random among
``vision.render.FACE_SOURCES`` (see ``SCENE_SOURCES``) so the scenes include the
style(s) the classifier is trained without.

The truth has the same ``hand`` shape as :func:`vision.scan.scan` plus every tile's
face corners (TL, TR, BR, BL of the face as it lies, in photo pixels).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from engine.tiles import BONUS_KINDS, FLOWERS, STANDARD_KINDS, format_tiles

TABLES = ("felt", "wood", "cloth", "bamboo")
PALE_TABLE = "pale"  # a white, cream or light grey cloth: only when asked for (make_scene(table=...))


# ----------------------------------------------------------------------------- hands

def random_hand(rng: np.random.Generator) -> dict:
    """A plausible hand: 13-17 tiles as concealed + melds, 0-4 flowers.

    Returns ``{"concealed": [codes], "melds": [{"tiles": [codes], "kind": ...}], "flowers": [codes]}``
    where kind is "pung", "chow", "kong", "concealed_kong" (2 backs + 2 faces) or
    "hidden_kong" (4 backs).
    """
    wall = [k for k in STANDARD_KINDS for _ in range(4)]
    rng.shuffle(wall)

    def take(code=None):
        if code is None:
            return wall.pop()
        wall.remove(code)
        return code

    base = int(rng.choice([13, 14, 14, 16, 17]))
    n_melds = int(rng.choice([0, 1, 1, 2, 2, 3, 4] if base >= 16 else [0, 0, 1, 1, 2, 3]))
    n_melds = min(n_melds, (base - 2) // 3)
    melds = []
    for _ in range(n_melds):
        kind = str(rng.choice(["pung", "chow", "kong", "concealed_kong", "hidden_kong"],
                              p=[0.4, 0.3, 0.12, 0.12, 0.06]))
        for _attempt in range(20):
            code = wall[int(rng.integers(len(wall)))]
            if kind == "chow":
                if code[1] not in "mps" or int(code[0]) > 7:
                    continue
                seq = [f"{int(code[0]) + i}{code[1]}" for i in range(3)]
                if all(s in wall for s in seq):
                    melds.append({"tiles": [take(s) for s in seq], "kind": kind})
                    break
            else:
                need = 3 if kind == "pung" else 4
                if wall.count(code) >= need:
                    melds.append({"tiles": [take(code) for _ in range(need)], "kind": kind})
                    break
    concealed = [take() for _ in range(base - 3 * len(melds))]
    n_flowers = int(rng.choice([0, 0, 1, 1, 2, 3, 4]))
    bonus_pool = list(FLOWERS) if rng.random() < 0.85 else list(BONUS_KINDS)
    flowers = [str(c) for c in rng.choice(bonus_pool, size=n_flowers, replace=False)]
    if rng.random() < 0.6:
        concealed.sort(key=lambda c: STANDARD_KINDS.index(c))
    return {"concealed": concealed, "melds": melds, "flowers": flowers}


def hand_contract(hand: dict) -> dict:
    """The engine-contract ``hand`` (what ``scan`` should output) for a scene hand."""
    melds = []
    for m in hand["melds"]:
        if m["kind"] == "hidden_kong":
            melds.append({"tiles": "", "concealed": True, "unknown": True})
        else:
            melds.append({"tiles": format_tiles(m["tiles"]),
                          "concealed": m["kind"] in ("concealed_kong",)})
    return {"concealed": format_tiles(hand["concealed"]), "melds": melds,
            "flowers": format_tiles(hand["flowers"])}


def parse_hand(hand: dict) -> dict:
    """Accept a user hand such as ``{"concealed": "123m", "melds": ["555p", "-7777s"], "flowers": "1f"}``.

    A meld string may start with ``+`` for a concealed kong shown as 2 backs + 2 faces
    or ``-`` for a kong shown with all four faces down.
    """
    from engine.tiles import parse

    melds = []
    for m in hand.get("melds", []):
        text = m if isinstance(m, str) else m["tiles"]
        kind = "pung"
        if text.startswith("+"):
            kind, text = "concealed_kong", text[1:]
        elif text.startswith("-"):
            kind, text = "hidden_kong", text[1:]
        tiles = parse(text)
        if kind == "pung":
            kind = "kong" if len(tiles) == 4 else ("pung" if len(set(tiles)) == 1 else "chow")
        melds.append({"tiles": tiles, "kind": kind})
    return {"concealed": parse(hand.get("concealed", "")), "melds": melds,
            "flowers": parse(hand.get("flowers", ""))}


# ----------------------------------------------------------------------------- textures

def _noise(rng, h, w, scale, octaves=3):
    """Smooth value noise in [-1, 1]-ish."""
    out = np.zeros((h, w), np.float32)
    amp = 1.0
    for o in range(octaves):
        s = max(1, int(scale / (2 ** o)))
        small = rng.standard_normal((h // s + 2, w // s + 2)).astype(np.float32)
        out += amp * cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)[:h, :w]
        amp *= 0.5
    return out / 1.75


def _woven(rng: np.random.Generator, base: np.ndarray, xx: np.ndarray, yy: np.ndarray, unit: float, *,
           weave: float, folds: float) -> np.ndarray:
    """A cloth of colour ``base`` on the pixel grid ``xx``, ``yy``: a weave of a twelfth to a
    sixth of a face (``unit`` px) and soft folds, of these strengths."""
    h, w = xx.shape
    period = max(3.0, unit * rng.uniform(0.06, 0.12))
    threads = np.sin(xx / period * math.pi) * np.sin(yy / period * math.pi) * weave
    creases = _noise(rng, h, w, unit * 4, 2) * folds
    return base[None, None, :] * (1 + threads + creases)[..., None]


def table_texture(rng: np.random.Generator, kind: str, h: int, w: int, unit: float) -> np.ndarray:
    """A BGR float32 table texture; ``unit`` is the tile face height in px (sets the grain size)."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "felt":
        hue = rng.choice([0, 0, 0, 1, 2])  # green, blue, red/burgundy
        base = np.array([[60, 120, 30], [120, 70, 20], [40, 40, 120]][hue], np.float32)
        base = base * rng.uniform(0.7, 1.3)
        n = _noise(rng, h, w, unit * 0.25, 2) * 0.06 + rng.standard_normal((h, w)).astype(np.float32) * 0.03
        tex = base[None, None, :] * (1 + n[..., None])
    elif kind == "wood":
        base = np.array(rng.choice([[40, 80, 140], [60, 110, 170], [30, 55, 95], [80, 140, 190]]), np.float32)
        ang = rng.uniform(0, math.pi)
        u = xx * math.cos(ang) + yy * math.sin(ang)
        v = -xx * math.sin(ang) + yy * math.cos(ang)
        warp = _noise(rng, h, w, unit * 3, 2) * unit * 0.6
        period = unit * rng.uniform(0.15, 0.4)
        grain = np.sin((v + warp) / period * 2 * math.pi) * 0.5 + 0.5
        fine = _noise(rng, h, w, max(2.0, unit * 0.05), 1) * 0.05
        planks = (np.floor(u / (unit * rng.uniform(4, 8))) % 2) * rng.uniform(-0.08, 0.08)
        shade = 0.8 + 0.25 * grain ** 2 + fine + planks
        tex = base[None, None, :] * shade[..., None]
    elif kind == "cloth":
        base = np.array(rng.choice([[70, 60, 150], [150, 130, 110], [90, 140, 150], [60, 60, 60],
                                    [115, 115, 110], [50, 90, 40]]), np.float32)
        tex = _woven(rng, base, xx, yy, unit, weave=0.07, folds=0.12)
        if rng.random() < 0.4:  # a check pattern
            sq = unit * rng.uniform(1.0, 2.5)
            check = ((np.floor(xx / sq) + np.floor(yy / sq)) % 2).astype(np.float32)
            other = np.array(rng.uniform(40, 200, 3), np.float32)
            tex = tex * (1 - check[..., None] * 0.6) + other[None, None, :] * check[..., None] * 0.6
    elif kind == PALE_TABLE:  # a white, cream or light grey tablecloth: as bright as the faces
        base = np.array(rng.choice([[235, 235, 235], [200, 222, 235], [205, 205, 200], [215, 230, 240]]), np.float32)
        tex = _woven(rng, base * rng.uniform(0.78, 1.0), xx, yy, unit, weave=0.03, folds=0.06)
    else:  # bamboo mat: light slats with dark seams and binding threads
        base = np.array(rng.choice([[110, 170, 200], [90, 150, 185], [120, 180, 205]]), np.float32)
        ang = rng.uniform(0, math.pi)
        v = -xx * math.sin(ang) + yy * math.cos(ang)
        u = xx * math.cos(ang) + yy * math.sin(ang)
        slat = unit * rng.uniform(0.12, 0.25)
        ph = (v / slat) % 1.0
        seam = np.clip(1 - np.minimum(ph, 1 - ph) * 12, 0, 1)
        node = (np.abs(((u / (unit * 2.0)) % 1.0) - 0.5) < 0.02).astype(np.float32) * 0.25
        fine = _noise(rng, h, w, max(2.0, unit * 0.04), 1) * 0.05
        tex = base[None, None, :] * (1 - 0.45 * seam - node + fine)[..., None]
    return np.clip(tex, 0, 255).astype(np.float32)


# ----------------------------------------------------------------------------- layout

@dataclass
class _Placed:
    code: str           # tile code or "back"
    group: str          # "concealed" | "meld:<n>" | "flowers"
    img: np.ndarray     # BGRA
    face: np.ndarray    # 4x2 face quad in plane coordinates
    M: np.ndarray       # 2x3 affine: tile image -> plane
    body: object = None  # its render.TileBody, for bodies drawn where the camera sees them


def _place(img, face_quad, cx, cy, angle, scale=1.0):
    h, w = img.shape[:2]
    M = cv2.getRotationMatrix2D((w / 2, h / 2), -math.degrees(angle), scale)
    M[0, 2] += cx - w / 2
    M[1, 2] += cy - h / 2
    face = cv2.transform(face_quad.reshape(-1, 1, 2).astype(np.float32), M).reshape(4, 2)
    return M, face


def _source_for(code: str, src: str) -> str | None:
    """The scene's face style when it can draw ``code``, else any style that can."""
    from .faces import sources_for
    from .faces.photos import PHOTO_SOURCE, photo_codes

    if code == "back":
        return None
    if src in sources_for(code) or (src == PHOTO_SOURCE and code in photo_codes()):
        return src
    return None


class _SetRenderer:
    """Renders the tiles of one scene with one set's colours, as a real set has them."""

    def __init__(self, rng: np.random.Generator):
        from .render import SetColours

        self.colours = SetColours.draw(rng)

    def render_tile(self, code: str, rng: np.random.Generator, **kw):
        from .render import render_tile

        return render_tile(code, rng, colours=self.colours, **kw)


def _layout_row(tiles, group, rng, render, src, unit, x0, y0, angle, gap_range, tiles_out, turn=None,
                sideways: int | None = None):
    """Touching tiles along direction ``angle``; faces abut (the bodies hide under them).
    ``turn``: the spread (standard deviation, radians) of each tile's own turn in the row, its
    neighbours moved apart so that turned corners do not overlap (default: 0.012, set straight).
    ``sideways``: the index of a tile laid turned a quarter (its top to the left), its long side
    along the row and its lower edge in line with the others' (a claimed tile, riichi style).

    Returns the run's length along the direction."""
    ux, uy = math.cos(angle), math.sin(angle)
    pos = 0.0
    for i, code in enumerate(tiles):
        img, fq, body = render.render_tile(code, rng, height=int(round(unit)), source=_source_for(code, src),
                                           with_body=True)
        fq = np.asarray(fq, np.float32)
        fw = float(fq[1, 0] - fq[0, 0])
        fh = float(fq[3, 1] - fq[0, 1])
        fc = fq.mean(axis=0)
        ang = angle + rng.normal(0, 0.012 if turn is None else turn)
        clear = 0.0 if turn is None else abs(math.sin(ang - angle)) * fh / 2
        pos += clear  # a turned face reaches this much further along the row on either side
        along, down = fw, 0.0  # how far the face reaches along the row; its centre moved towards the lower edge
        if i == sideways:
            ang -= math.pi / 2
            along, down = fh, (fh - fw) / 2
        # where the face centre goes, then the image centre relative to it (rotated)
        cx = x0 + ux * (pos + along / 2) - uy * down + rng.normal(0, 0.3)
        cy = y0 + uy * (pos + along / 2) + ux * down + rng.normal(0, 0.6)
        h, w = img.shape[:2]
        off = np.array([w / 2, h / 2]) - fc
        ca, sa = math.cos(ang), math.sin(ang)
        M, face = _place(img, fq, cx + off[0] * ca - off[1] * sa, cy + off[0] * sa + off[1] * ca, ang)
        tiles_out.append(_Placed(code, group, img, face, M, body))
        pos += along + rng.uniform(*gap_range) + clear
    return pos


def _image_face(t: _Placed) -> np.ndarray:
    """A placed tile's face quad in its own tile image's pixels."""
    q = np.linalg.inv(np.vstack([t.M, [0, 0, 1]]))[:2]
    return cv2.transform(t.face.reshape(-1, 1, 2), q).reshape(4, 2)


def _box(pts: np.ndarray, w: int, h: int) -> tuple[int, int, int, int] | None:
    """The pixel box round ``pts`` (with 2 px to spare) within a w x h canvas; None if outside it."""
    x0, y0 = np.maximum(np.floor(pts.min(axis=0)).astype(int) - 2, 0)
    x1, y1 = np.minimum(np.ceil(pts.max(axis=0)).astype(int) + 2, [w, h])
    return None if x1 <= x0 or y1 <= y0 else (int(x0), int(y0), int(x1), int(y1))


def _over(rgb: np.ndarray, alpha: np.ndarray, box, colour, a: np.ndarray) -> None:
    """Lay ``colour`` (an image the box's size, or one BGR colour) with coverage ``a`` over the
    canvas ``rgb`` and its coverage ``alpha`` in ``box``."""
    x0, y0, x1, y1 = box
    roi_rgb, roi_a = rgb[y0:y1, x0:x1], alpha[y0:y1, x0:x1]
    roi_rgb[:] = roi_rgb * (1 - a[..., None]) + colour * a[..., None]
    roi_a[:] = np.maximum(roi_a, a)


def _rounded_outline(t: _Placed, steps: int = 5) -> np.ndarray:
    """The outline of a placed tile's face with its rounded corners, in plane coordinates."""
    q = _image_face(t)
    (x0, y0), (x1, y1) = q.min(axis=0), q.max(axis=0)
    r = min(t.body.radius, (x1 - x0) / 2, (y1 - y0) / 2)
    pts = []
    for (cx, cy), a0 in (((x1 - r, y0 + r), -90), ((x1 - r, y1 - r), 0), ((x0 + r, y1 - r), 90), ((x0 + r, y0 + r), 180)):
        for a in np.radians(np.linspace(a0, a0 + 90, steps)):
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return cv2.transform(np.float32(pts).reshape(-1, 1, 2), t.M).reshape(-1, 2)


def _draw_camera_body(rgb, alpha, t: _Placed, to_table: np.ndarray) -> None:
    """A tile's thickness as the camera sees it: each layer of the body is its face outline swept
    from where the layer meets the face's side to ``to_table`` (the offset, in the plane, at
    which the camera sees the table under the face), the far layer first."""
    outline = _rounded_outline(t)
    h, w = alpha.shape
    tops = [layer_t for layer_t, _ in t.body.layers[1:]] + [0.0]
    for (far, colour), near in zip(t.body.layers, tops):
        poly = cv2.convexHull(np.concatenate([outline + near * to_table, outline + far * to_table]).astype(np.float32))
        poly = poly.reshape(-1, 2)
        box = _box(poly, w, h)
        if box is None:
            continue
        x0, y0, x1, y1 = box
        m = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(m, np.round((poly - (x0, y0)) * 16).astype(np.int32), 255, cv2.LINE_AA, shift=4)
        _over(rgb, alpha, box, np.asarray(colour, np.float32), m.astype(np.float32) / 255)


def _tile_layer(tiles, rng, unit, light_dir, h, w, to_table=None):
    """Tile colours, their coverage and the shadow they cast, on a layout-sized canvas.

    All bodies are drawn first, then all faces, so that touching tiles show their
    sides only where a real row does: at its outer edges. ``to_table``: per tile, where the
    camera sees the table under its face (an offset in the plane), to draw each body where a
    camera sees it; by default each tile image's own body is drawn."""
    rgb = np.zeros((h, w, 3), np.float32)
    alpha = np.zeros((h, w), np.float32)
    for faces_only in (False, True):
        for k, t in enumerate(tiles):
            if to_table is not None and not faces_only:
                _draw_camera_body(rgb, alpha, t, to_table[k])
                continue
            th, tw = t.img.shape[:2]
            src = t.img
            if faces_only:
                src = t.img.copy()
                keep = np.zeros((th, tw), np.uint8)
                cv2.fillConvexPoly(keep, np.round(_image_face(t)).astype(np.int32), 1)
                src[..., 3] *= keep
            box = _box(cv2.transform(np.float32([[[0, 0]], [[tw, 0]], [[tw, th]], [[0, th]]]), t.M).reshape(4, 2), w, h)
            if box is None:
                continue
            x0, y0, x1, y1 = box
            M = t.M.copy()
            M[:, 2] -= (x0, y0)
            patch = cv2.warpAffine(src, M, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0)).astype(np.float32)
            _over(rgb, alpha, box, patch[..., :3], patch[..., 3] / 255)
    off = np.float32([[1, 0, light_dir[0] * unit * rng.uniform(0.06, 0.16)], [0, 1, light_dir[1] * unit * rng.uniform(0.06, 0.16)]])
    shadow = cv2.warpAffine(alpha, off, (w, h))
    shadow = cv2.GaussianBlur(shadow, (0, 0), unit * rng.uniform(0.04, 0.12)) * rng.uniform(0.3, 0.6)
    return rgb, alpha, shadow


def _draw_clutter(canvas, rng, unit, occupied):
    """Chips, dice, coins and a phone where there is room; returns their shadows-included canvas."""
    h, w = canvas.shape[:2]
    items = []
    n = int(rng.integers(0, 6))
    for _ in range(n):
        kind = str(rng.choice(["chip", "chip", "die", "coin", "phone"]))
        for _try in range(30):
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            r = unit * (0.35 if kind == "chip" else 0.22 if kind == "die" else 0.28 if kind == "coin" else 1.4)
            box = (cx - r * 1.3, cy - r * 1.3, cx + r * 1.3, cy + r * 1.3)
            if any(not (box[2] < o[0] or box[0] > o[2] or box[3] < o[1] or box[1] > o[3]) for o in occupied):
                continue
            occupied.append(box)
            items.append((kind, cx, cy, r))
            break
    for kind, cx, cy, r in items:
        sh = np.zeros((h, w), np.float32)
        if kind == "phone":
            ang = rng.uniform(0, 180)
            rect = ((cx, cy), (r * 1.0, r * 2.0), ang)
            pts = cv2.boxPoints(rect).astype(np.int32)
            cv2.fillConvexPoly(sh, pts + int(unit * 0.08), 1.0)
        else:
            cv2.circle(sh, (int(cx + unit * 0.06), int(cy + unit * 0.06)), int(r), 1.0, -1)
        canvas *= (1 - 0.45 * cv2.GaussianBlur(sh, (0, 0), unit * 0.06))[..., None]
        if kind == "chip":
            col = np.array(rng.choice([[40, 40, 200], [200, 80, 30], [30, 30, 30], [230, 230, 230], [40, 160, 40]]), float)
            cv2.circle(canvas, (int(cx), int(cy)), int(r), col.tolist(), -1, cv2.LINE_AA)
            for k in range(8):
                a = k * math.pi / 4
                p = (int(cx + math.cos(a) * r * 0.85), int(cy + math.sin(a) * r * 0.85))
                cv2.circle(canvas, p, max(1, int(r * 0.12)), (235, 235, 235), -1, cv2.LINE_AA)
            cv2.circle(canvas, (int(cx), int(cy)), int(r * 0.6), (col * 0.8).tolist(), max(1, int(r * 0.06)), cv2.LINE_AA)
        elif kind == "coin":
            col = np.array(rng.choice([[60, 150, 190], [170, 170, 170]]), float)
            cv2.circle(canvas, (int(cx), int(cy)), int(r), col.tolist(), -1, cv2.LINE_AA)
            cv2.circle(canvas, (int(cx), int(cy)), int(r * 0.8), (col * 0.75).tolist(), max(1, int(r * 0.05)), cv2.LINE_AA)
        elif kind == "die":
            ang = rng.uniform(0, 90)
            pts = cv2.boxPoints(((cx, cy), (2 * r, 2 * r), ang)).astype(np.int32)
            cv2.fillConvexPoly(canvas, pts, (235, 240, 240), cv2.LINE_AA)
            pips = int(rng.integers(1, 7))
            col = (30, 30, 200) if pips in (1, 4) else (20, 20, 20)
            offs = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
                    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
                    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}[pips]
            ca, sa = math.cos(math.radians(ang)), math.sin(math.radians(ang))
            for ox, oy in offs:
                px, py = ox * r * 0.5, oy * r * 0.5
                cv2.circle(canvas, (int(cx + px * ca - py * sa), int(cy + px * sa + py * ca)),
                           max(1, int(r * 0.16)), col, -1, cv2.LINE_AA)
        else:  # phone: dark body, a screen that may be lit
            ang = rng.uniform(0, 180)
            body = cv2.boxPoints(((cx, cy), (r * 1.0, r * 2.0), ang)).astype(np.int32)
            cv2.fillConvexPoly(canvas, body, (25, 25, 30), cv2.LINE_AA)
            scr = cv2.boxPoints(((cx, cy), (r * 0.9, r * 1.85), ang)).astype(np.int32)
            lit = rng.random() < 0.5
            cv2.fillConvexPoly(canvas, scr, (200, 180, 150) if lit else (45, 40, 40), cv2.LINE_AA)
    return canvas


# ----------------------------------------------------------------------------- camera

def _rot(axis, a):
    c, s = math.cos(a), math.sin(a)
    if axis == "x":
        return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    if axis == "y":
        return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def camera_homography(tilt_deg, roll_deg, yaw_deg, f, layout_pts, out_w, out_h, fill, shift):
    """Plane (u, v) -> photo homography for a camera tilted from straight down, and the camera's
    centre as (u, v, height above the plane).

    The layout's bounding box fills ``fill`` of the frame, shifted by ``shift`` (fractions).
    """
    R = _rot("z", math.radians(roll_deg)) @ _rot("x", math.radians(tilt_deg)) @ _rot("z", math.radians(yaw_deg))
    # camera looking straight down: world (u, -v, 0); R rotates world into camera axes.
    base = np.array([[1, 0, 0], [0, -1, 0], [0, 0, -1]], float)  # world->camera for straight down (det=+1)
    Rc = R @ base
    centre = layout_pts.mean(axis=0)
    C = np.array([centre[0], -centre[1], 0.0])
    K = np.array([[f, 0, 0], [0, f, 0], [0, 0, 1]], float)

    def H_for(D):
        optical = Rc[2]  # camera z axis in world coordinates
        P = C - D * optical
        t = -Rc @ P
        Hm = K @ np.column_stack([Rc[:, 0], Rc[:, 1], t]) @ np.diag([1, -1, 1])
        return Hm

    span = np.ptp(layout_pts, axis=0).max()
    D = f * span / (fill * min(out_w, out_h))
    for _ in range(4):
        Hm = H_for(D)
        p = cv2.perspectiveTransform(layout_pts.reshape(-1, 1, 2).astype(np.float64), Hm).reshape(-1, 2)
        size = np.ptp(p, axis=0)
        ratio = max(size[0] / (fill * out_w), size[1] / (fill * out_h))
        D *= ratio
    Hm = H_for(D)
    p = cv2.perspectiveTransform(layout_pts.reshape(-1, 1, 2).astype(np.float64), Hm).reshape(-1, 2)
    mid = (p.min(axis=0) + p.max(axis=0)) / 2
    room = np.array([out_w, out_h]) - np.ptp(p, axis=0)
    target = np.array([out_w / 2, out_h / 2]) + np.asarray(shift) * np.maximum(room, 0) / 2
    T = np.array([[1, 0, target[0] - mid[0]], [0, 1, target[1] - mid[1]], [0, 0, 1]])
    P = C - D * Rc[2]
    return T @ Hm, np.array([P[0], -P[1], P[2]])


# ----------------------------------------------------------------------------- the scene

MELD_GAP = (0.3, 0.9)  # tile heights between groups laid in one line (``make_scene(melds_beside=True)``)


def _lay_out(hand, rng, render, src, unit, tiles, turn=None, claimed: np.random.Generator | None = None,
            beside: np.random.Generator | None = None):
    """The concealed row, the melds in a line in front of it, the flowers to one side
    (``turn``: as in :func:`_layout_row`). ``claimed``: where given, each exposed meld lays one
    tile sideways, riichi style (a chow its first, the tile claimed from the left; a pung or kong
    the one drawn from ``claimed``, a generator of its own so the rest of the scene is unchanged).
    ``beside``: where given, the melds lie in the row's own line after its end instead, each
    ``MELD_GAP`` tile heights from the group before it (drawn from this generator of its own), and
    the flowers beyond the row's other long side."""
    gap = (0.0, unit * 0.02)
    # concealed row along +x, starting at the origin
    _layout_row(hand["concealed"], "concealed", rng, render, src, unit, 0.0, 0.0, 0.0, gap, tiles, turn)
    row_len = max(t.face[:, 0].max() for t in tiles)
    # melds: a second line below the row (towards the player), separated groups
    y_m = unit * rng.uniform(1.7, 2.3)
    x = rng.uniform(-unit, unit)
    # ``beside``: the default layout's positions are still drawn (the rest of the scene stays the
    # same), but each meld goes after the group before it in the row's line
    along = row_len + unit * beside.uniform(*MELD_GAP) if beside is not None else None
    for i, m in enumerate(hand["melds"]):
        codes = list(m["tiles"])
        if m["kind"] == "concealed_kong":
            codes = ["back", codes[1], codes[2], "back"]
        elif m["kind"] == "hidden_kong":
            codes = ["back"] * 4
        ang = rng.normal(0, 0.05)
        side = None
        if claimed is not None and m["kind"] in ("pung", "chow", "kong"):
            side = 0 if m["kind"] == "chow" else int(claimed.integers(len(codes)))
        if along is None:
            used = _layout_row(codes, f"meld:{i}", rng, render, src, unit, x, y_m, ang, gap, tiles, turn, side)
        else:
            used = _layout_row(codes, f"meld:{i}", rng, render, src, unit, along, 0.0, ang * 0.3, gap, tiles,
                               turn, side)
            along += used + unit * beside.uniform(*MELD_GAP)
        x += used + unit * rng.uniform(0.45, 1.2)
        if x > row_len * 0.9 and i < len(hand["melds"]) - 1:
            x, y_m = rng.uniform(-unit, unit), y_m + unit * rng.uniform(1.6, 2.0)
    # flowers: to one side of the row, touching or spaced
    if hand["flowers"]:
        side = rng.random()
        if side < 0.5 and beside is None:
            fx, fy = row_len + unit * rng.uniform(0.6, 1.5), rng.uniform(-0.3, 0.3) * unit
        else:
            fx, fy = rng.uniform(0, row_len * 0.5), -unit * rng.uniform(1.8, 2.4)
        g = (unit * 0.4, unit * 0.9) if rng.random() < 0.4 else gap
        _layout_row(hand["flowers"], "flowers", rng, render, src, unit, fx, fy, rng.normal(0, 0.04), g, tiles, turn)


def make_scene(seed: int, *, width: int = 1600, hand: dict | None = None, source: str | None = None,
               table: str | None = None, tilt: float | None = None, roll: float | None = None,
               quality: int | None = None, clutter: bool = True, portrait: bool = False,
               sources: tuple[str, ...] | None = None, fill: float | None = None,
               bodies: str = "sprite", lamp: float | None = None,
               askew: float | None = None, sideways: bool = False,
               melds_beside: bool = False, cast_shadow: float | None = None,
               shake: float | None = None) -> tuple[bytes, dict]:
    """Compose one synthetic table photo. Returns ``(jpeg_bytes, truth)``.

    ``fill``: the share of the frame's shorter side that the hand's layout spans (default: drawn
    from 0.55-0.85, a hand framed to fill the photo); a given one changes nothing else in the
    scene, so a seed's photo can be compared with the same hand shot from further away.
    ``quality``: the JPEG quality (default: drawn from 70-95); a given one, too, changes nothing
    else (``bench/scan_bench.py --quality``: the same photos saved at another quality).

    ``bodies``: ``"sprite"`` draws each tile's thickness on a side of its own, drawn at random
    (0.06-0.2 of the face's height); ``"camera"`` draws it where the scene's camera sees it:
    towards the camera's foot, the same way for every tile, and as long as a tile 0.4-0.65
    times as thick as its face is tall shows at that tilt (nothing else in the scene changes).

    ``lamp``: light from a lamp to one side, falling off across the photo so that its far side
    gets this share less light than its near side (0.5: half); by default the light's slope is
    drawn from 0-0.35 across the photo, in the same direction. A given one changes nothing else.

    ``askew``: how far (degrees, the standard deviation) each tile is turned in its row, as hands
    laid out by players are; the tiles are moved apart along the row just enough for turned
    corners not to overlap. By default about 0.7 degrees, rows set straight; a given one changes
    only where the tiles lie.

    ``sideways``: each exposed meld (pung, chow or kong; not a concealed kong) lays one tile
    turned a quarter, its long side along the meld and its lower edge in line with the others',
    as riichi players show which tile they claimed and from whom (a chow its first tile). By
    default every tile lies upright; a given one changes only where the melds' tiles lie.

    ``melds_beside``: the exposed melds lie in the concealed row's own line, after its end, each
    0.3-0.9 of a tile's height from the group before it (``MELD_GAP``), as many players lay them,
    and the flowers beyond the row's far side; by default the melds lie in a line in front of the
    row. A given one changes only where the melds and flowers lie (and so the framing).

    ``cast_shadow``: the shadow of the phone and the arm holding it, cast by a ceiling lamp behind
    the player: a large soft-edged shape reaching in from one edge of the frame over part of the
    hand, where the light is this share less (0.4: 40% less; the rest is the room's other light).
    Its edge runs through a point of the hand drawn at random, its penumbra 1.5-6% of the photo's
    long side wide (:func:`cast_shadow_map`). By default no scene has one; a given one changes
    nothing else.

    ``shake``: the phone moving during the exposure (a slow shutter under home light, held in one
    hand): the picture streaked along one direction, drawn at random, over this share of the
    photo's long side (0.005: 20 px on a 4032 px photo), after the lens's blur and before the
    sensor's noise (:func:`shaken`). By default no scene has one; a given one changes nothing else.

    ``hand`` may be given in the form of :func:`parse_hand` (mpsz strings); by default
    a random hand.  ``truth`` = ``{"hand": <scan contract>, "tiles": [{"tile", "corners",
    "group"}], "image": {"width", "height"}, "params": {...}}``; ``tile`` is a code or
    "back" for a face-down tile.
    """
    if bodies not in ("sprite", "camera"):
        raise ValueError(f"bodies must be 'sprite' or 'camera', not {bodies!r}")
    if table is not None and table not in (*TABLES, PALE_TABLE):
        raise ValueError(f"table must be one of {(*TABLES, PALE_TABLE)}, not {table!r}")
    if askew is not None and not 0 <= askew <= 20:
        raise ValueError(f"askew must be a spread of 0 to 20 degrees, not {askew!r}")
    if lamp is not None and not 0 <= lamp < 1:
        raise ValueError(f"lamp must be a share of the light from 0 to under 1, not {lamp!r}")
    if cast_shadow is not None and not 0 <= cast_shadow < 1:
        raise ValueError(f"cast_shadow must be a share of the light from 0 to under 1, not {cast_shadow!r}")
    if shake is not None and not 0 <= shake <= 0.05:
        raise ValueError(f"shake must be a share of the photo's long side from 0 to 0.05, not {shake!r}")
    rng = np.random.default_rng(seed)
    pool = tuple(sources) if sources else SCENE_SOURCES()
    src = source if source is not None else str(rng.choice(pool))
    from .faces.photos import PHOTO_SOURCE, photo_codes

    if src == PHOTO_SOURCE and not photo_codes():
        raise ValueError(f"the {PHOTO_SOURCE} style needs ../shared/data/real-tiles, which is not on this machine")
    hand = parse_hand(hand) if hand is not None else random_hand(rng)
    table = table or str(rng.choice(TABLES))
    tilt = float(rng.uniform(0, 40)) if tilt is None else float(tilt)
    roll = float(rng.uniform(-180, 180)) if roll is None else float(roll)
    yaw = float(rng.uniform(-30, 30))
    drawn_quality = int(rng.integers(70, 96))  # drawn even when given, so the rest of the scene stays the same
    quality = drawn_quality if quality is None else int(quality)
    out_w = int(width)
    out_h = int(round(width * 3 / 4))
    if portrait:
        out_w, out_h = out_h, out_w

    # tile size on the table plane: chosen so that a face ends up ~ (3.5-6)% of the photo's long side
    n_tiles = len(hand["concealed"]) + sum(len(m["tiles"]) for m in hand["melds"])
    unit = float(np.clip(max(out_w, out_h) * rng.uniform(0.045, 0.07), 36, 220))

    tiles: list[_Placed] = []
    _lay_out(hand, rng, _SetRenderer(rng), src, unit, tiles, None if askew is None else math.radians(askew),
             np.random.default_rng([seed, 1]) if sideways else None,
             np.random.default_rng([seed, 2]) if melds_beside else None)

    layout_pts = np.concatenate([cv2.transform(np.float32([[[0, 0]], [[t.img.shape[1], 0]], [[t.img.shape[1], t.img.shape[0]]],
                                                           [[0, t.img.shape[0]]]]), t.M).reshape(4, 2) for t in tiles])
    f = out_w * rng.uniform(0.7, 0.95) if not portrait else out_h * rng.uniform(0.7, 0.95)
    drawn_fill = rng.uniform(0.55, 0.85)  # drawn even when given, so the rest of the scene stays the same
    fill = drawn_fill if fill is None else float(fill)
    shift = rng.uniform(-0.7, 0.7, 2)
    H, camera = camera_homography(tilt, roll, yaw, f, layout_pts, out_w, out_h, fill, shift)

    # the table: the part of the plane the photo sees, drawn at a reduced resolution
    Hinv = np.linalg.inv(H)
    corners = cv2.perspectiveTransform(np.float64([[[0, 0]], [[out_w, 0]], [[out_w, out_h]], [[0, out_h]]]), Hinv).reshape(4, 2)
    lay_lo, lay_hi = layout_pts.min(axis=0), layout_pts.max(axis=0)
    lo = np.maximum(np.minimum(corners.min(axis=0), lay_lo) - unit, lay_lo - 40 * unit)
    hi = np.minimum(np.maximum(corners.max(axis=0), lay_hi) + unit, lay_hi + 40 * unit)
    s = min(1.0, 1400.0 / float(max(hi - lo)))
    tw, th = int((hi[0] - lo[0]) * s) + 1, int((hi[1] - lo[1]) * s) + 1
    texture = table_texture(rng, table, th, tw, unit * s)
    occupied = []
    for t in tiles:
        b = cv2.transform(np.float32([[[0, 0]], [[t.img.shape[1], t.img.shape[0]]]]), t.M).reshape(2, 2)
        occupied.append(((b[:, 0].min() - lo[0] - unit * 0.3) * s, (b[:, 1].min() - lo[1] - unit * 0.3) * s,
                         (b[:, 0].max() - lo[0] + unit * 0.3) * s, (b[:, 1].max() - lo[1] + unit * 0.3) * s))
    if clutter:
        texture = _draw_clutter(texture, rng, unit * s, occupied)
    to_tex = np.array([[s, 0, -lo[0] * s], [0, s, -lo[1] * s], [0, 0, 1]])
    photo = cv2.warpPerspective(texture, H @ np.linalg.inv(to_tex), (out_w, out_h), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REFLECT)
    # the tiles and their shadows: drawn at full plane resolution around the layout only
    light = rng.uniform(-1, 1, 2)
    light = light / (np.linalg.norm(light) + 1e-6)
    llo = lay_lo - unit
    lw, lh = int(lay_hi[0] - llo[0] + unit) + 1, int(lay_hi[1] - llo[1] + unit) + 1
    for t in tiles:
        t.M = t.M.copy()
        t.M[:, 2] -= llo
        t.face = (t.face - llo).astype(np.float32)
    to_table = None
    if bodies == "camera":
        # the table under a face is seen towards the camera's foot by thickness / camera height
        # of the face's distance from it (tiles are 0.4-0.65 times as thick as their faces are
        # tall); drawn from the seed's own stream, so the rest of the scene stays the same
        thickness = unit * np.random.default_rng([seed, 1]).uniform(0.4, 0.65)
        to_table = [(camera[:2] - (t.face.mean(axis=0) + llo)) * thickness / camera[2] for t in tiles]
    rgb, alpha, shadow = _tile_layer(tiles, rng, unit, light, lh, lw, to_table)
    to_layer = np.array([[1, 0, -llo[0]], [0, 1, -llo[1]], [0, 0, 1]])
    Hl = H @ np.linalg.inv(to_layer)
    layer = cv2.warpPerspective(np.dstack([rgb, alpha, shadow]), Hl, (out_w, out_h), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    a = layer[..., 3:4]
    photo = photo * (1 - layer[..., 4:5]) * (1 - a) + layer[..., :3] * a
    truth_tiles = []
    for t in tiles:
        q = cv2.perspectiveTransform(t.face.reshape(-1, 1, 2).astype(np.float64), Hl).reshape(4, 2)
        truth_tiles.append({"tile": t.code, "group": t.group, "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in q]})
    shade = None
    if cast_shadow is not None:  # drawn from the seed's own stream, so the rest of the scene stays the same
        centres = np.float32([np.mean(t["corners"], axis=0) for t in truth_tiles])
        shade = cast_shadow * cast_shadow_map(np.random.default_rng([seed, 3]), centres, out_w, out_h)
    streak = None
    if shake:  # its direction drawn from the seed's own stream, so the rest of the scene stays the same
        streak = (shake * max(out_w, out_h), float(np.random.default_rng([seed, 4]).uniform(0, math.pi)))
    photo = _photograph(photo, rng, lamp, shade, streak)

    ok, buf = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    truth = {
        "hand": hand_contract(hand),
        "tiles": truth_tiles,
        "image": {"width": out_w, "height": out_h},
        "params": {"seed": seed, "source": src, "table": table, "tilt": round(tilt, 1), "roll": round(roll, 1),
                   "quality": quality, "n_tiles": n_tiles, "fill": round(fill, 3)},
    }
    if lamp is not None:
        truth["params"]["lamp"] = lamp
    if askew is not None:
        truth["params"]["askew"] = askew
    if sideways:
        truth["params"]["sideways"] = True
    if melds_beside:
        truth["params"]["melds_beside"] = True
    if cast_shadow is not None:
        truth["params"]["cast_shadow"] = cast_shadow
    if shake is not None:
        truth["params"]["shake"] = shake
    return buf.tobytes(), truth


def cast_shadow_map(rng: np.random.Generator, centres: np.ndarray, w: int, h: int) -> np.ndarray:
    """Where a phone's and an arm's shadow falls on a ``w`` x ``h`` photo of tiles at ``centres``
    (photo px): float32, 1 in the shadow's core, 0 outside it, a soft penumbra between.

    The shadow is an ellipse 0.5-0.9 of the photo's long side across and half to as long
    again, turned at random, whose edge passes through a point of the hand (a tile's centre,
    moved up to a fifth of the hand's span), so that part of the hand lies in it and part does
    not; its edge is blurred over 1.5-6% of the long side (a lamp's size at a ceiling's height)."""
    side = float(max(w, h))
    at = centres[int(rng.integers(len(centres)))] + rng.uniform(-0.2, 0.2, 2) * np.ptp(centres, axis=0)
    a = side * rng.uniform(0.25, 0.45)
    b = a * rng.uniform(1.0, 1.5)
    turn = rng.uniform(0, 2 * math.pi)
    into = np.float32([math.cos(turn), math.sin(turn)])  # from the edge point into the shadow, along its a axis
    centre = at + into * a
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u = (xx - centre[0]) * into[0] + (yy - centre[1]) * into[1]
    v = -(xx - centre[0]) * into[1] + (yy - centre[1]) * into[0]
    inside = ((u / a) ** 2 + (v / b) ** 2 <= 1).astype(np.float32)
    sigma = side * rng.uniform(0.015, 0.06) / 2
    return cv2.GaussianBlur(inside, (0, 0), sigma)


def shaken(img: np.ndarray, length: float, angle: float) -> np.ndarray:
    """``img`` (float) streaked as a camera moving during the exposure streaks it: each pixel the
    mean of a line ``length`` px long through it at ``angle`` (radians from the x axis)."""
    if length < 1:
        return img
    k = int(math.ceil(length)) | 1
    kernel = np.zeros((k, k), np.float32)
    c, dx, dy = k // 2, math.cos(angle) * length / 2, math.sin(angle) * length / 2
    # drawn 8 times finer, with sub-pixel ends, so that a short streak keeps its length and angle
    cv2.line(kernel, (round((c - dx) * 8), round((c - dy) * 8)), (round((c + dx) * 8), round((c + dy) * 8)),
             1.0, 1, cv2.LINE_AA, shift=3)
    return cv2.filter2D(img, -1, kernel / float(kernel.sum()), borderType=cv2.BORDER_REFLECT)


def _photograph(img: np.ndarray, rng: np.random.Generator, lamp: float | None = None,
                shade: np.ndarray | None = None, streak: tuple[float, float] | None = None) -> np.ndarray:
    """Light, lens and sensor: tint, gradient, vignetting, glare, blur, noise -> uint8 BGR.
    ``lamp``: see :func:`make_scene`; ``shade``: the share of the light a cast shadow takes at
    each pixel (:func:`cast_shadow_map`); a glare spot, the lamp's own reflection, dims with it.
    ``streak``: (length px, angle), the camera's shake during the exposure (:func:`shaken`)."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    xn, yn = (xx - w / 2) / (w / 2), (yy - h / 2) / (h / 2)
    # white balance / warm light
    warm = rng.uniform(-0.08, 0.22)
    tint = np.array([1 - warm, 1 - warm * 0.3, 1 + warm * 0.4], np.float32)
    # uneven light: a linear gradient plus vignetting
    g = rng.uniform(-1, 1, 2)
    slope = rng.uniform(0, 0.35)  # drawn even when a lamp is given, so the rest of the scene stays the same
    if lamp is None:
        light = 1 + slope * (g[0] * xn + g[1] * yn) / 2
    else:  # 1 on the side the lamp is on, 1 - lamp on the far side (corners clipped to that range)
        toward = np.clip((g[0] * xn + g[1] * yn) / (np.abs(g).sum() + 1e-6), -1, 1)
        light = 1 - lamp * (1 - toward) / 2
    light *= 1 - rng.uniform(0.05, 0.35) * (xn ** 2 + yn ** 2) / 2
    exposure = rng.uniform(0.85, 1.2)
    if shade is not None:
        light = light * (1 - shade)
    out = img * (light * exposure)[..., None] * tint[None, None, :]
    # glare: 0-2 soft bright spots
    for _ in range(int(rng.integers(0, 3))):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        s = rng.uniform(0.03, 0.12) * max(w, h)
        spot = np.exp(-(((xx - cx) ** 2 + ((yy - cy) * rng.uniform(0.5, 2)) ** 2) / (2 * s * s)))
        if shade is not None:
            spot = spot * (1 - shade)
        out += (spot * rng.uniform(20, 75))[..., None]
    sigma = rng.uniform(0.4, 1.4) * max(w, h) / 1600
    out = cv2.GaussianBlur(out, (0, 0), sigma)
    if streak is not None:
        out = shaken(out, *streak)
    out += rng.normal(0, rng.uniform(1.5, 5), out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def truth_geometry(truth: dict) -> tuple[list[np.ndarray], list[float]]:
    """The centre and the face height (TL to BL) of every true tile, in photo pixels."""
    centres = [np.asarray(t["corners"], np.float64).mean(axis=0) for t in truth["tiles"]]
    heights = [float(np.linalg.norm(np.subtract(t["corners"][3], t["corners"][0]))) for t in truth["tiles"]]
    return centres, heights


def hand_key(hand: dict):
    """A proposed hand (``concealed``, ``melds``, ``flowers``) as a key that compares equal when
    two hands hold the same groups: the melds as a multiset, in any order."""
    return (hand["concealed"], hand["flowers"],
            sorted((m["tiles"], bool(m["concealed"]), bool(m.get("unknown"))) for m in hand["melds"]))


def truth_classifier(truth: dict, tolerance: float = 0.3):
    """A stand-in classifier that names a candidate from the scene's truth.

    A candidate whose centre lies within ``tolerance`` face heights of a true tile
    gets that tile's code, anything else is ``reject``.  Pass it as ``classify_fn`` to
    :func:`vision.scan.scan` to measure detection and grouping without the model.
    """
    centres, heights = truth_geometry(truth)

    def classify_fn(crops, quads):
        out = []
        for q in quads:
            c = np.asarray(q, np.float64).mean(axis=0)
            d = [float(np.linalg.norm(c - x)) for x in centres]
            i = int(np.argmin(d)) if d else -1
            hit = i >= 0 and d[i] < tolerance * heights[i]
            out.append({"tile": truth["tiles"][i]["tile"] if hit else "reject", "confidence": 1.0, "top3": []})
        return out

    return classify_fn


def SCENE_SOURCES() -> tuple[str, ...]:
    """Face styles the scenes draw from: every style the renderer knows, held-out ones included."""
    from .render import FACE_SOURCES

    return tuple(FACE_SOURCES)


def drawing_setup() -> dict[str, list[str]]:
    """What a scene is drawn with on this machine: the face styles (:func:`SCENE_SOURCES`), and the
    Latin and CJK font files the drawn faces letter their indices and characters in (file names,
    in the order they are chosen from). A seed is another photo wherever any of these differs
    (a style missing, or a font: 2026-12-01, a machine without the Liberation fonts drew other
    corner indices for every seed), so records and figures are comparable only between machines
    whose setup is the same; the benchmarks print it and ``bench/scan_outputs.py`` checks it."""
    from .faces.fonts import cjk_fonts, latin_fonts

    return {"styles": list(SCENE_SOURCES()),
            "latin_fonts": [p.rsplit("/", 1)[-1] for p in latin_fonts()],
            "cjk_fonts": [f"{p.rsplit('/', 1)[-1]}#{i}" for p, i in cjk_fonts()]}


def describe_drawing_setup(setup: dict[str, list[str]] | None = None) -> str:
    """:func:`drawing_setup` (or ``setup``) as one line for a benchmark's report."""
    setup = drawing_setup() if setup is None else setup
    return "; ".join(f"{key.replace('_', ' ')}: {', '.join(values) or 'none'}" for key, values in setup.items())
