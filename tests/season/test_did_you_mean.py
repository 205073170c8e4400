"""An unknown player — in a result row, or asked for by ``--card`` — is answered with the
closest players of the Players table (did you mean …?), and with none when nobody is close."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import pytest

from tests.paths import EXAMPLES
from xlgrade.cli import main
from xlgrade.errors import GradingError
from xlgrade.model import Game, Player
from xlgrade.season import recalculate, result
from xlgrade.settings import Settings

SEASON = Settings(season_start=dt.date(2025, 9, 1), season_end=dt.date(2026, 5, 31))
DAY = dt.date(2025, 10, 1)
PLAYERS = [
    Player("Jarvis, Robert", grade=150.0, row=2),
    Player("Robert Jarvie", grade=120.0, row=3),
    Player("Ann Smith", grade=100.0, row=4),
]


def why(reference: str) -> str:
    """The exception's words for a row whose home player is ``reference``."""
    season = recalculate(PLAYERS, [Game(reference, "Ann Smith", "1-0", DAY, row=7)], SEASON)
    (problem,) = [p for p in season.problems if p.sheet == "Results"]
    assert problem.what == "unknown player"
    return problem.why


def test_a_misspelt_name_in_a_result_row_names_the_closest_players() -> None:
    # "Robbert" is one letter from "Robert", a word of two players; "Jarvis" is only
    # Robert Jarvis's.
    assert why("Jarvis, Robbert") == (
        "no player is called 'Jarvis, Robbert'; did you mean 'Jarvis, Robert' (row 2)?"
    )
    # "Jarvi" is as close to "Jarvis" as to "Jarvie" (difflib's ratio 2·5/11 = 0.91 for
    # each): both Roberts, in table order.
    assert why("Robert Jarvi") == (
        "no player is called 'Robert Jarvi'; "
        "did you mean 'Jarvis, Robert' (row 2), 'Robert Jarvie' (row 3)?"
    )
    assert why("Ann Smyth") == "no player is called 'Ann Smyth'; did you mean 'Ann Smith' (row 4)?"


def test_a_name_close_to_nobody_gets_no_guess() -> None:
    assert why("John Quarmby") == "no player is called 'John Quarmby'"


def test_a_card_asked_for_by_an_unknown_name_suggests_players() -> None:
    season = recalculate(PLAYERS, [Game("Ann Smith", "Robert Jarvie", "1-0", DAY)], SEASON)
    with pytest.raises(GradingError, match=r"did you mean 'Ann Smith' \(row 4\)\?"):
        season.player_index("Ann Smiht")


def test_a_result_indexes_its_players_once_for_every_card_asked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    season = recalculate(PLAYERS, [Game("Ann Smith", "Robert Jarvie", "1-0", DAY)], SEASON)
    built: list[object] = []

    class Counted(result.PlayerIndex):
        def __init__(self, players: Sequence[Player]) -> None:
            built.append(players)
            super().__init__(players)

    monkeypatch.setattr(result, "PlayerIndex", Counted)
    # Rows 2, 3, 4 of PLAYERS: "Jarvis, Robert", "Robert Jarvie", "Ann Smith".
    assert [season.player_index(name) for name in ("Ann Smith", "Jarvis, Robert")] == [2, 0]
    assert season.player_index("Robert Jarvie") == 1
    assert len(built) == 1


def test_the_season_command_answers_an_unknown_card_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["season", str(EXAMPLES / "league"), "--card", "Jarvis, Robbert"])
    assert code == 1
    assert capsys.readouterr().err == (
        "Error: no player is called 'Jarvis, Robbert'; did you mean 'Jarvis, Robert' (row 2)?\n"
    )


def test_with_no_players_at_all_nobody_is_suggested() -> None:
    # A Players table cut to its header: every row is an unknown player, with no suggestion.
    season = recalculate([], [Game("Ann Smith", "Bob Jones", "1-0", DAY, row=2)], SEASON)
    assert [(p.what, p.why) for p in season.problems if p.sheet == "Results"] == [
        ("unknown player", "no player is called 'Ann Smith'")
    ]
