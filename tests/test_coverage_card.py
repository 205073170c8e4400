"""Calculation cards: a player with no game this season, and a junior's enhancement
(GRADING-RULES.md §3, §5) on the YCA player's card."""

from pathlib import Path

import pytest

from xlgrade.card import build_card, render_card
from xlgrade.cli import main

YCA_PLAYER = Path(__file__).parents[1] / "examples" / "yca-player.csv"


def test_a_player_with_no_game_this_season_has_no_new_grade() -> None:
    card = build_card(None, [], name="A. Newcomer")
    assert card.grade.grade is None
    assert card.published_grade is None
    assert render_card(card) == (
        "A. Newcomer — grade at the start of the season: ungraded\n"
        "\n"
        "Game  Res  OppsGrade  Points\n"
        "-----\n"
        "Total points gained = 0\n"
        "Number of games graded = 0\n"
        "-----\n"
        "No games this season: no new grade.\n"
    )


def test_a_junior_enhancement_is_added_to_the_published_grade(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The YCA player's new grade is 143 (YCA "Grading Calculation Examples"); as a junior with
    # an enhancement of 8 the list publishes 143 + 8 = 151.
    lines = YCA_PLAYER.read_text(encoding="utf-8").splitlines()
    at = lines.index("grade,142") + 1
    junior = tmp_path / "junior.csv"
    junior.write_text("\n".join([*lines[:at], "junior enhancement,8", *lines[at:]]) + "\n")
    assert main(["card", str(junior)]) == 0
    printed = capsys.readouterr().out.splitlines()
    new_grade = printed.index("New grade = 4289.3 / 30 = 142.98 → 143, category C")
    assert printed[new_grade + 1] == "Junior enhancement +8 → published grade 151"
