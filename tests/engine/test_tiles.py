import pytest

from engine import tiles as T
from engine.errors import EngineError


def test_every_kind_has_a_code_and_index():
    assert len(T.KINDS) == 51
    assert T.KINDS[:4] == ("1m", "2m", "3m", "4m")
    assert T.INDEX["7z"] == 33 and T.INDEX["1j"] == 50


def test_parse_groups_digits_before_suit_and_ignores_spaces():
    assert T.parse("123m 45p 11z") == ["1m", "2m", "3m", "4p", "5p", "1z", "1z"]
    assert T.parse("") == []


def test_format_is_canonical_and_sorted():
    assert T.format_tiles(T.parse("5z 321m 9p1m")) == "1123m9p5z"
    assert T.format_tiles(["1j", "8f", "2a", "3h"]) == "8f2a3h1j"


@pytest.mark.parametrize("text,code", [("8z", "unknown_tile"), ("0m", "unknown_tile"), ("12", "bad_notation"),
                                       ("m1", "bad_notation"), ("1x", "bad_notation"), ("5j", "unknown_tile")])
def test_parse_errors(text, code):
    with pytest.raises(EngineError) as e:
        T.parse(text, "concealed")
    assert e.value.code == code and e.value.field == "concealed"


def test_parse_rejects_non_strings_and_huge_strings():
    with pytest.raises(EngineError):
        T.parse(["1m"])
    with pytest.raises(EngineError):
        T.parse("1m" * 500)


def test_only_flower_animal_and_face_codes_are_bonus_tiles():
    assert [k for k in T.KINDS if T.is_bonus(k)] == list(T.BONUS_KINDS)
    # the scanner's face-down and non-tile outcomes: "back"'s second letter is a suit letter
    assert not T.is_bonus("back") and not T.is_bonus("reject")
