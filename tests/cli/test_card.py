"""``xlgrade card``: the exact text a user sees for a good file and for each kind of bad row.

Calculation cards: a player with no game this season, and a junior's enhancement
(docs/rules.md §3, §5) on the YCA player's card.
"""

from pathlib import Path

import pytest

from tests.paths import EXAMPLES
from xlgrade.card import build_card, render_card
from xlgrade.cli import main

YCA_CARD = """\
YCA example player — grade at the start of the season: 142

Game  Res  OppsGrade  Points
   1    ½        128    128
   2    1        156    206
   3    1        128    178
   4    0      [136]     86
   5    1        130    180
   6    ½        156    156
   7    1        128    178
   8    0        158    108
   9    1        116    166
  10    1        100    152*
  11    0        170    120
  12    0        135     85
  13    1        104    154
  14    0         99     52*
  15    1         94    152*
  16    1        101    152*
  17    1        102    152
-----
Total points gained = 2405
Number of games graded = 17
-----
Borrowed 13 of 19 games from last season (2754 × 13 / 19) = 1884.3 points
New grade = 4289.3 / 30 = 142.98 → 143, category C
* opponent counted as 40 points from the player's own grade (horizon)
[ ] the opponent is ungraded: his working grade was used
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_bundled_yca_player(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "card", str(EXAMPLES / "yca-player.csv"))
    assert (code, err) == (0, "")
    assert out == YCA_CARD


def test_without_history_the_yca_player_is_141_d(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = (EXAMPLES / "yca-player.csv").read_text(encoding="utf-8").splitlines()
    kept = [line for line in lines if not line.startswith(("previous", "earlier"))]
    path = tmp_path / "alone.csv"
    path.write_text("\n".join(kept), encoding="utf-8")
    code, out, _ = run(capsys, "card", str(path))
    assert code == 0
    assert "New grade = 2405 / 17 = 141.47 → 141, category D\n" in out
    assert "Borrowed" not in out


def write(tmp_path: Path, body: str) -> str:
    path = tmp_path / "card.csv"
    path.write_text(body, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("grade,142\nresult,opponent grade\nx,120\n", "Error: line 3: result 'x' not understood\n"),
        ("grade,142\nresult,opponent grade\n1,abc\n",
         "Error: line 3: opponent grade 'abc' is not a number\n"),
        ("grade,1x2\nresult,opponent grade\n1,120\n",
         "Error: line 1: grade '1x2' is not a number\n"),
        ("grade,142\nresult,opponent grade\n1\n",
         "Error: line 3: '1' needs a result and an opponent grade\n"),
        ("grade,142\nresult,opponent grade,estimated\n1,120,maybe\n",
         "Error: line 3: estimated 'maybe' is not yes or no\n"),
        ("grade,142\nprevious games,19\nresult,opponent grade\n1,120\n",
         "Error: line 2: give both 'previous games' and 'previous points'\n"),
        ("colour,white\nresult,opponent grade\n1,120\n",
         "Error: line 1: 'colour' is not a setting (earlier games, earlier points, grade, "
         "horizon, junior enhancement, name, previous games, previous points) nor the games' "
         "header 'result,opponent grade'\n"),
        ("grade,142\n", "Error: line 1: no games: the file needs a line "
         "'result,opponent grade,estimated'\n"),
    ],
)  # fmt: skip
def test_bad_rows_say_the_line_and_quote_the_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, message: str
) -> None:
    code, out, err = run(capsys, "card", write(tmp_path, body))
    assert (code, out, err) == (1, "", message)


def test_defaults_are_listed_not_graded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "card", write(tmp_path, "grade,100\nresult,opponent grade\n1,100\n+,90\n")
    )
    assert code == 0
    assert "Number of games graded = 1\n" in out
    assert out.endswith("line 4: won by default ('+'): not graded\n")


def test_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "card", str(tmp_path / "nope.csv"))
    assert code == 1
    assert err == f"Error: No such file or directory: {tmp_path / 'nope.csv'}\n"


def test_help_describes_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["card", "--help"])
    assert exited.value.code == 0
    assert "calculation card" in capsys.readouterr().out


@pytest.mark.parametrize("value", ["2.5", "-5", "12"])
def test_a_junior_enhancement_must_be_one_of_the_leaflets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    body = f"grade,100\njunior enhancement,{value}\nresult,opponent grade\n1,100\n"
    code, out, err = run(capsys, "card", write(tmp_path, body))
    assert (code, out) == (1, "")
    assert err == (
        f"Error: line 2: junior enhancement {value!r} is not 0, 4, 6, 8 or 10 (the 1997 "
        "leaflet's points by age)\n"
    )


def test_a_junior_card_shows_the_published_grade(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = "grade,100\njunior enhancement,8\nresult,opponent grade\n1,100\n"
    code, out, _ = run(capsys, "card", write(tmp_path, body))
    assert code == 0
    assert "Junior enhancement +8 → published grade 158\n" in out


def test_a_default_needs_no_opponent_grade(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        capsys, "card", write(tmp_path, "grade,100\nresult,opponent grade\n1,100\n+,\n")
    )
    assert code == 0
    assert out.endswith("line 4: won by default ('+'): not graded\n")


def test_a_windows_file_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "card.csv"
    path.write_bytes("grade,100\r\nresult,opponent grade\r\n½,120\r\n".encode("cp1252"))
    code, out, _ = run(capsys, "card", str(path))
    assert code == 0
    assert "Total points gained = 120\n" in out


YCA_PLAYER = EXAMPLES / "yca-player.csv"


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
