"""GRADING-RULES.md §11: which time controls are graded, each rule at its boundary.

Time controls (GRADING-RULES.md §11): a cell that is not text is refused, quoting it.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xlgrade.eligibility import Period, classify, parse_time_control
from xlgrade.errors import TimeControlError


@pytest.mark.parametrize(
    ("control", "under", "kind", "reason"),
    [
        # Rule C: all moves in a fixed time, 1¼ hours; 1 hour all under 12; ¾ hour all under 10.
        ("75", None, "standard", None),
        ("74", None, "not gradable", "all moves in 74 minutes is under 75 minutes (rule C)"),
        ("G/75", None, "standard", None),
        ("60", 12, "standard", None),
        ("59", 12, "rapid", "59 minutes over 60 moves is rapidplay"),
        ("74", 12, "standard", None),
        ("45", 10, "standard", None),
        ("44", 10, "rapid", "44 minutes over 60 moves is rapidplay"),
        ("60", None, "not gradable", "all moves in 60 minutes is under 75 minutes (rule C)"),
        # Rule A: a 30-move session at no faster than 2 minutes a move.
        ("30/60", None, "standard", None),
        ("29/90", None, "not gradable", "a first session of 29 moves is under 30 moves (rule A)"),
        ("40/79", None, "not gradable",
         "40 moves in 79 minutes is faster than 2 minutes a move (rule A)"),
        ("40/80", None, "standard", None),
        # Rule B: quickplay finish ≥ 10 minutes after ≥ 40 moves, ≥ 15 after ≥ 30.
        ("40/100, 10", None, "standard", None),
        ("40/100, 9", None, "not gradable",
         "a quickplay finish of 9 minutes after 40 moves is under 10 minutes (rule B)"),
        ("30/75, 15", None, "standard", None),
        ("30/75, 14", None, "not gradable",
         "a quickplay finish of 14 minutes after 30 moves is under 15 minutes (rule B)"),
        ("39/80, 14", None, "not gradable",
         "a quickplay finish of 14 minutes after 39 moves is under 15 minutes (rule B)"),
        # Rule D: Fischer, 1 hour plus 30 seconds a move.
        ("60+30", None, "standard", None),
        ("60+29", None, "not gradable",
         "Fischer mode with 29 seconds a move is under 30 seconds (rule D)"),
        ("59+30", None, "not gradable",
         "Fischer mode with 59 minutes is under 60 minutes (rule D)"),
        ("40/90+30, 30+30", None, "standard", None),
        # An increment only after the first session adds time: rules A and B as without it.
        ("30/75, 15+10", None, "standard", None),
        ("40/100, 30+30", None, "standard", None),
        ("30/75, 14+10", None, "not gradable",
         "a quickplay finish of 14 minutes after 30 moves is under 15 minutes (rule B)"),
        ("90m + 30s", None, "standard", None),
        # Rapidplay: from 15 to under 60 minutes, increments counted over 60 moves.
        ("15", None, "rapid", "15 minutes over 60 moves is rapidplay"),
        ("14", None, "not gradable", "14 minutes over 60 moves is lightning"),
        ("25+10", None, "rapid", "35 minutes over 60 moves is rapidplay"),
        ("50+9", None, "rapid", "59 minutes over 60 moves is rapidplay"),
        ("50+10", None, "not gradable",
         "Fischer mode with 50 minutes is under 60 minutes (rule D)"),
        ("rapid", None, "rapid", "rapidplay is graded on a separate list"),
        ("blitz", None, "not gradable", "lightning chess is not graded"),
        ("correspondence", None, "not gradable", "correspondence chess is not graded here"),
    ],
)  # fmt: skip
def test_time_control_rules_at_their_boundaries(
    control: str, under: int | None, kind: str, reason: str | None
) -> None:
    result = classify(control, all_players_under=under)
    assert (result.kind, result.reason) == (kind, reason)


def test_the_text_form() -> None:
    assert parse_time_control("40/90+30, 30+30").periods == (
        Period(40, 90.0, 30.0),
        Period(None, 30.0, 30.0),
    )
    assert parse_time_control("G/75").periods == (Period(None, 75.0),)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("abc", "time control 'abc': part 'abc' not understood"),
        ("", "time control is blank"),
        ("30/75, 15, 10", "time control '30/75, 15, 10': '15' has no move count but is not "
         "the last period"),
        ("0/75", "time control '0/75': 0 moves is not a session"),
    ],
)  # fmt: skip
def test_bad_time_controls_quote_the_text(text: str, message: str) -> None:
    with pytest.raises(TimeControlError) as raised:
        parse_time_control(text)
    assert str(raised.value) == message


def test_the_age_allowance_must_be_12_or_10() -> None:
    with pytest.raises(TimeControlError, match="all_players_under 11"):
        classify("60", all_players_under=11)


@given(st.text(max_size=15))
def test_any_text_is_classified_or_a_time_control_error(text: str) -> None:
    try:
        result = classify(text)
    except TimeControlError:
        return
    assert result.kind in ("standard", "rapid", "not gradable")


@pytest.mark.parametrize(("value", "shown"), [(75, "75"), (None, "None"), (1.5, "1.5")])
def test_a_time_control_must_be_text(value: object, shown: str) -> None:
    with pytest.raises(TimeControlError) as error:
        parse_time_control(value)  # type: ignore[arg-type]
    assert str(error.value) == f"time control {shown} is not text"
