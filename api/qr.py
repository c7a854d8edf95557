"""Draw a QR code in the terminal with Unicode half blocks (two modules per
character cell), so a phone camera can open the pairing link."""
from __future__ import annotations

import qrcode

# (top dark, bottom dark) -> character, drawn dark-on-light: a space is light.
_CELLS = {(False, False): " ", (True, False): "\u2580", (False, True): "\u2584", (True, True): "\u2588"}


def qr_matrix(text: str) -> list[list[bool]]:
    """The QR modules of ``text`` (True = dark), including the 4-module quiet zone."""
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_L, border=4)
    code.add_data(text)
    code.make(fit=True)
    return [list(row) for row in code.get_matrix()]


def render_qr(text: str, invert: bool = True) -> str:
    """The QR code of ``text`` as lines of half-block characters.

    ``invert`` (the default) draws light modules as blocks, which reads right
    on the usual light-on-dark terminal.
    """
    matrix = qr_matrix(text)
    if invert:
        matrix = [[not m for m in row] for row in matrix]
    if len(matrix) % 2:
        matrix.append([invert] * len(matrix[0]))  # more quiet zone
    lines = []
    for top, bottom in zip(matrix[0::2], matrix[1::2]):
        lines.append("".join(_CELLS[(a, b)] for a, b in zip(top, bottom)))
    return "\n".join(lines)
