"""``xlgrade reconcile LIST LEAGUE``: the rated example league set beside a rating list in the
ECF's published layout (its October 2022 header, rows made up), as a table, a CSV file and a
sheet; the list's month from --month or its file name."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import openpyxl
import pytest

from tests.paths import EXAMPLES, ROOT
from xlgrade.cli import main

HEADER = next(csv.reader(io.StringIO(
    (ROOT / "tests" / "data" / "ecf" / "rating-list-header-2022-10.csv").read_text("utf-8")
)))  # fmt: skip


def rating_list(path: Path, rows: list[dict[str, object]]) -> Path:
    """A list in the published layout: every column of the header, these rows' values."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
    writer.writerow(HEADER)
    for row in rows:
        writer.writerow([row.get(column, "") for column in HEADER])
    path.write_text(buffer.getvalue(), encoding="utf-8")
    return path


ANN = {"ECF_code": "123456A", "full_name": "Able, Ann", "club_name": "Anytown",
       "original_standard": 1616, "standard_original_category": "K",
       "revised_standard": 1616, "standard_revised_category": "K"}  # fmt: skip
CY = {"ECF_code": "876543B", "full_name": "Cole, Cy", "club_name": "Beeton",
      "original_standard": 1651, "standard_original_category": "P"}  # fmt: skip


def test_the_rated_example_beside_the_list_of_november(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listing = rating_list(tmp_path / "ratings-2025-11.csv", [ANN, CY])
    report, book = tmp_path / "reconcile.csv", tmp_path / "reconcile.xlsx"
    code = main(["reconcile", str(listing), str(EXAMPLES / "rated"),
                 "--csv", str(report), "--book", str(book)])  # fmt: skip
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[0] == "ratings-2025-11.csv (October 2022 layout, original figures of 2025-11): " \
        "2 rows: 2 players, 0 refused"  # fmt: skip
    rows = list(csv.DictReader(io.StringIO(report.read_text("utf-8"))))
    by_name = {row["Name"]: row for row in rows}
    # README: after October Ann 1616 (K), Cy 1651 (P), Bob 1595 (K, no code).
    assert by_name["Able, Ann"]["Equal"] == "yes"
    assert by_name["Able, Ann"]["xlgrade rating"] == "1616"
    assert by_name["Cole, Cy"]["Likely reason"].startswith("another code: no code; the list has")
    assert by_name["Best, Bob"]["Likely reason"] == "not on the list: no code"
    assert out[-3] == "3 players compared: 1 equal, 2 differ (1 another code, 1 not on the list)"
    sheet = openpyxl.load_workbook(book)["Reconcile"]
    assert sheet["A1"].value == "Code"
    assert sheet.cell(sheet.max_row, sheet.max_column).value == out[-3]


def test_the_month_is_asked_for_when_the_name_has_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listing = rating_list(tmp_path / "ratings.csv", [ANN])
    assert main(["reconcile", str(listing), str(EXAMPLES / "rated")]) != 0
    assert "ratings.csv: no YYYY-MM in its name: say the list's month with --month" in (
        capsys.readouterr().err
    )
    assert main(["reconcile", str(listing), str(EXAMPLES / "rated"), "--month", "2025-10"]) == 0
    out = capsys.readouterr().out
    # The list of October has Ann at 1616; xlgrade has her at 1605 then (after September),
    # and the 1616 is hers after October: another edition.
    assert "list edition: the list's 1616 is xlgrade's rating at the start of 2025-11" in out


def test_a_file_that_is_not_a_rating_list_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["reconcile", str(EXAMPLES / "league" / "players.csv"), str(EXAMPLES / "rated"),
                 "--month", "2025-11"]) != 0  # fmt: skip
    assert "not an ECF rating list" in capsys.readouterr().err


def test_a_union_is_reconciled_as_one_season(capsys: pytest.CaptureFixture[str]) -> None:
    # examples/ratings-2025-08.csv has 470892B as 'Jarvis, Adam'; both leagues say Robert.
    code = main(["reconcile", str(EXAMPLES / "ratings-2025-08.csv"), str(EXAMPLES / "union")])
    out = capsys.readouterr().out
    assert code == 0
    jarvis = next(line for line in out.splitlines() if line.startswith("470892B"))
    assert jarvis.endswith(
        "another player's code: the list's name for 470892B is 'Jarvis, Adam', not 'Jarvis, Robert'"
    )
