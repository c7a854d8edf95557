"""``python -m api``: the banner with the LAN address, the pairing link and a QR code that decodes to it."""
from __future__ import annotations

import ipaddress
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

from api.__main__ import banner, lan_address, parse_args, public_host
from api.qr import qr_matrix, render_qr

REPO = Path(__file__).resolve().parents[2]
LINK = "http://192.168.1.23:8000/pair?token=AbCdEfGhIjKlMnOpQrStUvWx"


def decode_terminal_qr(text: str) -> str:
    """Turn the half-block drawing back into pixels and read it with OpenCV."""
    top = {" ": 0, "\u2580": 1, "\u2584": 0, "\u2588": 1}
    bottom = {" ": 0, "\u2580": 0, "\u2584": 1, "\u2588": 1}
    rows = []
    for line in text.splitlines():
        rows.append([top[c] for c in line])
        rows.append([bottom[c] for c in line])
    blocks = np.array(rows, dtype=np.uint8)  # 1 = block = light (inverted drawing)
    img = np.where(blocks == 1, 255, 0).astype(np.uint8)
    img = cv2.resize(img, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)
    value, _, _ = cv2.QRCodeDetector().detectAndDecode(img)
    return value


def test_terminal_qr_decodes_to_the_link():
    assert decode_terminal_qr(render_qr(LINK)) == LINK


def test_qr_matrix_is_square_with_quiet_zone():
    m = qr_matrix(LINK)
    assert len(m) == len(m[0]) >= 29
    assert not any(m[0]) and not any(row[0] for row in m)


def test_banner_names_the_page_the_link_and_the_docs():
    text = banner("http://192.168.1.23:8000", "AbCdEfGhIjKlMnOpQrStUvWx")
    assert LINK in text and "http://192.168.1.23:8000/docs" in text
    assert "\u2588" in text
    assert "\u2588" not in banner("http://h:1", "AbCdEfGhIjKlMnOpQrStUvWx", with_qr=False)


def test_defaults_are_all_interfaces_port_8000_and_data():
    args = parse_args([])
    assert (args.host, args.port, str(args.data_dir)) == ("0.0.0.0", 8000, "data")
    args = parse_args(["--host", "127.0.0.1", "--port", "9001", "--data-dir", "/tmp/x"])
    assert (args.host, args.port, str(args.data_dir)) == ("127.0.0.1", 9001, "/tmp/x")


def test_the_lan_address_is_an_ip():
    ipaddress.ip_address(lan_address())
    assert public_host("127.0.0.1") == "127.0.0.1"
    ipaddress.ip_address(public_host("0.0.0.0"))


def test_a_bad_port_or_token_is_a_clear_error(tmp_path):
    r = subprocess.run([sys.executable, "-m", "api", "--port", "0", "--data-dir", str(tmp_path)],
                       cwd=REPO, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--port" in r.stderr
    r = subprocess.run([sys.executable, "-m", "api", "--data-dir", str(tmp_path)], cwd=REPO,
                       capture_output=True, text=True, timeout=60, env={"TILELENS_TOKEN": "bad token", "PATH": ""})
    assert r.returncode == 2 and "token" in r.stderr
