"""The procedural face source: pips, sticks and birds drawn with OpenCV, characters from the
Debian CJK fonts, and the flowers, animals, faces and fei drawn from their characters and simple
pictures. Works with no ``../shared`` at all.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from .fonts import font, latin_fonts, required_cjk_fonts
from .ink import INKS, ink, mask_to_layer, over, paste, pick, text_mask, tile_palette

H, W = 240, 180  # work canvas, portrait 4:3
NUMERALS = "一二三四五六七八九"
FLOWER_CHARS = "春夏秋冬梅蘭菊竹"
ANIMAL_CHARS = {"1a": "貓", "2a": "鼠", "3a": "雞", "4a": "蜈蚣"}
PIP_LAYOUT = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.5), (0.73, 0.5)],
    3: [(0.2, 0.24), (0.5, 0.5), (0.8, 0.76)],
    4: [(0.27, 0.27), (0.27, 0.73), (0.73, 0.27), (0.73, 0.73)],
    5: [(0.22, 0.25), (0.22, 0.75), (0.5, 0.5), (0.78, 0.25), (0.78, 0.75)],
    6: [(0.18, 0.3), (0.18, 0.7), (0.52, 0.3), (0.52, 0.7), (0.82, 0.3), (0.82, 0.7)],
    7: [(0.13, 0.2), (0.25, 0.5), (0.37, 0.8), (0.62, 0.3), (0.62, 0.7), (0.87, 0.3), (0.87, 0.7)],
    8: [(0.13 + 0.247 * r, 0.3 + 0.4 * c) for r in range(4) for c in range(2)],
    9: [(0.17 + 0.33 * r, 0.2 + 0.3 * c) for r in range(3) for c in range(3)],
}
STICK_LAYOUT = {  # (y, x, angle in degrees)
    2: [(0.27, 0.5, 0), (0.73, 0.5, 0)],
    3: [(0.27, 0.5, 0), (0.73, 0.3, 0), (0.73, 0.7, 0)],
    4: [(0.27, 0.3, 0), (0.27, 0.7, 0), (0.73, 0.3, 0), (0.73, 0.7, 0)],
    5: [(0.27, 0.2, 0), (0.27, 0.8, 0), (0.5, 0.5, 0), (0.73, 0.2, 0), (0.73, 0.8, 0)],
    6: [(0.27, x, 0) for x in (0.2, 0.5, 0.8)] + [(0.73, x, 0) for x in (0.2, 0.5, 0.8)],
    7: [(0.17, 0.5, 0)] + [(0.5, x, 0) for x in (0.2, 0.5, 0.8)] + [(0.83, x, 0) for x in (0.2, 0.5, 0.8)],
    8: [(0.27, 0.14, 0), (0.27, 0.38, -28), (0.27, 0.62, 28), (0.27, 0.86, 0),
        (0.73, 0.14, 0), (0.73, 0.38, 28), (0.73, 0.62, -28), (0.73, 0.86, 0)],
    9: [(y, x, 0) for y in (0.17, 0.5, 0.83) for x in (0.2, 0.5, 0.8)],
}


class Canvas:
    """A transparent BGRA work canvas with masked fills."""

    def __init__(self, h: int = H, w: int = W):
        self.img = np.zeros((h, w, 4), np.uint8)
        self.h, self.w = h, w

    def fill(self, mask: np.ndarray, colour) -> None:
        x, y, w, h = cv2.boundingRect(mask)
        if w and h:
            over(self.img, mask_to_layer(mask[y: y + h, x: x + w], colour), y, x)

    def mask(self) -> np.ndarray:
        return np.zeros((self.h, self.w), np.uint8)

    def text(self, text: str, box, colour, rng, fonts=None) -> None:
        fonts = fonts or required_cjk_fonts()
        path, idx = fonts[int(rng.integers(len(fonts)))]
        m = text_mask(text, font(path, 160, idx))
        sx = rng.uniform(0.85, 1.2)  # mild stretch: real tiles use condensed and wide lettering
        m = cv2.resize(m, (max(1, int(m.shape[1] * sx)), m.shape[0]), interpolation=cv2.INTER_AREA)
        paste(self.img, mask_to_layer(m, colour), box)


def _pt(y, x, c: Canvas):
    return int(round(x * c.w)), int(round(y * c.h))


def _circle_pip(c: Canvas, cy, cx, r, rng, pal):
    colours = [pal[int(rng.integers(len(pal)))] for _ in range(3)]
    style = int(rng.integers(4))
    m = c.mask()
    centre = _pt(cy, cx, c)
    R = max(2, int(r))
    th = max(1, int(R * rng.uniform(0.12, 0.22)))
    cv2.circle(m, centre, R - th // 2, 255, th, cv2.LINE_AA)
    c.fill(m, colours[0])
    m = c.mask()
    if style == 0:  # concentric rings and a dot
        cv2.circle(m, centre, int(R * 0.62), 255, max(1, th), cv2.LINE_AA)
        c.fill(m, colours[1])
        m = c.mask()
        cv2.circle(m, centre, max(1, int(R * 0.25)), 255, -1, cv2.LINE_AA)
    elif style == 1:  # petals
        k = int(rng.choice([6, 8, 10]))
        for i in range(k):
            a = 2 * math.pi * i / k
            p = (int(centre[0] + math.cos(a) * R * 0.55), int(centre[1] + math.sin(a) * R * 0.55))
            cv2.circle(m, p, max(1, int(R * 0.16)), 255, -1, cv2.LINE_AA)
        c.fill(m, colours[1])
        m = c.mask()
        cv2.circle(m, centre, max(1, int(R * 0.22)), 255, -1, cv2.LINE_AA)
    elif style == 2:  # filled disc with a light centre
        cv2.circle(m, centre, int(R * 0.72), 255, -1, cv2.LINE_AA)
        cv2.circle(m, centre, int(R * 0.35), 0, -1, cv2.LINE_AA)
    else:  # ring of dashes
        for i in range(12):
            a = 2 * math.pi * i / 12
            p1 = (int(centre[0] + math.cos(a) * R * 0.45), int(centre[1] + math.sin(a) * R * 0.45))
            p2 = (int(centre[0] + math.cos(a) * R * 0.7), int(centre[1] + math.sin(a) * R * 0.7))
            cv2.line(m, p1, p2, 255, max(1, th // 2 + 1), cv2.LINE_AA)
    c.fill(m, colours[2])


def draw_circles(code: str, rng, c: Canvas) -> None:
    n = int(code[0])
    pal = tile_palette(code, rng)["palette"]
    layout = PIP_LAYOUT[n]
    r = {1: 0.4, 2: 0.21, 3: 0.17, 4: 0.2, 5: 0.17, 6: 0.16, 7: 0.13, 8: 0.115, 9: 0.14}[n] * c.w
    r *= rng.uniform(0.88, 1.08)
    for y, x in layout:
        _circle_pip(c, 0.04 + 0.92 * y, 0.05 + 0.9 * x, r * (1.6 if n == 1 else 1.0) / (1.6 if n == 1 else 1.0), rng, pal)


def _stick(c: Canvas, cy, cx, length, width, angle, colour, rng, joint_colour=None):
    m = c.mask()
    cx_p, cy_p = cx * c.w, cy * c.h
    L, Wd = length * c.h, width * c.w
    rect = ((cx_p, cy_p), (Wd * 0.62, L), angle)
    box = cv2.boxPoints(rect).astype(np.int32)
    cv2.fillPoly(m, [box], 255, cv2.LINE_AA)
    style = int(rng.integers(3))
    a = math.radians(angle)
    dy, dx = math.cos(a), -math.sin(a)
    for t in (-0.5, 0.0, 0.5) if style != 2 else (-0.5, -0.17, 0.17, 0.5):
        p = (cx_p + dx * t * L * 0.95, cy_p + dy * t * L * 0.95)
        cv2.ellipse(m, (int(p[0]), int(p[1])), (max(1, int(Wd * 0.5)), max(1, int(Wd * 0.2))),
                    angle, 0, 360, 255, -1, cv2.LINE_AA)
    if style == 1:  # hollow stick
        inner = ((cx_p, cy_p), (max(1.0, Wd * 0.22), L * 0.8), angle)
        cv2.fillPoly(m, [cv2.boxPoints(inner).astype(np.int32)], 0, cv2.LINE_AA)
    c.fill(m, colour)


def _curve(m, p0, p1, bend: float, thickness: int) -> None:
    """A gentle arc from p0 to p1 (a quadratic through a middle point pushed sideways by ``bend``)."""
    p0, p1 = np.float32(p0), np.float32(p1)
    d = p1 - p0
    mid = (p0 + p1) / 2 + np.float32([-d[1], d[0]]) * bend
    t = np.linspace(0, 1, 12, dtype=np.float32)[:, None]
    pts = (1 - t) ** 2 * p0 + 2 * (1 - t) * t * mid + t ** 2 * p1
    cv2.polylines(m, [pts.astype(np.int32)], False, 255, thickness, cv2.LINE_AA)


def _trimmed(layer: np.ndarray) -> np.ndarray:
    """A BGRA layer cut to the bounding box of what is drawn on it."""
    x, y, w, h = cv2.boundingRect(layer[..., 3])
    return layer[y: y + h, x: x + w]


def draw_perched_bird(c: Canvas, rng, pal, box=(0.04, 0.06, 0.96, 0.94)) -> None:
    """The 1 of bamboo as many real sets draw it: a large upright bird (peacock, sparrow) in
    coloured line art, long tail feathers hanging down, often on a branch."""
    sub = Canvas(200, 160)
    cols = [pal[int(rng.integers(len(pal)))] for _ in range(6)]
    line = int(rng.integers(3, 6))
    filled = rng.random() < 0.35
    cx, tilt = 80 + int(rng.integers(-10, 10)), float(rng.uniform(-30, 30))
    m = sub.mask()  # body
    cv2.ellipse(m, (cx, 92), (int(rng.integers(20, 30)), int(rng.integers(32, 44))), tilt, 0, 360, 255,
                -1 if filled else line, cv2.LINE_AA)
    sub.fill(m, cols[0])
    m = sub.mask()  # wing, with feather lines
    cv2.ellipse(m, (cx + 6, 96), (14, 30), tilt + 15, 0, 360, 255, line, cv2.LINE_AA)
    for k in range(int(rng.integers(1, 4))):
        _curve(m, (cx - 2, 78 + 10 * k), (cx + 18, 108 + 8 * k), 0.2, max(2, line - 1))
    sub.fill(m, cols[1])
    hx, hy = cx + int(rng.integers(-12, 12)), 44
    m = sub.mask()  # head, eye, crest
    cv2.circle(m, (hx, hy), int(rng.integers(12, 17)), 255, -1 if filled else line, cv2.LINE_AA)
    for k in range(int(rng.integers(0, 4))):
        _curve(m, (hx, hy - 12), (hx - 14 + 10 * k, hy - 32), 0.15, 2)
    sub.fill(m, cols[2])
    m = sub.mask()
    cv2.circle(m, (hx + 5, hy - 2), 3, 255, -1, cv2.LINE_AA)
    cv2.fillPoly(m, [np.array([[hx + 12, hy - 4], [hx + 28, hy + 2], [hx + 12, hy + 6]], np.int32)], 255, cv2.LINE_AA)
    sub.fill(m, cols[3])
    m = sub.mask()  # tail: long feathers hanging down, sometimes with eyes (a peacock)
    for k in range(int(rng.integers(2, 6))):
        end = (int(rng.integers(30, 130)), int(rng.integers(170, 198)))
        _curve(m, (cx, 124), end, float(rng.uniform(-0.25, 0.25)), line)
        if rng.random() < 0.3:
            cv2.circle(m, end, 6, 255, -1, cv2.LINE_AA)
    sub.fill(m, cols[4])
    if rng.random() < 0.6:  # the branch it sits on
        m = sub.mask()
        y = int(rng.integers(128, 150))
        _curve(m, (5, y + int(rng.integers(-10, 10))), (155, y + int(rng.integers(-10, 10))), 0.05, line + 1)
        for _ in range(int(rng.integers(0, 4))):
            lx = int(rng.integers(15, 145))
            cv2.ellipse(m, (lx, y - 8), (12, 5), float(rng.uniform(-60, 60)), 0, 360, 255, -1, cv2.LINE_AA)
        sub.fill(m, cols[5])
    img = _trimmed(sub.img)  # the bird fills the face, as on real tiles
    img = img[:, ::-1] if rng.random() < 0.5 else img
    paste(c.img, np.ascontiguousarray(img), box)


def draw_bird(c: Canvas, rng, pal, box=(0.08, 0.08, 0.92, 0.92)) -> None:
    """A small bird in profile, in flat colours."""
    y0, x0, y1, x1 = box
    sub = Canvas(200, 160)
    cols = [pal[int(rng.integers(len(pal)))] for _ in range(5)]
    m = sub.mask()
    cv2.ellipse(m, (80, 110), (38, 26), rng.uniform(-30, 10), 0, 360, 255, -1, cv2.LINE_AA)
    sub.fill(m, cols[0])
    m = sub.mask()
    cv2.circle(m, (112, 72), 17, 255, -1, cv2.LINE_AA)
    sub.fill(m, cols[1])
    m = sub.mask()
    cv2.fillPoly(m, [np.array([[125, 66], [150, 74], [126, 80]], np.int32)], 255, cv2.LINE_AA)
    sub.fill(m, cols[2])
    m = sub.mask()
    k = int(rng.integers(3, 7))
    for i in range(k):
        a = math.radians(200 + i * 50 / k + rng.uniform(-5, 5))
        end = (int(60 + math.cos(a) * 62), int(125 - math.sin(a) * 62))
        cv2.line(m, (60, 120), end, 255, int(rng.integers(4, 9)), cv2.LINE_AA)
    sub.fill(m, cols[3])
    m = sub.mask()
    cv2.line(m, (80, 134), (72, 180), 255, 4, cv2.LINE_AA)
    cv2.line(m, (92, 134), (98, 180), 255, 4, cv2.LINE_AA)
    cv2.ellipse(m, (78, 108), (22, 12), -20, 0, 360, 255, 3, cv2.LINE_AA)
    sub.fill(m, cols[4])
    img = sub.img[:, ::-1] if rng.random() < 0.5 else sub.img
    paste(c.img, np.ascontiguousarray(img), box)


def draw_bamboo(code: str, rng, c: Canvas) -> None:
    n = int(code[0])
    inks = tile_palette(code, rng)
    if n == 1:
        bird = draw_perched_bird if rng.random() < 0.6 else draw_bird
        bird(c, rng, inks["palette"] + [inks["main"]])
        return
    rows = 3 if n in (7, 9) else 2
    length = (0.27 if rows == 3 else 0.38) * rng.uniform(0.9, 1.05)
    width = (0.17 if n in (6, 7, 9) else 0.2 if n != 8 else 0.14) * rng.uniform(0.85, 1.1)
    for i, (y, x, ang) in enumerate(STICK_LAYOUT[n]):
        colour = inks["main"]
        if rng.random() < inks["accent_p"] or (n in (5, 7, 9) and i == (0 if n == 7 else len(STICK_LAYOUT[n]) // 2)
                                                and rng.random() < 0.6):
            colour = inks["accent"]
        _stick(c, 0.05 + 0.9 * y, 0.06 + 0.88 * x, length, width, ang, colour, rng)


def draw_characters(code: str, rng, c: Canvas) -> None:
    n = int(code[0])
    inks = tile_palette(code, rng)
    top = NUMERALS[n - 1]
    if n == 5 and rng.random() < 0.3:
        top = "伍"
    split = rng.uniform(0.42, 0.5)
    c.text(top, (0.04, 0.1, split, 0.9), inks["top"], rng)
    c.text("万" if rng.random() < 0.1 else "萬", (split + 0.02, 0.06, 0.97, 0.94), inks["bottom"], rng)


def draw_honor(code: str, rng, c: Canvas) -> None:
    inks = tile_palette(code, rng)
    n = code[0]
    if n == "5":
        style = pick(rng, {"frame": 6, "blank": 1.5, "double": 2})
        if style == "blank":
            return
        m = c.mask()
        th = int(rng.integers(6, 14))
        m0 = int(c.w * rng.uniform(0.1, 0.18))
        cv2.rectangle(m, (m0, m0), (c.w - m0, c.h - m0), 255, th, cv2.LINE_AA)
        if style == "double":
            g = th + int(rng.integers(5, 12))
            cv2.rectangle(m, (m0 + g, m0 + g), (c.w - m0 - g, c.h - m0 - g), 255, max(2, th // 2), cv2.LINE_AA)
        c.fill(m, inks["main"])
        return
    ch = "東南西北白發中"[int(n) - 1]
    if n == "6" and rng.random() < 0.15:
        ch = "发"
    c.text(ch, (0.1, 0.08, 0.9, 0.92), inks["main"], rng)


def draw_plant(c: Canvas, rng, pal, box) -> None:
    """A random plant: stems, leaves and blossoms (never specific to one flower kind)."""
    sub = Canvas(200, 160)
    stem_c = pal[int(rng.integers(len(pal)))]
    m = sub.mask()
    base = (int(rng.integers(60, 100)), 195)
    tips = []
    for _ in range(int(rng.integers(2, 5))):
        tip = (int(rng.integers(20, 140)), int(rng.integers(20, 110)))
        mid = ((base[0] + tip[0]) // 2 + int(rng.integers(-25, 25)), (base[1] + tip[1]) // 2)
        pts = np.array([base, mid, tip], np.int32)
        cv2.polylines(m, [pts], False, 255, int(rng.integers(3, 7)), cv2.LINE_AA)
        tips.append(tip)
        if rng.random() < 0.7:
            cv2.ellipse(m, mid, (int(rng.integers(10, 22)), int(rng.integers(4, 8))),
                        float(rng.uniform(0, 180)), 0, 360, 255, -1, cv2.LINE_AA)
    if rng.random() < 0.4:  # long blade leaves from the base (orchid, bamboo, grass)
        for _ in range(int(rng.integers(2, 6))):
            _curve(m, base, (int(rng.integers(5, 155)), int(rng.integers(40, 150))), float(rng.uniform(-0.3, 0.3)),
                   int(rng.integers(2, 5)))
    sub.fill(m, stem_c)
    for tip in tips:
        col = pal[int(rng.integers(len(pal)))]
        if rng.random() < 0.45:  # a big blossom: rings of petals (peony, chrysanthemum, plum)
            _blossom(sub, tip, rng, pal)
            continue
        m = sub.mask()
        r = int(rng.integers(8, 20))
        k = int(rng.integers(4, 8))
        for i in range(k):
            a = 2 * math.pi * i / k
            cv2.circle(m, (int(tip[0] + math.cos(a) * r * 0.8), int(tip[1] + math.sin(a) * r * 0.8)),
                       max(2, r // 2), 255, -1, cv2.LINE_AA)
        sub.fill(m, col)
        m = sub.mask()
        cv2.circle(m, tip, max(2, r // 3), 255, -1, cv2.LINE_AA)
        sub.fill(m, pal[int(rng.integers(len(pal)))])
    if rng.random() < 0.4:  # a pot
        m = sub.mask()
        cv2.fillPoly(m, [np.array([[35, 160], [125, 160], [110, 199], [50, 199]], np.int32)], 255, cv2.LINE_AA)
        sub.fill(m, pal[int(rng.integers(len(pal)))])
    paste(c.img, sub.img, box)


def _blossom(sub: Canvas, centre, rng, pal) -> None:
    """A large flower head: one or two rings of radial petals, filled or outlined, and a heart."""
    r = int(rng.integers(20, 38))
    outline = rng.random() < 0.4
    for scale in (1.0, 0.55)[: int(rng.integers(1, 3))]:
        m = sub.mask()
        k = int(rng.integers(5, 13))
        rot = rng.uniform(0, 2 * math.pi)
        for i in range(k):
            a = rot + 2 * math.pi * i / k
            pc = (int(centre[0] + math.cos(a) * r * scale * 0.6), int(centre[1] + math.sin(a) * r * scale * 0.6))
            cv2.ellipse(m, pc, (max(3, int(r * scale * 0.5)), max(2, int(r * scale * 0.22))), math.degrees(a), 0, 360,
                        255, 2 if outline else -1, cv2.LINE_AA)
        sub.fill(m, pal[int(rng.integers(len(pal)))])
    m = sub.mask()
    cv2.circle(m, (int(centre[0]), int(centre[1])), max(2, r // 5), 255, -1, cv2.LINE_AA)
    sub.fill(m, pal[int(rng.integers(len(pal)))])


def index_mark(text: str, rng, colour, box, c: Canvas) -> None:
    """A corner index: a Latin digit or letter (or a Chinese numeral when ``text`` is CJK)."""
    fonts = required_cjk_fonts() if ord(text[0]) > 0x2E80 else [(p, 0) for p in latin_fonts()]
    c.text(text, box, colour, rng, fonts=fonts)


def flower_index(n: int, rng) -> tuple[bool, str]:
    """Whether flower ``n`` (1-8) carries its season or plant character, and its corner numeral.

    A set whose flowers carry no character tells the two groups apart by the numeral alone:
    seasons in Chinese numerals, plants in Latin digits (as the Hong Kong art does). Such a
    flower always follows that rule, or its photo could not be read even by a player; a flower
    with its character may carry either numeral."""
    with_char = rng.random() < 0.8
    roll = rng.random()  # drawn either way, so that the rest of a tile or scene stays the same
    chinese = roll < 0.2 if with_char else n <= 4
    digit_n = (n - 1) % 4 + 1
    return with_char, NUMERALS[digit_n - 1] if chinese else str(digit_n)


def draw_flower(code: str, rng, c: Canvas) -> None:
    n = int(code[0])
    pal = tile_palette(code, rng)["palette"]
    digit_col = ink(pick(rng, {"red": 4, "blue": 2, "green": 2, "black": 2}), rng)
    char_col = ink(pick(rng, {"black": 3, "red": 2, "blue": 2, "green": 2}), rng)
    left_digit = rng.random() < 0.5
    s = rng.uniform(0.17, 0.26)
    with_char, digit_text = flower_index(n, rng)
    # the numeral and the character are what name a flower, so they lie over the painting
    # (painted first, the picture covered the character low on a side, and the corners of a
    # picture filling the face): a separate layer, laid on top, keeps every random draw in turn
    marks = Canvas(c.h, c.w)
    dbox = (0.03, 0.04, 0.03 + s, 0.04 + s * 0.9) if left_digit else (0.03, 0.96 - s * 0.9, 0.03 + s, 0.96)
    if not with_char or rng.random() < 0.93:  # without its character a flower needs its numeral
        index_mark(digit_text, rng, digit_col, dbox, marks)
    cs = rng.uniform(0.17, 0.27)
    cbox = (0.03, 0.96 - cs, 0.03 + cs, 0.96) if left_digit else (0.03, 0.04, 0.03 + cs, 0.04 + cs)
    if rng.random() < 0.15:  # character low on the other side
        cbox = (0.5, cbox[1], 0.5 + cs, cbox[3])
    if with_char:
        marks.text(FLOWER_CHARS[n - 1], cbox, char_col, rng)
    _flower_picture(code, c, rng, pal)
    over(c.img, marks.img, 0, 0)


def _flower_picture(code: str, c: Canvas, rng, pal) -> None:
    """The picture of a flower tile. Every set paints its own (plants, big blossoms, birds,
    bamboo), so the picture is mostly drawn from all of them at random: the corner digit and
    the small character tell the flowers apart, and a big painting must not pass for 1s or 6z.
    The four plants (梅蘭菊竹) are, in most sets, painted as themselves: plum blossom on a
    branch, orchid leaves, a chrysanthemum head, bamboo canes; so are most of the drawn ones."""
    box = (0.22, 0.08, 0.97, 0.92) if rng.random() < 0.6 else (0.12, 0.03, 0.98, 0.97)  # or most of the face
    if code in GENTLEMEN and rng.random() < 0.6:
        paste(c.img, np.ascontiguousarray(_trimmed(GENTLEMEN[code](rng, pal))), box)
        return
    kind = pick(rng, {"plant": 3, "bush": 3, "blossoms": 2.5, "bird": 1.5, "bamboo": 1.5})
    if kind == "plant":
        draw_plant(c, rng, pal, box)
    elif kind == "bush":
        paste(c.img, np.ascontiguousarray(_trimmed(_leafy_bush(rng, pal))), box)
    elif kind == "bird":
        draw_perched_bird(c, rng, pal, box)
    else:
        sub = Canvas(200, 160)
        m = sub.mask()
        for _ in range(int(rng.integers(2, 5)) if kind == "bamboo" else int(rng.integers(1, 4))):
            x = int(rng.integers(20, 140))
            _curve(m, (x, 198), (x + int(rng.integers(-30, 30)), int(rng.integers(10, 90))),
                   float(rng.uniform(-0.1, 0.1)), int(rng.integers(4, 10)) if kind == "bamboo" else 3)
        for _ in range(int(rng.integers(5, 14))):  # leaves
            cv2.ellipse(m, (int(rng.integers(10, 150)), int(rng.integers(20, 180))),
                        (int(rng.integers(14, 30)), int(rng.integers(4, 9))), float(rng.uniform(0, 180)), 0, 360,
                        255, -1, cv2.LINE_AA)
        sub.fill(m, pal[int(rng.integers(len(pal)))])
        if kind == "blossoms":
            for _ in range(int(rng.integers(1, 4))):
                _blossom(sub, (int(rng.integers(35, 125)), int(rng.integers(35, 140))), rng, pal)
        paste(c.img, np.ascontiguousarray(_trimmed(sub.img)), box)  # a painting fills its space


def _leaf(m, base, tip, width: float) -> None:
    """A pointed leaf from ``base`` to ``tip``: two arcs that meet at both ends."""
    base, tip = np.float32(base), np.float32(tip)
    d = tip - base
    side = np.float32([-d[1], d[0]]) * width
    t = np.linspace(0, 1, 10, dtype=np.float32)[:, None]
    bulge = np.sin(np.pi * t)
    pts = np.concatenate([base + d * t + side * bulge, (base + d * t - side * bulge)[::-1]])
    cv2.fillPoly(m, [pts.astype(np.int32)], 255, cv2.LINE_AA)


def _picture_with_base(rng, y: float):
    """A 200 x 160 picture canvas, a fresh mask on it, and a random base point at height ``y``
    where a plant's stems start."""
    sub = Canvas(200, 160)
    return sub, sub.mask(), np.float32([rng.uniform(60, 100), y])


def _plum(rng, pal) -> np.ndarray:
    """梅: a crooked dark branch with twigs, dotted with round five-petalled blossoms and buds."""
    sub = Canvas(200, 160)
    m = sub.mask()
    pts = [np.float32([rng.uniform(10, 60), rng.uniform(170, 195)])]
    for _ in range(int(rng.integers(3, 6))):  # the main branch zig-zags upwards
        pts.append(pts[-1] + np.float32([rng.uniform(-10, 45), rng.uniform(-55, -25)]))
    spots = []
    for k in range(len(pts) - 1):
        _curve(m, pts[k], pts[k + 1], float(rng.uniform(-0.2, 0.2)), int(rng.integers(6, 11)) - k)
        for _ in range(int(rng.integers(1, 3))):  # twigs
            tip = pts[k + 1] + np.float32([rng.uniform(-45, 45), rng.uniform(-35, 15)])
            _curve(m, pts[k + 1], tip, float(rng.uniform(-0.3, 0.3)), 2)
            spots.append(tip)
        spots.append(pts[k + 1])
    sub.fill(m, ink(pick(rng, {"black": 4, "green": 2, "blue": 1}), rng))
    petal = ink(pick(rng, {"red": 6, "blue": 1, "black": 1}), rng)
    heart = pal[int(rng.integers(len(pal)))]
    for at in spots:
        r = int(rng.integers(7, 13)) if rng.random() < 0.75 else 4  # blossom or bud
        m = sub.mask()
        rot = rng.uniform(0, 2 * math.pi)
        for i in range(5 if r > 4 else 1):
            a = rot + 2 * math.pi * i / 5
            cv2.circle(m, (int(at[0] + math.cos(a) * r * 0.7), int(at[1] + math.sin(a) * r * 0.7)),
                       max(3, int(r * 0.55)), 255, -1 if rng.random() < 0.7 else 1, cv2.LINE_AA)
        sub.fill(m, petal)
        m = sub.mask()
        cv2.circle(m, (int(at[0]), int(at[1])), max(1, r // 4), 255, -1, cv2.LINE_AA)
        sub.fill(m, heart)
    return sub.img


def _orchid(rng, pal) -> np.ndarray:
    """蘭: a fan of long, thin, arching leaves from one base, a few small flowers on slim stalks."""
    sub, m, base = _picture_with_base(rng, 190)
    for _ in range(int(rng.integers(5, 10))):
        tip = np.float32([rng.uniform(0, 160), rng.uniform(10, 120)])
        _leaf(m, base, tip, float(rng.uniform(0.03, 0.07)))  # blades: long and thin
    sub.fill(m, ink(pick(rng, {"green": 6, "blue": 2, "black": 2}), rng))
    flower_c = ink(pick(rng, {"red": 3, "blue": 2, "black": 1, "green": 1}), rng)
    for _ in range(int(rng.integers(1, 4))):
        top = np.float32([rng.uniform(25, 135), rng.uniform(20, 100)])
        m = sub.mask()
        _curve(m, base, top, float(rng.uniform(-0.2, 0.2)), 2)
        for _ in range(int(rng.integers(1, 3))):  # small orchid heads: three sepals and a lip
            at = top + np.float32([rng.uniform(-12, 12), rng.uniform(-6, 25)])
            for a in (-math.pi / 2, math.pi / 6, 5 * math.pi / 6, math.pi / 2):
                _leaf(m, at, at + 13 * np.float32([math.cos(a), math.sin(a)]), 0.35)
        sub.fill(m, flower_c)
    return sub.img


def _chrysanthemum(rng, pal) -> np.ndarray:
    """菊: one to three big round heads of many narrow petals, on stems with lobed leaves."""
    sub, m, base = _picture_with_base(rng, 195)
    heads = [np.float32([rng.uniform(35, 125), rng.uniform(35, 110)]) for _ in range(int(rng.integers(1, 4)))]
    for h in heads:
        _curve(m, base, h, float(rng.uniform(-0.25, 0.25)), int(rng.integers(3, 6)))
        for _ in range(int(rng.integers(2, 4))):
            at = base + (h - base) * rng.uniform(0.3, 0.8)
            ang = rng.uniform(0, 2 * math.pi)
            cv2.ellipse(m, (int(at[0]), int(at[1])), (int(rng.integers(12, 20)), int(rng.integers(8, 13))),
                        math.degrees(ang), 0, 360, 255, -1, cv2.LINE_AA)
    sub.fill(m, ink(pick(rng, {"green": 6, "blue": 1, "black": 1}), rng))
    petal = ink(pick(rng, {"red": 3, "blue": 2, "black": 1, "green": 1}), rng)
    for h in heads:
        r = float(rng.uniform(20, 34))
        for ring in (1.0, 0.6, 0.3):
            m = sub.mask()
            k = int(rng.integers(14, 24))
            for i in range(k):
                a = 2 * math.pi * (i + 0.5 * (ring < 1)) / k
                tip = h + r * ring * np.float32([math.cos(a), math.sin(a)])
                cv2.line(m, (int(h[0]), int(h[1])), (int(tip[0]), int(tip[1])), 255, 2 if ring > 0.5 else 3, cv2.LINE_AA)
            sub.fill(m, petal if ring > 0.5 or rng.random() < 0.5 else pal[int(rng.integers(len(pal)))])
    return sub.img


def _bamboo_canes(rng, pal) -> np.ndarray:
    """竹: two to four upright canes with dark nodes, and sprays of lance leaves."""
    sub = Canvas(200, 160)
    cane = ink(pick(rng, {"green": 6, "blue": 2, "black": 1}), rng)
    node = ink(pick(rng, {"black": 3, "red": 2, "green": 1}), rng)
    leaf = ink(pick(rng, {"green": 6, "black": 2, "blue": 1}), rng)
    for _ in range(int(rng.integers(2, 5))):
        x0 = float(rng.uniform(20, 140))
        x1 = x0 + float(rng.uniform(-20, 20))
        top = float(rng.uniform(5, 70))
        w = int(rng.integers(6, 12))
        m = sub.mask()
        cv2.line(m, (int(x0), 198), (int(x1), int(top)), 255, w, cv2.LINE_AA)
        sub.fill(m, cane)
        m = sub.mask()
        y = 198 - rng.uniform(25, 45)
        while y > top + 10:
            x = x0 + (x1 - x0) * (198 - y) / (198 - top)
            cv2.line(m, (int(x - w), int(y)), (int(x + w), int(y)), 255, 2, cv2.LINE_AA)
            y -= rng.uniform(28, 50)
        sub.fill(m, node)
    m = sub.mask()
    for _ in range(int(rng.integers(2, 5))):  # sprays of leaves from a twig
        at = np.float32([rng.uniform(15, 145), rng.uniform(15, 150)])
        for _ in range(int(rng.integers(2, 5))):
            ang = rng.uniform(0, 2 * math.pi)
            _leaf(m, at, at + rng.uniform(25, 45) * np.float32([math.cos(ang), math.sin(ang)]), 0.16)
    sub.fill(m, leaf)
    return sub.img


GENTLEMEN = {"5f": _plum, "6f": _orchid, "7f": _chrysanthemum, "8f": _bamboo_canes}


def _leafy_bush(rng, pal) -> np.ndarray:
    """A dense painted plant, the way many sets paint flowers: curling stems crowded with broad
    pointed leaves, one to three big flower heads, often a tuft of ground or roots in another
    colour. Returns a BGRA layer."""
    sub = Canvas(200, 160)
    leaf_c = ink(pick(rng, {"green": 6, "blue": 1, "black": 1}), rng)
    m = sub.mask()
    base = np.float32([rng.uniform(55, 105), 185])
    heads = []
    for _ in range(int(rng.integers(3, 7))):
        tip = np.float32([rng.uniform(12, 148), rng.uniform(12, 120)])
        _curve(m, base, tip, float(rng.uniform(-0.35, 0.35)), int(rng.integers(2, 5)))
        heads.append(tip)
        for _ in range(int(rng.integers(2, 6))):  # leaves along the stem
            at = base + (tip - base) * rng.uniform(0.2, 0.9)
            ang = rng.uniform(0, 2 * math.pi)
            ln = rng.uniform(22, 55)
            _leaf(m, at, at + ln * np.float32([math.cos(ang), math.sin(ang)]), float(rng.uniform(0.2, 0.4)))
    sub.fill(m, leaf_c)
    flower_c = [c for c in pal if c != leaf_c] or pal
    order = rng.permutation(len(heads))[: int(rng.integers(1, 4))]
    for i in order:
        _blossom(sub, heads[int(i)], rng, flower_c)
    if rng.random() < 0.6:  # ground, roots or a vase in another colour
        m = sub.mask()
        for _ in range(int(rng.integers(3, 7))):
            _curve(m, base + np.float32([rng.uniform(-40, 40), rng.uniform(-4, 10)]),
                   base + np.float32([rng.uniform(-15, 15), rng.uniform(-30, -5)]), float(rng.uniform(-0.3, 0.3)),
                   int(rng.integers(3, 7)))
        sub.fill(m, pal[int(rng.integers(len(pal)))])
    return sub.img


def _animal_picture(code: str, rng, pal) -> np.ndarray:
    sub = Canvas(160, 160)
    cols = [pal[int(rng.integers(len(pal)))] for _ in range(4)]
    m = sub.mask()
    if code == "1a":  # cat: body, head, ears, tail
        cv2.ellipse(m, (85, 115), (45, 30), 0, 0, 360, 255, -1, cv2.LINE_AA)
        cv2.circle(m, (50, 70), 28, 255, -1, cv2.LINE_AA)
        cv2.fillPoly(m, [np.array([[28, 55], [32, 22], [50, 45]], np.int32),
                         np.array([[55, 45], [70, 22], [74, 58]], np.int32)], 255, cv2.LINE_AA)
        cv2.ellipse(m, (135, 95), (12, 40), 20, 180, 360, 255, 6, cv2.LINE_AA)
        sub.fill(m, cols[0])
        m = sub.mask()
        for y in (70, 78):
            cv2.line(m, (8, y), (35, y + 2), 255, 2, cv2.LINE_AA)
        cv2.circle(m, (42, 66), 4, 255, -1, cv2.LINE_AA)
        cv2.circle(m, (60, 66), 4, 255, -1, cv2.LINE_AA)
    elif code == "2a":  # rat: long body, round ears, long curved tail
        cv2.ellipse(m, (75, 100), (50, 24), -10, 0, 360, 255, -1, cv2.LINE_AA)
        cv2.ellipse(m, (25, 95), (20, 13), 20, 0, 360, 255, -1, cv2.LINE_AA)
        cv2.circle(m, (38, 78), 11, 255, -1, cv2.LINE_AA)
        sub.fill(m, cols[0])
        m = sub.mask()
        cv2.ellipse(m, (140, 120), (25, 30), 0, 180, 400, 255, 3, cv2.LINE_AA)
        cv2.circle(m, (18, 92), 3, 255, -1, cv2.LINE_AA)
    elif code == "3a":  # rooster: body, comb, tail arcs, legs
        cv2.ellipse(m, (80, 95), (38, 30), 0, 0, 360, 255, -1, cv2.LINE_AA)
        cv2.circle(m, (48, 55), 16, 255, -1, cv2.LINE_AA)
        sub.fill(m, cols[0])
        m = sub.mask()
        cv2.polylines(m, [np.array([[36, 42], [40, 28], [46, 38], [52, 24], [56, 38], [62, 30], [62, 44]],
                                   np.int32)], False, 255, 5, cv2.LINE_AA)
        cv2.fillPoly(m, [np.array([[32, 54], [20, 60], [33, 62]], np.int32)], 255, cv2.LINE_AA)
        sub.fill(m, cols[1])
        m = sub.mask()
        for k in range(4):
            cv2.ellipse(m, (118, 80), (30 - k * 4, 40 - k * 6), -30 + k * 15, 200, 340, 255, 4, cv2.LINE_AA)
        cv2.line(m, (72, 122), (68, 152), 255, 4, cv2.LINE_AA)
        cv2.line(m, (90, 122), (94, 152), 255, 4, cv2.LINE_AA)
    else:  # centipede: a chain of segments along a curve, with legs
        t = np.linspace(0, 1, 11)
        xs = 20 + 120 * t
        ys = 80 + 40 * np.sin(t * math.pi * rng.uniform(1.2, 2.2))
        for x, y in zip(xs, ys):
            cv2.ellipse(m, (int(x), int(y)), (9, 12), 0, 0, 360, 255, -1, cv2.LINE_AA)
        sub.fill(m, cols[0])
        m = sub.mask()
        for x, y in zip(xs[1:], ys[1:]):
            cv2.line(m, (int(x), int(y) - 10), (int(x) - 6, int(y) - 24), 255, 2, cv2.LINE_AA)
            cv2.line(m, (int(x), int(y) + 10), (int(x) - 6, int(y) + 24), 255, 2, cv2.LINE_AA)
        cv2.circle(m, (int(xs[0]) - 4, int(ys[0])), 9, 255, -1, cv2.LINE_AA)
    sub.fill(m, cols[2])
    img = sub.img[:, ::-1] if rng.random() < 0.5 else sub.img
    return np.ascontiguousarray(img)


def draw_animal(code: str, rng, c: Canvas) -> None:
    pal = tile_palette(code, rng)["palette"]
    chars = ANIMAL_CHARS[code]
    style = pick(rng, {"top": 4, "picture": 2, "side": 2})
    col = ink(pick(rng, {"black": 3, "red": 2, "blue": 2, "green": 1}), rng)
    if style == "top":
        c.text(chars, (0.04, 0.12, 0.3, 0.88), col, rng)
        paste(c.img, _animal_picture(code, rng, pal), (0.33, 0.04, 0.97, 0.96))
    elif style == "side":
        if len(chars) == 1:
            c.text(chars, (0.04, 0.05, 0.3, 0.35), col, rng)
        else:
            for i, ch in enumerate(chars):
                c.text(ch, (0.04 + 0.2 * i, 0.04, 0.22 + 0.2 * i, 0.28), col, rng)
        paste(c.img, _animal_picture(code, rng, pal), (0.3, 0.04, 0.97, 0.96))
    else:
        paste(c.img, _animal_picture(code, rng, pal), (0.08, 0.04, 0.92, 0.96))


def draw_face_tile(code: str, rng, c: Canvas) -> None:
    """A human figure (Malaysian face tiles) with its number 1-4 in a corner."""
    pal = tile_palette(code, rng)["palette"]
    n = int(code[0])
    sub = Canvas(200, 150)
    cols = [pal[int(rng.integers(len(pal)))] for _ in range(3)]
    m = sub.mask()
    cv2.fillPoly(m, [np.array([[45, 90], [105, 90], [128, 195], [22, 195]], np.int32)], 255, cv2.LINE_AA)
    sub.fill(m, cols[0])
    m = sub.mask()
    cv2.circle(m, (75, 62), 22, 255, -1, cv2.LINE_AA)
    sub.fill(m, ink("black", rng) if rng.random() < 0.5 else cols[1])
    m = sub.mask()
    hat = int(rng.integers(3))
    if hat == 0:
        cv2.rectangle(m, (52, 26), (98, 40), 255, -1, cv2.LINE_AA)
    elif hat == 1:
        cv2.fillPoly(m, [np.array([[50, 44], [75, 12], [100, 44]], np.int32)], 255, cv2.LINE_AA)
    cv2.line(m, (48, 100), (20, 150), 255, 7, cv2.LINE_AA)
    cv2.line(m, (102, 100), (130, 150), 255, 7, cv2.LINE_AA)
    sub.fill(m, cols[2])
    paste(c.img, sub.img, (0.2, 0.08, 0.97, 0.92))
    col = ink(pick(rng, {"red": 3, "blue": 2, "black": 2, "green": 1}), rng)
    s = rng.uniform(0.17, 0.25)
    box = (0.03, 0.04, 0.03 + s, 0.04 + s) if rng.random() < 0.5 else (0.03, 0.96 - s, 0.03 + s, 0.96)
    index_mark(str(n) if rng.random() < 0.85 else NUMERALS[n - 1], rng, col, box, c)


def draw_fei(code: str, rng, c: Canvas) -> None:
    col = ink(pick(rng, {"red": 3, "black": 3, "blue": 2, "green": 1}), rng)
    framed = rng.random() < 0.3  # some sets box the character in
    c.text("飛", (0.2, 0.18, 0.8, 0.82) if framed else (0.12, 0.1, 0.88, 0.9), col, rng)
    if framed:
        m = c.mask()
        d, th = int(c.w * rng.uniform(0.06, 0.12)), int(rng.integers(4, 10))
        cv2.rectangle(m, (d, d), (c.w - d, c.h - d), 255, th, cv2.LINE_AA)
        c.fill(m, col if rng.random() < 0.6 else ink(pick(rng, {"red": 1, "black": 1, "blue": 1}), rng))
    elif rng.random() < 0.5:
        m = c.mask()
        d = int(c.w * 0.07)
        for (x, y), (sx, sy) in zip([(d, d), (c.w - d, d), (c.w - d, c.h - d), (d, c.h - d)],
                                    [(1, 1), (-1, 1), (-1, -1), (1, -1)]):
            cv2.line(m, (x, y), (x + sx * d * 2, y), 255, 5, cv2.LINE_AA)
            cv2.line(m, (x, y), (x, y + sy * d * 2), 255, 5, cv2.LINE_AA)
        c.fill(m, ink(pick(rng, {"red": 1, "black": 1, "blue": 1}), rng))


_DRAWERS = {"m": draw_characters, "p": draw_circles, "s": draw_bamboo, "z": draw_honor,
            "f": draw_flower, "a": draw_animal, "h": draw_face_tile, "j": draw_fei}


def drawn_layer(code: str, rng: np.random.Generator, size: tuple[int, int] = (H, W)) -> np.ndarray:
    """The ink layer (BGRA, ``size`` = (h, w), 240x180 by default) of ``code`` drawn procedurally."""
    c = Canvas(*size)
    _DRAWERS[code[1]](code, rng, c)
    return c.img


__all__ = ["drawn_layer", "index_mark", "draw_plant", "FLOWER_CHARS", "NUMERALS", "INKS"]
