"""ECF results submission file: writing, refusals, reading back, malformed input, fuzzing.

The time control an ECF results file gives its games.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlgrade.eligibility import classify
from xlgrade.errors import FormatError
from xlgrade.formats.ecffile import (
    EcfEvent,
    SubmissionError,
    read_ecf_file,
    submission_refusals,
    write_ecf_file,
)
from xlgrade.model import Game, Player
from xlgrade.results import parse_game_result

EVENT = EcfEvent(
    event_code="ABC123", submission_index="1", event_name="Anytown League",
    event_date=dt.date(2025, 9, 1), final_result_date=dt.date(2026, 5, 31),
    results_officer="A Grader", results_officer_address="1 High St", treasurer="T Reasurer",
    treasurer_address="2 Low St", moves_first_session=30, minutes_first_session=75,
    minutes_rest_of_game=15,
)  # fmt: skip
PLAYERS = (Player("John A Smith", "210988J", "Anytown"), Player("Brown, Ann", club="Beeton"))
GAMES = (
    Game("210988J", "Brown, Ann", "1-0", dt.date(2025, 9, 10), "Anytown League",
         "Anytown A v Beeton B", 1),
    Game("Brown, Ann", "210988J", "½-½", dt.date(2025, 9, 12), "Anytown League"),
    Game("Brown, Ann", "210988J", "0-1", dt.date(2025, 9, 19), "Anytown League",
         "Anytown A v Beeton B", 2),
)  # fmt: skip
EXPECTED = """\
#EVENT DETAILS
#EVENT CODE=ABC123
#SUBMISSION INDEX=1
#EVENT NAME=Anytown League
#EVENT DATE=01/09/2025
#FINAL RESULT DATE=31/05/2026
#RESULTS OFFICER=A Grader
#RESULTS OFFICER ADDRESS=1 High St
#TREASURER=T Reasurer
#TREASURER ADDRESS=2 Low St
#MOVES FIRST SESSION=30
#MINUTES FIRST SESSION=75
#MINUTES REST OF GAME=15
#PLAYER LIST
#PIN=1#ECF CODE=210988J#NAME=Smith, John A
#CLUB NAME=Anytown
#PIN=2#NAME=Brown, Ann
#CLUB NAME=Beeton
#MATCH RESULTS=Anytown A v Beeton B
#PIN1=1#SCORE=10#PIN2=2#BOARD=1#GAME DATE=10/09/2025
#PIN1=2#SCORE=01#PIN2=1#BOARD=2#GAME DATE=19/09/2025
#OTHER RESULTS=Anytown League
#PIN1=2#SCORE=55#PIN2=1#COLOUR=WHITE#GAME DATE=12/09/2025
#FINISH#
"""


def test_written_file() -> None:
    assert write_ecf_file(EVENT, PLAYERS, GAMES) == EXPECTED


def test_round_trip_gives_the_same_games() -> None:
    back = read_ecf_file(write_ecf_file(EVENT, PLAYERS, GAMES))
    assert back.event == EVENT
    assert [(p.name, p.code, p.club) for p in back.players] == [
        ("Smith, John A", "210988J", "Anytown"),
        ("Brown, Ann", None, "Beeton"),
    ]
    key = {g: (g.home, g.away, parse_game_result(g.result).home, g.date, g.match, g.board)
           for g in GAMES}  # fmt: skip
    assert sorted(
        (g.home, g.away, parse_game_result(g.result).home, g.date, g.match, g.board)
        for g in back.games
    ) == sorted(key.values())
    assert {g.event for g in back.games} == {"Anytown League"}


def test_refusals_list_every_reason() -> None:
    games = (
        *GAMES,
        Game("Nobody", "Brown, Ann", "1-0", dt.date(2025, 9, 1)),
        Game("Brown, Ann", "210988J", "1-0 def", dt.date(2025, 9, 2), row=7),
        Game("Brown, Ann", "210988J", "1-0"),
        Game("Brown, Ann", "210988J", "2-0", dt.date(2025, 9, 2)),
    )
    players = (*PLAYERS, Player("Jones, Bob", "210988K"))
    event = dataclasses.replace(EVENT, event_code="", treasurer="", minutes_rest_of_game=None)
    assert submission_refusals(event, players, games) == (
        "event field EVENT CODE is blank",
        "event field TREASURER is blank",
        "event has no time control: give MINUTES FOR GAME, or MOVES FIRST SESSION and "
        "MINUTES FIRST SESSION with MINUTES REST OF GAME or a second session",
        "player 'Jones, Bob': ECF code '210988K' is not valid (check letter)",
        "game 4: player 'Nobody' is not in the player list",
        "Results row 7: result '1-0 def' is a default (home won by default); the ECF rates "
        "only played games",
        "game 6: no game date",
        "game 7: result '2-0' not understood",
    )
    with pytest.raises(SubmissionError) as error:
        write_ecf_file(event, players, games)
    assert str(error.value).startswith("the ECF would reject this submission (8 reasons):\n")


def test_read_defaults_and_colours() -> None:
    text = EXPECTED.replace("#SCORE=10", "#SCORE=d1").replace(
        "#SCORE=55#PIN2=1#COLOUR=WHITE", "#SCORE=10#PIN2=1#COLOUR=BLACK"
    )
    games = read_ecf_file(text).games
    assert [(g.home, g.away, g.result) for g in games] == [
        ("210988J", "Brown, Ann", "0-1 def"),
        ("Brown, Ann", "210988J", "0-1"),
        ("210988J", "Brown, Ann", "0-1"),
    ]
    assert parse_game_result(games[0].result).graded is False


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "line 1: not an ECF results submission file: it is empty"),
        (
            "name,code\n",
            "line 1: not an ECF results submission file: it starts with "
            "'name,code', not '#EVENT DETAILS'",
        ),
        (
            "#PLAYER LIST\n",
            "line 1: not an ECF results submission file: it starts with "
            "'#PLAYER LIST', not '#EVENT DETAILS'",
        ),
        (EXPECTED.replace("#FINISH#\n", ""), "line 23: the file ends without '#FINISH'"),
        (
            EXPECTED.replace("#SCORE=01", "#SCORE=21"),
            "line 21: SCORE '21' is not 10, 01, 55, 1d, d1 or dd",
        ),
        (
            EXPECTED.replace("#PIN2=2#BOARD=1", "#PIN2=9#BOARD=1"),
            "line 20: PIN '9' is not in the player list",
        ),
        (
            EXPECTED.replace("#SCORE=10#PIN2=2", "#PIN2=2"),
            "line 20: the result of PIN1 '1' has no SCORE",
        ),
        (
            EXPECTED.replace("#EVENT DATE=01/09/2025", "#EVENT DATE=2025-09-01"),
            "line 5: date '2025-09-01' is not a date (dd/mm/yyyy)",
        ),
        (
            EXPECTED.replace("#TREASURER=T", "#TREASURY=T"),
            "line 9: unknown event field '#TREASURY=T Reasurer'",
        ),
        (EXPECTED.replace("#PIN=2#", "#PIN=1#"), "line 17: PIN '1' is already used"),
        (
            EXPECTED.replace("#CLUB NAME=Anytown", "Anytown"),
            "line 16: text outside a '#' field: 'Anytown'",
        ),
        (
            EXPECTED.replace("#MINUTES FIRST SESSION=75", "#MINUTES FIRST SESSION=75m"),
            "line 12: '75m' is not a whole number",
        ),
        (
            EXPECTED.replace("#COLOUR=WHITE", "#COLOUR=RED"),
            "line 23: COLOUR 'RED' is not WHITE or BLACK",
        ),
        (EXPECTED.replace("#NAME=Brown, Ann", "#NAM"), "line 17: field '#NAM' has no '='"),
    ],
)
def test_malformed_input_message(text: str, message: str) -> None:
    with pytest.raises(FormatError) as error:
        read_ecf_file(text)
    assert str(error.value) == message


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(min_value=0, max_value=len(EXPECTED) - 1),
                  st.sampled_from(list("#=0159dD /\nAx"))),
        min_size=1, max_size=6,
    )
)  # fmt: skip
def test_fuzz_mutated_file(edits: list[tuple[int, str]]) -> None:
    text = list(EXPECTED)
    for position, char in edits:
        text[position] = char
    try:
        read_ecf_file("".join(text))
    except FormatError as error:
        assert str(error).startswith("line ")  # noqa: PT017


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=300))
def test_fuzz_random_text(text: str) -> None:
    try:
        read_ecf_file(text)
    except FormatError as error:
        assert str(error).startswith("line ")  # noqa: PT017


# --- ECF file: the event's time control on every game --------------------------------------

RAPID_EVENT = EcfEvent(
    event_code="ABC123", submission_index="1", event_name="Anytown Rapidplay",
    event_date=dt.date(2025, 10, 1), final_result_date=dt.date(2025, 10, 1),
    results_officer="A Grader", results_officer_address="1 High St", treasurer="T Reasurer",
    treasurer_address="2 Low St",
)  # fmt: skip
RAPID_PLAYERS = (Player("Smith, John", club="Anytown"), Player("Brown, Ann", club="Beeton"))
RAPID_GAMES = (Game("Smith, John", "Brown, Ann", "1-0", dt.date(2025, 10, 1), "Anytown Rapidplay"),)


@pytest.mark.parametrize(
    ("fields", "text", "kind"),
    [
        ({"minutes_for_game": 25}, "25", "rapid"),
        ({"minutes_for_game": 90}, "90", "standard"),
        ({"minutes_for_game": 15, "seconds_per_move": 10}, "15+10", "rapid"),
        ({"minutes_for_game": 60, "seconds_per_move": 30}, "60+30", "standard"),
        (
            {"moves_first_session": 30, "minutes_first_session": 75, "minutes_rest_of_game": 15},
            "30/75, 15",
            "standard",
        ),
        (
            {
                "moves_first_session": 40,
                "minutes_first_session": 90,
                "minutes_rest_of_game": 30,
                "seconds_per_move": 30,
            },
            "40/90+30, 30+30",
            "standard",
        ),
        (
            {
                "moves_first_session": 40,
                "minutes_first_session": 100,
                "moves_second_session": 20,
                "minutes_second_session": 50,
                "minutes_rest_of_game": 15,
            },
            "40/100, 20/50, 15",
            "standard",
        ),
        (
            {
                "moves_first_session": 40,
                "minutes_first_session": 100,
                "moves_second_session": 20,
                "minutes_second_session": 50,
            },
            "40/100, 20/50",
            "standard",
        ),
    ],
)
def test_games_read_back_carry_the_events_time_control(
    fields: dict[str, int], text: str, kind: str
) -> None:
    event = EcfEvent(**{**RAPID_EVENT.__dict__, **fields})
    submission = read_ecf_file(write_ecf_file(event, RAPID_PLAYERS, RAPID_GAMES))
    assert submission.event.time_control == text
    assert [g.time_control for g in submission.games] == [text]
    assert classify(text).kind == kind


def test_fields_without_their_partner_give_no_time_control() -> None:
    assert EcfEvent().time_control == ""
    assert EcfEvent(moves_first_session=40, minutes_rest_of_game=30).time_control == ""
    assert EcfEvent(minutes_first_session=90, seconds_per_move=30).time_control == ""


# --- export --ecf: only what the season grades -----------------------------------------------
