"""Command line: ``python -m engine score|event|variants``.

``score`` and ``event`` read one JSON object on stdin and write one JSON object
on stdout. Invalid input exits with code 2 and writes
``{"error": {"code", "message", "field"}}``.
"""
from __future__ import annotations

import json
import sys

from . import describe_variants, event, score
from .errors import EngineError

USAGE = """usage: python -m engine {score,event,variants}

  score      read a hand (JSON) on stdin, write the result (JSON) on stdout
  event      read an event (kong bonus, false win...) on stdin, write its payments
  variants   list every variant with its options, flags and defaults
"""


def _read_json(stream) -> object:
    text = stream.read(2_000_001)
    if len(text) > 2_000_000:
        raise EngineError("bad_request", "the request is larger than 2 MB", None)
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise EngineError("bad_json", f"the input is not valid JSON: {str(exc)[:80]}", None) from None


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help") or argv[0] not in ("score", "event", "variants"):
        print(USAGE, file=sys.stdout if argv and argv[0] in ("-h", "--help") else sys.stderr)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    if argv[0] == "variants":
        print(json.dumps(describe_variants(), ensure_ascii=False, indent=2))
        return 0
    try:
        request = _read_json(sys.stdin)
        result = score(request) if argv[0] == "score" else event(request)
    except EngineError as exc:
        print(json.dumps(exc.to_json(), ensure_ascii=False))
        return 2
    print(json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
