"""Find tile faces (and face-down tiles) in a table photo and split touching rows.

The pipeline, on a working image of about 1000-2000 px:

1. **White balance** (:mod:`vision.white_balance`) on the palest pixels (brightness minus chroma: tile faces are the
   near-white things in the picture, even where lit felt is brighter), so warm light
   does not turn ivory into "coloured".  Where that finds few inked faces, it looks
   again without the colour it balanced to (a lit phone screen or a sheet of paper
   paler than the faces).
2. **Face mask** (:mod:`vision.face_mask`): whiteness = brightness - chroma, thresholded by Otsu with a floor;
   holes (the ink of the faces) are filled per component.  Where the looks still find few
   faces, once more with the threshold raised (a grey table just paler than it joins the
   faces).  On a pale table (a white or light grey cloth, :func:`is_pale_table`) the faces are
   no whiter than the cloth, and the mask is made from their outlines instead
   (:mod:`vision.outlines`).
3. **Quads** (:mod:`vision.quads`): every solid, rectangular component gets a four-corner outline (lines
   fitted to its hull sides, so rounded corners and perspective are handled; a row's
   long sides to their outer edge, which glyphs reaching the face edge cannot pull in).
   A component is a single tile, a run of touching tiles, or something else.
4. **Splitting a run** (:mod:`vision.seams`): the quad is rectified to a strip.  Touching faces leave a
   darker seam (upright, or leaning a little) that runs across the *whole* face height, including the blank top and
   bottom margins that glyphs never reach; the column profile of those margin bands
   shows the seams.  Every plausible tile count ``n`` (from the face aspect ratio
   range, not a fixed size) is scored by how dark the profile is at the ``n - 1``
   equally spaced cuts (the strip is perspective-free, so spacing is uniform) minus
   how dark it is anywhere else.  Cuts are then snapped to the nearest seam.
   **The body's side** (:mod:`vision.body_side`): the mask takes in the ivory layer of a tile's body beside its face;
   a face's edge is moved in to the step up from that darker band (a lone face on all four
   edges, a row's faces along the row).
5. **Face-down tiles** (:mod:`vision.face_down`): a run is extended by one pitch at each end; a cell whose
   colour differs from the table becomes a candidate.  Blobs of a non-table colour
   elsewhere are cut at the face pitch into candidates too.  The classifier keeps
   those it calls ``back`` and drops the rest as ``reject``.

Every candidate is returned with its face quad in working-image coordinates,
TL, TR, BR, BL of the portrait face, and the run it belongs to.
"""
from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

from .background import InBackground
from .body_side import SIDE_DEEP, body_direction, lone_face, trim_body_side, trim_deep_sides, trim_rows
from .face_down import back_colours, faces_nearby, find_backs, kongs_from_ends, outline_picture, outlined_kongs
from .face_mask import (brightest_part, face_mask, filled_blob, filled_within, ink_share, mask_threshold, opened_blobs,
                        raised_threshold, rect_blobs, whiteness)
from .outlines import REFERENCE_SIDE as OUTLINE_SIDE
from .quads import ASPECT_MIN, ASPECT_TYPICAL, SQUARE_GAIN, Run, centre, fit_quad, point_in_quad, quad_sides, squared_ends
from .seams import CLEAR_SEAMS, split_run
from .sideways import sideways_alone, sideways_beside, sideways_parts
from .small_stats import percentiles, small_median
from .table_colour import TABLE_STEP, colour_distance, mean_in, pixels_in, table_colours, to_lab
from .white_balance import apply_gains, every_other_pixel, white_balance

STACKED, STACKED_KEEP = 1.4, 0.8  # a face-thick blob this many typical faces thick is tried as rows stacked (_stacked_parts)
PATCHY = 0.6  # a face-thick blob whose lit pixels' median whiteness is under this share of their 90th percentile: faces and table
DIM_LEVEL = 0.25  # a blob's lit pixels this share of the way from the threshold to its 90th percentile or less are dim (_dim_end) ...
DIM_DENSE, DIM_WINDOW = 0.5, 0.3  # ... a block of them: over this share of a window this share of the blob's thickness across,
DIM_AREA, DIM_ACROSS = 0.3, 0.65  # at least this many thicknesses squared and spanning this share of the thickness across,
DIM_INK = 0.01  # with ink on at most this share of it: a row ending on a grey square of a check cloth
INK_SHARE = 0.03  # a blob with more of its outline not bright than this carries ink: a face, not glare
APART_GAP, APART_LONG = 0.15, 1.1  # blobs each one face long (at most this many thicknesses) this far apart are no fragments
VOTE_ROW = 2.0    # where an inked blob this many typical faces long is too thick for the typical face voted, ...
VOTE_PALER = 0.7  # ... blobs whose lit pixels are under this share of the whitest inked blob's weigh as if inkless


DETECT_LONG_SIDE = 1000
PALE_TABLE_WHITE = 120.0  # a photo whose median whiteness is this high lies on a pale table (white, cream, light grey)


FEW_FACES = 13  # a hand has 13 tiles or more: fewer inked faces than this, and the white balance looks again
MORE_LOOKS = 2  # each without the reference colours of the looks before
LOOK_GAIN = 2  # ... and kept only if it finds this many more inked faces (one more found the same tiles);
#                 faces are counted up to FEW_FACES, so a first look with FEW_FACES - 1 stays
CLIPPED_WHITE = 250  # a look balanced to a colour this pale in every channel (clipped white) looks no further


def detect(img: np.ndarray, long_side: int = DETECT_LONG_SIDE, whole: tuple[int, int] | None = None,
           balance: tuple | None = None, pale: bool = False,
           on_faces: Callable[[list[np.ndarray]], None] | None = None, leave_out: tuple = ()) -> dict:
    """Find candidate tiles in a BGR image.

    Masks are built on a copy of about ``long_side`` px (``DETECT_LONG_SIDE``); runs are split on
    strips warped from ``img`` itself.  Returns ``{"runs": [Run], "face_height": float,
    "mask": small face mask, "balance": (white balance gains, whiteness threshold), "body_side":
    the side the faces show their bodies on (:func:`body_direction`, a unit vector, or None)}``, and where
    it balanced itself ``"left_out"``: the reference colours its balance left out, and
    ``"reference"``: the colour it balanced to; quads are in ``img`` coordinates.

    ``whole``: where ``img`` is a window cut from a photo, the photo's (height, width) in ``img``
    px; the least blob a face may be is then the whole photo's at this scale (the window holds
    the same tiles at the same size, and smaller scraps count no more than they would there).

    Where fewer than ``FEW_FACES`` faces with ink are found, the white balance looks again
    without the pixels of the colour it balanced to (see :func:`white_balance`), up to
    ``MORE_LOOKS`` times; a look is kept over the best before it if it finds ``LOOK_GAIN`` more inked faces,
    or its faces and ``LOOK_GAIN`` more face-down tiles (:func:`_same_faces_more_backs`).
    A look balanced to clipped white (``CLIPPED_WHITE`` or more in every channel) looks no further:
    that colour tints nothing, and in an over-exposed photo it is the burnt faces' own.
    Where the best look still finds fewer than ``FEW_FACES`` tiles (inked faces and face-down
    tiles by :func:`_face_down_in`: a concealed kong laid face down leaves a hand eleven faces),
    it looks again with its
    whiteness threshold raised (:func:`_raised_look`: a neutral table just paler than the
    threshold joins the faces into a few blobs), and a look kept that way carries ``"raised"``.
    ``"pale_table"``: whether the photo lies on a pale table (:func:`is_pale_table`, told by each
    look's own balance), where the faces are found by their outlines (:mod:`vision.outlines`)
    instead of the face mask. A window detected with the photo's ``balance`` cannot tell (it is
    mostly tiles): ``pale`` says it.

    ``on_faces``: called in each look with the quads of its faces (``img`` px) once they are split
    and trimmed, before the look searches for face-down tiles, so that the caller can start
    reading them meanwhile (:class:`vision.read_ahead.ReadAhead`). Most of them are the look's faces as
    returned; the face-down search may still take a row's end face for a kong's, and a look that
    finds too few inked faces may be dropped for another.

    ``leave_out``: reference colours that even the first look's balance leaves out (the scan's
    further look where the classifier rejects most of a look's faces: ``vision.scan.refuted``).
    """
    small = _shrunk(img, long_side)
    f = small.shape[1] / img.shape[1]
    frame = small.shape[:2] if whole is None else (whole[0] * f, whole[1] * f)  # the whole photo's mask size
    if balance is not None:
        return _detect_with(img, small, f, *balance[:2], frame, table=balance[2] if len(balance) > 2 else None,
                            pale=pale, on_faces=on_faces)
    gains, ref = white_balance(small, tuple(leave_out))
    found = _detect_with(img, small, f, gains, None, frame, on_faces=on_faces)
    found["left_out"], found["reference"] = tuple(leave_out), ref
    inked = _face_count(found, f, FEW_FACES)
    backs = _face_down_in(found)
    left_out = [*leave_out, ref]
    for _ in range(MORE_LOOKS):
        if inked >= FEW_FACES or float(np.min(ref)) >= CLIPPED_WHITE:
            break
        gains, ref = white_balance(small, tuple(left_out))
        again = _detect_with(img, small, f, gains, None, frame, on_faces=on_faces)
        n, m = _face_count(again, f, FEW_FACES), _face_down_in(again)
        if n >= inked + LOOK_GAIN or _same_faces_more_backs(again, found, n, inked, m, backs):
            found, inked, backs = again, n, m
            found["left_out"], found["reference"] = tuple(left_out), ref
        left_out.append(ref)
    if not found["pale_table"] and inked + backs < FEW_FACES:
        found = _raised_look(img, small, f, frame, found, inked, on_faces)
    return found


def _face_down_in(det: dict) -> int:
    """How many face-down tiles a detection may hold: the tiles of its face-down runs and the pair
    probes beside its lone pairs of faces (cells in the table's colour that a tile's outline
    frames: a concealed kong's ends on felt of their own colour, which the classifier reads)."""
    return _tiles_in(det, "back") + sum(len(r.pair_probes) for r in det["runs"])


def _same_faces_more_backs(again: dict, found: dict, n: int, inked: int, m: int, backs: int) -> bool:
    """Whether a further look (``again``: ``n`` inked faces, ``m`` face-down tiles by
    :func:`_face_down_in`) finds the faces of the best look before it (``found``: ``inked``,
    ``backs``) and ``LOOK_GAIN`` more face-down tiles, where that look found fewer than
    ``FEW_FACES`` tiles: as many inked faces and as many faces in all, give or take one (a
    concealed kong's backs near the colour the first look balanced to, which that look took for
    the table; a look balanced to the table cuts it into cells, far more faces). A look that
    found a hand's tiles already has its kong, and more face-down cells are the table's."""
    return (inked + backs < FEW_FACES and n >= inked and m >= backs + LOOK_GAIN
            and abs(_tiles_in(again) - _tiles_in(found)) <= 1)


def _raised_look(img: np.ndarray, small: np.ndarray, f: float, frame: tuple, found: dict, inked: int,
                 on_faces: Callable[[list[np.ndarray]], None] | None) -> dict:
    """``found``, the best look of :func:`detect` (with ``inked`` inked faces, fewer than
    ``FEW_FACES``), or a look with its whiteness threshold raised
    (:func:`vision.face_mask.raised_threshold`) where that finds ``LOOK_GAIN`` more inked faces
    and ``LOOK_GAIN`` more faces (more of a face's outline falls under a higher threshold, so
    more faces count as inked: it must find more faces as well), marked ``"raised": True``."""
    gains, threshold = found["balance"]
    raised = raised_threshold(_white_sample(small, gains), threshold)
    if raised is None:
        return found
    again = _detect_with(img, small, f, gains, raised, frame, on_faces=on_faces)
    if _face_count(again, f, FEW_FACES) < inked + LOOK_GAIN or _tiles_in(again) < _tiles_in(found) + LOOK_GAIN:
        return found
    again["left_out"], again["reference"], again["raised"] = found["left_out"], found["reference"], True
    return again


def _white_sample(small: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """The uint8 whiteness of every other pixel of ``small`` balanced by ``gains``: what the
    whiteness threshold is read off."""
    return np.clip(whiteness(every_other_pixel(small), gains), 0, 255).astype(np.uint8).ravel()


def _shrunk(img: np.ndarray, long_side: int) -> np.ndarray:
    """``img`` at about ``long_side`` px on its long side (not grown), where masks are made."""
    small = img
    while max(small.shape[:2]) >= 2 * long_side:
        small = cv2.pyrDown(small)  # cheap exact halving
    if max(small.shape[:2]) > long_side * 1.05:
        g = long_side / max(small.shape[:2])
        small = cv2.resize(small, (max(1, round(small.shape[1] * g)), max(1, round(small.shape[0] * g))),
                           interpolation=cv2.INTER_AREA)
    return small


def photo_balance(img: np.ndarray, long_side: int = DETECT_LONG_SIDE, leave_out: tuple = (),
                  found: list | None = None, face_h: float = 0.0, raised: bool = False) -> tuple:
    """The ``"balance"`` (white balance gains, whiteness threshold) that :func:`detect` gives
    ``img`` at ``long_side`` with the reference colours ``leave_out`` left out (a detection's
    ``"left_out"``), for a window of ``img`` detected alone: read off every other pixel of the
    picture at that size, as :func:`detect` reads them, without finding a single face.

    With ``found`` (quads in ``img`` px: the tiles an earlier look found) and their ``face_h``
    (px), a third part: the table's colours (:func:`table_colours`) as :func:`find_backs`
    measures them, outside those tiles. A window's own table, a part of a table lit unevenly,
    is not the photo's, and face-down tiles are told from the table by their distance from its
    colour. ``raised``: whether the detection's threshold was raised (its ``"raised"``)."""
    small = _shrunk(img, long_side)
    gains, _ = white_balance(small, leave_out)
    sample = _white_sample(small, gains)
    threshold = mask_threshold(sample)
    if raised:
        threshold = raised_threshold(sample, threshold) or threshold
    if found is None:
        return gains, threshold
    f = small.shape[1] / img.shape[1] / 2  # to the half size where face-down tiles are looked for
    hh, hw = max(1, small.shape[0] // 2), max(1, small.shape[1] // 2)
    faces = np.zeros((hh, hw), np.uint8)
    for q in found:
        cv2.fillConvexPoly(faces, np.round(np.asarray(q, np.float32) * f).astype(np.int32), 255)
    near_faces = faces_nearby(faces, face_h * f)
    if small.shape[0] % 2 or small.shape[1] % 2:  # an odd side: halved by area weights, as find_backs does
        half = cv2.resize(apply_gains(small, gains), (hw, hh), interpolation=cv2.INTER_AREA)[::TABLE_STEP, ::TABLE_STEP]
    else:  # only the half-size pixels table_colours samples: the means of their 2 x 2 blocks
        step = 2 * TABLE_STEP
        blocks = [apply_gains(np.ascontiguousarray(small[dy:2 * hh:step, dx:2 * hw:step]), gains)
                  for dy in (0, 1) for dx in (0, 1)]
        half = (blocks[0] + blocks[1] + blocks[2] + blocks[3]) * np.float32(0.25)
    return gains, threshold, table_colours(to_lab(half), near_faces[::TABLE_STEP, ::TABLE_STEP], step=1)


def _tiles_in(det: dict, kind: str = "face") -> int:
    """How many tiles of a ``kind`` of run a detection found: faces, inked or not, or face-down
    tiles (``"back"``)."""
    return sum(len(r.quads) for r in det["runs"] if r.kind == kind)


def _face_count(det: dict, f: float, enough: int) -> int:
    """How many found faces carry ink (a blank lit screen cut into face-sized cells does not),
    counted up to ``enough``."""
    inked = 0
    for q in (q for r in det["runs"] if r.kind == "face" for q in r.quads):
        outline = np.round(np.asarray(q, np.float32) * f).astype(np.int32).reshape(-1, 1, 2)
        if ink_share(det["mask"], outline) > INK_SHARE:
            inked += 1
            if inked == enough:
                break
    return inked


def _detect_with(img: np.ndarray, small: np.ndarray, f: float, gains: np.ndarray, threshold: float | None,
                 frame: tuple, table: list | None = None, pale: bool | None = None,
                 on_faces: Callable[[list[np.ndarray]], None] | None = None) -> dict:
    """:func:`detect` with the white balance ``gains`` of ``small`` (``img`` scaled by ``f``) and the
    whiteness ``threshold`` (None: :func:`face_mask` finds it); ``frame``: the (height, width) of
    the whole photo at ``small``'s scale; ``table``: the table's colours (None: those of
    ``small``, measured by :func:`find_backs`); ``pale``: whether the photo lies on a pale table,
    where faces are found by their outlines (:mod:`vision.outlines`); None: told by this look's
    whiteness (:func:`is_pale_table`). A further look balanced without the colour of the look
    before may balance to the table's and tell it pale: it is kept only where it finds clearly
    more faces (:func:`detect`). ``on_faces``: as in :func:`detect`."""
    # the face-down search's whole-picture steps depend on the picture and its balance only: they
    # run on the spare core while this thread splits and trims the faces (vision/background.py)
    ahead = InBackground(_whole_picture_steps, small, gains)
    white = whiteness(small, gains)
    pale_table = is_pale_table(white) if pale is None else pale
    # on a pale table the faces are no whiter than the cloth: found by their outlines
    mask, cut, threshold = face_mask(white, threshold, small if pale_table else None, max(frame) / OUTLINE_SIDE)
    min_area, min_side = frame[0] * frame[1] * 0.00012, max(10.0, 0.012 * max(frame))
    choices: list = []
    found = rect_blobs(mask, cut, min_area, min_side, choices)
    runs: list[Run] = []
    filled = np.zeros_like(mask)
    aspect = ASPECT_TYPICAL
    toward = None
    looks: dict = {}  # each face's rectified look, kept for a second look at the same quad (_side_cuts)
    if found:
        sideways_ids: set = set()
        found, typical = _face_blobs(found, choices, white, mask, cut, min_area, min_side, sideways_ids,
                                     None if pale_table else threshold)
        kept = []
        sideways: set = set()  # the runs that are a face laid sideways: one tile, its height along the meld
        profiles: dict = {}  # seam profiles by outline, for _recount's second split
        for c, quad, a, b in _join_fragments(found, small, gains, typical):
            if id(c) in sideways_ids:
                sideways.add(len(runs))
                kept.append((quad / f, max(a, b) / max(min(a, b), 1e-3), 1, 0.0))
                runs.append(lone_face(quad / f, None))
                cv2.drawContours(filled, [c], -1, 255, -1)
                continue
            quads, axis, pitch, height, score = split_run(img, gains, quad / f, profiles=profiles)
            square = squared_ends(quad)
            if square is not None:  # one end leans far from the other: keep the outline whose cuts find seams
                alt = split_run(img, gains, square / f, profiles=profiles)
                if alt[4] > score + SQUARE_GAIN:
                    quad, (quads, axis, pitch, height, score) = square, alt
            kept.append((quad / f, max(a, b) / max(min(a, b), 1e-3), len(quads), score))
            runs.append(Run(quads=quads, kind="face", axis=axis, pitch=pitch, height=height))
            cv2.drawContours(filled, [c], -1, 255, -1)
        deep_found: list = []  # where a side shows looked for SIDE_DEEP in: the photo's body side
        aspect = _recount(img, gains, runs, kept, profiles, deep_found, sideways)
        trim_rows(img, runs, deep_found, looks)  # a lone face was cut in _recount
        toward = body_direction(deep_found)
        if toward is not None:
            trim_deep_sides(img, runs, toward, looks)
        if on_faces is not None:
            on_faces([q for r in runs for q in r.quads])
    runs = link_rows(runs)
    heights = [r.height * f for r in runs]
    face_h = small_median(heights) if heights else 0.0
    backs: list[Run] = []
    if face_h > 0:
        colours, picture = ahead.result()
        backs = find_backs(small, gains, filled, face_h, runs, f, aspect, table, pale_mask=mask, colours=colours,
                           pale_table=pale_table)
        found_runs = {id(r) for r in runs}
        runs, backs = kongs_from_ends(runs, backs, small, gains, mask, f)
        stepped = [r for r in runs if id(r) not in found_runs]
        trim_rows(img, stepped, looks=looks)
        if toward is not None and stepped:
            trim_deep_sides(img, stepped, toward, looks)
        kongs, took = outlined_kongs(small, gains, runs + backs, face_h, f, aspect, picture)
        backs = [b for b in backs if id(b) not in took] + kongs
    ahead.join()  # waited for where no face needed it too: no work outlives the look that started it
    return {"runs": runs + backs, "face_height": face_h / f if f else 0.0, "mask": mask,
            "balance": (gains, threshold), "pale_table": pale_table, "body_side": toward}


def _whole_picture_steps(small: np.ndarray, gains: np.ndarray) -> tuple:
    """(:func:`back_colours`, :func:`outline_picture`) of a look's picture: its steps that need
    no face found, made while the faces are (:class:`vision.background.InBackground`)."""
    return back_colours(small, gains), outline_picture(small)


def is_pale_table(white: np.ndarray) -> bool:
    """Whether a photo of whiteness ``white`` (:func:`whiteness`) lies on a pale table, a white,
    cream or light grey cloth, where the face mask (a whiteness threshold) misses faces
    (docs/vision.md, "Pale tables"): its median, most of it the table's, is at least
    ``PALE_TABLE_WHITE``. On development scenes 0-299 the felt, wood, bamboo and cloths of the
    default scenes reach 114 at most; on scenes 0-99 drawn on a pale cloth the median lies at
    80-227, at 120 or more in 94 of the 100."""
    sample = white[::4, ::4]
    n = sample.size
    if n == 0:
        return False
    # the median's side of the line told from counts where they settle it (a median costs 0.5 ms):
    # the middle value (odd n) or both middle values (even n) at or above it, or both clearly under
    m = n // 2
    under = int(np.count_nonzero(sample < PALE_TABLE_WHITE))
    if under <= m - 1 or (n % 2 and under <= m):
        return True
    if n % 2 or int(np.count_nonzero(sample < PALE_TABLE_WHITE - 0.01)) >= m + 1:
        return False
    return float(np.median(sample)) >= PALE_TABLE_WHITE  # the middle values straddle it, or nearly


def _face_blobs(found, choices, white, mask, cut, min_area: float, min_side: float, sideways: set | None = None,
                threshold: float | None = None):
    """(the blobs that are faces, the photo's typical face thickness).

    ``sideways``, when given, receives the ``id`` of the contour of each face laid sideways
    that a meld's blob was cut into (:func:`vision.sideways.sideways_parts`).
    ``threshold``: the face mask's whiteness threshold, where the mask is one (not on a pale table,
    whose mask is the faces' outlines): a face-thick blob holding a block of table barely over it
    (:func:`_dim_end`) is searched for its faces as a patchy one is.

    Faces of one set are one size: blobs whose thickness is far from the typical face's
    (or, at a steep tilt, from the local one) are dropped, except that a longer bitten row
    of face thickness replaces its pieces and a far thicker blob is searched for faces
    joined to glare. ``found`` and ``choices`` are :func:`rect_blobs`' answers.

    The typical face is the thickness that half the blobs' weight lies under, a blob weighing
    about as many faces as it is long, a tenth of that without ink. Where that drops an inked
    blob ``VOTE_ROW`` faces long or longer as too thick, the vote is taken again with the
    blobs paler than ``VOTE_PALER`` of the whitest inked one (:func:`_lit_level`) weighing as
    if inkless: the lit squares of a check cloth pass the face mask, speckled by the weave as if
    inked, and can outnumber the faces (real-photo scene 196 with camera bodies: grey squares
    of whiteness 113-161 voted the typical face 29 px thick, where the hand's faces, 204-219,
    were 49-56). Not much paler: a white score sheet with writing is such a blob too, and faces
    of old ivory or in shade, a little less white than paper, keep their vote."""
    thick = np.array([_thickness(blob) for blob in found])
    # weight ~ tile count, capped; blobs without ink (glare, a lit screen) count little
    counts = np.array([min(15.0, max(a, b) / max(1.0, min(a, b)) / ASPECT_TYPICAL) for _, _, a, b in found])
    inked = np.array([ink_share(mask, c) > INK_SHARE for c, _, _, _ in found])
    voting = inked  # the blobs that vote as faces: the rest weigh a tenth
    weights = counts * np.where(voting, 1.0, 0.1)
    typical = _weighted_median(thick, weights)
    if any(inked & (counts >= VOTE_ROW) & (thick > typical) & ~np.array([_face_thick(t, typical) for t in thick])):
        # inked rows too thick for the vote: were the votes a pale table's squares? (_lit_level)
        lit = np.array([_lit_level(c, white, mask) for c, _, _, _ in found])
        paler = lit < VOTE_PALER * float(np.max(np.where(inked & (counts >= 1.0), lit, 0.0)))
        if paler.any():
            voting = inked & ~paler
            weights = counts * np.where(voting, 1.0, 0.1)
            typical = _weighted_median(thick, weights)
    local = _perspective_thickness(found, voting)  # (``voting`` goes with this ``found``)
    for row, pieces in choices:  # a row bitten by ink, or pieces of a row joined to glare?
        if _face_thick(_thickness(row), typical):
            found = [blob for blob in found if not any(blob is p for p in pieces)] + [row]
    def brightest_faces(blob):  # the face-thick blobs among a blob's brightest pixels
        return [b for b in brightest_part(blob[0], white, mask, cut, typical, min_area, min_side)
                if _face_thick(_thickness(b), typical)]

    faces = []
    for blob in found:
        t = _thickness(blob)
        if _face_thick(t, typical) or (local is not None and _face_thick(t, local(blob[1].mean(axis=0)))):
            parts = _stacked_parts(blob, typical, min_area, min_side) if t >= STACKED * typical else []
            if not parts:  # a face joined to a paler patch of table, or a row ending on one?
                inside = filled_within(blob[0], mask.shape)
                spread = _lit_spread(blob[0], white, mask, inside) if inside is not None else None
                if spread is not None and (_patchy(blob[0], white, mask, spread) or (
                        threshold is not None and _dim_end(blob, white, mask, threshold, inside, spread))):
                    parts = brightest_faces(blob)
            if not parts:  # a meld with a claimed tile laid sideways: cut at the step
                cut_parts = sideways_parts(blob[0], blob[1], min_area)
                parts = [part for part, _ in cut_parts]
                if sideways is not None:
                    sideways.update(id(part[0]) for part, side in cut_parts if side)
            faces += parts or [blob]
        elif t > typical:  # faces merged with glare or a pale patch of table?
            faces += brightest_faces(blob)
    return faces, typical


def _weighted_median(values: np.ndarray, weights: np.ndarray) -> float:
    """The value below which half of the ``weights`` lie (the lower middle where they split evenly)."""
    order = np.argsort(values)
    cum = np.cumsum(weights[order])
    return float(values[order][np.searchsorted(cum, cum[-1] / 2)])


def _lit_level(contour, white: np.ndarray, mask: np.ndarray) -> float:
    """The median whiteness of a blob's lit pixels (``mask`` inside ``contour``); 0 for a blob
    without them.

    Tile faces are the whitest things on a table, one ivory up to shading; a table's pale
    squares or patches that pass the face mask's threshold are clearly greyer. Read only
    where the vote for the typical face went wrong (:func:`_face_blobs`)."""
    v = _lit_values(contour, white, mask)
    return float(percentiles(v, (50,))[0]) if v is not None and v.size else 0.0


def _lit_values(contour, white: np.ndarray, mask: np.ndarray, inside=None) -> np.ndarray | None:
    """The whiteness of a blob's lit pixels (``mask`` inside ``contour``), or None where the
    blob lies wholly outside the picture. ``inside``: ``filled_within(contour, mask.shape)``
    where the caller has it."""
    inside = filled_within(contour, mask.shape) if inside is None else inside
    if inside is None:
        return None
    own, win = inside
    return white[win][(own > 0) & (mask[win] > 0)]


def _lit_spread(contour, white: np.ndarray, mask: np.ndarray,
                inside=None) -> tuple[np.ndarray, float, float] | None:
    """(the whiteness of a blob's lit pixels, their median, their 90th percentile), or None where
    it has fewer than 50. ``inside``: as :func:`_lit_values` takes it."""
    v = _lit_values(contour, white, mask, inside)
    if v is None or v.size < 50:
        return None
    p50, p90 = percentiles(v, (50, 90))
    return v, float(p50), float(p90)


def _patchy(contour, white: np.ndarray, mask: np.ndarray, spread=None) -> bool:
    """Whether a blob's lit pixels (``mask`` inside ``contour``) are of two whitenesses: their
    median under ``PATCHY`` of their 90th percentile. A face's pixels in the mask are its
    ivory, one whiteness up to shading (on development scenes 0-99, camera bodies 600-699 and
    pale tables 0-29, the 1,079 face blobs' median was at least 0.70 of their 90th percentile,
    0.94 typically); a face joined to a paler patch of the table is half table (development
    scene 792 with camera bodies: a flower set aside, touching a light square of a grey check
    cloth whose weave speckles the mask, made one blob two faces long, 0.52). ``spread``:
    :func:`_lit_spread` of the blob where the caller has it."""
    spread = _lit_spread(contour, white, mask) if spread is None else spread
    return spread is not None and bool(spread[1] < PATCHY * spread[2])


def _dim_end(blob, white: np.ndarray, mask: np.ndarray, threshold: float, inside=None, spread=None) -> bool:
    """Whether a face-thick blob holds a block of table barely whiter than the face mask's
    ``threshold``: a light square of a check cloth joined to one end of a row (docs/vision.md,
    "A row ending on a grey square").

    Its dim pixels are the lit ones (``mask``) under ``DIM_LEVEL`` of the way from the threshold
    to the blob's 90th percentile; the block is where they are over ``DIM_DENSE`` of a window
    ``DIM_WINDOW`` of the blob's thickness across (the weave speckles such a square into the mask;
    a face's ink edges are thin lines). Its largest piece counts where it covers ``DIM_AREA``
    thicknesses squared, spans ``DIM_ACROSS`` of the thickness across the row (an end of it: the
    lit side of the tiles' bodies is a strip along the row) and holds ink on at most ``DIM_INK``
    of it (pixels as far under the threshold as the dim level is over it): a face in shade is
    dim too, but keeps its ink. :func:`_patchy` finds the patch that is half of its blob; a row
    of faces and one square is mostly faces. ``inside``, ``spread``: ``filled_within`` and
    :func:`_lit_spread` of the blob where the caller has them."""
    inside = filled_within(blob[0], mask.shape) if inside is None else inside
    if inside is None:
        return False
    spread = _lit_spread(blob[0], white, mask, inside) if spread is None else spread
    if spread is None:
        return False
    values, _, p90 = spread
    level = threshold + DIM_LEVEL * (p90 - threshold)
    t = _thickness(blob)
    least = DIM_AREA * t * t
    # the window's mean is over half at each pixel of a block, and it counts a dim pixel at most
    # once for each window it lies in: a block needs more dim pixels than half its area
    if np.count_nonzero(values < level) <= DIM_DENSE * least:
        return False
    own, win = inside  # (0 / 255 maps in OpenCV's calls: a third of numpy's time on a long row's window)
    v = white[win]
    dim = cv2.bitwise_and(cv2.bitwise_and(own, mask[win]), cv2.compare(v, level, cv2.CMP_LT))
    k = max(3, int(round(DIM_WINDOW * t)))
    block = cv2.bitwise_and(cv2.compare(cv2.blur(dim, (k, k), borderType=cv2.BORDER_CONSTANT), 255 * DIM_DENSE,
                                        cv2.CMP_GT), own)
    pieces, _ = cv2.findContours(block, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not pieces:
        return False
    piece = np.zeros_like(block)  # the largest piece (outlines, not labels: a tenth of the time)
    cv2.drawContours(piece, [max(pieces, key=cv2.contourArea)], -1, 255, -1)
    piece = cv2.bitwise_and(piece, block)
    if cv2.countNonZero(piece) < least:
        return False
    ys, xs = np.nonzero(piece)
    if np.mean(v[ys, xs] < threshold - (level - threshold)) > DIM_INK:
        return False
    q = np.asarray(blob[1], np.float64)
    ux, uy = (q[1] - q[0]) if blob[2] >= blob[3] else (q[3] - q[0])  # along the row (blob: its sides)
    norm = max(1e-6, math.hypot(ux, uy))
    across = ((xs + win[1].start) * -uy + (ys + win[0].start) * ux) / norm
    lo, hi = percentiles(across, (2, 98))
    return bool(hi - lo >= DIM_ACROSS * t)


def _stacked_parts(blob, typical: float, min_area: float, min_side: float) -> list:
    """The rows a thick blob falls apart into where thin links are opened away, or [].

    Two groups laid one above the other touch where the lower one's body, seen by a tilted
    camera, reaches the faces above it: the face mask joins them by a link a few pixels wide,
    and the two rows' outline can pass for one thick face (development scene 760 with camera
    bodies: a meld of four and a concealed kong's two faces, 1.8 times a face's thickness,
    read as one rejected face). The blob is opened by a ``k`` px disc (5, then 9); it is
    taken as rows where that leaves two or more rectangular blobs (:func:`vision.face_mask._rect_blob`), each
    as thick as a face and together at least ``STACKED_KEEP`` of its area. One thick face
    opened does not fall apart so: its ink leaves no face-thick piece beside another, and
    a body's side cut off it is no thicker than a sliver."""
    own, x0, y0 = filled_blob(blob[0], pad=1)
    area = cv2.contourArea(blob[0])
    for k in (5, 9):
        got = opened_blobs(own, k, (x0, y0), min_area, min_side, bitten=2.0)
        if len(got) >= 2 and all(_face_thick(_thickness(g), typical) for g in got) and \
                sum(cv2.contourArea(g[0]) for g in got) >= STACKED_KEEP * area:
            return got
    return []


def _perspective_thickness(found, voting: np.ndarray):
    """The face thickness expected at a point of a photo taken at a steep tilt, or None.

    Near rows can be two or three times as thick as far ones; a plane fitted to the
    thickness of the rows (blobs of two faces or more that vote as faces, ``voting``: with
    ink, and not a pale table's) over their centres predicts it, when at least four rows
    agree with it within a fifth and it spans more than 1.6 to 1 (a milder gradient is
    within the plain typical-face band). An inkless blob is no row however long: the ivory
    layer of a face-down kong's bodies, a strip 14 px thick and 13 times as long, once
    joined the fit and let it pass for a row of 17 faces (real-photo camera scene 395)."""
    rows = [(blob[1].mean(axis=0), _thickness(blob)) for blob, v in zip(found, voting)
            if v and max(blob[2], blob[3]) >= 1.4 * _thickness(blob)]
    if len(rows) < 4:
        return None
    xy = np.array([c for c, _ in rows], np.float64)
    t = np.array([t for _, t in rows], np.float64)
    A = np.column_stack([np.ones(len(t)), xy])
    coef, *_ = np.linalg.lstsq(A, t, rcond=None)
    pred = A @ coef
    if pred.min() <= 0 or np.any(np.abs(t / pred - 1) > 0.2) or pred.max() < 1.6 * pred.min():
        return None
    lo, hi = float(pred.min()), float(pred.max())
    return lambda p: float(np.clip(coef[0] + coef[1] * p[0] + coef[2] * p[1], lo, hi))


def _thickness(blob) -> float:
    """The short side of a (contour, quad, side a, side b) blob: a row's face height."""
    return min(blob[2], blob[3])


def _face_thick(thickness: float, typical: float) -> bool:
    """Is a blob as thick as a face? Faces of one set are one size; glare, cloth and clutter
    blobs are far thinner or thicker than the typical face blob."""
    return 0.55 * typical <= thickness <= 1.8 * typical


def _join_fragments(found, small: np.ndarray, gains: np.ndarray, typical: float):
    """Join blobs that are pieces of one row of faces split where ink crosses a face.

    Ink that runs from edge to edge of a face (a row of big dots, bamboo bars, a bird)
    cuts the face mask in two, and each piece is a blob whose length is no whole number
    of faces; split on its own, each is cut at a wrong count or lost.  Two blobs are
    pieces of one row when they lie end to end along one axis, are equally thick (the
    face height) and the gap between them, at most about a face wide, is not table: a
    face crossed by ink differs from the table beside the row, while the gap between two
    separate groups is the table itself.  A joined row is refitted as one blob.  Two blobs
    each a whole face long, further apart than a stroke, are tiles set apart in a line whose
    bodies, seen by the camera, fill the gap between them, not pieces (:func:`_fragment_link`)."""
    if len(found) < 2:
        return found
    parent = list(range(len(found)))

    def root(i):
        while parent[i] != i:
            i = parent[i]
        return i

    geo = []
    for _, q, a, b in found:
        geo.append((q.mean(axis=0), (q[1] - q[0]) / max(a, 1e-3), a, b))
    for i in range(len(found)):
        for j in range(i + 1, len(found)):
            link = _fragment_link(geo[i], geo[j], typical)
            if link is None:
                continue
            if not _table_between(small, gains, *link):
                parent[root(j)] = root(i)
    groups: dict[int, list[int]] = {}
    for i in range(len(found)):
        groups.setdefault(root(i), []).append(i)
    out, joined = [], []  # the blobs, and which of them are joined rows
    for members in groups.values():
        if len(members) == 1:
            out.append(found[members[0]])
            joined.append(False)
            continue
        pts = np.concatenate([found[k][0] for k in members])
        quad = fit_quad(pts, faces=True)
        a, b = quad_sides(quad)
        if not _face_thick(min(a, b), typical):
            out.extend(found[k] for k in members)
            joined.extend([False] * len(members))
            continue
        out.append((cv2.convexHull(pts), quad, a, b))
        joined.append(True)
    # a scrap of an inked face too thin to link (a stick's gap, a dot's edge) that lies inside a
    # joined row is a piece of it, not a tile of its own
    rows = [blob[1] for blob, j in zip(out, joined) if j]
    return [blob for blob, j in zip(out, joined) if j or not any(point_in_quad(blob[1].mean(axis=0), row) for row in rows)]


def _fragment_link(gi, gj, typical: float):
    """(gap centre, axis, gap length, thickness) when two blobs lie end to end, equally thick,
    and may be pieces of one row; else None. Two blobs each ``ASPECT_MIN`` to ``APART_LONG``
    times as long as thick (a whole face) more than ``APART_GAP`` of their thickness apart are
    no pieces: ink cuts a face into pieces shorter than a face, and a row at a stroke's width
    (real-photo scene 108 with camera bodies: three flowers set apart, 0.41 and 0.63 of their
    thickness apart, their bodies between them, were joined and cut in five)."""
    ci, ui, ai, bi = gi
    cj, uj, aj, bj = gj
    d = cj - ci
    dist = float(np.linalg.norm(d))
    if dist < 1e-3:
        return None
    u = d / dist
    ext = []
    for side, a, b in ((ui, ai, bi), (uj, aj, bj)):
        c = abs(float(np.dot(side, u)))
        if c >= math.cos(math.radians(10)):
            ext.append((a, b))      # this blob's TL-TR side runs along the link
        elif c <= math.sin(math.radians(10)):
            ext.append((b, a))
        else:
            return None
    (li, ti), (lj, tj) = ext
    if max(ti, tj) > 1.25 * min(ti, tj) or min(ti, tj) < 0.75 * typical:
        return None
    if sideways_beside((li, ti), (lj, tj)) or sideways_beside((lj, tj), (li, ti)):
        return None  # a face laid sideways beside its meld's faces, whose body's side thickens it
    thick = (ti + tj) / 2
    gap = dist - (li + lj) / 2
    if not (-0.3 * thick < gap < 0.8 * thick):
        return None
    if gap > APART_GAP * thick and all(ASPECT_MIN * t <= ln <= APART_LONG * t for ln, t in ((li, ti), (lj, tj))):
        return None  # two whole faces a gap apart: tiles set apart in a line (flowers), not pieces of one
    centre = ci + u * (li / 2 + max(gap, 0.0) / 2)
    return centre, u, max(gap, 0.0), thick


def _table_between(small: np.ndarray, gains: np.ndarray, centre: np.ndarray, u: np.ndarray, gap: float, thick: float) -> bool:
    """Is the gap between two blobs (``gap`` long along ``u``, centred at ``centre``)
    mostly the colour of the table beside it, one face height to either side?

    Colours are compared in Lab of the picture blurred 3x3, converted only in the window
    around the three cells: the same numbers as converting the whole picture."""
    if gap < 2:
        return False   # touching: nothing between them but a seam
    v = np.array([-u[1], u[0]], np.float32)

    def cell(shift):
        c = centre + v * shift
        hu, hv = u * gap / 2, v * thick * 0.35
        return np.float32([c - hu - hv, c + hu - hv, c + hu + hv, c - hu + hv])

    cells = [cell(s) for s in (thick, -thick, 0.0)]
    lab, offset = _blurred_lab_window(small, gains, cells)
    refs = [m for m in (mean_in(lab, c, offset) for c in cells[:2]) if m is not None]
    if not refs:
        return True
    px = pixels_in(lab, cells[2], offset=offset)
    if px is None or len(px) == 0:
        return True
    near = np.zeros(len(px), bool)
    for r in refs:
        near |= colour_distance(px, r) <= 25
    return float(near.mean()) > 0.4


def _blurred_lab_window(small: np.ndarray, gains: np.ndarray, quads: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(``to_lab(cv2.blur(apply_gains(small, gains), (3, 3)))`` cut to the part of the picture the quads cover,
    that window's top-left corner).  The window is blurred with one pixel of the picture
    around it, so its values equal those of the whole blurred picture."""
    h, w = small.shape[:2]
    pts = np.concatenate(quads).astype(np.int32)
    x0, y0 = (int(v) for v in np.clip(pts.min(axis=0), 0, [w - 1, h - 1]))
    x1, y1 = (int(v) for v in np.clip(pts.max(axis=0) + 1, [x0 + 1, y0 + 1], [w, h]))
    mx0, my0, mx1, my1 = max(x0 - 1, 0), max(y0 - 1, 0), min(x1 + 1, w), min(y1 + 1, h)
    blurred = cv2.blur(apply_gains(small[my0:my1, mx0:mx1], gains), (3, 3))
    return to_lab(blurred[y0 - my0:y1 - my0, x0 - mx0:x1 - mx0]), np.array([x0, y0], np.int32)


UNSEEN_SEAMS = 0.05  # a run cut in 2+ on less seam evidence than this a cut, but some, was cut by noise (_recount)


def _recount(img, gains, runs: list[Run], kept, profiles: dict | None = None, deep_found: list | None = None,
             sideways: set | None = None) -> float:
    """Re-split runs whose tile count disagrees with the photo's own face aspect.

    All tiles of a set have one shape, and in one photo they are foreshortened
    alike, so the median face aspect (width / height) over the photo's runs predicts
    how many tiles a blob of a given length holds.  A run whose count is off by more
    than 15% is split again with the count held near that prediction.  A blob short
    enough to be one lone tile or two touching ones is settled by :func:`_is_pair`, unless the
    first split cut it in three at clear seams (:data:`CLEAR_SEAMS` each): a near row at a steep
    tilt has wider faces than the far melds that set the aspect, and its body's side thickens it.
    Returns the photo's face aspect.  ``profiles``: as in :func:`split_run`; ``deep_found``: as
    in :func:`trim_body_side`, for the lone faces; ``sideways``: the indices of the runs that are
    a face laid sideways, a lone face whose short side is its width (their sides are trimmed
    as a lone face's, and they neither vote on the aspect nor are counted again); a short blob
    found to be one apart from its meld (:func:`vision.sideways.sideways_alone`) is added to it.
    A run cut on next to no seam evidence (:data:`UNSEEN_SEAMS`) does not vote either; it is cut
    again by the aspect; where the other runs weigh too little to vote, it is cut again by the
    typical one first and then votes as cut, so that the rest are counted by the aspect it shows
    (the typical one where even then too little is measured; docs/vision.md, "A row cut on noise")."""
    sideways = set() if sideways is None else sideways

    def lone(quad, row_axis):  # one tile: its body's side, up to a third of its height, cut off each edge
        return lone_face(trim_body_side(img, quad, depth_share=SIDE_DEEP, deep_found=deep_found), row_axis)

    # a run cut in two or more on next to no seam evidence: its count was picked by noise, so its
    # pitch is no measure of the photo's faces; it does not vote on their aspect, and is cut again
    # by it (a run that earned nothing at all was cut at the typical aspect, and votes as before;
    # a meld of three burnt to one blob and cut in two is as unseen as a long row: development
    # scene 33 over-exposed, docs/vision.md, "A row cut on noise")
    unseen = {i for i, (_, _, n, seams) in enumerate(kept)
              if i not in sideways and n >= 2 and 0 < seams < UNSEEN_SEAMS * (n - 1)}

    def recount(i: int, A: float, rows: list[Run]) -> None:  # runs[i] cut again by the face aspect A
        quad, ratio, n, seams = kept[i]
        if i in sideways:
            runs[i] = lone(quad, None)
            return
        n_e = ratio / A
        if ratio < 2.2 and (n <= 2 or n_e < 2.5):
            row_axis = _nearest_row_axis(quad, rows)
            if not _is_pair(quad, ratio, n >= 2, A, row_axis):
                # a lone tile's body shows on one or two of its sides, as deep as the camera's
                # tilt makes it (up to a third of its height): each edge is looked at SIDE_DEEP in
                runs[i] = lone(quad, row_axis)
                return
            if n_e < 2.5:
                if n == 3 and seams >= CLEAR_SEAMS * (n - 1):
                    return  # three faces whose two seams show clearly, wider than the photo's typical face
                if n != 2:  # the range makes split_run cut a pair, at its seam or in the middle
                    quads, axis, pitch, height, _ = split_run(img, gains, quad, (2, 2), profiles)
                    runs[i] = Run(quads=quads, kind="face", axis=axis, pitch=pitch, height=height)
                return
        if n_e < 2.5 and abs(n - n_e) <= 0.6:
            return
        lo, hi = max(2, int(math.floor(n_e * 0.87))), max(2, int(math.ceil(n_e * 1.13)))
        quads, axis, pitch, height, _ = split_run(img, gains, quad, (lo, hi), profiles, n_e)
        runs[i] = Run(quads=quads, kind="face", axis=axis, pitch=pitch, height=height)

    def votes(leave_out: set) -> tuple[list[float], list[float]]:  # (aspects, weights) of the runs
        aspects, weights = [], []
        for i, r in enumerate(runs):
            if i in sideways or i in leave_out:
                continue
            if r.height > 0 and r.pitch > 0:
                aspects.append(r.pitch / r.height)
                # weighted by the run's length in face heights, not by its tile count: a row
                # cut at twice its count (glyph strokes taken for seams) must not outvote the rest
                weights.append(len(r.quads) * r.pitch / r.height)
        return aspects, weights

    aspects, weights = votes(unseen)
    done: set = set()  # the runs already cut again
    if sum(weights) < 3:  # too few faces measured to vote
        if not unseen:
            return ASPECT_TYPICAL
        # the unseen runs cut again at the typical aspect, and then counted as cut: an over-exposed
        # photo's burnt row, its seams gone, may be most of the photo's faces, and the short blobs
        # beside it are then told apart by the aspect it shows (development scene 46 with camera
        # bodies, every value times 1.26: a concealed kong's two faces, their seam burnt out, were
        # left as one lone tile; docs/vision.md, "A row cut on noise")
        rows = _main_rows(runs)
        for i in sorted(unseen):
            recount(i, ASPECT_TYPICAL, rows)
        done = unseen
        aspects, weights = votes(set())
        if sum(weights) < 3:
            return ASPECT_TYPICAL
    A = _weighted_median(np.asarray(aspects), np.asarray(weights, float))
    rows = _main_rows(runs)
    for i in range(len(kept)):
        if i not in done:
            recount(i, A, rows)
    # a face laid sideways apart from its meld's other faces was taken for a pair or a lone face:
    # told from them by the faces beside it, now that those are counted
    for i, (quad, ratio, n, seams) in enumerate(kept):
        if i in sideways or n != 1 or ratio >= 2.2 or len(runs[i].quads) > 2:
            continue  # (two faces show the seam between them: split in two at first, they are no sideways face)
        beside = _nearest_run(quad, runs, i, sideways)
        if beside is not None and sideways_alone(quad, beside.height, beside.axis):
            sideways.add(i)
            runs[i] = lone(quad, None)
    return A


def _main_rows(runs: list[Run]) -> list[Run]:
    """Runs of 3+ tiles that lie along the photo's main direction (within 30 degrees of the
    rows holding most of the tiles): a lone tile whose ink was cut into "tiles" lies across."""
    rows = [r for r in runs if len(r.quads) >= 3]
    total = sum(len(r.quads) for r in rows)
    cos30 = math.cos(math.radians(30))
    return [r for r in rows
            if 2 * sum(len(o.quads) for o in rows if abs(float(np.dot(r.axis, o.axis))) > cos30) > total]


def _nearest_run(quad: np.ndarray, runs: list[Run], i: int, leave_out: set) -> Run | None:
    """The run of two faces or more, other than ``runs[i]`` (whose outline is ``quad``) and those
    in ``leave_out``, whose nearest face is closest to ``quad``, within two of its face heights;
    None where there is none. A lone face's axis (its width's direction) is as good as the guess
    that oriented it, and its sides are trimmed already where a row's, like ``quad``'s, are not."""
    c = centre(quad)
    best, near = None, float("inf")
    for j, r in enumerate(runs):
        if j == i or j in leave_out or len(r.quads) < 2:
            continue
        d = _reach(r, c)
        if d < near and d <= 2 * r.height:
            best, near = r, d
    return best


def _nearest_row_axis(quad: np.ndarray, rows: list[Run]) -> np.ndarray | None:
    """Unit axis of the row (a run of 3+ tiles) whose nearest face is closest to ``quad``."""
    if not rows:
        return None
    c = centre(quad)
    dist = [_reach(r, c) for r in rows]
    return rows[int(np.argmin(dist))].axis


def _reach(run: Run, c: np.ndarray) -> float:
    """How far the centre of ``run``'s nearest face lies from the point ``c``."""
    return min(float(np.linalg.norm(centre(q) - c)) for q in run.quads)


def _is_pair(quad: np.ndarray, ratio: float, seams: bool, A: float, row_axis: np.ndarray | None) -> bool:
    """Is a short blob two touching faces rather than one lone tile?

    Its length cannot tell: a lone tile looks 1/A long plus its body's visible side,
    two touching faces 2A, and the two meet near A = 0.7.  The seam between two faces
    can be faint or hidden.  But the tiles of one table lie the same way round, so a
    pair runs along the nearby rows and a lone tile's length runs across them.  Only
    when there is no row, or the blob lies diagonally to it, do length and seam decide.
    """
    if row_axis is not None:
        a, b = quad_sides(quad)
        long_side = (quad[1] - quad[0]) if a >= b else (quad[2] - quad[1])
        along = abs(float(np.dot(long_side / (np.linalg.norm(long_side) + 1e-6), row_axis)))
        if along > math.cos(math.radians(30)):
            return ratio > 1.5 * A  # else too short for two faces: a lone tile seen almost square
        if along < math.cos(math.radians(60)):
            return False
    if seams:
        return True
    if 0.9 <= ratio * A <= 1.35:
        return False  # a lone tile fits (its body's side adds up to a third) and no seam says two
    return abs(math.log(ratio / (2 * A))) < abs(math.log(ratio * A))


def link_rows(runs: list[Run]) -> list[Run]:
    """Join runs that continue each other into rows (see :func:`vision.group.clusters`) and
    add a probe cell beyond each end of every row (for face-down kong ends)."""
    from .group import clusters

    tiles = [{"quad": q, "run": i} for i, r in enumerate(runs) for q in r.quads]
    rows = []
    for cl in clusters(tiles):
        quads = [t["quad"] for t in cl]
        src = runs[cl[0]["run"]]
        cs = [np.asarray(q, np.float32).mean(axis=0) for q in quads]
        if len(quads) >= 2:
            v_end, v_start = cs[-1] - cs[-2], cs[0] - cs[1]
        else:
            q = np.asarray(quads[0], np.float32)
            v_end = ((q[1] - q[0]) + (q[2] - q[3])) / 2
            v_start = -v_end
        probes = [(0, np.asarray(quads[0], np.float32) + v_start), (1, np.asarray(quads[-1], np.float32) + v_end)]
        axis = cs[-1] - cs[0] if len(cs) > 1 else v_end
        axis = axis / (np.linalg.norm(axis) + 1e-6)
        heights = [float(np.linalg.norm(np.asarray(q)[3] - np.asarray(q)[0])) for q in quads]
        rows.append(Run(quads=quads, kind="face", axis=axis, pitch=float(np.linalg.norm(v_end)),
                        height=small_median(heights) if heights else src.height, probes=probes))
    return rows
