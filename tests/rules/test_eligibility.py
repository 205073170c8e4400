"""docs/rules.md §11 and §11b: which time controls are graded (1997) and rated (2020),
each rule at its boundary.

Time controls (docs/rules.md §11): a cell that is not text is refused, quoting it.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xlgrade.eligibility import RULES, Period, Playability, classify, parse_time_control
from xlgrade.errors import TimeControlError
from xlgrade.settings import GRADING_1997, RATING_2020


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
    for system in RULES:
        try:
            result = classify(text, system=system)
        except TimeControlError:
            return
        assert result.kind in ("standard", "rapid", "not gradable")


@pytest.mark.parametrize(("value", "shown"), [(75, "75"), (None, "None"), (1.5, "1.5")])
def test_a_time_control_must_be_text(value: object, shown: str) -> None:
    with pytest.raises(TimeControlError) as error:
        parse_time_control(value)  # type: ignore[arg-type]
    assert str(error.value) == f"time control {shown} is not text"


_RULES_2020 = "ECF rules for acceptance of games for rating, September 2020"


@pytest.mark.parametrize(
    ("control", "kind", "minutes"),
    [
        # docs/rules.md §11b: each player's time for all moves, a game of 60 moves assumed.
        # The controls leagues play: 75 + 60 × 10 s = 85, 90 + 15 = 105, 60, 60 + 10 = 70,
        # 45 + 15 = 60 (not less than 60: standard), G/15 and 30 rapid.
        ("75+10", "standard", None),
        ("90+15", "standard", None),
        ("G/60", "standard", None),
        ("60+10", "standard", None),
        ("45+15", "standard", None),
        ("G/15", "rapid", "15"),
        ("30+0", "rapid", "30"),
        ("25+5", "rapid", "30"),
        # The rapidplay band's edges: at least 10, less than 60.
        ("59", "rapid", "59"),
        ("50+9", "rapid", "59"),
        ("10", "rapid", "10"),
        ("5+5", "rapid", "10"),
        # A delay counts as an increment does: 25 + 60 × 5 s = 30.
        ("25d5", "rapid", "30"),
        # Every period counts whole: 40/90 then 30 is 120; 30/75 then 15 is 90.
        ("40/90, 30", "standard", None),
        ("30/75, 15", "standard", None),
        # Every period up to and including the finish, even one after the 60th move ("the
        # initial control and any later control or quickplay finish included"): 35 + 15 + 15 =
        # 65, and 50 + 15 = 65, standard play; 20 + 20 + 10 = 50 is rapidplay.
        ("40/35, 20/15, 15", "standard", None),
        ("60/50, 15", "standard", None),
        ("30/20, 30/20, 10", "rapid", "50"),
        # A session with a move count repeats: 20 moves in 15 minutes, three times, 45.
        ("20/15", "rapid", "45"),
        ("20/20", "standard", None),
        # Rule C's, rule D's and rule A's limits are the leaflet's: none of them here.
        ("74", "standard", None),
        ("60+29", "standard", None),
        ("40/79", "standard", None),
    ],
)  # fmt: skip
def test_the_2020_rules_read_the_minutes_for_all_moves(
    control: str, kind: str, minutes: str | None
) -> None:
    result = classify(control, system=RATING_2020)
    reason = (
        None
        if minutes is None
        else f"{minutes} minutes each for all moves (60 moves assumed) is rapidplay: at least 10 "
        f"and less than 60 minutes ({_RULES_2020})"
    )
    assert (result.kind, result.reason) == (kind, reason)


@pytest.mark.parametrize(
    ("control", "reason"),
    [
        ("9", "9 minutes each for all moves (60 moves assumed) is under the rapidplay minimum of "
         f"10 minutes: not rated ({_RULES_2020})"),
        ("5+3", "8 minutes each for all moves (60 moves assumed) is under the rapidplay minimum "
         f"of 10 minutes: not rated ({_RULES_2020})"),
        ("blitz", f"blitz is under the rapidplay minimum of 10 minutes: not rated ({_RULES_2020})"),
        ("lightning", "lightning games are excluded (ECF rating help, eligibility)"),
        ("correspondence", "correspondence games are excluded (ECF rating help, eligibility)"),
    ],
)  # fmt: skip
def test_what_the_2020_rules_do_not_rate_names_its_rule(control: str, reason: str) -> None:
    assert classify(control, system=RATING_2020) == Playability("not gradable", reason)


def test_the_1997_rules_stay_the_default_and_the_under_12_allowance_is_theirs() -> None:
    # 75+10 fails rule D (10 s a move is under 30 s) by the leaflet; by the 2020 rules it is
    # standard play. All moves in 60 minutes is standard for an under-12 event by rule C, and
    # for anyone by the 2020 rules.
    assert classify("75+10").kind == "not gradable"
    assert classify("75+10", system=GRADING_1997).kind == "not gradable"
    assert classify("60", system=RATING_2020, all_players_under=12).kind == "standard"
    assert set(RULES) == {GRADING_1997, RATING_2020}


def test_an_unknown_system_is_refused_quoting_it() -> None:
    with pytest.raises(TimeControlError, match="system 'Elo' is not one of"):
        classify("75", system="Elo")


def test_a_delay_is_read_and_marked() -> None:
    assert parse_time_control("25 d5").periods == (Period(None, 25.0, 5.0, delay=True),)
    assert parse_time_control("25d5s").periods == (Period(None, 25.0, 5.0, delay=True),)
    # Graded by the 1997 rules a delay counts as an increment over 60 moves: 25 + 5 = 30.
    assert classify("25d5").reason == "30 minutes over 60 moves is rapidplay"
