"""``python -m vision classify --json FILES...`` and ``python -m vision scan --json PHOTO``."""
from __future__ import annotations

import sys

USAGE = """usage: python -m vision {classify,scan} [--json] ...

  classify --json FILES...   name each cropped tile photo
  scan --json PHOTO          find, name and group every tile in a table photo
"""


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0 if argv else 2
    command, rest = argv[0], argv[1:]
    if command == "classify":
        from .classify_cli import main as run
    elif command == "scan":
        from .scan_cli import main as run
    else:
        print(USAGE, file=sys.stderr)
        return 2
    return run(rest)


if __name__ == "__main__":
    sys.exit(main())
