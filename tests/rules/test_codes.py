"""The ECF code's check letter, written once in :mod:`xlgrade.codes`: its column forms give
what the one-code forms give (docs/rules.md §8)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from xlgrade import convert
from xlgrade.codes import (
    ECF_CODE_LETTERS,
    ecf_code_letter,
    ecf_code_letters,
    ecf_code_valid,
    ecf_codes_valid,
)


def test_the_rules_example_by_hand() -> None:
    # 210988: 7·2 + 6·1 + 5·0 + 4·9 + 3·8 + 2·8 = 14 + 6 + 0 + 36 + 24 + 16 = 96; 96 mod 11 = 8;
    # "ABCDEFGHJKL"[8] = "J" — "210988J is valid".
    assert ecf_code_letter("210988") == "J"
    assert ecf_code_letters([210988]) == ["J"]
    # 100000: 7·1 = 7 → "H"; 000011 (as 11): 3·1 + 2·1 = 5 → "F".
    assert ecf_code_letters([100000, 11]) == ["H", "F"]
    assert ecf_codes_valid(
        ["210988J", "210988j", "210988K", "21O988J", "", "210988JX"]
    ).tolist() == [
        True,
        True,
        False,
        False,
        False,
        False,
    ]


def test_convert_keeps_its_names() -> None:
    assert convert.ecf_code_letter is ecf_code_letter
    assert convert.ecf_code_valid is ecf_code_valid
    assert convert.ECF_CODE_LETTERS == ECF_CODE_LETTERS


six_digits = st.integers(0, 999_999)
codes = st.one_of(
    st.builds(lambda n, c: f"{n:06d}{c}", six_digits, st.sampled_from("ABCDEFGHIJKLMNZabcjk1 ")),
    st.text(max_size=9),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(codes, max_size=30))
def test_the_column_check_is_the_one_code_check(typed: list[str]) -> None:
    column = [code.strip() for code in typed]  # the season strips a code before checking it
    assert ecf_codes_valid(column).tolist() == [ecf_code_valid(code) for code in column]


@settings(max_examples=200, deadline=None)
@given(st.lists(six_digits, min_size=1, max_size=30))
def test_the_column_letters_are_the_one_code_letters(numbers: list[int]) -> None:
    assert ecf_code_letters(numbers) == [ecf_code_letter(f"{n:06d}") for n in numbers]
