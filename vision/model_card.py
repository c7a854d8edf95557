"""``models/CARD.md``, the tile classifier's model card, written only from the training runs'
JSON reports in ``.train/reports`` (``python -m vision.train --card``), and the sections that the
banded reader's and the flower reader's training write into it (:func:`replace_card_section`)."""
from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

from .dataset import BAND_BODY_SIDE, BAND_CUT, BAND_GROW, INPUT_H, INPUT_W, LABELS, SHAKE_LENGTH, SHAKE_P
from .faces.photos import LABEL_FIXES
from .scene_crops import SHAKE as SCENE_SHAKE
from .train import BAND_SHARE, CHECK_SEED, FLIP_AVERAGE, ROOT

def _pct(x) -> str:
    return f"{100 * x:.1f}%"


def without_flowers(per_class: dict) -> tuple[int, int]:
    """(correct, n) over the classes that are not flowers (``1f``..``8f``)."""
    rows = [v for c, v in per_class.items() if not c.endswith("f")]
    return sum(ok for ok, _ in rows), sum(n for _, n in rows)


def _steps(info: dict) -> str:
    """'9000', or '7412 (capped by time; 9000 planned)' for a stage that hit its wall-clock cap."""
    planned = info.get("steps_planned")
    if planned and info["steps"] < planned:
        return f"{info['steps']} (capped by time; {planned} planned)"
    return str(info["steps"])


def _label_check(cv: dict) -> list[str]:
    """A line for each real crop of ``LABEL_FIXES`` that a cross-validation report made before its
    label was mended counted wrong against the shared set's label: what the fix changes."""
    lines = []
    n = sum(total for _, total in cv["overall"]["per_class"].values())
    right = sum(ok for ok, _ in cv["overall"]["per_class"].values())
    for (f, given), (shown, why) in LABEL_FIXES.items():
        miss = [w for w in cv.get("wrong", []) if w["file"] == f and w["tile"] == given]
        if miss:
            fixed = right + (miss[0]["pred"] == shown)
            lines.append(f"Label check: `{f}` is labelled {miss[0]['tile']} but shows {why}, so it is {shown}; the "
                         f"model's {miss[0]['pred']} is counted wrong above. With that label fixed, cross-validation "
                         f"top-1 would be {_pct(fixed / n)} ({fixed} / {n}).")
    return lines + ([""] if lines else [])


def _per_class_table(per_class: dict, order=LABELS) -> list[str]:
    rows = ["| tile | correct / n | accuracy |", "| --- | --- | --- |"]
    for c in order:
        if c in per_class:
            ok, n = per_class[c]
            rows.append(f"| {c} | {ok} / {n} | {_pct(ok / n)} |")
    return rows


def clean_check_report(seed: int = 2024, per_kind: int = 3) -> dict:
    """The shipped model on the plain rendered check set that the CI test uses."""
    from .classify import classify
    from .dataset import clean_check_set

    crops, codes = clean_check_set(seed, per_kind)
    res = classify(crops)
    wrong = [f"{c}->{r['tile']}" for c, r in zip(codes, res) if r["tile"] != c]
    return {"seed": seed, "per_kind": per_kind, "n": len(codes), "top1": 1 - len(wrong) / len(codes), "wrong": wrong}


def clean_check_report_local_only() -> dict:
    """The same check as CI runs it on a machine without ``../shared`` (local face sources only):
    measured in a child process that is pointed at an empty shared folder."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as empty:
        env = {**os.environ, "TILELENS_SHARED": empty}
        code = "import json; from vision.model_card import clean_check_report; print(json.dumps(clean_check_report()))"
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def unseen_goal_figures(hold, replicas: list, step) -> dict | None:
    """Where the unseen-style goal (95%) stands: ``met`` and a line for the card. The goal's figure
    is the one nearest to what ships: the whole classify step of the whole recipe trained without the
    held-out sources when measured, else the classifier of that recipe (training seed), else stage
    A's. Every other figure is listed beside it, each replica seed included, so that none hides another."""
    def per(res):
        return ", ".join(f"{name} {_pct(r['top1'])}" for name, r in res.items())

    parts = []
    if hold:
        parts.append(("the hold-out model (stage A) alone", hold["unseen_all"]["top1"], per(hold["unseen"])))
    for r in replicas:
        parts.append((f"the whole recipe without them, classifier alone (seed {r['seed']})", r["unseen_all"]["top1"],
                      per(r["unseen"])))
    if step:
        parts.append((f"the whole classify step of that recipe (seed {replicas[0]['seed'] if replicas else '?'})",
                      step["all"]["with_reader"]["top1"],
                      per({name: r["with_reader"] for name, r in step["sources"].items()})))
    if not parts:
        return None
    if step:  # the whole classify step
        name, figure, _ = parts[-1]
    elif replicas:  # the training seed's replica, the first after stage A
        name, figure, _ = parts[1 if hold else 0]
    else:
        name, figure, _ = parts[0]
    met = figure >= 0.95
    line = (f"unseen style: {_pct(figure)} {'meets' if met else 'against'} the 95% goal, with {name}. All figures: "
            + "; ".join(f"{n}: {_pct(f)} ({ps})" for n, f, ps in parts))
    return {"met": met, "figure": figure, "line": line}


def write_card(reports: Path, out: Path) -> None:
    """Write models/CARD.md from the JSON reports of the runs (figures are never typed by hand)."""
    def load(name):
        p = reports / f"{name}.json"
        return json.loads(p.read_text()) if p.exists() else None

    base, ship, cv, hold, bench = load("base"), load("ship"), load("cv"), load("holdout"), load("bench")
    # the unseen styles on the whole recipe (``--replica``; other seeds in replica_<seed>.json) and its
    # whole classify step (``bench/unseen_style.py ... --json .train/reports/unseen_step.json``)
    replicas = [r for r in [load("replica")] + [json.loads(q.read_text()) for q in sorted(reports.glob("replica_*.json"))]
                if r]
    step = load("unseen_step")
    clean = clean_check_report()
    clean_local = clean_check_report_local_only()
    from .faces import FACE_SOURCES

    L = ["# Tile classifier: model card", "",
         "`models/tiles.onnx` names one rectified tile-face crop. `models/labels.json` is its class list: "
         "the 51 engine tile codes (`1m`..`1j`), `back` (a face-down tile) and `reject` (not a tile face).", "",
         "## Model", "",
         f"- Input `crops`: N x 3 x {INPUT_H} x {INPUT_W} float32, BGR, 0..255 (portrait, either way up). "
         "Output `probs`: N x 53 softmax probabilities"
         + (", averaged over the crop and its 180-degree rotation." if FLIP_AVERAGE else " (one pass; half of the "
            "training crops are upside down). `vision.classify` reads a crop whose first reading leans to a flower, "
            "animal or face tile a second time, turned 180 degrees, and averages the two (docs/classifier.md)."),
         "- A compact CNN: a stride-2 stem and seven depthwise-separable blocks, global average pooling.",
         ]
    if ship:
        L.append(f"- {ship['params']} parameters, {ship['onnx_bytes'] / 1e6:.2f} MB ONNX (opset 17, dynamic batch).")
    L += ["", "## Data", "",
          "Rendered crops (`vision/dataset.py`): a tile face from one of the face sources below on a rendered "
          "tile body (ivory/white face, rounded corners, green/blue/yellow/orange back showing on one or two sides), "
          "on a table with neighbouring tiles, warm/cool/uneven light, shadows and glare, a camera tilt of up to 40 "
          "degrees, then cut out again with a slightly wrong quad the way the detector does, with blur, "
          + (f"a phone's shake (`--shake`: {_pct(SHAKE_P)} of the crops streaked along one direction by "
             f"{_pct(SHAKE_LENGTH[0])}-{_pct(SHAKE_LENGTH[1])} of their height), " if base and base.get("shake") else "")
          + "noise, JPEG, and turned upside down half of the time. 5% are rejects (table, tile sides, two half "
          "tiles, far-off crops).",
          "",
          f"Face sources on the training machine: {', '.join(f'`{s}`' for s in FACE_SOURCES)}.",
          "- `hk_art`: CC0 Hong Kong tile art; `riichi_art`: riichi-mahjong-tiles by FluffyStuff, bonus tiles by "
          "xhokir (CC BY 4.0); both read from `../shared/art`, never committed.",
          "- `imahjong_*`: the four I.Mahjong tile fonts (M+ licence), recoloured; `symbola`: Symbola's mahjong glyphs.",
          "- `drawn`: procedural pips, sticks and birds, characters from the Debian CJK fonts (Noto Sans/Serif CJK, "
          "WenQuanYi Zen Hei, AR PL UKai), flowers as a corner numeral + usually their season/plant character + a "
          "painting: for the four plants usually the plant itself (plum branch, orchid blades, chrysanthemum heads, "
          "bamboo canes), otherwise a random one (plant, leafy bush, blossoms, bird, bamboo); without the character, "
          "seasons mostly carry Chinese numerals and plants Latin digits), fei with or without a frame, "
          "animals and face tiles from their characters and simple pictures. The only source for `1a`-`4a` and `1h`-`4h`.",
          "- Philippine-style corner indices (digit or letter) are added to some faces of every source.", ""]
    if base:
        n_all = base.get("n_rendered_all", base["n_rendered"])
        never = base.get("never_trained") or []
        L += [f"- Rendered training set: {n_all} crops, render seed {base['render_seed']} "
              f"(`python -m vision.dataset --n {n_all} --seed {base['render_seed']}` reproduces it); "
              f"training seed {base['train_seed']}."]
        if never:
            L += [f"- {', '.join(f'`{s}`' for s in never)} is never trained on, in any stage ({base['n_rendered']} "
                  "crops are used): it is the face style the shipped model has never seen, which the table-scan "
                  "bench (`bench/scan_accuracy.py`, docs/vision.md) reports on its own."]
        if base.get("n_scene_crops"):
            L += [f"- Scanner crops: {base['n_scene_crops']} crops ({base['n_scene_rejects']} of them rejects) that the "
                  f"scanner itself cut from {base['scene_photos']} synthetic table photos (`vision/scene_crops.py`: "
                  f"`vision.scenes` photos with scene seeds from {base['scene_first_seed']:,} up, through "
                  "`vision.scan.scan`), each labelled from the photo's truth, rejects included (empty table beyond a "
                  "row's end, half-tile cuts, clutter); "
                  + (f"{base['scene_camera_share']:.0%} of the photos drawn with the tiles' bodies where the camera "
                     "sees them (`vision.scene_crops.scene_bodies`); " if base.get("scene_camera_share") else "")
                  + (f"{base['scene_shake_share']:.0%} of them taken with a phone's shake of "
                     f"{SCENE_SHAKE[0]:.1%}-{SCENE_SHAKE[1]:.1%} of the long side (`vision.scene_crops.scene_shake`); "
                     if base.get("scene_shake_share") else "")
                  + f"{base['scene_seconds'] / 60:.1f} min to make in this run, cached in `.train/scenes`. They join "
                  "both training stages (stage A without the held-out styles' photos)."]
    L += ["- Real crops: `../shared/data/real-tiles` (314 product-photo crops, MIT licence, Camerash mahjong-dataset), "
          "mixed into the fine-tuning batches (a share of each batch, below) with crop-jitter/light/JPEG augmentation. "
          "Not committed.", ""]
    L += ["## Training", ""]
    if base and ship:
        bt = base["train"]
        ft = ship.get("finetune") or {}
        stages = ([hold["train"]] if hold else []) + list(base.get("history") or [bt])
        t_train = sum(h["seconds"] for h in stages) + (ft.get("seconds", 0) if ft else 0)
        cmds = [c for r in ([hold] if hold else []) + [base, ship] for c in r["command"].split(", then ")]
        cmds = list(dict.fromkeys(cmds))
        L += [("- Command: " if len(cmds) == 1 else "- Commands, in order: ")
              + "; ".join(f"`{c}`" for c in cmds) + f". It renders the {n_all} training crops first "
              f"(render time {base['render_seconds'] / 60:.1f} min in this run; cached in `.train/rendered`). "
              "`make model` runs `python -m vision.train`: the same steps and seeds, with the default caps and 2 threads.",
              f"- Device: {ship['env']['device']}, torch threads: {ship['env']['threads']}, torch {ship['env']['torch']}, "
              f"a {ship['env']['cpus']}-core machine. Training time {t_train / 60:.1f} min, "
              f"{ship['total_seconds'] / 60:.1f} min for the whole command (rendering or loading the crops, training, "
              "the evaluations and the export). Steps are fixed and seeded; each stage also has a wall-clock cap "
              "for slower machines, and a stage that hits its cap says so below.",
              *([f"- Stage A (the hold-out model, without {', '.join(hold['held_out'])}): {_steps(hold['train'])} steps "
                 f"x batch {hold['train']['batch']}, peak learning rate {hold['train']['lr']} ({hold['train']['seconds'] / 60:.1f} min)."]
                if hold else []),
              *[f"- Stage B{'' if i == 0 else f' (continued, `--resume`)'}: {_steps(h)} steps x batch {h['batch']} on "
                f"rendered{' and scanner' if base.get('n_scene_crops') else ''} crops from every source, peak learning rate {h['lr']:.4g} "
                f"({h['seconds'] / 60:.1f} min)." for i, h in enumerate(base.get("history") or [bt])],
              "- Stages A and B together are the purely rendered-data base model (it has never seen a real crop).",
              f"- Fine-tune: {ft.get('steps', 0)} steps x batch {ft.get('batch', 0)}, {_pct(ft.get('real_share', 0))} "
              f"real crops per batch, the rest precomputed features of {ft.get('rendered_features', 0)} synthetic crops; "
              f"only {ft.get('trained', 'the head')} train, the trunk stays frozen ({ft.get('seconds', 0) / 60:.1f} min). "
              "The shipped model is this fine-tuned model.", ""]
        if ship.get("note"):
            L += [ship["note"] + ".", ""]
    L += ["## Accuracy", "", "| figure | top-1 | top-3 | n | command |", "| --- | --- | --- | --- | --- |"]
    if ship:
        L.append(f"| rendered check set (seed {CHECK_SEED}, all sources), shipped model | {_pct(ship['check']['top1'])} | "
                 f"{_pct(ship['check']['top3'])} | {ship['check']['n']} | `{ship['command']}` |")
    if base and base.get("real"):
        L.append(f"| real crops, purely rendered-data model (no real crop seen) | {_pct(base['real']['top1'])} | "
                 f"{_pct(base['real']['top3'])} | {base['real']['n']} | `{base['command'].split(', then ')[-1]}` |")
    if cv:
        L.append(f"| real crops, 5-fold cross-validation (fine-tune the rendered base on rendered + 4/5 real, test on "
                 f"the held-out 1/5) | {_pct(cv['overall']['top1'])} | {_pct(cv['overall']['top3'])} | "
                 f"{cv['overall']['n']} | `{cv['command']}` |")
    for alt in sorted(reports.glob("cv_*.json")):  # other fine-tune settings that were tried
        r = json.loads(alt.read_text())
        L.append(f"| real crops, 5-fold CV of a fine-tune setting not shipped ({r['folds'][0]['train']['trained']}, "
                 f"{r['folds'][0]['train']['steps']} steps{'; ' + r['note'] if r.get('note') else ''}) | {_pct(r['overall']['top1'])} | {_pct(r['overall']['top3'])} | "
                 f"{r['overall']['n']} | `{r['command']}` |")
    if ship and ship.get("real_seen_in_training"):
        r = ship["real_seen_in_training"]
        L.append(f"| real crops, shipped model (all 314 were in its training: not a fair test) | {_pct(r['top1'])} | "
                 f"{_pct(r['top3'])} | {r['n']} | `{ship['command']}` |")
    if hold:
        for s, r in hold["unseen"].items():
            L.append(f"| unseen style `{s}` (held out of training) | {_pct(r['top1'])} | {_pct(r['top3'])} | {r['n']} | "
                     f"`{hold['command']}` |")
        for s, r in hold["unseen"].items():
            ok, n = without_flowers(r["per_class"])
            L.append(f"| unseen style `{s}`, flowers left out | {_pct(ok / max(1, n))} | | {n} | `{hold['command']}` |")
        L.append(f"| unseen styles together | {_pct(hold['unseen_all']['top1'])} | {_pct(hold['unseen_all']['top3'])} | "
                 f"{hold['unseen_all']['n']} | `{hold['command']}` |")
        if hold.get("real_rendered_only"):
            r = hold["real_rendered_only"]
            L.append(f"| real crops, the hold-out model (rendered only, without {', '.join(hold['held_out'])}) | "
                     f"{_pct(r['top1'])} | {_pct(r['top3'])} | {r['n']} | `{hold['command']}` |")
    for r in replicas:
        for s, x in r["unseen"].items():
            L.append(f"| unseen style `{s}`, the whole recipe without the held-out sources (seed {r['seed']}) | "
                     f"{_pct(x['top1'])} | {_pct(x['top3'])} | {x['n']} | `{r['command']}` |")
        L.append(f"| unseen styles together, the whole recipe without them (seed {r['seed']}) | "
                 f"{_pct(r['unseen_all']['top1'])} | {_pct(r['unseen_all']['top3'])} | {r['unseen_all']['n']} | "
                 f"`{r['command']}` |")
    if step:
        for s, x in [*step["sources"].items(), ("together", step["all"])]:
            label = "unseen styles together" if s == "together" else f"unseen style `{s}`"
            L.append(f"| {label}, the whole classify step of that recipe (with the second look, a flower reader trained "
                     f"without them and the flowers named together) | {_pct(x['with_reader']['top1'])} | {_pct(x['with_reader']['top3'])} | "
                     f"{x['with_reader']['n']} | `{step['command']}` |")
    L.append("")
    for name, r in (("hold-out", hold), ("rendered-only base", base)):
        if r and r.get("note"):
            L += [f"The {name} model's figures were {r['note']}.", ""]
    if hold:
        ht = hold["train"]
        L += [f"Unseen-style protocol: every training crop whose face came from {', '.join(hold['held_out'])} "
              f"was dropped ({hold['n_rendered']} crops left; the rendered crops' neighbouring tiles are always `drawn`, "
              f"and the scanner crops of a photo in a held-out style go with it), a "
              f"model was trained from scratch on the rest ({_steps(ht)} steps, {ht['seconds'] / 60:.1f} min, synthetic "
              f"only, no real crops) and tested on new crops (seed {hold['test_seed']}) whose faces come only from the "
              "held-out sources. These are the classifier alone: `bench/unseen_style.py` reads the same crops with the "
              "whole classify step, the second look and a flower reader trained without the same sources "
              "(docs/classifier.md).", ""]
    if replicas:
        L += ["Stage A is a part of the shipped recipe: it has neither stage B nor the real crops. The rows 'the whole "
              "recipe without the held-out sources' train all of it (stages A and B and the real-crop fine-tune, the "
              "same steps, learning rates and seeds as the shipped model for the training seed) on every crop but "
              "the held-out sources' (`python -m vision.train --replica`, `vision.train.cmd_replica`). The real "
              "crops are product photos of other sets, so that model has never seen a held-out face either"
              + ("; the rows 'the whole classify step' read the same crops as the scanner does, with a flower "
                 "reader that never saw the held-out sources either (`python -m vision.train_flowers --never "
                 f"{','.join(replicas[0]['held_out'])} --out .train/flowers_replica.onnx`)" if step else "") + ".", ""]
    if step:
        L += ["The classify step names a crop as its likeliest flower where the eight flowers together outweigh every "
              "other kind (`vision.classify.choose`). That rule was made on 2026-11-27 after looking at `hk_art`'s "
              "errors in this very test, and checked on development crops only (docs/classifier.md), so the rows "
              "'the whole classify step' are not blind to it.", ""]
    if cv:
        L += ["### Real crops: per-class accuracy in 5-fold cross-validation", ""]
        L += _per_class_table(cv["overall"]["per_class"])
        o = cv.get("other_flip_setting")
        if o:
            L += ["", f"The same folds scored {'with' if o['flip_average'] else 'without'} flip averaging (the crop "
                  f"and its 180-degree turn): top-1 {_pct(o['top1'])}, top-3 {_pct(o['top3'])}."]
        L += ["", "Confusions (true -> predicted: count): " +
              (", ".join(f"{k}: {v}" for k, v in cv["overall"]["confusions"].items()) or "none"), ""]
        L += _label_check(cv)
        L += [f"Folds: stratified by tile, fold seed {cv['fold_seed']}; per fold top-1 " +
              ", ".join(_pct(f["top1"]) for f in cv["folds"]) + f". Fine-tuning per fold: {cv['folds'][0]['train']['steps']} "
              f"steps. Total {cv['seconds'] / 60:.1f} min. This is a cheaper protocol than training each fold "
              "from scratch: the rendered-only base model is shared by all folds (it never saw a real crop).", ""]
    if base and base.get("real"):
        L += ["### Real crops: the purely rendered-data model, per class", ""]
        L += _per_class_table(base["real"]["per_class"])
        L += ["", "Confusions: " + (", ".join(f"{k}: {v}" for k, v in base["real"]["confusions"].items()) or "none"), ""]
    L += [f"Plain check set (the CI test `tests/vision/test_classify_model.py`): {_pct(clean['top1'])} of "
          f"{clean['n']} crops (seed {clean['seed']}, {clean['per_kind']} per kind, every source, no lighting or "
          "tilt), shipped ONNX model through `vision.classify.classify`"
          + (f"; wrong: {', '.join(clean['wrong'])}" if clean["wrong"] else "") + ". Without `../shared` "
          f"the same seed renders from the local sources only: {_pct(clean_local['top1'])} of {clean_local['n']} "
          "crops" + (f" (wrong: {', '.join(clean_local['wrong'])})" if clean_local["wrong"] else "")
          + ". The test asserts the issue's 98% in both cases.", ""]
    if bench:
        L += ["## Speed", "",
              f"`{bench['command']}`: {bench['ms_per_tile']:.3f} ms per tile for a batch of {bench['batch']} crops "
              f"(median of {bench['repeats']}), onnxruntime on CPU with {bench['threads']} threads, including resizing "
              f"the crops; {bench['ms_batch']:.2f} ms per batch.", ""]
    goals = []
    if cv and cv["overall"]["top1"] < 0.97:
        goals.append(f"real tiles: {_pct(cv['overall']['top1'])} in cross-validation against the 97% goal")
    unseen_goal = unseen_goal_figures(hold, replicas, step)
    if unseen_goal and not unseen_goal["met"]:
        goals.append(unseen_goal["line"])
    if min(clean["top1"], clean_local["top1"]) < 0.98:
        goals.append(f"plain rendered check set: {_pct(clean['top1'])} (local sources only: "
                     f"{_pct(clean_local['top1'])}) against 98%")
    if bench and bench["ms_per_tile"] >= 1.0:
        goals.append(f"speed: {bench['ms_per_tile']:.2f} ms per tile against the 1 ms goal")
    if unseen_goal and unseen_goal["met"]:
        L += ["## Unseen style against the goal", "", "- " + unseen_goal["line"], ""]
    if goals:
        if not ship:
            where = ""
        elif ship["env"]["device"] == "cpu":
            where = f"Trained on CPU only, within the one command's 30-minute budget on a {ship['env']['cpus']}-core machine. "
        else:
            where = f"Trained on a GPU ({ship['env']['device']}). "
        L += ["## Goals not met", "", f"{where}Short of the goals:", ""]
        L += [f"- {g}" for g in goals] + [""]
    L += ["## Limits", "",
          "- The real crops are product photos of a few Chinese sets; no real photo of the Malaysian animal or face "
          "tiles, fei or a face-down tile was available, so those classes are measured on rendered crops only.",
          "- Flowers are the hardest kinds on real tiles: what identifies them is the corner digit and the small "
          "season/plant character, and every set draws its own pictures.",
          "- `reject` is learnt from rendered non-faces (tables, sides, two half tiles); the phone should also treat "
          "low confidence as a question to the player.", ""]
    from .train_flowers import CARD_HEADING as FLOWER_HEADING, card_section

    flowers = load("flowers")
    # the flower reader's own section (vision/train_flowers.py), or the card's as it was
    L += card_section(flowers) if flowers else kept_section(out, FLOWER_HEADING, KEPT_FLOWERS)
    banded = banded_reports(reports)
    L += banded_card_section(*banded) if banded else kept_section(out, BANDED_HEADING, KEPT_BANDED)
    out.write_text("\n".join(L) + "\n")
    print(f"wrote {out}")


BANDED_HEADING = "## Banded reader (`models/tiles_banded.onnx`)"
KEPT_FLOWERS = ("Kept from the card before the tile classifier above was trained: the flower reader was not "
                "trained again, and its figures that read with the tile classifier (the columns 'tile classifier' "
                "and 'with the reader') were measured with the classifier of that time.")
KEPT_BANDED = ("Kept from the card before the tile classifier above was trained: the banded reader was not trained "
               "again; its figures are its own.")


def kept_section(card: Path, heading: str, note: str) -> list[str]:
    """The section under ``heading`` of the ``card`` as it stands, with ``note`` under its heading
    (once), where the reports of that section's model are not at hand: a run that trains one model
    keeps the sections of the others as they were measured. Nothing where the card has no such
    section."""
    if not card.exists():
        return []
    found = _section_pattern(heading).search(card.read_text())
    if not found:
        return []
    lines = found.group(0).rstrip("\n").split("\n")
    if note not in lines:
        lines[1:1] = ["", note]
    return lines + [""]


def banded_reports(reports: Path) -> list[dict] | None:
    """The banded reader's run reports (``--banded``: base, holdout and ship), or None where any is
    missing."""
    paths = [reports / f"banded_{name}.json" for name in ("base", "holdout", "ship")]
    return [json.loads(p.read_text()) for p in paths] if all(p.exists() for p in paths) else None


def banded_card_section(base: dict, hold: dict, ship: dict) -> list[str]:
    """The model card's section on the banded reader, written from its run's reports (``--banded``)."""
    from .classify import UNSURE

    def stage(info):
        return (f"{info['steps']} of {info['steps_planned']} steps x batch {info['batch']}, "
                f"{info['seconds'] / 60:.1f} min")

    real = base.get("real")
    return [BANDED_HEADING, "",
            "The tile classifier's network and recipe trained once more with a band of the tile's body left on "
            f"{BAND_SHARE:.0%} of the rendered crops (`vision.dataset.with_band`: one edge moved out "
            f"{BAND_GROW[0]:.0%}-{BAND_GROW[1]:.0%} of the face, an edge beside the tile's body {BAND_BODY_SIDE:.0%} "
            f"of the time and any edge otherwise, the opposite edge cut by up to {BAND_CUT:.0%} half of the time), as "
            "the scanner leaves one on a densely inked face whose side it does not see. `vision.classify` averages its reading with the tile "
            f"classifier's for every crop whose first reading names its kind with under {UNSURE} "
            "(`vision.classify.banded_look`); the table-scan figures are in docs/classifier.md.", "",
            f"- {ship['params']} parameters, {ship['onnx_bytes'] / 1e6:.2f} MB ONNX; the same input, output and labels "
            "as `models/tiles.onnx`.",
            f"- Command: `{ship['command']}` (`make banded-model`; the same seeds, steps, scanner crops and "
            f"real-crop fine-tune as the tile classifier; its own rendered crops, cached apart). Stage A "
            f"{stage(hold['train'])}, stage B {stage(base['train'])}, {ship['total_seconds'] / 60:.1f} min for the "
            f"whole command on {ship['env']['device']}.",
            f"- Rendered check set (seed {CHECK_SEED}, all sources): **{ship['check']['top1']:.1%}** top-1 "
            f"({ship['check']['n']} crops); real crops read by the rendered-data model (no real crop seen): "
            + (f"{real['top1']:.1%} of {real['n']}" if real else "not measured (no real crops)")
            + f"; unseen styles ({', '.join(hold['held_out'])}) read by its hold-out model: "
            f"{hold['unseen_all']['top1']:.1%} of {hold['unseen_all']['n']}.", ""]


def _section_pattern(heading: str) -> re.Pattern:
    """A card's section: from ``heading`` up to the next second-level heading or the card's end."""
    return re.compile(re.escape(heading) + r".*?(?=\n## |\Z)", re.S)


def replace_card_section(card: Path, heading: str, section: list[str]) -> None:
    """Put ``section`` (lines, starting with ``heading``) in place of the card's section of that
    heading, or at the card's end."""
    text = card.read_text()
    block = "\n".join(section)
    pattern = _section_pattern(heading)
    text = pattern.sub(lambda _: block.rstrip("\n"), text) if pattern.search(text) else text.rstrip("\n") + "\n\n" + block
    card.write_text(text if text.endswith("\n") else text + "\n")

