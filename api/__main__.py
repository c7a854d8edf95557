"""``python -m api [--host 0.0.0.0] [--port 8000] [--data-dir ./data]``

Starts the table server and prints the LAN address and the pairing link, as
text and as a QR code drawn in the terminal.
"""
from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path

from .auth import TokenError, load_token
from .qr import render_qr


def lan_address() -> str:
    """This machine's address on the local network (127.0.0.1 when it has none).

    Connecting a UDP socket only picks the outgoing interface; no packet is sent.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.254.254.254", 1))
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def public_host(bind_host: str) -> str:
    if bind_host in ("0.0.0.0", "::", ""):
        return lan_address()
    return bind_host


def banner(base_url: str, token: str, with_qr: bool = True) -> str:
    link = f"{base_url}/pair?token={token}"
    lines = [
        "",
        "Tilelens table server",
        f"  Page:         {base_url}/",
        f"  Pairing link: {link}",
        "  Open the pairing link on each phone" + (" (or scan the QR code below)" if with_qr else "")
        + " to use the page.",
        f"  API docs:     {base_url}/docs",
        "",
    ]
    if with_qr:
        lines += [render_qr(link), ""]
    return "\n".join(lines)


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m api", description=__doc__.split("\n\n")[1])
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all interfaces)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--data-dir", type=Path, default=Path("data"), help="where the token and data live (default ./data)")
    p.add_argument("--database-url", default=None,
                   help="SQLAlchemy URL of the sessions database (default: $TILELENS_DB, "
                        "else SQLite in the data dir)")
    p.add_argument("--no-qr", action="store_true", help="print the pairing link without the QR code")
    p.add_argument("--log-level", default="warning", help="uvicorn log level (default warning)")
    return p.parse_args(argv)


def limit_malloc_arenas(arenas: int = 2) -> bool:
    """Cap glibc's malloc arenas (what ``MALLOC_ARENA_MAX=2`` does), before any thread starts.

    The scan pool's threads would otherwise each grow an arena of their own, and the
    server's memory creeps up for the first few hundred scans (measured in
    docs/reliability.md: +13.6% from scan 100 to 1000 by default, +2.6% capped, and
    faster). A no-op where the C library is not glibc.
    """
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        return bool(libc.mallopt(-8, arenas))  # -8 is M_ARENA_MAX
    except (OSError, AttributeError):
        return False


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] in (["backup"], ["restore"]):
        from .backup import main as backup_main

        return backup_main(argv)
    args = parse_args(argv)
    if not 0 < args.port < 65536:
        print(f"error: --port must be 1-65535, not {args.port}", file=sys.stderr)
        return 2
    try:
        token = load_token(args.data_dir)
    except (TokenError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    limit_malloc_arenas()
    import uvicorn

    from .app import create_app

    try:
        app = create_app(args.data_dir, token, database_url=args.database_url)
    except Exception as exc:  # e.g. the sessions database cannot be opened
        print(f"error: {exc}", file=sys.stderr)
        return 2
    host = public_host(args.host)
    shown = f"[{host}]" if ":" in host else host
    print(banner(f"http://{shown}:{args.port}", token, with_qr=not args.no_qr), flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, server_header=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
