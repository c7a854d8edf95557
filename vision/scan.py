"""``scan(image_bytes) -> dict``: find, rectify, classify and group every tile in a photo.

Output::

    {"tiles": [{"tile", "confidence", "top3", "corners": [[x, y] * 4], "group"}, ...],
     "hand": {"concealed": "123m...", "melds": [{"tiles": "555p", "concealed": false}], "flowers": "12f"},
     "image": {"width", "height", "orientation", "orientation_name", "format", "working_width", "working_height",
               "closer_look", "pale_table"},
     "timings_ms": {"decode", "detect", "classify", "group", "total"}}

* ``corners`` are TL, TR, BR, BL of the tile *face* in the photo as displayed
  (after EXIF orientation, full size), clockwise; TL->TR runs across the face's width.
  Whether a face is upside down is not known to the geometry, so TL may be at the
  face's bottom right.
* ``tiles`` are in reading order: the concealed row, then each meld, then flowers.
* ``tile`` is an engine code or ``"back"`` (a face-down tile of a concealed kong).
* One photo holds one set's tiles, so no kind is read more often than a set holds it
  (:mod:`vision.copy_limits`): a surplus reading moves to its next likeliest kind that fits,
  from its ``LIKELY_KINDS`` likeliest (more than the ``top3`` shown), and such a tile says
  ``"moved_from"`` (the classifier's first choice) and ``"moved_because": "copies"``.  Where
  a tile lies can move a reading too (:mod:`vision.group`): a flower read inside a row of
  touching tiles (``"in_row"``), a cluster apart from the row that one changed tile makes a
  meld (``"meld"``).
* A kong whose four tiles are all face down is ``{"tiles": "", "concealed": true,
  "unknown": true}``: its kind cannot be read from the photo.
* Bad input raises :class:`ScanError` (``code``, ``message``); a photo with no
  tiles returns empty ``tiles`` and an empty hand.
"""
from __future__ import annotations

import math
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import replace

import cv2
import numpy as np

from .background import InBackground
from .body_side import SIDE_FACING, outward
from .copy_limits import limit_copies
from .decode import ORIENTATION_NAMES, WORK_LONG_SIDE, ScanError, decode
from .detect import DETECT_LONG_SIDE, detect, photo_balance
from .group import HAND_SIZES, adds_up, group_tiles, hand_size, missing_a_tile, runs
from .light import evened, faces_left_in, shade_picture
from .quads import centre as quad_centre, point_in_quad
from .read_ahead import ReadAhead
from .small_stats import small_median
from .white_balance import apply_gains

CROP_W, CROP_H = 96, 128     # the classifier resizes; this keeps the detail of big tiles
CLOSER_LOOK_FACE_PX = 48     # faces shorter than this in the detection mask: look again, closer
CLOSER_LOOK_GAIN = 1.2       # ... where the photo has at least this much more resolution to give
OVERSIZED = 4.0  # a face quad over this many times the median face's area is no face
PROBE_SOURCES = ("probe", "pair_probe")  # candidates beyond a row's ends that add a face-down end
PROBE_FACE_CONFIDENCE = 0.9  # ... or, for a probe, a face its row lost (heavy ink, a yellower face) named this surely
FACE_PROBE_BACK = 0.8  # a face probe read as back this surely is a kong's end where the run's other end reads face-down too
PROBE_ON_KONG = 0.25  # a probe covering a cell of a face-down run of four by this share of its own area is dropped
BLOB_FACE_CONFIDENCE = 0.9  # a cell of a face-down colour blob counts as a face only when named this surely
SURE_BACK = 0.5    # a face-down cell read as back this surely ...
BACK_LEAN = 0.01   # ... makes a back of the rejected face-down cells near it whose likeliest tile kind is back,
FRAME_EDGE = 2.0  # px: a face-down run of four with a cell this near the photo's edge is cut by the frame: no kong by its shape
GREY_RUN = 12.0    # a face-down run of four whose cells' mean colour has less chroma (Lab) than this is no kong by its shape
KONG_SPAN = 2.6    # scored at least this; near: centres within this many of the cell's longer side (a kong's length)
END_NEAR = 0.5     # a face-down cell lies at a pair's end within this share of the faces' step from where the next face would
FAR_LONE = 4.0     # a lone face this many face heights from every other tile found ...
LONE_CONFIDENCE = 0.9  # ... counts only when named this surely
PLAIN_KIND = "5z"      # the white dragon, a blank face or a frame in many sets: what a plain thing passes for ...
PLAIN_UNSURE = 0.9     # ... named under this confidence, counts only where its face's colour is the photo's faces':
PLAIN_CHROMA = 10.0    # within this distance of theirs in Lab's colour plane (a and b) ...
PLAIN_DARKER = 50.0    # ... and no more than this much darker (Lab L)
SHAPE_OFF = 0.15   # a rejected face this much wider (or taller) than the faces named near it is read again cut to their shape
SHAPE_TURN = 25.0  # ... those faces lying the same way within this many degrees ...
SHAPE_NEAR = 3     # ... the nearest this many of them
SHAPE_UNSURE = 0.95  # so is a face named under this confidence, cut on the photo's body side only
REREAD_OFF = 0.15  # a row's face rejected this many pitches off its neighbours' midpoint is read again midway
ONE_FEWER_MAX = 5   # a run of 3 to this many faces, its ends named and every face between them rejected, is cut
                    # again into one face fewer, kept where those faces are named PROBE_FACE_CONFIDENCE surely on average
CLOSER_MARGIN = 1.5  # the closer look reads the part of the photo within this many face heights of the first look's finds
CLOSER_WHOLE = 0.6   # ... or the whole photo where that part is this share of it or more,
CLOSER_SHORT = 2     # ... or the first reading is more tiles short of a hand than this
TIE_MARGIN = 0.01    # of two readings with as many tiles, the closer look's is kept where it is this much surer a tile
SURE_ELSEWHERE = 0.9  # a tile the look not kept names this surely, where the kept reading has none, joins it ...
SAME_PLACE = 0.3      # ... a tile lying in no place of the kept reading's tiles: overlapping none by this share
UNSURE_KEPT = 0.5     # ... or takes the place of the one kept tile in its place named otherwise under this
REFUTED_SHARE = 0.5  # a look whose faces the classifier rejects more than this share of ...
LIKELY_KINDS = 6   # kinds per reading that the readings by place (vision.group, copy limits) may move a tile to
__all__ = ["scan", "scan_image", "ScanError", "crop_face"]


def crop_face(img: np.ndarray, quad: np.ndarray, w: int = CROP_W, h: int = CROP_H) -> np.ndarray:
    """Warp a face quad (TL TR BR BL of a portrait face) to an upright ``w x h`` crop."""
    dst = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    M = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
    return cv2.warpPerspective(img, M, (w, h), flags=cv2.INTER_AREA if _side(quad) > 1.5 * h else cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def _side(q):
    q = np.asarray(q, np.float32)
    return float(np.linalg.norm(q[3] - q[0]))


def candidates(runs) -> list[dict]:
    """Flatten detection runs into candidates: faces first, then probes, then face-down blobs,
    then face probes (which lie on face-down blobs' cells, not on anything else).

    A later candidate whose centre lies inside an earlier one is a duplicate and dropped, and so
    is an end probe lying on a face-down run of four (:func:`_lies_on`); a face far bigger than
    the others is no face (:func:`_without_oversized`).
    """
    out: list[dict] = []
    for i, r in enumerate(runs):
        if r.kind == "face":
            for k, q in enumerate(r.quads):
                out.append({"quad": q, "run": i, "source": "face", "at": k})
    out = _without_oversized(out)
    for i, r in enumerate(runs):
        for end, q in r.probes:
            out.append({"quad": q, "run": i, "source": "probe", "end": end})
        for end, q in r.pair_probes:
            out.append({"quad": q, "run": i, "source": "pair_probe", "end": end})
    for i, r in enumerate(runs):
        if r.kind == "back":
            for q in r.quads:
                out.append({"quad": q, "run": i, "source": "back"})
    for i, r in enumerate(runs):  # last: a face probe never displaces a face-down cell found otherwise
        for end, q in r.face_probes:
            out.append({"quad": q, "run": i, "source": "face_probe", "end": end})
    # the cells of a face-down run of four: a concealed kong found whole, face down
    kong = [np.asarray(r.quads[k], np.float32) for r in runs if r.kind == "back" and len(r.quads) == 4 for k in range(4)]
    kept: list[dict] = []
    boxes: list[tuple[float, float, float, float]] = []  # kept quads' bounding boxes: a centre off one is not in it
    for c in out:
        quad = np.asarray(c["quad"], np.float32)
        ctr = quad_centre(quad)
        if kong and c["source"] in PROBE_SOURCES and _lies_on(c["quad"], kong):
            continue
        # a face probe may lie on a face-down blob's cell: both are read, and the probe counts
        # only where the cell does not (:func:`_read`)
        x, y = float(ctr[0]), float(ctr[1])
        if any(x0 <= x <= x1 and y0 <= y <= y1 and point_in_quad(ctr, k["quad"])
               for k, (x0, y0, x1, y1) in zip(kept, boxes) if c["source"] != "face_probe" or k["source"] != "back"):
            continue
        kept.append(c)
        xs, ys = quad[:, 0].tolist(), quad[:, 1].tolist()
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
    return kept


def _without_oversized(faces: list[dict]) -> list[dict]:
    """``faces`` less any whose quad covers more than ``OVERSIZED`` times the median face's area.

    Faces of one set are one size, and a steep tilt makes the nearest at most about twice as
    big as the median (the detector's face band allows 1.8 times the thickness). A quad far
    bigger is a cut gone wrong, reaching out over the table (development scene 30 with camera
    bodies, at 35 degrees on a bamboo mat: a row's last cut spanned 12 faces' area and was
    read 7p; being first, it also hid the candidates whose centres it covered). Needs at least
    three faces to tell the median."""
    if len(faces) < 3:
        return faces
    areas = [abs(cv2.contourArea(np.asarray(f["quad"], np.float32).reshape(-1, 1, 2))) for f in faces]
    limit = OVERSIZED * float(np.median(areas))
    return [f for f, a in zip(faces, areas) if a <= limit]


def _lies_on(quad, cells: list[np.ndarray]) -> bool:
    """Whether ``quad`` (an end probe) covers one of ``cells`` by at least ``PROBE_ON_KONG`` of
    its own area. Tiles do not overlap, and where the cells are a face-down run of four, a whole
    concealed kong, the probe cannot be another of its tiles: a probe beyond a pung that ended
    next to such a kong took a third of its first back, read ``back`` beside it
    (:func:`backs_together`), and made five backs, which no meld is (a real-photo scene with the
    camera's bodies, seed 44). A probe at a face-up kong's end lies on a face-down cell of a run of
    one or two as much (development scenes with the camera's bodies: 0.24-0.74 of the probe),
    and there the probe, stepped from the faces, is the better outline."""
    q = np.asarray(quad, np.float32)
    area = abs(cv2.contourArea(q))
    return area > 0 and any(cv2.intersectConvexConvex(q, cell)[0] >= PROBE_ON_KONG * area for cell in cells)


def scan_image(decoded, classify_fn=None) -> dict:
    """Scan an already decoded photo (see :func:`vision.decode.decode`), in one look.

    ``classify_fn(crops, quads) -> results`` replaces the ONNX classifier (tests and
    benchmarks use :func:`vision.scenes.truth_classifier` to measure the geometry
    alone); ``quads`` are the candidates' corners in full-size photo coordinates.
    """
    return _look(decoded, classify_fn, {})[0]


def _look(decoded, classify_fn, timings: dict, long_side: int = DETECT_LONG_SIDE,
          window: tuple[int, int, int, int] | None = None, left_out: tuple = (),
          found: tuple = (None, 0.0), pale: bool = False, raised: bool = False,
          leave_out: tuple = ()) -> tuple[dict, dict, list[dict]]:
    """(the reading of ``decoded.image`` with a detection mask of ``long_side`` px, the detection,
    the grouped tiles of :func:`_read`); ``timings`` so far, to which detect, classify and group
    are added. ``window``: (x0, y0, x1, y1), the part of ``decoded.image`` to look in, at the
    scale the whole would have and with the whole photo's white balance and table colours
    (:func:`vision.detect.photo_balance`; ``left_out``: the reference colours the look before
    left out; ``found``: the quads it found and their face height, in ``decoded.image`` px);
    ``pale``: whether the whole photo lies on a pale table, which a window cannot tell;
    ``raised``: whether the look before raised its whiteness threshold (its ``"raised"``);
    ``leave_out``: reference colours the whole photo's white balance leaves out from its first
    look on (:func:`refuted`); the detection's quads are still in ``decoded.image`` px. With the
    shipped classifier, the faces found are read while the detection looks for face-down tiles
    (:mod:`vision.read_ahead`)."""
    t0 = time.perf_counter()
    offset = (0, 0) if window is None else window[:2]
    ahead = ReadAhead(decoded.image, crop_face, offset) if classify_fn is None else None
    try:
        if window is None:
            det = detect(decoded.image, long_side=long_side, on_faces=ahead, leave_out=leave_out)
        else:
            x0, y0, x1, y1 = window
            part = decoded.image[y0:y1, x0:x1]
            scale = long_side / max(decoded.image.shape[:2])
            det = detect(part, long_side=max(1, round(max(part.shape[:2]) * scale)), whole=decoded.image.shape[:2],
                         balance=photo_balance(decoded.image, long_side, left_out, *found, raised=raised), pale=pale,
                         on_faces=ahead)
            det["runs"] = [_moved(r, (x0, y0)) for r in det["runs"]]
        timings["detect"] = (time.perf_counter() - t0) * 1000
        result, grouped = _read(decoded, det, classify_fn, timings, ahead)
    finally:
        if ahead is not None:
            ahead.join()  # no reading outlives the look that started it
    return result, det, grouped


def _read(decoded, det: dict, classify_fn, timings: dict, ahead: ReadAhead | None = None) -> tuple[dict, list[dict]]:
    """Classify and group what :func:`detect` found in ``decoded.image``; ``timings`` so far;
    ``ahead``: the faces read while the detection looked on.

    Returns (the reading, its tiles as :func:`vision.group.group_tiles` ordered them: each with
    its ``group`` and detection ``run``, in working image coordinates), counts the rows'
    rejected faces into ``det["rejected_row_faces"]`` (:func:`rejected_row_faces`) and keeps
    the named tiles, before they are grouped, in ``det["named"]`` (:func:`sure_tiles_of_the_other`)."""
    t1 = time.perf_counter()
    cands = candidates(det["runs"])
    results = name_quads(decoded, [c["quad"] for c in cands], classify_fn, ahead)
    results = reread_between(decoded, cands, results, classify_fn)
    cands, results = one_face_fewer(decoded, cands, results, classify_fn)
    results = reread_to_shape(decoded, cands, results, classify_fn, det.get("body_side"))
    t2 = time.perf_counter()
    timings["classify"] = (t2 - t1) * 1000
    results = four_backs_in_a_row(cands, pair_between_backs(cands, backs_together(cands, results)),
                                  decoded.image, det.get("balance", (None,))[0])
    det["rejected_row_faces"] = rejected_row_faces(cands, results)
    faces = [res["tile"] for c, res in zip(cands, results) if c["source"] == "face"]
    det["faces_rejected"] = (sum(code == "reject" for code in faces), len(faces))
    # a pair probe, or a face probe read face-down, counts only where both ends of its run read so
    down_at = _ends_read_down(cands, results)
    tiles = []
    for c, res in zip(cands, results):
        code, conf = res["tile"], float(res.get("confidence", 0.0))
        if code == "reject":
            continue
        if c["source"] in PROBE_SOURCES and code != "back" and not (
                c["source"] == "probe" and conf >= PROBE_FACE_CONFIDENCE):
            continue  # a probe adds a face-down end, or a face its row lost that the model names surely
        if c["source"] == "face_probe" and (
                (code == "back" and (conf < FACE_PROBE_BACK or len(down_at[c["run"]]) < 2))
                or (code != "back" and conf < PROBE_FACE_CONFIDENCE) or any(
                point_in_quad(np.asarray(c["quad"], np.float32).mean(axis=0), t["quad"]) for t in tiles)):
            continue  # ... and a face probe only the latter, or a kong's end where both ends read face-down,
            # where no tile was kept already
        if c["source"] == "pair_probe" and len(down_at[c["run"]]) < 2:
            continue
        if c["source"] == "back" and code != "back" and conf < BLOB_FACE_CONFIDENCE:
            # a blob found by its colour, far from the table's and not a face's white: a patch
            # of a two-tone mat or a poker chip, which the model may half-name as a tile
            continue
        tiles.append({"tile": code, "confidence": conf,
                      "top3": res.get("top3", []), "likely": res.get("likely", []),
                      "quad": c["quad"], "run": c["run"]})
    tiles = without_odd_plain_faces(tiles, decoded.image)
    det["named"] = tiles
    return _reading(decoded, det, tiles, timings, t2)


def _reading(decoded, det: dict, tiles: list[dict], timings: dict, t2: float) -> tuple[dict, list[dict]]:
    """The reading of ``decoded`` made of its named ``tiles`` (as :func:`_read` names them: each
    with its ``quad`` in working image px and detection ``run``): grouped (:func:`vision.group.group_tiles`),
    with the group step's time from ``t2`` added to ``timings``; returns it and the tiles in
    the order :func:`vision.group.group_tiles` gave them."""
    sx, sy = decoded.scale_xy
    ordered, hand = group_tiles(limit_copies(without_far_strays(tiles)))
    out_tiles = []
    for t in ordered:
        q = np.asarray(t["quad"], np.float64) * [sx, sy]
        out_tiles.append({"tile": t["tile"], "confidence": round(t["confidence"], 4), "top3": t["top3"],
                          "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in q], "group": t["group"]})
        if "moved_from" in t:  # the classifier's first choice, changed by copy limits or by place
            out_tiles[-1]["moved_from"] = t["moved_from"]
            out_tiles[-1]["moved_because"] = t["moved_because"]
    timings["group"] = (time.perf_counter() - t2) * 1000
    return {
        "tiles": out_tiles,
        "hand": hand,
        "image": {"width": decoded.width, "height": decoded.height, "orientation": decoded.orientation,
                  "orientation_name": ORIENTATION_NAMES[decoded.orientation], "format": decoded.format,
                  "working_width": int(decoded.image.shape[1]), "working_height": int(decoded.image.shape[0]),
                  "closer_look": "none", "from_other_look": 0, "pale_table": bool(det.get("pale_table"))},
        "timings_ms": timings,
    }, ordered


def _ends_read_down(cands: list[dict], results: list[dict]) -> dict:
    """Per detection run, the set of its ends (0: start, 1: end) beyond which a probe, pair
    probe or face probe was read as face-down (a face probe at least ``FACE_PROBE_BACK``
    surely). Each end of a run has one kind of probe (:func:`vision.face_down.find_backs`; a run
    keeps its pair probes only where both its ends have a probe or pair probe, so never beside a
    face probe), up to three face probes on a pale table."""
    down: dict = defaultdict(set)
    for c, res in zip(cands, results):
        if res["tile"] == "back" and (c["source"] in PROBE_SOURCES or (
                c["source"] == "face_probe" and float(res.get("confidence", 0.0)) >= FACE_PROBE_BACK)):
            down[c["run"]].add(c["end"])
    return down


def rejected_row_faces(cands: list[dict], results: list[dict]) -> int:
    """How many faces of a row (a detection run with at least two faces named as tiles) were
    rejected: a row cut with a face too many, glyph strokes taken for a seam (development scene
    562: a kong of 8s, whose sticks stand like seams, cut into five cells, two rejected), leaves
    cells straddling two faces, and the hand can still add up (a kong read as a pung)."""
    named = Counter(c["run"] for c, res in zip(cands, results)
                    if c["source"] == "face" and res["tile"] not in ("reject", "back"))
    return sum(1 for c, res in zip(cands, results)
               if c["source"] == "face" and res["tile"] == "reject" and named[c["run"]] >= 2)


def backs_together(cands: list[dict], results: list[dict]) -> list[dict]:
    """Face-down tiles come together: a concealed kong's two ends, or all four of its tiles.

    A face-down candidate (an end probe or a cell of a face-down colour blob) that reads
    ``reject`` but whose likeliest tile kind is ``back``, scored at least :data:`BACK_LEAN`, is
    read ``back`` (with that score as its confidence) when another face-down candidate within
    a kong's length (:data:`KONG_SPAN` times its own longer side, centre to centre) reads
    ``back`` at :data:`SURE_BACK` or more. The classifier rejects some face-down tiles of
    colours it rarely saw (a dark olive back under dim light) while naming another of the same
    kong surely. Returns a new list; the results themselves are not changed."""
    sure = [_centre_and_size(c["quad"])[0] for c, r in zip(cands, results)
            if c["source"] != "face" and r["tile"] == "back" and float(r.get("confidence", 0.0)) >= SURE_BACK]
    out = []
    for c, r in zip(cands, results):
        score = _back_lean(r)
        if sure and c["source"] != "face" and score:
            centre, size = _centre_and_size(c["quad"])
            if any(np.linalg.norm(centre - x) <= KONG_SPAN * size for x in sure):
                r = dict(r, tile="back", confidence=score)
        out.append(r)
    return out


def face_colour(image: np.ndarray, quad) -> np.ndarray:
    """The colour of a face's ground (Lab, uint8 scale): the median of the lightest 30% of its
    middle, cut from ``image`` (BGR), where ink does not lie."""
    middle = crop_face(image, quad, 48, 64)[8:56, 6:42]
    lab = cv2.cvtColor(middle, cv2.COLOR_BGR2LAB).reshape(-1, 3)
    light = lab[lab[:, 0] >= np.percentile(lab[:, 0], 70)]
    return np.median(light, axis=0)


def without_odd_plain_faces(tiles: list[dict], image: np.ndarray) -> list[dict]:
    """The tiles less each white dragon named unsurely whose face is not the colour of the photo's
    other faces.

    The white dragon is, in many sets, a blank face or a plain frame, so a plain thing on the
    table cut as a face (a phone lying by the hand, a grey card) can be named ``PLAIN_KIND`` and
    nothing else: development scene 21 shot from further away, two cells of a blue-grey phone
    read 5z at 0.55 and 0.71; real-photo camera scene 220, a grey slab, 0.74; cloth 1072, a grey
    square of a check cloth in a meld's gap, 0.47. The faces of one set share one ground colour,
    so a 5z named under ``PLAIN_UNSURE`` counts only where its ground (:func:`face_colour`) lies
    within ``PLAIN_CHROMA`` of the median of the other faces' grounds in Lab's colour plane and
    is no more than ``PLAIN_DARKER`` darker. On development scenes (default 0-99, camera bodies
    600-699 and 1000-1059 on a cloth, photographed faces 0-99, pale 0-59, a lamp 0-59, further
    away 0-49: 8,553 tiles named in place) the 164 true white dragons lay within 8.9 of the
    other faces (those under 0.9 within 2.8) and at most 32 darker; the plain things above, 10.6-18.2
    from them and 24-91 darker. Returns a new list where any is left out."""
    odd = [i for i, t in enumerate(tiles) if t["tile"] == PLAIN_KIND and t["confidence"] < PLAIN_UNSURE]
    if not odd:
        return tiles
    others = [i for i, t in enumerate(tiles) if t["tile"] != "back" and i not in odd]
    if len(others) < 3:
        return tiles
    ground = np.median([face_colour(image, tiles[i]["quad"]) for i in others], axis=0)
    drop = set()
    for i in odd:
        own = face_colour(image, tiles[i]["quad"])
        if (math.hypot(float(own[1] - ground[1]), float(own[2] - ground[2])) > PLAIN_CHROMA
                or float(own[0] - ground[0]) < -PLAIN_DARKER):
            drop.add(i)
    return [t for i, t in enumerate(tiles) if i not in drop] if drop else tiles


def without_far_strays(tiles: list[dict]) -> list[dict]:
    """The tiles less those that lie alone far from the hand and are not named surely.

    A player lays the hand out in one place: the row, the melds in front of it and the flowers
    beside it lie within about two face heights of each other. A face found alone (the only tile
    of its run) more than :data:`FAR_LONE` face heights from every other tile, and named with a
    confidence under :data:`LONE_CONFIDENCE`, is something else half-named as a tile (development
    scenes 349: a lit patch of bamboo mat read 4s at 0.82; 379: a die cut by the photo's edge read
    8f at 0.59). A photo of a few tiles alone keeps them all."""
    if len(tiles) < 4:
        return tiles
    centres, sizes = zip(*(_centre_and_size(t["quad"]) for t in tiles))
    centres = np.array(centres)
    per_run = Counter(t["run"] for t in tiles)
    kept = []
    for i, t in enumerate(tiles):
        if per_run[t["run"]] == 1 and t["confidence"] < LONE_CONFIDENCE:
            height = sizes[i]  # a face's longer side
            others = np.delete(centres, i, axis=0)
            if np.linalg.norm(others - centres[i], axis=1).min() > FAR_LONE * height:
                continue
        kept.append(t)
    return kept


def _centre_and_size(quad) -> tuple[np.ndarray, float]:
    """A quad's centre and its longer side."""
    q = np.asarray(quad, np.float64)
    return q.mean(axis=0), float(max(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[3] - q[0])))


def name_quads(decoded, quads: list, classify_fn=None, ahead: ReadAhead | None = None) -> list[dict]:
    """The classifier's reading of each face quad (``decoded.image`` px) cropped from the working
    image; ``classify_fn(crops, quads in the photo's px)`` stands in for it where given.
    ``ahead``: faces cropped and read already (:mod:`vision.read_ahead`), whose crops and
    readings are taken from it; the faces it has not read are read first, while its thread may
    still be reading."""
    if not quads:
        return []
    if classify_fn is not None:
        sx, sy = decoded.scale_xy
        return classify_fn([crop_face(decoded.image, q) for q in quads],
                           [np.asarray(q, np.float64) * [sx, sy] for q in quads])
    from .classify import classify

    crops = ahead.crops(quads) if ahead is not None else [None] * len(quads)
    out: list = [None] * len(quads)
    fresh = [k for k, c in enumerate(crops) if c is None]
    if fresh:
        read = classify([crop_face(decoded.image, quads[k]) for k in fresh], likely=LIKELY_KINDS)
        for k, r in zip(fresh, read):
            out[k] = r
    known = [k for k, c in enumerate(crops) if c is not None]
    if known:
        read = classify([crops[k] for k in known], likely=LIKELY_KINDS, read=ahead.take([quads[k] for k in known]))
        for k, r in zip(known, read):
            out[k] = r
    return out


def reread_between(decoded, cands: list[dict], results: list[dict], classify_fn=None) -> list[dict]:
    """``results`` with each face of a row read as ``reject`` between two faces named as tiles
    read again from the cell midway between those two (its candidate's quad moved there) when
    that reading names a tile. Returns a new list; ``cands`` is changed in place.

    A row's cuts snap onto the clearest seam near each even step, and a glyph's stroke by a
    seam (bamboo sticks, a row of dots) can pull two cuts the same way: the face between comes
    out a third of a tile off and is rejected (development scene 297: a 5s between a 9s and a
    2s, cut 23 px off, rejected; read from midway, 5s at 0.98). Only a face that sits at least
    ``REREAD_OFF`` of a pitch off the midpoint of its neighbours is read again: a row cut into
    one face too many has its faces evenly spaced, each rejected one midway already, and read
    there again it named a tile that its neighbours had read (development scene 338, truth
    stand-in: a third 5p, its face 0.055 of a pitch off, 0.100 once a row's end faces were cut
    at the row's ends; scene 297's 5s: 0.19)."""
    at = {(c["run"], c["at"]): i for i, c in enumerate(cands) if c["source"] == "face"}
    named = [r["tile"] not in ("reject", "back") for r in results]
    again = []
    for i, c in enumerate(cands):
        if c["source"] != "face" or results[i]["tile"] != "reject":
            continue
        before, after = at.get((c["run"], c["at"] - 1)), at.get((c["run"], c["at"] + 1))
        if before is None or after is None or not (named[before] and named[after]):
            continue
        a, b = np.asarray(cands[before]["quad"], np.float32), np.asarray(cands[after]["quad"], np.float32)
        pitch = float(np.linalg.norm(b.mean(axis=0) - a.mean(axis=0))) / 2
        off = float(np.linalg.norm(np.asarray(c["quad"], np.float32).mean(axis=0) - (a + b).mean(axis=0) / 2))
        if off >= REREAD_OFF * pitch:
            again.append((i, (a + b) / 2))
    if not again:
        return results
    second = name_quads(decoded, [q for _, q in again], classify_fn)
    results = list(results)
    for (i, q), res in zip(again, second):
        if res["tile"] not in ("reject", "back"):
            results[i] = res
            cands[i]["quad"] = q
    return results


def _cells_of(outline: np.ndarray, n: int) -> list[np.ndarray]:
    """``outline`` (q0-q1 along a run) cut into ``n`` even cells, evenly in the outline's own
    perspective (its homography from the unit square), q0-q1 of each along the run."""
    H = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), np.asarray(outline, np.float32))
    cells = []
    for k in range(n):
        a, b = k / n, (k + 1) / n
        unit = np.float32([[[a, 0]], [[b, 0]], [[b, 1]], [[a, 1]]])
        cells.append(cv2.perspectiveTransform(unit, H).reshape(4, 2).astype(np.float32))
    return cells


def _run_outline(first: np.ndarray, last: np.ndarray) -> np.ndarray:
    """The outline of a run from its ``first`` face to its ``last`` (each q0-q1 along the run,
    the run laid either way along it): the outer edges of the two."""
    f, l_ = np.asarray(first, np.float32), np.asarray(last, np.float32)
    if float(np.dot(quad_centre(l_) - quad_centre(f), f[1] - f[0])) >= 0:
        return np.float32([f[0], l_[1], l_[2], f[3]])
    return np.float32([l_[0], f[1], f[2], l_[3]])


def one_face_fewer(decoded, cands: list[dict], results: list[dict], classify_fn=None) -> tuple[list[dict], list[dict]]:
    """(``cands``, ``results``) with each run of 3 to ``ONE_FEWER_MAX`` faces whose two end faces
    are named and every face between them rejected cut again into one face fewer, evenly between
    its ends' outer edges, where each of those faces is named, at least ``PROBE_FACE_CONFIDENCE`` on
    average, and each end face at least as surely as the end face it replaces;
    its probes beyond the ends are stepped again by the new faces' width and read, taking the
    place of the old ones. New lists; the other candidates are as they were.

    A run cut into one face too many has a seam inside every face but the ends, whose outer
    edges are the run's: the faces between straddle two tiles and are rejected, while the end
    faces, a third too narrow, are still named (development scene 808 with camera bodies: a pung
    of 9s in glare at 13 degrees cut in four, read 9s, reject, reject, 9s; scene 606: a pung of 6s
    and the two faces of a concealed kong between its backs, over-cut where the bamboo sticks'
    gaps look like seams, whose backs the probes then missed, stepped by the short pitch). A run
    rightly cut whose middle face is rejected (an odd glyph) has no face fewer to give: each of
    its faces would straddle a seam and take in half a neighbour, so its end faces, whole before,
    come out less surely named, where an over-cut run's ends, a third too narrow before, come out
    surer."""
    named = [r["tile"] not in ("reject", "back") for r in results]
    plans = []
    for found in _by_run(cands).values():
        members = sorted(found.get("face", []), key=lambda i: cands[i]["at"])
        n = len(members)
        if not 3 <= n <= ONE_FEWER_MAX or not (named[members[0]] and named[members[-1]]):
            continue
        if any(results[i]["tile"] != "reject" for i in members[1:-1]):
            continue
        first, last = cands[members[0]]["quad"], cands[members[-1]]["quad"]
        cells = _cells_of(_run_outline(first, last), n - 1)
        step = quad_centre(cells[-1]) - quad_centre(cells[-2])
        moved = []
        for k in found.get("probe", []):  # stepped from the new end cell on the probe's side
            at = quad_centre(np.asarray(cands[k]["quad"], np.float32))
            near_first = np.linalg.norm(at - quad_centre(cells[0])) < np.linalg.norm(at - quad_centre(cells[-1]))
            moved.append((k, cells[0] - step if near_first else cells[-1] + step))
        plans.append((members, cells, moved))
    if not plans:
        return cands, results
    quads = [q for _, cells, moved in plans for q in (*cells, *(m for _, m in moved))]
    read = iter(name_quads(decoded, quads, classify_fn))
    cands, results = list(cands), list(results)
    drop: set[int] = set()
    for members, cells, moved in plans:
        faces = [next(read) for _ in cells]
        ends = [next(read) for _ in moved]
        sure = [float(r.get("confidence", 0.0)) for r in faces]
        before = [float(results[i].get("confidence", 0.0)) for i in (members[0], members[-1])]
        if (any(r["tile"] in ("reject", "back") for r in faces) or sum(sure) < PROBE_FACE_CONFIDENCE * len(sure)
                or sure[0] < before[0] or sure[-1] < before[1]):
            continue  # not every face named, not surely on the whole, or an end less surely than as cut before
        for at, (i, cell, r) in enumerate(zip(members, cells, faces)):
            cands[i] = dict(cands[i], quad=cell, at=at)
            results[i] = r
        drop.add(members[-1])
        for (k, q), r in zip(moved, ends):
            cands[k] = dict(cands[k], quad=q)
            results[k] = r
    keep = [i for i in range(len(cands)) if i not in drop]
    return [cands[i] for i in keep], [results[i] for i in keep]


def _shape(quad) -> tuple[float, np.ndarray]:
    """A portrait face quad's width over its height, and the unit vector along its height."""
    q = np.asarray(quad, np.float64)
    width = (np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2
    down = (q[3] + q[2] - q[0] - q[1]) / 2
    height = float(np.linalg.norm(down))
    return float(width / max(height, 1e-6)), down / max(height, 1e-6)


def _cut_to(quad, share: float, across: bool, far: bool) -> np.ndarray:
    """``quad`` cut to ``share`` of its width (``across``) or of its height, keeping the far
    (right, bottom: ``far``) or the near part."""
    q = np.asarray(quad, np.float32)
    a, b = (0.0, share) if not far else (1.0 - share, 1.0)
    if across:  # along q0-q1 and q3-q2
        top, bottom = q[0] + (q[1] - q[0]) * np.float32([[a], [b]]), q[3] + (q[2] - q[3]) * np.float32([[a], [b]])
        return np.float32([top[0], top[1], bottom[1], bottom[0]])
    left, right = q[0] + (q[3] - q[0]) * np.float32([[a], [b]]), q[1] + (q[2] - q[1]) * np.float32([[a], [b]])
    return np.float32([left[0], right[0], right[1], left[1]])


def _cuts_toward(quad, across: bool, far: bool, side) -> bool:
    """Whether :func:`_cut_to` with ``across`` and ``far`` cuts ``quad``'s edge that faces ``side``
    (a unit vector), as ``vision.body_side.trim_deep_sides`` tells an edge facing the photo's body
    side: its outward direction within 60 degrees of it (``SIDE_FACING``)."""
    edge = (3 if far else 1) if across else (0 if far else 2)  # the edge that the cut takes off
    return float(np.dot(outward(np.asarray(quad, np.float64), edge), np.asarray(side, np.float64))) > SIDE_FACING


def reread_to_shape(decoded, cands: list[dict], results: list[dict], classify_fn=None, body_side=None) -> list[dict]:
    """``results`` with each rejected face whose outline is ``SHAPE_OFF`` wider or taller than the
    faces named near it read again cut to their shape, from either side, and named where one
    of those readings names a tile at least ``PROBE_FACE_CONFIDENCE`` (the surer one). Where
    the photo's faces agree on the side their bodies show (``body_side``, a unit vector:
    ``vision.body_side.body_direction``), a face named under ``SHAPE_UNSURE`` and so out of shape is
    read again too, cut on the edge facing that side only (:func:`_cuts_toward`), and takes that
    reading where it names a tile at least ``PROBE_FACE_CONFIDENCE`` and more surely than
    before. Returns a new list; ``cands`` is changed in place.

    A face's outline can take in its tile's body where the camera sees it, on a side where no
    step shows (``vision.body_side.trim_body_side``): a third of a tile too wide, the face is
    rejected. Two flowers set side by side but apart were cut as a row, and the body showing in
    the gap between them, yellow back and ivory layer, stayed on the second (a real-photo scene
    with the camera's bodies, seed 4: rejected; cut to its neighbour's shape from the right,
    1f). A face can keep its body's side and still be named, unsurely and wrongly: a 1m whose
    ivory side, lit as brightly as the face, stayed on above its stroke read 2m at 0.90 (seed 30,
    35 degrees; cut on the body's side, 1m at 0.97). Cut on either side, a 7f named at 0.82
    (development scene 159, drawn bodies) lost its corner numeral and read 1s at 0.92, so only
    the photo's body side is cut, and only where its faces agree on one. Faces lying the same way
    (height within ``SHAPE_TURN`` degrees) and named set the shape, the nearest ``SHAPE_NEAR`` of
    them (a tilted photo foreshortens faces turned another way)."""
    wanted = []  # (index, named unsurely) of the faces to look at again
    for i, (c, r) in enumerate(zip(cands, results)):
        unsure = (body_side is not None and r["tile"] not in ("reject", "back")
                  and float(r.get("confidence", 0.0)) < SHAPE_UNSURE)
        if c["source"] == "face" and (r["tile"] == "reject" or unsure):
            wanted.append((i, unsure))
    if not wanted:  # most photos: the shapes of the named faces are not needed
        return results
    named = [(i, *_shape(c["quad"]), np.asarray(c["quad"], np.float64).mean(axis=0)) for i, (c, r) in
             enumerate(zip(cands, results)) if c["source"] == "face" and r["tile"] not in ("reject", "back")]
    if not named:
        return results
    tries, owners = [], []
    cos_turn = math.cos(math.radians(SHAPE_TURN))
    for i, unsure in wanted:
        c = cands[i]
        ratio, down = _shape(c["quad"])
        centre = np.asarray(c["quad"], np.float64).mean(axis=0)
        alike = sorted((float(np.linalg.norm(ctr - centre)), rat) for j, rat, d, ctr in named
                       if j != i and abs(float(d @ down)) >= cos_turn)[:SHAPE_NEAR]
        if not alike:
            continue
        typical = small_median([rat for _, rat in alike])
        if ratio > typical * (1 + SHAPE_OFF):
            share, across = typical / ratio, True
        elif ratio < typical / (1 + SHAPE_OFF):
            share, across = ratio / typical, False
        else:
            continue
        for far in (False, True):
            if unsure and not _cuts_toward(c["quad"], across, far, body_side):
                continue
            tries.append(_cut_to(c["quad"], share, across, far))
            owners.append(i)
    if not tries:
        return results
    second = name_quads(decoded, tries, classify_fn)
    best: dict[int, tuple[float, int]] = {}
    for k, (i, res) in enumerate(zip(owners, second)):
        conf = float(res.get("confidence", 0.0))
        before = 0.0 if results[i]["tile"] == "reject" else float(results[i].get("confidence", 0.0))
        if res["tile"] not in ("reject", "back") and conf >= PROBE_FACE_CONFIDENCE and conf > best.get(i, (before, -1))[0]:
            best[i] = (conf, k)
    results = list(results)
    for i, (_, k) in best.items():
        results[i] = second[k]
        cands[i]["quad"] = tries[k]
    return results


def _back_lean(result: dict, least: float = BACK_LEAN) -> float:
    """The ``back`` score of a rejected reading whose likeliest tile kind is ``back``, scored at
    least ``least`` (:data:`BACK_LEAN`); else 0."""
    if result["tile"] != "reject":
        return 0.0
    kind, score = next(((k, float(p)) for k, p in result.get("top3", []) if k != "reject"), (None, 0.0))
    return score if kind == "back" and score >= least else 0.0


def _by_run(cands: list[dict]) -> dict[int, dict[str, list[int]]]:
    """The candidates' indices by detection run, then by source (``face``, ``probe``, ``back``...)."""
    by_run: dict[int, dict[str, list[int]]] = {}
    for i, c in enumerate(cands):
        by_run.setdefault(c["run"], {}).setdefault(c["source"], []).append(i)
    return by_run


def _cells_at_ends(cands: list[dict], faces: list[int]) -> list[int]:
    """The face-down blob cells (candidates of source ``back``) that lie one step beyond each end
    of the pair of faces ``faces`` (indices into ``cands``), where a concealed kong's ends lie:
    within :data:`END_NEAR` of the step between the faces' centres; [] unless both ends hold one."""
    c0, c1 = (np.asarray(cands[i]["quad"], np.float32).mean(axis=0) for i in faces)
    step = c1 - c0
    reach = END_NEAR * float(np.linalg.norm(step))
    cells = [(i, np.asarray(c["quad"], np.float32).mean(axis=0)) for i, c in enumerate(cands) if c["source"] == "back"]
    ends = []
    for target in (c0 - step, c1 + step):
        near = [(float(np.linalg.norm(centre - target)), i) for i, centre in cells]
        near = [(d, i) for d, i in near if d <= reach and i not in ends]
        if not near:
            return []
        ends.append(min(near)[1])
    return ends


def pair_between_backs(cands: list[dict], results: list[dict]) -> list[dict]:
    """A concealed kong shows two faces of one kind between two face-down ends. Where a lone pair
    of faces reads one kind and both end probes beyond it are rejected with ``back`` their
    likeliest tile kind (:func:`_back_lean`), or one of them is read ``back`` already
    (:func:`_read_as_backs`), both are read ``back``: the classifier rejects dark
    olive backs under dim light, and with no sure back near them :func:`backs_together` cannot
    vouch for them (development scene 121). Where the ends were found as face-down colour blobs
    instead (:func:`_cells_at_ends`; then the same scene's ends, 0.061 and 0.0056), their colour
    and their place say face-down already, so ``back`` need only be the likeliest tile kind,
    however low its score. Returns a new list; the results are not changed."""
    out = list(results)
    for found in _by_run(cands).values():
        faces, ends = found.get("face", []), found.get("probe", [])
        if len(faces) != 2:
            continue
        kinds = {results[i]["tile"] for i in faces}
        if len(kinds) != 1 or kinds & {"reject", "back"}:
            continue
        if len(ends) == 2 and len({cands[i]["end"] for i in ends}) == 2:
            _read_as_backs(out, results, ends, BACK_LEAN)
        else:
            _read_as_backs(out, results, _cells_at_ends(cands, faces), 0.0)
    return out


def _read_as_backs(out: list[dict], results: list[dict], cells: list[int], least: float) -> None:
    """Read the candidates ``cells`` ``back`` in ``out`` (with their ``back`` score as the
    confidence) when every one of them is read ``back`` already or leans to it
    (:func:`_back_lean` with ``least``): a kong's end named back, however unsurely, vouches
    for its other end as well as a rejected one leaning to back does (real-photo camera scene
    70: dark green backs on a grey cloth, one end read back at 0.48, the other rejected with
    back at 0.13)."""
    leans = [1.0 if results[i]["tile"] == "back" else _back_lean(results[i], least) for i in cells]
    if cells and all(leans):
        for i, score in zip(cells, leans):
            if results[i]["tile"] != "back":
                out[i] = dict(results[i], tile="back", confidence=score)


def four_backs_in_a_row(cands: list[dict], results: list[dict], image: np.ndarray | None = None,
                        gains: np.ndarray | None = None) -> list[dict]:
    """A face-down run of four cells (a colour blob cut at a kong's length, or four cells framed
    by their outlines: :func:`vision.detect.detect`) is a concealed kong shown face down: where
    all four are rejected with ``back`` their likeliest tile kind, however low its score (or
    read ``back`` already), all four are read ``back``. Flat backs of one colour look to the classifier like the cloth it
    learnt to reject (development scene 8 shot from further away: four green backs on wood, back
    at 0.002-0.026), but how the run was found (a colour far from the table's, or outlines) and
    its kong's length say face-down.

    Tile backs are coloured (green, blue, yellow...), while a phone lying on the table is a black
    or grey slab about a kong's size: so where the ``image`` (BGR, with its white balance
    ``gains``) is given, a run whose cells' mean colour is grey (Lab chroma under ``GREY_RUN``)
    is left to the other rules, which need a back named surely (development scene 736 with camera
    bodies: a black phone cut into four cells, rejected with back at 0.001-0.013, was read as a
    concealed kong; on the development and real-photo measuring scenes the grey runs of four,
    all of them clutter, had chroma 1-8, and the true kongs 15 and more). So is a run with a
    cell within ``FRAME_EDGE`` px of the photo's edge (:func:`_at_edge`): a slab the frame cuts
    (real-photo camera scene 146: a dark green object at the photo's left edge cut into four
    cells, rejected with back at 0.01-0.11), and a kong the frame cuts is no whole kong either.
    Returns a new list; the results are not changed."""
    out = list(results)
    for found in _by_run(cands).values():
        cells = found.get("back", [])
        if len(cells) != 4:
            continue
        quads = [cands[i]["quad"] for i in cells]
        if not (image is not None and (_is_grey(image, gains, quads) or _at_edge(image.shape, quads))):
            _read_as_backs(out, results, cells, 0.0)
    return out


def _at_edge(shape: tuple, quads: list) -> bool:
    """Whether any of ``quads`` reaches within ``FRAME_EDGE`` px of the edge of a picture of
    ``shape``: cut by the photo's frame."""
    h, w = shape[:2]
    q = np.asarray(quads, np.float32).reshape(-1, 2)
    return bool((q[:, 0].min() < FRAME_EDGE) or (q[:, 1].min() < FRAME_EDGE)
                or (q[:, 0].max() > w - 1 - FRAME_EDGE) or (q[:, 1].max() > h - 1 - FRAME_EDGE))


def _is_grey(image: np.ndarray, gains: np.ndarray | None, quads: list) -> bool:
    """Whether the mean colour inside ``quads`` (``image`` px; their rims left out) of ``image``,
    white-balanced by ``gains``, has less chroma than ``GREY_RUN``."""
    pts = np.int32(np.round(np.concatenate([np.asarray(q, np.float32).reshape(-1, 2) for q in quads])))
    x0, y0 = np.clip(pts.min(axis=0), 0, None)
    x1, y1 = np.minimum(pts.max(axis=0) + 1, [image.shape[1], image.shape[0]])
    if x1 <= x0 or y1 <= y0:
        return False
    part = image[y0:y1, x0:x1]
    inside = np.zeros(part.shape[:2], np.uint8)
    for q in quads:
        cv2.fillConvexPoly(inside, np.int32(np.round(np.asarray(q, np.float32) - [x0, y0])), 255)
    inside = cv2.erode(inside, np.ones((5, 5), np.uint8))
    if not inside.any():
        return False
    # balanced colours can pass 255 (the gains are not clipped): clipped per pixel, as the
    # detector's Lab is (vision.detect.to_lab)
    seen = np.clip(apply_gains(np.ascontiguousarray(part), gains), 0, 255) if gains is not None else part
    mean = np.uint8([[np.round(cv2.mean(seen, inside)[:3])]])
    _, a, b = cv2.cvtColor(mean, cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)
    return float(np.hypot(a - 128, b - 128)) < GREY_RUN


def open_kong(tiles: list[dict]) -> bool:
    """Whether a run of the grouped ``tiles`` holds two faces of one kind and nothing else, and
    they joined the concealed row from apart (their run holds none of its other tiles).

    Such a pair is most likely a concealed kong whose two face-down ends were missed, and the
    hand may still seem to add up: development scene 309, as rendered without the SVG art, is a
    17-tile hand whose far kong lost both ends, read as 16."""
    concealed_runs = {t["run"] for t in tiles if t["group"] == "concealed"}
    return len(concealed_runs) > 1 and any(
        len(ts) == 2 and len({t["tile"] for t in ts}) == 1 and all(t["group"] == "concealed" for t in ts)
        for ts in runs(tiles))


def _moved(run, by: tuple[int, int]):
    """``run`` with every quad (faces, probes) moved by ``by`` px."""
    d = np.float32(by)
    return replace(run, quads=[np.asarray(q, np.float32) + d for q in run.quads],
                   probes=[(end, np.asarray(q, np.float32) + d) for end, q in run.probes],
                   pair_probes=[(end, np.asarray(q, np.float32) + d) for end, q in run.pair_probes],
                   face_probes=[(end, np.asarray(q, np.float32) + d) for end, q in run.face_probes])


def closer_window(det: dict, tiles: list[dict], first, closer) -> tuple[int, int, int, int] | None:
    """The part of ``closer.image`` that the closer look reads, as (x0, y0, x1, y1), or None for all
    of it.

    Where the first look (``det``, on ``first.image``) read nearly a whole hand (its grouped
    ``tiles`` are at most ``CLOSER_SHORT`` tiles short of the smallest of ``HAND_SIZES``: less
    than a meld, which may lie anywhere), it found where the tiles lie, and what it missed lies
    among or beside them (a tile of a row, a face-down end, a flower cut as one with its
    neighbour): the closer look reads the box around everything the first look found (rejected
    candidates too; face probes lie within a pitch of a row, inside the margin, and are left out),
    grown by ``CLOSER_MARGIN`` face heights, at the scale the whole photo would
    have. A detection costs about its area, so a hand that fills a quarter of the photo reads
    closer for about a quarter of the price. Where that box is ``CLOSER_WHOLE`` of the photo or
    more, or the first reading is further short (it may have found a patch of the table and
    missed the hand), the whole photo is read."""
    quads = [q for r in det["runs"] for q in [*r.quads, *(p for _, p in r.probes), *(p for _, p in r.pair_probes)]]
    if not quads or det["face_height"] <= 0 or hand_size(tiles) < min(HAND_SIZES) - CLOSER_SHORT:
        return None
    k = closer.image.shape[1] / first.image.shape[1]
    pts = np.concatenate([np.asarray(q, np.float32).reshape(-1, 2) for q in quads]) * k
    grow = CLOSER_MARGIN * det["face_height"] * k
    h, w = closer.image.shape[:2]
    # on the photo's grid of 8 px, corners and size: the detection halves its picture (face-down
    # tiles are looked for at half size), and a window cut at an odd pixel, or of an odd size,
    # would average other pairs of pixels than the whole photo does
    x0, y0 = (int(v) // 8 * 8 for v in np.maximum(np.floor(pts.min(axis=0) - grow), 0))
    x1, y1 = (min(int(v + 7) // 8 * 8, lim) for v, lim in zip(np.ceil(pts.max(axis=0) + grow), (w, h)))
    if x1 <= x0 or y1 <= y0 or (x1 - x0) * (y1 - y0) >= CLOSER_WHOLE * w * h:
        return None
    return x0, y0, x1, y1


def closer_look_size(decoded, det: dict, tiles: list[dict], missing_of: Callable = missing_a_tile) -> int:
    """The long side of the detection mask a closer look would have, or 0 where it is not worth one.

    Worth one where the first reading (``det`` and its grouped ``tiles``, each with its
    ``group`` and ``run``) found faces and either they are under ``CLOSER_LOOK_FACE_PX`` tall in
    the mask (the photo was taken from far off), or its hand does not add up to one of
    ``HAND_SIZES`` (a tile was missed), or it shows a sign of a missed tile
    (:func:`vision.group.missing_a_tile`), or a kong lies open (:func:`open_kong`), or a face of
    a row that named two or more was rejected (``det["rejected_row_faces"]``, set by
    :func:`_read`: :func:`rejected_row_faces`); and where the
    photo has at least ``CLOSER_LOOK_GAIN`` times the mask's resolution to give. A photo where
    no face was found gets none (an empty table stays cheap). ``missing_of``: :func:`vision.group.missing_a_tile`
    or the scan's memo of it (:func:`_scanned`)."""
    mask = det["mask"]
    face_px = det["face_height"] * mask.shape[1] / decoded.image.shape[1]
    if face_px <= 0 or (face_px >= CLOSER_LOOK_FACE_PX and adds_up(tiles) and not missing_of(tiles)
                        and not open_kong(tiles) and not det.get("rejected_row_faces", 0)):
        return 0
    size = min(max(decoded.width, decoded.height), 2 * DETECT_LONG_SIDE)
    return size if size >= CLOSER_LOOK_GAIN * max(mask.shape) else 0


def refuted(det: dict, reading: dict) -> bool:
    """Whether the classifier refutes a look (:func:`_look`'s detection ``det`` and ``reading``):
    it rejects more than ``REFUTED_SHARE`` of the look's faces, and the look names fewer tiles
    than the least hand holds (``HAND_SIZES``). The detection judges a white balance by the
    inked faces it finds, and a lit patch of a checked or woven cloth has ink of its own: balanced
    to such a cloth's lit grey, the face mask took the checks and left out the cream faces, every
    candidate was rejected, and the scan returned no tile of a photo whose 17 tiles a player reads
    at a glance (the hand laid in one line on a grey and blue checked cloth; docs/vision.md, "A
    white balance the classifier refutes"). On development scenes the most a look's faces were
    rejected otherwise was 16 of 33 (clutter, with its hand's 17 tiles named)."""
    rejected, faces = det.get("faces_rejected", (0, 0))
    return rejected > REFUTED_SHARE * faces and len(reading["tiles"]) < min(HAND_SIZES)


def better_reading(second: dict, first: dict) -> bool:
    """Whether the closer look's reading ``second`` is kept over the first look's ``first``.

    A reading whose hand adds up (:func:`vision.group.adds_up`) beats one that does not;
    between two that both add up, the one that names more tiles surely wins: the greater sum of
    its tiles' confidences (the tiles it can be expected to name right), which is the one with
    more tiles unless its tiles are named less surely; between two that both do not, the one with
    more tiles (each is short of tiles or holds strays, and the one that found more found more of
    the hand: cloth development scene 1104 with camera bodies, where the evened look found three
    tiles in a shadow and named others less surely); between two with as many tiles, the one
    whose tiles are named more surely by ``TIE_MARGIN`` a tile on average (the first where
    neither is). A first look that cut every row of a steep shot into one and a half or two faces
    a tile adds up to a hand as well, with more tiles, each named unsurely (development scene 63
    on a pale table at 12 MP, 39.5 degrees: 18 tiles at 0.54 a tile on average, against the
    closer look's 15, the whole hand, named surely: kept for its count alone, the first threw that
    away; docs/vision.md, "More tiles, named unsurely"). A closer look sees more, and so can also find a stray
    (a face of clutter named as a tile, a tile split in two): keeping a reading for its count
    alone threw away right first readings (development scene 40 shot from further off: its 18
    tiles, against the closer look's 19), and a tie kept a first reading whose hand did not add
    up against a closer look that read the same tiles right (development scene 192). A tie of
    counts kept the first reading where the closer look had cut a face right that the first cut
    wrong and named unsurely (real-photo camera scene 236: a flower in line beyond the row's end,
    joined to the row and cut a third too narrow, read 1f at 0.57; alone at the closer look, 5f
    at 0.70); its crops are sharper, so it often names every tile a hair more surely, and a
    difference under ``TIE_MARGIN`` says nothing (docs/vision.md, "Two readings alike")."""
    whole = adds_up(second["tiles"])
    if whole != adds_up(first["tiles"]):
        return whole
    if len(second["tiles"]) != len(first["tiles"]):
        if whole:  # both make a hand: the tile counts differ by cuts and strays, not by tiles missed
            return _sureness(second) > _sureness(first)
        return len(second["tiles"]) > len(first["tiles"])
    return _sureness(second) > _sureness(first) + TIE_MARGIN * len(first["tiles"])


def sure_tiles_of_the_other(other: list[dict], kept: list[dict], scale: float) -> tuple[list[dict], dict[int, dict]]:
    """What one look's reading (``other``: its named tiles, ``det["named"]`` of :func:`_read`, its
    quads scaled by ``scale`` into ``kept``'s px) adds to the other look's (``kept``), from its
    tiles named at ``SURE_ELSEWHERE`` or more: (the tiles that lie where ``kept`` has none, each
    run apart from ``kept``'s runs; by index into ``kept``, the tile that takes the place of the
    one kept tile in its place, in that tile's run, where the kept tile is named otherwise and
    under ``UNSURE_KEPT``).

    Where a tile lies is its quad: two tiles lie in one place where either's centre lies inside
    the other's quad, or where they overlap by ``SAME_PLACE`` of the smaller one's area or more.
    A closer look is kept or dropped whole (:func:`better_reading`), yet each look can cut a
    strip right that the other cut wrong, or read a face the other misreads: development scene
    1103 with camera bodies on a cloth, whose first look is kept on a tie of counts, missed a 1m
    that the closer look named at 0.97; real-photo scene 309 with camera bodies, whose closer
    look is kept, read a 3s as 6f at 0.09 (set aside among the flowers, the hand a tile short),
    which the first look named 3s at 0.94 (docs/vision.md, "Tiles only the other look found")."""
    places = [np.asarray(t["quad"], np.float32) for t in kept]
    extra: list[dict] = []
    renamed: dict[int, dict] = {}
    for t in other:
        if t["confidence"] < SURE_ELSEWHERE:
            continue
        q = np.asarray(t["quad"], np.float32) * np.float32(scale)
        area = abs(cv2.contourArea(q))
        if area <= 0:
            continue
        at = [i for i, p in enumerate(places) if _same_place(q, area, p)]
        if not at:
            extra.append(dict(t, quad=q, run=("other", t["run"])))
        elif len(at) == 1 and kept[at[0]]["tile"] != t["tile"] and kept[at[0]]["confidence"] < UNSURE_KEPT:
            renamed[at[0]] = dict(t, quad=q, run=kept[at[0]]["run"])
    return extra, renamed


def _same_place(q: np.ndarray, area: float, p: np.ndarray) -> bool:
    """Whether quads ``q`` (of ``area``) and ``p`` lie in one place (:func:`sure_tiles_of_the_other`)."""
    if point_in_quad(quad_centre(q), p) or point_in_quad(quad_centre(p), q):
        return True
    least = min(area, abs(cv2.contourArea(p)))
    return least > 0 and cv2.intersectConvexConvex(q, p)[0] >= SAME_PLACE * least


def _sureness(reading: dict) -> float:
    """The sum of a reading's tiles' confidences."""
    return sum(float(t["confidence"]) for t in reading["tiles"])


def with_tiles_only_in_the_other(reading: dict, decoded, det: dict, other, other_det: dict) -> dict:
    """The kept ``reading`` (of ``decoded``, whose detection is ``det``), or, where the other look
    (of ``other``, detection ``other_det``) named tiles surely where ``reading`` has none, or
    names otherwise and unsurely (:func:`sure_tiles_of_the_other`), and with them the hand adds
    up (:func:`vision.group.adds_up`), the reading of both together; its ``image.from_other_look``
    says how many tiles came from the other look."""
    scale = decoded.image.shape[1] / other.image.shape[1]
    named = det.get("named", [])
    extra, renamed = sure_tiles_of_the_other(other_det.get("named", []), named, scale)
    if not extra and not renamed:
        return reading
    t = time.perf_counter()
    both = [renamed.get(i, k) for i, k in enumerate(named)] + extra
    merged, _ = _reading(decoded, det, both, dict(reading["timings_ms"]), t)
    reading["timings_ms"]["group"] += (time.perf_counter() - t) * 1000  # the group step, taken twice
    if not adds_up(merged["tiles"]):
        return reading
    merged["image"]["from_other_look"] = len(extra) + len(renamed)
    merged["timings_ms"] = reading["timings_ms"]
    return merged


def _timings_added(first: dict, second: dict) -> dict:
    """Two looks' ``timings_ms`` added step by step (the steps of ``first``): a scan that looks
    again reports the time of both looks."""
    return {k: first[k] + second[k] for k in first}


def short_of_a_hand(tiles: list[dict], missing_of: Callable = missing_a_tile) -> bool:
    """Whether a look's grouped ``tiles`` (each with its ``group`` and ``run``) found some tiles but
    not a whole hand: they do not add up (:func:`vision.group.adds_up`), or they show a sign of a
    missed tile (:func:`vision.group.missing_a_tile`). Such a photo is looked at again with its
    light evened (:func:`scan`): a phone's shadow over part of the hand leaves those faces under
    the face mask's threshold (docs/vision.md, "A phone's shadow over the hand"). ``missing_of``: as
    in :func:`closer_look_size`."""
    return bool(tiles) and (not adds_up(tiles) or missing_of(tiles))


def left_in_shade(decoded, det: dict, picture: InBackground) -> bool:
    """Whether the photo ``decoded``, with its light evened, shows faces in shade where the look
    ``det`` (at the working size, read: its ``named`` tiles) named no tile
    (:func:`vision.light.faces_left_in_shade`): a shadow can hide tiles while the rest still add up
    to a hand (flowers set aside in it), which :func:`short_of_a_hand` cannot tell (docs/vision.md,
    "Tiles hidden in a shadow"). ``picture``: the photo's :func:`vision.light.shade_picture`,
    being made in the background since the decode (:func:`scan` waits for it in any case)."""
    gains, threshold = det.get("balance", (None, None))
    named = [t["quad"] for t in det.get("named", [])]
    return gains is not None and faces_left_in(picture.result(), decoded.image.shape[1], gains, threshold, named,
                                               det["face_height"]) > 0


def scan(image_bytes: bytes, *, classify_fn=None) -> dict:
    """Find, rectify, classify and group every tile in a photo (JPEG/PNG/WebP... bytes).

    A photo whose faces come out small, or whose hand does not add up
    (:func:`closer_look_size`), is looked at again at
    twice the working resolution, and the better reading is kept (:func:`better_reading`: the
    one whose hand adds up, else the one with more tiles, the first on a tie);
    ``image.closer_look`` says ``"none"``, ``"kept"`` or ``"dropped"``, and the timings add up
    both looks; the tiles the other look named surely where the kept reading has none, or names
    unsurely as another kind, are taken from it where the hand then adds up
    (:func:`with_tiles_only_in_the_other`, ``image.from_other_look``).
    ``image.pale_table`` says whether the photo lies on a white, cream or light grey cloth
    (:func:`vision.detect.is_pale_table`), where tiles are often missed: the phone page says so.
    A reading still short of a hand after that (:func:`short_of_a_hand`), or one that left faces
    in a shade unnamed (:func:`left_in_shade`), is looked at once more with the photo's light
    evened (:func:`vision.light.evened`: a phone's shadow over part of the hand), at the working
    size, and the better reading is kept; ``image.evened_light`` says ``"none"``, ``"kept"`` or
    ``"dropped"``.

    Raises :class:`ScanError` for input that is not a usable image.
    """
    t0 = time.perf_counter()
    decoded = decode(image_bytes)
    # what the check for faces left in a shade needs of the photo alone, made on the spare core
    # while the looks below keep this thread busy (left_in_shade)
    shade = InBackground(shade_picture, decoded.image)
    try:
        return _scanned(image_bytes, decoded, classify_fn, t0, shade)
    finally:
        shade.join()  # no work outlives the scan that started it


def _scanned(image_bytes: bytes, decoded, classify_fn, t0: float, shade: InBackground) -> dict:
    """:func:`scan` of ``image_bytes``, decoded as ``decoded`` since ``t0``, with the photo's
    :func:`vision.light.shade_picture` being made in ``shade``."""
    result, det, grouped = _look(decoded, classify_fn, {"decode": (time.perf_counter() - t0) * 1000})
    if refuted(det, result):
        # the white balance's next colour: the look the detection's own count of inked faces kept
        # can be one the classifier finds nothing in
        again, det_again, grouped_again = _look(decoded, classify_fn, {"decode": 0.0},
                                                leave_out=(*det["left_out"], det["reference"]))
        timings = _timings_added(result["timings_ms"], again["timings_ms"])
        if better_reading(again, result):
            result, det, grouped = again, det_again, grouped_again
        result["timings_ms"] = timings
    pale_table = bool(det.get("pale_table"))
    known: dict[int, tuple[list, bool]] = {}

    def missing_of(tiles: list[dict]) -> bool:  # missing_a_tile, asked once a reading (most are asked twice)
        if id(tiles) not in known:
            known[id(tiles)] = (tiles, missing_a_tile(tiles))  # the list kept, so that its id stays its own
        return known[id(tiles)][1]

    size = closer_look_size(decoded, det, grouped, missing_of)
    if size:
        t1 = time.perf_counter()
        # the working image may already be that large (a photo decoded in full, or a PNG,
        # which is resized to twice the working size): else decode at half the reduction
        closer = decoded if max(decoded.image.shape[:2]) >= size else decode(image_bytes, long_side=2 * WORK_LONG_SIDE)
        window = closer_window(det, grouped, decoded, closer)
        found = (None, 0.0)
        if window is not None:  # the first look's finds, where the window's table colour is not measured
            k = closer.image.shape[1] / decoded.image.shape[1]
            found = ([np.asarray(q, np.float32) * k for r in det["runs"] for q in r.quads], det["face_height"] * k)
        second, det2, grouped2 = _look(closer, classify_fn, {"decode": (time.perf_counter() - t1) * 1000}, long_side=size,
                                window=window, left_out=det.get("left_out", ()), found=found, pale=pale_table,
                                raised=bool(det.get("raised")))
        first_timings, second_timings = result["timings_ms"], second["timings_ms"]
        kept = better_reading(second, result)
        looks = [(result, decoded, det), (second, closer, det2)]
        (result, on, kept_det), (_, other, other_det) = looks[::-1] if kept else looks
        result = with_tiles_only_in_the_other(result, on, kept_det, other, other_det)
        # the kept look's grouped tiles; none where tiles of the other joined them (the hand adds up)
        grouped = [] if result["image"].get("from_other_look") else grouped2 if kept else grouped
        result["image"]["closer_look"] = "kept" if kept else "dropped"
        result["timings_ms"] = _timings_added(first_timings, second_timings)
    light = "none"
    if short_of_a_hand(grouped, missing_of) or (grouped and left_in_shade(decoded, det, shade)):
        # still short of a hand, or faces left in a shade: a phone's shadow over part of it? the
        # photo with its light evened
        t1 = time.perf_counter()
        lit = replace(decoded, image=evened(decoded.image))
        again, _, _ = _look(lit, classify_fn, {"decode": (time.perf_counter() - t1) * 1000})
        timings = _timings_added(result["timings_ms"], again["timings_ms"])
        light = "dropped"
        if better_reading(again, result):
            again["image"]["closer_look"] = result["image"].get("closer_look", "none")
            result, light = again, "kept"
        result["timings_ms"] = timings
    result["image"]["pale_table"] = pale_table  # the whole photo's table, not a closer look's window
    result["image"]["evened_light"] = light
    result["timings_ms"]["total"] = (time.perf_counter() - t0) * 1000
    result["timings_ms"] = {k: round(result["timings_ms"][k], 2)
                            for k in ("decode", "detect", "classify", "group", "total")}
    return result
