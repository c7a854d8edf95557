"""Record what the scanner returns for a fixed set of scenes, or compare it with a record.

    .venv/bin/python bench/scan_outputs.py --save /tmp/before.json     # before a change
    .venv/bin/python bench/scan_outputs.py --compare /tmp/before.json  # after it

For work that should change how the scan computes but not what it finds (speed work): the
scenes are development seeds 0-79 at their drawn framing, 80-119 shot from further away
(fill 0.45) and the six 12 MP speed photos (seeds 900000-900005), scanned with the shipped
model.  ``--compare`` lists every scene whose tiles or proposed hand differ, and every scene
where a corner moved by more than ``--tolerance`` px (saying whether the closer look at small
faces was kept, dropped or not taken); it exits 1 when any differ.

The scenes depend on the face styles and fonts this machine draws with
(``vision.scenes.drawing_setup``), so a record keeps them, and ``--compare`` refuses a record
drawn with others (exit 2: its seeds were other photos); corners also move by fractions of a
pixel between processors, so compare records made on the same machine.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.scan import scan  # noqa: E402
from vision.scenes import describe_drawing_setup, drawing_setup, make_scene  # noqa: E402

FRAMED, FAR, SPEED = range(0, 80), range(80, 120), range(900000, 900006)


def scenes():
    """(name, JPEG bytes) of every scene in the set."""
    for seed in FRAMED:
        yield f"{seed}", make_scene(seed)[0]
    for seed in FAR:
        yield f"{seed}@0.45", make_scene(seed, fill=0.45)[0]
    for seed in SPEED:
        yield f"{seed}@12MP", make_scene(seed, width=4032)[0]


def record(data: bytes) -> dict:
    res = scan(data)
    return {"tiles": [[t["tile"], t["group"], t["corners"]] for t in res["tiles"]], "hand": res["hand"],
            "closer_look": res["image"].get("closer_look", "none")}


def differences(before: dict, after: dict, tolerance: float) -> list[str]:
    out = []
    for name, a in before.items():
        b = after.get(name)
        if b is None:
            out.append(f"{name}: missing")
        elif a["hand"] != b["hand"] or [t[:2] for t in a["tiles"]] != [t[:2] for t in b["tiles"]]:
            looks = (a.get("closer_look", "none"), b.get("closer_look", "none"))
            out.append(f"{name}: tiles or hand differ" + (f" (closer look: {looks[0]} -> {looks[1]})"
                                                           if looks != ("none", "none") else ""))
        else:
            moved = max((abs(p - q) for ta, tb in zip(a["tiles"], b["tiles"])
                         for ca, cb in zip(ta[2], tb[2]) for p, q in zip(ca, cb)), default=0.0)
            if moved > tolerance:
                out.append(f"{name}: a corner moved {moved:.1f} px")
    return out


def setup_mismatch(saved: dict) -> str | None:
    """Why a record ``saved`` (as :func:`main` writes it) cannot be compared with scans made here,
    or None: it was drawn with other face styles or fonts (a record of the older form, scenes
    only, keeps no setup and is taken as it is)."""
    then, now = saved.get("setup"), drawing_setup()
    if then is None or then == now:
        return None
    return (f"the record's scenes were drawn with {describe_drawing_setup(then)}; "
            f"this machine draws with {describe_drawing_setup(now)}: the same seeds are other photos")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--save", type=Path, help="write the record here")
    mode.add_argument("--compare", type=Path, help="compare with this record")
    ap.add_argument("--tolerance", type=float, default=0.1, help="px a corner may move (outputs are rounded to 0.1)")
    a = ap.parse_args(argv)
    if a.compare:
        saved = json.loads(a.compare.read_text())
        saved = saved if "scenes" in saved else {"scenes": saved}  # the older form: scenes only
        why = setup_mismatch(saved)
        if why:
            print(why)
            return 2
    now = {name: record(data) for name, data in scenes()}
    if a.save:
        a.save.write_text(json.dumps({"setup": drawing_setup(), "scenes": now}))
        print(f"{len(now)} scenes recorded in {a.save}")
        return 0
    diff = differences(saved["scenes"], now, a.tolerance)
    for line in diff:
        print(line)
    print(f"{len(diff)} of {len(now)} scenes differ")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
