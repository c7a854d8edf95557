"""The tile renderer and the classifier's training-data generator."""
from __future__ import annotations

import numpy as np
import pytest

from engine.tiles import KINDS
from vision import render
from vision.dataset import (BAND_CUT, BAND_GROW, INPUT_H, INPUT_W, LABELS, body_edges, make_crop, random_reject,
                            with_band)
from vision.faces import SOURCE_CODES, ink_layer, on_light_face, sources_for
from vision.faces.art import hk_available
from vision.faces.drawn import flower_index


def test_drawn_source_is_always_there_and_covers_every_kind():
    assert "drawn" in render.FACE_SOURCES
    assert set(SOURCE_CODES["drawn"]) == set(KINDS)
    for code in KINDS:
        assert "drawn" in sources_for(code)


def test_shared_art_sources_appear_only_when_present():
    assert ("hk_art" in render.FACE_SOURCES) == hk_available()


@pytest.mark.parametrize("code", list(KINDS) + ["back"])
def test_render_tile_shapes_and_transparency(code):
    img, quad = render.render_tile(code, np.random.default_rng(3), height=80)
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 4
    assert quad.shape == (4, 2) and quad.dtype == np.float32
    h, w = img.shape[:2]
    assert (quad[:, 0] >= 0).all() and (quad[:, 0] <= w).all() and (quad[:, 1] >= 0).all() and (quad[:, 1] <= h).all()
    # corners of the image are outside the rounded tile, the face centre is inside
    assert img[0, 0, 3] == 0 and img[-1, -1, 3] < 255
    cx, cy = quad.mean(0).astype(int)
    assert img[cy, cx, 3] == 255
    # the face is portrait 3:4: top-left, top-right, bottom-right, bottom-left
    fw, fh = quad[1, 0] - quad[0, 0], quad[3, 1] - quad[0, 1]
    assert abs(fw / fh - 0.75) < 0.02 and quad[2, 0] > quad[3, 0] and quad[2, 1] > quad[1, 1]


def test_face_down_tile_shows_back_colour_on_its_face():
    img, quad = render.render_tile("back", np.random.default_rng(5), height=100)
    x0, y0 = quad[0].astype(int) + 10
    x1, y1 = quad[2].astype(int) - 10
    face = img[y0:y1, x0:x1, :3].reshape(-1, 3).astype(float)
    ivory = np.array([190, 226, 240])
    assert np.linalg.norm(face.mean(0) - ivory) > 40  # not an ivory face
    assert face.std(0).max() < 25  # one colour all over


def _face_colour(code, rng, colours):
    img, quad = render.render_tile(code, rng, height=100, source="drawn" if code != "back" else None, colours=colours)
    x0, y0 = quad[0].astype(int) + 6
    x1, y1 = quad[2].astype(int) - 6
    return np.median(img[y0:y1, x0:x1, :3].reshape(-1, 3), axis=0)  # the blank face is most of it


def test_one_sets_colours_hold_for_every_tile_and_random_colours_do_not():
    rng = np.random.default_rng(8)
    ivory_set = render.SetColours(face=np.array([150.0, 200.0, 230.0]), back=np.array([40.0, 140.0, 40.0]))
    set_faces = [_face_colour(c, rng, ivory_set) for c in ("1m", "5p", "9s", "7z")]
    assert max(np.abs(f - set_faces[0]).max() for f in set_faces) < 12
    assert np.abs(set_faces[0] - [150, 200, 230]).max() < 25
    back = _face_colour("back", rng, ivory_set)
    assert np.abs(back - [40, 140, 40]).max() < 30  # a face-down tile shows the set's back colour
    free = [_face_colour(c, rng, None) for c in ("1m", "5p", "9s", "7z", "2m", "3p")]
    assert max(np.abs(f - free[0]).max() for f in free) > 12


@pytest.mark.parametrize("source", render.FACE_SOURCES)
def test_every_source_is_reproducible_from_a_seed(source):
    code = SOURCE_CODES[source][7]
    a = render.render_face(code, np.random.default_rng(11), height=96, source=source)
    b = render.render_face(code, np.random.default_rng(11), height=96, source=source)
    c = render.render_face(code, np.random.default_rng(12), height=96, source=source)
    assert a.shape == (96, 72, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_faces_carry_ink():
    for code in ("1m", "9p", "1s", "7z", "1f", "1a", "1h", "1j"):
        face = render.render_face(code, np.random.default_rng(2), height=120, source="drawn")
        assert face.astype(float).std() > 12, code


def _white_ink_share(layer: np.ndarray) -> float:
    inked = layer[..., 3] > 128
    return float((layer[..., :3][inked].min(axis=1) > 200).mean())


def test_white_strokes_of_a_dark_faced_set_take_an_ink_that_shows():
    # a North wind drawn in white for a dark tile, with a red dot that keeps its colour
    layer = np.zeros((120, 90, 4), np.uint8)
    layer[20:100, 30:40] = (255, 255, 255, 255)
    layer[50:60, 40:80] = (255, 255, 255, 255)
    layer[100:110, 70:80] = (30, 40, 200, 255)
    out = on_light_face(layer, "4z", np.random.default_rng(3))
    assert _white_ink_share(out) == 0.0
    assert out[25, 35, :3].max() < 240  # the white stroke now has an ink colour
    assert tuple(out[105, 75]) == (30, 40, 200, 255)  # the coloured stroke keeps its own
    assert np.array_equal(out[..., 3], layer[..., 3])  # the drawing's shape is unchanged


@pytest.mark.skipif("riichi_art" not in render.FACE_SOURCES, reason="needs ../shared/art and cairosvg")
def test_riichi_winds_and_numerals_never_vanish_on_the_face():
    # the art's Black scheme (one tile in five) is white for a dark face; left uncoloured it
    # rendered blank winds labelled 4z and characters without their numeral
    for seed in range(150):
        rng = np.random.default_rng(seed)
        for code in ("4z", "2z", "6z", "4m"):
            assert _white_ink_share(ink_layer(code, "riichi_art", rng)) < 0.05, (seed, code)


def test_a_drawn_flower_without_its_character_is_named_by_its_numeral():
    # seasons in Chinese numerals, plants in Latin digits: a season with a Latin 2 and no
    # character could be 2f or 6f, which no player could tell from the photo
    seen = set()
    for seed in range(400):
        rng = np.random.default_rng(seed)
        n = 1 + seed % 8
        with_char, numeral = flower_index(n, rng)
        assert numeral in ("一二三四"[(n - 1) % 4], str((n - 1) % 4 + 1))
        if not with_char:
            assert (numeral in "一二三四") == (n <= 4), (seed, n, numeral)
        seen.add((with_char, numeral in "一二三四"))
    assert seen == {(True, True), (True, False), (False, True), (False, False)}


def test_a_drawn_flowers_numeral_and_character_lie_over_its_painting(monkeypatch):
    # a painting as big as the face: before, it covered the marks that name the flower
    from vision.faces import drawn

    def whole_face_painting(code, c, rng, pal):
        c.fill(np.full((c.h, c.w), 255, np.uint8), (0, 200, 0))

    monkeypatch.setattr(drawn, "_flower_picture", whole_face_painting)
    for seed in range(6):
        layer = drawn.drawn_layer("6f", np.random.default_rng(seed))
        not_painting = np.abs(layer[..., :3].astype(int) - (0, 200, 0)).max(axis=2) > 60
        assert not_painting.sum() > 0.01 * not_painting.size, seed


def test_drawn_faces_without_any_cjk_font_say_which_packages_to_install(monkeypatch):
    # a machine set up by hand (a GPU box with no Debian fonts) used to fail deep in numpy
    # ("high <= 0"); the drawn style letters its characters and corner marks with a CJK font
    from vision.faces import fonts

    monkeypatch.setattr(fonts, "_CJK_CANDIDATES", [("/nonexistent/NoSuchCJK.ttc", 0)])
    with pytest.raises(fonts.MissingFonts, match="fonts-noto-cjk"):
        render.render_face("5f", np.random.default_rng(1), height=120, source="drawn")


def test_bad_codes_and_sources_are_refused():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError):
        render.render_tile("0m", rng)
    with pytest.raises(ValueError):
        render.render_face("1a", rng, source="symbola")
    with pytest.raises(ValueError):
        render.render_face("1a", rng, exclude_sources=("drawn",))


def test_exclude_sources_is_respected(monkeypatch):
    used = []
    real = render.ink_layer

    def spy(code, source, rng, *a):
        used.append(source)
        return real(code, source, rng, *a)

    monkeypatch.setattr(render, "ink_layer", spy)
    held = tuple(s for s in render.FACE_SOURCES if s != "drawn")[:2]
    for seed in range(30):
        render.render_tile("5p", np.random.default_rng(seed), height=48, exclude_sources=held)
    assert used and not set(used) & set(held)
    if held:  # without exclusions the art and fonts do get used
        used.clear()
        for seed in range(30):
            render.render_face("5p", np.random.default_rng(seed), height=48)
        assert set(used) - {"drawn"}


def test_training_crops_are_reproducible_and_sized():
    a = make_crop("3p", np.random.default_rng(9))
    b = make_crop("3p", np.random.default_rng(9))
    r = make_crop("3p", np.random.default_rng(9), reject=True)
    assert a.shape == (INPUT_H, INPUT_W, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b) and not np.array_equal(a, r)
    shaken = [make_crop("3p", np.random.default_rng(s), shake=True) for s in range(9, 19)]
    assert any(not np.array_equal(x, make_crop("3p", np.random.default_rng(s))) for s, x in zip(range(9, 19), shaken))
    assert random_reject(np.random.default_rng(1)).shape == (INPUT_H, INPUT_W, 3)


def test_training_crops_with_a_shake_are_streaked_up_to_a_fifth_of_their_height(monkeypatch):
    """``_degrade(shake=True)`` streaks ``SHAKE_P`` of the crops as a phone's shake does
    (``vision.scenes.shaken``), by ``SHAKE_LENGTH`` of the crop's height, in any direction; without it
    no crop is (the crops made before, with their short motion blur)."""
    from vision import dataset

    streaks = []

    def record(img, length, angle):
        streaks.append((length / img.shape[0], angle))
        return img

    monkeypatch.setattr(dataset, "shaken", record)
    rng = np.random.default_rng(5)
    for _ in range(100):
        dataset._degrade(np.full((60, 45, 3), 128, np.uint8), rng)
    assert streaks == []
    for _ in range(400):
        dataset._degrade(np.full((int(rng.integers(40, 150)), 45, 3), 128, np.uint8), rng, shake=True)
    share = np.array([s for s, _ in streaks])
    assert abs(len(streaks) / 400 - dataset.SHAKE_P) < 0.06
    assert dataset.SHAKE_LENGTH == (0.03, 0.2)
    assert share.min() >= 0.03 and share.max() <= 0.2 and share.max() > 0.18  # up to a fifth of the height
    assert max(a for _, a in streaks) > 2.5 and min(a for _, a in streaks) < 0.6  # every direction


def test_a_rendered_tile_shows_its_body_beside_the_edges_body_edges_names():
    face = np.float32([[2, 2], [77, 2], [77, 102], [2, 102]])
    assert body_edges(face, (104, 87, 4)) == [1]  # 10 px of body to the right, 2 px of padding elsewhere
    assert body_edges(face + [8, 0], (114, 87, 4)) == [2, 3]  # beneath and to the left
    assert body_edges(face, (104, 79, 4)) == []


def test_a_body_band_moves_one_edge_out_and_may_cut_the_opposite_one_in():
    quad = np.float32([[0, 0], [30, 0], [30, 40], [0, 40]])  # 30 wide, 40 high
    grown, cut = [], []
    for seed in range(400):
        q = with_band(quad, [1], np.random.default_rng(seed))
        moved = {e: d for e, d in enumerate((-q[:2, 1].mean(), q[1:3, 0].mean() - 30, q[2:, 1].mean() - 40,
                                             -q[[0, 3], 0].mean())) if abs(d) > 1e-4}  # outward, per edge
        out = [e for e, d in moved.items() if d > 0]
        assert len(out) == 1 and set(moved) <= {out[0], (out[0] + 2) % 4}
        across = 30 if out[0] % 2 else 40
        assert BAND_GROW[0] <= moved[out[0]] / across <= BAND_GROW[1] + 1e-6
        grown.append(out[0])
        if len(moved) == 2:
            assert 0 < -moved[(out[0] + 2) % 4] / across <= BAND_CUT + 1e-6
            cut.append(seed)
    assert 0.7 < grown.count(1) / 400 < 0.9  # the body's side three times in four, any side otherwise
    assert 0.4 < len(cut) / 400 < 0.6


def test_a_banded_crop_is_cut_otherwise_than_the_plain_one():
    plain = make_crop("8p", np.random.default_rng(4))
    banded = make_crop("8p", np.random.default_rng(4), band=1.0)
    assert banded.shape == plain.shape and not np.array_equal(plain, banded)


def test_label_list_is_the_engine_tile_set():
    assert LABELS == tuple(KINDS) + ("back", "reject")
