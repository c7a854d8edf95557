"""Propose the hand from tile positions: the concealed row, exposed melds, flowers.

Input tiles are dicts with ``tile`` (a code or "back"), ``quad`` (4x2 face corners)
and ``run`` (the index of the touching run they were found in).  The grouping is a
proposal; the phone page lets the player fix it.

Rules, in order:

1. Runs that continue each other (same direction, in line, a gap under
   ``JOIN_GAP`` of a tile width) are one cluster: a row broken by glare is one row.
2. Every flower/bonus tile (codes ``f``, ``a``, ``h``) goes to ``flowers``,
   wherever it lies.
3. The biggest remaining cluster that is not a meld, and does not split into melds either
   (rule 5: melds laid end to end in line), is the concealed row; with no such cluster, the
   biggest that is not a meld; with none, the biggest cluster.
4. Every other cluster that is a set (pung, kong, chow) is an exposed meld.  Face-down ends with
   two equal faces between are a concealed kong (``"concealed": true``); four
   face-down tiles are a kong of unknown kind (``"tiles": "", "unknown": true``).
5. A cluster that splits into two to four valid sets in a row (6-16 tiles) is those melds; two
   neighbouring leftover pieces that together are a set are one meld (a tile pushed
   out of line); anything else left over joins the concealed row.  Face-down tiles outside a kong are
   dropped (nothing can be read from them); so is a lone one at an end of a chow, before the
   cluster is looked at (:func:`_without_a_stray_back`).

Where a tile lies also says something of its kind, and two readings are changed by it (to
a kind among the tile's own likeliest (``likely``, six kinds from the scan's classifier, else
``top3``); the tile says ``"moved_from"`` and ``"moved_because"``):

* ``"in_row"``: a flower, animal or face tile is set aside as soon as it is drawn, so none
  lies inside a run of touching tiles.  One read as such between two ordinary tiles of its
  run (before rule 1) is taken as its likeliest ordinary kind, and so is each of two or more
  read as such side by side between two ordinary tiles, where the run holds more ordinary
  tiles than those.
* ``"meld"``: a cluster of 3 or 4 tiles lying apart from the concealed row is an exposed
  meld, and a meld is a set.  A leftover cluster (after rule 5's pairing) that one changed
  tile makes a set, with that kind scored at least ``MEND_MIN``, is a meld: the likeliest
  set that changed tiles make, each changed to a kind scored at least ``MEND_MIN`` and at
  least one tile keeping its reading (the product of its tiles' scores; between equals, the
  one with fewer changes). A cluster that no one change makes a set (two pairs) stays no
  meld. So is a cluster of 3 or 4 tiles (not the
  biggest) with one tile read as a flower, animal or face tile among ordinary tiles that are not
  a set themselves, where that tile, taken as its likeliest ordinary kind that makes a set (scored
  at least ``MEND_MIN``), makes one (before rule 2 sets it aside as a flower).

* ``"count"``: a hand holds 13, 14, 16 or 17 tiles (``HAND_SIZES``; flowers left out, a kong
  counted as three). When the hand counts one more, and a tile lying alone apart from the row
  and the melds (a leftover cluster of one, which would join the concealed row) has a flower,
  animal or face kind among its likeliest scored at least ``BONUS_MIN``, that tile is set aside as
  that kind (the likeliest such tile, when several would do): a flower the classifier half-took
  for an honour or a bamboo tile.

* ``"among_flowers"``: flowers are set aside in a line of their own, so in a run of touching
  tiles that holds more flowers, animals or face tiles than other tiles (at least two), a tile
  read as another kind that has a bonus kind among its likeliest scored at least ``BONUS_MIN`` is
  set aside as that kind.

No change may give a kind more copies than a set holds (:mod:`vision.copy_limits`).
"""
from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np

from engine.tiles import format_tiles, is_bonus

from .copy_limits import has_room, likely, move
from .quads import centre
from .small_stats import small_median

JOIN_GAP = 0.35       # fraction of a tile width
JOIN_ANGLE = 12.0     # degrees
JOIN_OFFSET = 0.35    # fraction of a face height, perpendicular to the row
MEND_MIN = 0.005      # the least score of the kind that makes a leftover cluster a meld
HAND_SIZES = (13, 14, 16, 17)  # tiles a hand holds, a kong counted as three (Taiwanese 16-tile: 16, 17)
WAITING_SIZES = (13, 16)       # ... of which a hand one short of winning
WIDE_FACE = 1.2       # a face this many times as wide (for its height) as the median: a sign of a missed tile
WIDE_FACE_ANY = 1.5   # ... and this many times, whatever the hand counts: a face and a half cut as one
BONUS_MIN = 0.05      # the least score of the bonus kind that sets a lone leftover tile aside


def _centre(q):
    return centre(np.asarray(q, np.float32))


def _face_sides(qs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each face's width and height (the means of its opposite sides) for quads ``qs`` (n x 4 x 2)."""
    def side(i, j):
        return np.linalg.norm(qs[:, j] - qs[:, i], axis=1)

    return (side(0, 1) + side(3, 2)) / 2, (side(0, 3) + side(1, 2)) / 2


def _run_geometry(tiles):
    """Centre line of a run: (mean centre, unit axis, pitch = face width, face height)."""
    qs = np.array([np.asarray(t["quad"], np.float32) for t in tiles])   # n x 4 x 2
    cs = qs.mean(axis=1)
    centre = cs.mean(axis=0)
    widths, heights = _face_sides(qs)
    width, height = small_median(widths), small_median(heights)
    if len(cs) >= 2:
        _, _, vt = np.linalg.svd(cs - centre, full_matrices=False)
        axis = vt[0]
    else:
        q = qs[0]
        axis = ((q[1] - q[0]) + (q[2] - q[3])) / 2
        axis = axis / (np.linalg.norm(axis) + 1e-6)
    return centre, axis, width, height


def _reading_axis(axis):
    """Orient an axis so runs read left to right (or top to bottom when vertical)."""
    if axis[0] < -0.2 or (abs(axis[0]) <= 0.2 and axis[1] < 0):
        return -axis
    return axis


def _joinable(a, b, geo_a, geo_b):
    """Do runs ``a`` and ``b`` continue each other?  ``geo_a``/``geo_b``: their :func:`_run_geometry`."""
    oa, ax_a, pa, ha = geo_a
    ob, ax_b, pb, hb = geo_b
    if len(a) == 1 and len(b) == 1:
        link = (ob - oa) / (np.linalg.norm(ob - oa) + 1e-6)
        if abs(float(np.dot(link, ax_a))) < math.cos(math.radians(JOIN_ANGLE)):
            return False  # side by side only along the faces' width
        ax_a = ax_b = link
    elif len(a) == 1:
        ax_a = ax_b
    elif len(b) == 1:
        ax_b = ax_a
    cosang = abs(float(np.dot(ax_a, ax_b)))
    if cosang < math.cos(math.radians(JOIN_ANGLE)):
        return False
    pitch = max(pa, pb)
    h = max(ha, hb)
    if abs(ha - hb) > 0.3 * h:
        return False
    nrm = np.array([-ax_a[1], ax_a[0]])
    if abs(float(np.dot(ob - oa, nrm))) > JOIN_OFFSET * h:
        return False
    # gap between the nearest tile centres along the axis, minus one pitch
    ca = np.array([_centre(t["quad"]) for t in a]) @ ax_a
    cb = np.array([_centre(t["quad"]) for t in b]) @ ax_a
    gap = min(abs(x - y) for x in ca for y in cb) - pitch
    return gap < JOIN_GAP * pitch


def clusters(tiles: list[dict]) -> list[list[dict]]:
    """Group tiles by run, then join runs that continue each other.

    The first joinable pair (in index order) is joined, and the search starts again;
    a pair already found not joinable is not looked at again while neither changes, and
    each group's geometry is computed once per change."""
    groups = runs(tiles)
    geo = [_run_geometry(g) for g in groups]
    serial = list(range(len(groups)))     # a new number for each group made by a join
    apart: set[tuple[int, int]] = set()   # serials of group pairs known not to join
    joined = True
    while joined:
        joined = False
        for i in range(len(groups)):
            for j in range(i + 1, len(groups)):
                key = (serial[i], serial[j])
                if key in apart:
                    continue
                if _near(groups[i], groups[j]) and _joinable(groups[i], groups[j], geo[i], geo[j]):
                    groups[i] = groups[i] + groups[j]
                    geo[i], serial[i] = _run_geometry(groups[i]), max(serial) + 1
                    del groups[j], geo[j], serial[j]
                    joined = True
                    break
                apart.add(key)
            if joined:
                break
    return [_reading_order(g, geo_g) for g, geo_g in zip(groups, geo)]


def _reading_order(tiles: list[dict], geo=None) -> list[dict]:
    """The tiles sorted along their run's reading axis (``geo``: their :func:`_run_geometry`,
    when the caller has it)."""
    _, axis, _, _ = geo or _run_geometry(tiles)
    axis = _reading_axis(axis)
    return sorted(tiles, key=lambda t: float(_centre(t["quad"]) @ axis))


def _near(a, b) -> bool:
    """Cheap test first: the two groups' outlines come within a face height of each other."""
    pa = np.concatenate([np.asarray(t["quad"], np.float32) for t in a])
    pb = np.concatenate([np.asarray(t["quad"], np.float32) for t in b])
    h = float(np.linalg.norm(pa[3] - pa[0]))
    lo_a, hi_a, lo_b, hi_b = pa.min(axis=0), pa.max(axis=0), pb.min(axis=0), pb.max(axis=0)
    return bool((lo_a <= hi_b + h).all() and (lo_b <= hi_a + h).all())


def _is_set(codes: list[str]) -> bool:
    if len(codes) in (3, 4) and len(set(codes)) == 1:
        return True
    if len(codes) == 3 and all(c[1] in "mps" for c in codes) and len({c[1] for c in codes}) == 1:
        n = sorted(int(c[0]) for c in codes)
        return n[1] == n[0] + 1 and n[2] == n[1] + 1
    return False


def _meld(codes: list[str]) -> dict | None:
    """A meld dict from a cluster's codes (in order), or None when it is not a meld."""
    backs = [c == "back" for c in codes]
    faces = [c for c in codes if c != "back"]
    if len(codes) == 4 and all(backs):
        return {"tiles": "", "concealed": True, "unknown": True}
    if len(codes) == 4 and backs[0] and backs[3] and not any(backs[1:3]) and len(set(faces)) == 1:
        return {"tiles": format_tiles([faces[0]] * 4), "concealed": True}
    if any(backs):
        if len(codes) == 4 and len(set(faces)) == 1 and faces:
            return {"tiles": format_tiles([faces[0]] * 4), "concealed": True}
        return None
    if _is_set(codes):
        return {"tiles": format_tiles(codes), "concealed": False}
    return None


def group_tiles(tiles: list[dict]) -> tuple[list[dict], dict]:
    """Assign ``group`` to each tile and build the hand.

    Returns (tiles in reading order with ``group`` set, hand).  Face-down tiles that
    are not part of a kong are left out.
    """
    _flowers_out_of_rows(tiles)
    _flowers_among_flowers(tiles)
    cl = clusters(tiles)
    _flowers_in_melds(tiles, cl)
    ordered, hand, leftovers = _group(tiles, cl)
    if _set_aside_by_count(tiles, hand_size(ordered), leftovers):
        ordered, hand, _ = _group(tiles, cl)
    return ordered, hand


def hand_size(tiles: list[dict]) -> int:
    """How many tiles grouped ``tiles`` (each with its ``group``) hold as a hand, flowers left
    out and a kong counted as three: one of ``HAND_SIZES`` when none is missing or extra."""
    groups = Counter(t["group"] for t in tiles)
    return sum(n if g == "concealed" else min(3, n) for g, n in groups.items() if g != "flowers")


def adds_up(tiles: list[dict]) -> bool:
    """Whether grouped ``tiles`` make a whole hand: :func:`hand_size` is one of ``HAND_SIZES``."""
    return hand_size(tiles) in HAND_SIZES


def missing_a_tile(tiles: list[dict]) -> bool:
    """Whether grouped ``tiles`` show a sign that a tile was missed: where they count a waiting
    hand (``WAITING_SIZES``: 13 or 16, one short of a winning one, so they add up), a face cut at
    least ``WIDE_FACE`` times as wide, for its height, as the photo's median face (two faces cut
    as one, or one cut askew), or a cluster of one or two ordinary tiles apart from the row (what
    is left of a meld); whatever they count, a face at least ``WIDE_FACE_ANY`` times as wide (a
    face and a half cut as one). A 14-tile hand read as 13 adds up, so the count alone cannot
    tell; nor can it for a kong read as a pung."""
    if not tiles:
        return False
    width, height = _face_sides(np.asarray([t["quad"] for t in tiles], np.float64))
    aspect = width / np.maximum(height, 1e-9)
    wide = float(aspect.max()) / max(float(np.median(aspect)), 1e-9)
    if wide >= WIDE_FACE_ANY:
        return True
    if hand_size(tiles) not in WAITING_SIZES:
        return False
    if wide >= WIDE_FACE:
        return True
    cl = clusters(tiles)
    row = max(cl, key=len)
    return any(c is not row and len(c) <= 2 and all(_ordinary(t["tile"]) for t in c) for c in cl)


def _group(tiles: list[dict], cl: list[list[dict]]):
    """Rules 2-5 of the module docstring over the clusters ``cl`` of ``tiles``: (tiles in reading
    order with ``group`` set, hand, the leftover clusters that joined the row)."""
    flowers = []
    rest = []
    for c in cl:
        keep = []
        for t in c:
            if is_bonus(t["tile"]):
                t["group"] = "flowers"
                flowers.append(t)
            else:
                keep.append(t)
        if keep:
            rest.append(keep)
    rest = [_without_a_stray_back(c) for c in rest]
    rest.sort(key=lambda c: -len(c))
    metas = [_meld([t["tile"] for t in c]) for c in rest]
    splits = [_split_melds(c) if m is None else None for c, m in zip(rest, metas)]
    # the concealed row: the biggest cluster that is no meld and no melds in line (else the
    # biggest that is no meld, else the biggest cluster)
    row = next((i for i, (m, split) in enumerate(zip(metas, splits)) if m is None and not split),
               next((i for i, m in enumerate(metas) if m is None), 0 if rest else None))
    concealed: list[dict] = []
    melds: list[tuple[list[dict], dict]] = []
    leftovers: list[list[dict]] = []
    for i, (c, m) in enumerate(zip(rest, metas)):
        if i == row:
            concealed.extend(t for t in c if t["tile"] != "back")
        elif m is not None:
            melds.append((c, m))
        else:
            split = splits[i]
            if split:
                melds.extend(split)
            else:
                leftovers.append(c)
    paired, leftovers = _pair_pieces(leftovers)
    melds.extend(paired)
    mended = [(c, _mend_meld(c, tiles)) for c in leftovers]
    melds.extend((c, m) for c, m in mended if m is not None)
    leftovers = [c for c, m in mended if m is None]
    for c in leftovers:
        concealed.extend(t for t in c if t["tile"] != "back")
    if concealed and melds:
        _, axis, _, _ = _run_geometry(concealed)
        axis = _reading_axis(axis)
        melds.sort(key=lambda cm: float(np.mean([_centre(t["quad"]) for t in cm[0]], axis=0) @ axis))
    for t in concealed:
        t["group"] = "concealed"
    ordered = list(concealed)
    hand_melds = []
    for n, (c, m) in enumerate(melds):
        for t in c:
            t["group"] = f"meld:{n}"
        ordered.extend(c)
        hand_melds.append(m)
    ordered.extend(flowers)
    hand = {
        "concealed": format_tiles(t["tile"] for t in concealed),
        "melds": hand_melds,
        "flowers": format_tiles(t["tile"] for t in flowers),
    }
    return ordered, hand, leftovers


def _without_a_stray_back(c: list[dict]) -> list[dict]:
    """Cluster ``c`` (in reading order) without a lone face-down tile at one end of three faces
    that are a chow. (Three faces of one kind with a back beside them are a concealed kong with an
    end misread, which :func:`_meld` keeps.)

    A face-down tile shows only in a kong (two ends, or all four), so one beside a chow is none
    of the meld's: the body's side of the meld's end tile, seen at a tilt in the backs' colour and
    read ``back`` (development scene 1182 with camera bodies on a cloth: an orange-backed 456p meld
    put in the concealed row as ``4p 5p 6p back``). The back is dropped, as rule 5 drops every
    face-down tile outside a kong."""
    codes = [t["tile"] for t in c]
    if len(codes) != 4 or codes.count("back") != 1 or codes[1] == "back" or codes[2] == "back":
        return c
    faces = [t for t in c if t["tile"] != "back"]
    kinds = [t["tile"] for t in faces]
    if len(set(kinds)) == 1 or not _is_set(kinds):
        return c
    return faces


def _set_aside_by_count(tiles: list[dict], size: int, leftovers: list[list[dict]]) -> bool:
    """Rule "count" of the module docstring, in place; whether a tile was set aside."""
    if size in HAND_SIZES or size - 1 not in HAND_SIZES:
        return False
    counts = Counter(t["tile"] for t in tiles)
    best = None  # (score, tile, kind)
    for c in leftovers:
        if len(c) != 1 or not _ordinary(c[0]["tile"]):
            continue
        for kind, score in likely(c[0]):
            if is_bonus(kind) and float(score) >= BONUS_MIN and has_room(counts, kind):
                if best is None or float(score) > best[0]:
                    best = (float(score), c[0], kind)
                break
    if best is None:
        return False
    score, t, kind = best
    move(t, kind, score, "count")
    return True


MELDS_IN_LINE = 4  # the most melds laid end to end in line that one cluster is split into


def _split_melds(c: list[dict]):
    """Rule 5 of the module docstring: the cluster ``c`` (in reading order) cut into two to
    ``MELDS_IN_LINE`` consecutive sets of 3 or 4 tiles, as [(tiles, meld), ...], the first
    cut that makes every part a set (parts of three tried before four), or None."""
    codes = [t["tile"] for t in c]
    if "back" in codes or not 6 <= len(codes) <= 4 * MELDS_IN_LINE:
        return None

    def cut(start: int, parts: int):
        if start == len(codes):
            return [] if parts >= 2 else None
        if parts == MELDS_IN_LINE:
            return None
        for k in (3, 4):
            part = codes[start:start + k]
            if len(part) == k and _is_set(part):
                rest = cut(start + k, parts + 1)
                if rest is not None:
                    return [(c[start:start + k], _meld(part))] + rest
        return None

    return cut(0, 0)


def _pair_pieces(pieces: list[list[dict]]) -> tuple[list[tuple[list[dict], dict]], list[list[dict]]]:
    """Melds made of two neighbouring pieces, and the pieces left over.

    A meld laid down by hand is often not straight: one tile pushed out of line is
    found as a separate piece (a pair and a single of a pung).  Two pieces that lie
    within a face height of each other and together read as a set are that meld."""
    melds = []
    pieces = list(pieces)
    i = 0
    while i < len(pieces):
        for j in range(i + 1, len(pieces)):
            if not 3 <= len(pieces[i]) + len(pieces[j]) <= 4 or not _near(pieces[i], pieces[j]):
                continue
            both = _reading_order(pieces[i] + pieces[j])
            m = _meld([t["tile"] for t in both])
            if m is not None:
                melds.append((both, m))
                del pieces[j], pieces[i]
                break
        else:
            i += 1
    return melds, pieces


def _ordinary(code: str) -> bool:
    """A kind that can lie in a row or a meld: not a bonus tile, not face-down, not a reject."""
    return code not in ("back", "reject") and not is_bonus(code)


def _flowers_out_of_rows(tiles: list[dict]) -> None:
    """Rule "in_row" of the module docstring, in place."""
    counts = Counter(t["tile"] for t in tiles)
    for run in runs(tiles):
        if len(run) < 3 or not any(is_bonus(t["tile"]) for t in run):
            continue
        order = _reading_order(run)
        ordinary = sum(_ordinary(t["tile"]) for t in order)
        start = 1
        while start < len(order) - 1:
            end = start  # order[start:end]: bonus readings side by side
            while end < len(order) and is_bonus(order[end]["tile"]):
                end += 1
            if end == start:
                start += 1
                continue
            if end < len(order) and _ordinary(order[start - 1]["tile"]) and _ordinary(order[end]["tile"]) \
                    and end - start < ordinary:
                for t in order[start:end]:
                    kind, score = next(((k, p) for k, p in likely(t) if _ordinary(k)), (None, 0.0))
                    if kind is not None and has_room(counts, kind):
                        _reread(counts, t, kind, float(score), "in_row")
            start = end


def _flowers_among_flowers(tiles: list[dict]) -> None:
    """Rule "among_flowers" of the module docstring, in place."""
    counts = Counter(t["tile"] for t in tiles)
    for run in runs(tiles):
        bonus = sum(is_bonus(t["tile"]) for t in run)
        if bonus < 2 or bonus <= len(run) - bonus:
            continue
        for t in run:
            if not _ordinary(t["tile"]):
                continue
            kind, score = next(((k, float(p)) for k, p in likely(t) if is_bonus(k) and has_room(counts, k)),
                               (None, 0.0))
            if kind is not None and score >= BONUS_MIN:
                _reread(counts, t, kind, score, "among_flowers")


def _flowers_in_melds(tiles: list[dict], cl: list[list[dict]]) -> None:
    """Rule "meld" of the module docstring for a tile read as a bonus kind, in place."""
    counts = Counter(t["tile"] for t in tiles)
    biggest = max((len(c) for c in cl), default=0)
    for c in cl:
        if not 3 <= len(c) <= 4 or len(c) == biggest:
            continue
        bonus = [t for t in c if is_bonus(t["tile"])]
        rest = [t["tile"] for t in c if _ordinary(t["tile"])]
        if len(bonus) != 1 or len(rest) != len(c) - 1 or _is_set(rest):
            continue
        t = bonus[0]
        for kind, score in likely(t):
            if _ordinary(kind) and float(score) >= MEND_MIN and has_room(counts, kind) and _is_set(rest + [kind]):
                _reread(counts, t, kind, float(score), "meld")
                break


def runs(tiles: list[dict]) -> list[list[dict]]:
    """The tiles of each detection run, runs in order of their first tile."""
    by_run: dict[int, list[dict]] = {}
    for t in tiles:
        by_run.setdefault(t["run"], []).append(t)
    return list(by_run.values())


def _reread(counts: Counter, t: dict, kind: str, score: float, because: str) -> None:
    """:func:`vision.copy_limits.move` tile ``t`` to ``kind``, keeping the kinds' ``counts``."""
    counts[t["tile"]] -= 1
    counts[kind] += 1
    move(t, kind, score, because)


def _mend_meld(c: list[dict], tiles: list[dict]) -> dict | None:
    """Rule "meld" of the module docstring: the meld that cluster ``c`` becomes with one tile
    changed, or more than one where that is likelier (the tiles are changed in place), or None
    where no one change makes a set: a cluster of two pairs is no meld that two changes make."""
    if len(c) not in (3, 4):
        return None
    # each tile's choices: its reading, or a likely ordinary kind scored at least MEND_MIN
    choices = [[(t["tile"], float(t["confidence"]))] +
               [(kind, float(score)) for kind, score in likely(t)
                if kind != t["tile"] and _ordinary(kind) and float(score) >= MEND_MIN] for t in c]
    if len(c) == 4:  # a set of four is one kind (between face-down ends): only kinds every tile may be
        faces = [{k for k, _ in ch} for ch in choices if ch[0][0] != "back"]
        if not faces:
            return None
        common = set.intersection(*faces)
        choices = [[(k, s) for k, s in ch if k in common or k == "back"] for ch in choices]
    counts = Counter(t["tile"] for t in tiles)
    best = None  # (likelihood, number changed, kinds, scores, meld)
    one_change = False
    for pick in itertools.product(*choices):
        kinds = [k for k, _ in pick]
        changed = [i for i, t in enumerate(c) if kinds[i] != t["tile"]]
        if not changed or len(changed) == len(c):  # at least one tile keeps its reading
            continue
        m = _meld(kinds)
        if m is None or not _room_for(counts, [(c[i]["tile"], kinds[i]) for i in changed]):
            continue
        likelihood = math.prod(s for _, s in pick)
        one_change = one_change or len(changed) == 1
        # the likeliest set; between as likely ones, the fewer changes
        if best is None or (likelihood, -len(changed)) > (best[0], -best[1]):
            best = (likelihood, len(changed), kinds, [s for _, s in pick], m)
    if best is None or not one_change:
        return None
    _, _, kinds, scores, m = best
    for t, kind, score in zip(c, kinds, scores):
        if kind != t["tile"]:
            move(t, kind, score, "meld")
    return m


def _room_for(counts: Counter, changes: list[tuple[str, str]]) -> bool:
    """Whether tiles counted in ``counts`` can be re-read by ``changes`` ((from, to) kinds) with
    no kind past a set's copies."""
    counts = Counter(counts)
    for old, new in changes:
        counts[old] -= 1
        if not has_room(counts, new):
            return False
        counts[new] += 1
    return True
