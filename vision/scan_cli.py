"""``python -m vision scan [--json] PHOTO``: scan one table photo and print the result.

Exit status: 0 on success (an empty result included), 2 for bad usage or an
unreadable/unusable image (the reason is printed, as JSON with ``--json``).
"""
from __future__ import annotations

import argparse
import json
import sys

from .decode import ScanError

USAGE = "python -m vision scan [--json] PHOTO   (PHOTO may be - for standard input)"


def _summary(result: dict) -> str:
    hand = result["hand"]
    lines = [f"concealed: {hand['concealed'] or '-'}"]
    for i, m in enumerate(hand["melds"]):
        kind = "unknown concealed kong" if m.get("unknown") else ("concealed kong" if m["concealed"] else "meld")
        lines.append(f"meld {i}: {m['tiles'] or '????'} ({kind})")
    lines.append(f"flowers: {hand['flowers'] or '-'}")
    lines.append(f"{len(result['tiles'])} tiles, {result['timings_ms']['total']:.0f} ms")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision scan", usage=USAGE, add_help=True)
    parser.add_argument("--json", action="store_true", help="print the full result as JSON")
    parser.add_argument("photo", help="a JPEG/PNG/WebP photo of the table, or - for standard input")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        if args.photo == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(args.photo, "rb") as fh:
                data = fh.read()
    except OSError as exc:
        err = {"error": "unreadable_file", "message": f"cannot read {args.photo}: {exc.strerror or exc}"}
        print(json.dumps(err) if args.json else err["message"], file=sys.stdout if args.json else sys.stderr)
        return 2
    from .scan import scan

    try:
        result = scan(data)
    except ScanError as exc:
        print(json.dumps(exc.to_dict()) if args.json else f"error: {exc.message}",
              file=sys.stdout if args.json else sys.stderr)
        return 2
    try:
        print(json.dumps(result, ensure_ascii=False) if args.json else _summary(result))
    except BrokenPipeError:  # the reader (e.g. `| head`) went away: not an error of the scan
        pass
    return 0
