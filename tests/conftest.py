"""Shared by every test directory: the report header says what the vision tests' scenes are drawn
with, since a seed is another photo where a face style or a font is missing."""
from vision.faces.fonts import _LATIN_CANDIDATES
from vision.scenes import describe_drawing_setup, drawing_setup


def pytest_report_header(config):
    setup = drawing_setup()
    lines = [f"scenes drawn with {describe_drawing_setup(setup)}"]
    missing = len(_LATIN_CANDIDATES) - len(setup["latin_fonts"])
    if missing:
        lines.append(f"WARNING: {missing} of the {len(_LATIN_CANDIDATES)} Latin fonts the scene tests were chosen "
                     "with are not installed, so some seeds are other photos: `make install` installs them")
    return lines
