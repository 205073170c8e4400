"""The template's Settings and live formulas agree with the recalculation: a blank Horizon is
40 both ways, Floor at zero reaches the live points, the named ranges are names Excel accepts,
and every data validation shows its message."""

from __future__ import annotations

import io
import re
import zipfile

import pytest
import xlgrade_udfs as xl

from xlgrade.workbook.build import build_workbook
from xlgrade.workbook.read import read_inputs

SETTINGS_HEADER = ["Setting", "Value", "Meaning"]


@pytest.mark.parametrize(
    ("value", "horizon"), [(None, 40.0), ("none", None), ("off", None), (25, 25.0)]
)
def test_a_blank_horizon_is_40_and_none_turns_it_off(value: object, horizon: object) -> None:
    inputs = read_inputs({"Settings": [SETTINGS_HEADER, ["Horizon", value, None]]})
    assert inputs.settings.horizon == horizon
    assert [p for p in inputs.problems if p.sheet == "Settings"] == []


def test_floor_at_zero_reaches_the_live_points() -> None:
    # A 10 losing to a 5: 5 − 50 = −45 points, or 0 with the floor (§2, published practice).
    assert xl.GRADE_POINTS(10, 5, 0) == 0.0
    assert xl.GRADE_POINTS(10, 5, 0, 40, None) == 0.0
    assert xl.GRADE_POINTS(10, 5, 0, 40, True) == 0.0
    assert xl.GRADE_POINTS(10, 5, 0, 40, False) == -45.0
    assert xl.GRADE_POINTS(10, 5, 0, 40, "no") == -45.0
    # Beating a 200 counts the opponent as 10 + 40 (the horizon): 50 + 50 = 100.
    assert xl.GRADE_POINTS([[10], [10]], [[5], [200]], [[0], [1]], 40, False) == [
        [-45.0],
        [100.0],
    ]
    assert xl.GRADE_POINTS(10, 5, 0, 40, "maybe") == (
        "#VALUE! floor_at_zero 'maybe' is not TRUE or FALSE"
    )


def test_elo_k_of_fide_2024_caps_k_times_the_periods_games_at_700() -> None:
    # FIDE 2024: K 20 for a 2000 with 40 earlier games, cut to 700 / 40 = 17.5 → 17 when
    # 40 games are rated in the period.
    assert xl.ELO_K(2000, 40, None, "fide-2024") == 20
    assert xl.ELO_K(2000, 40, None, "fide-2024", None, 40) == 17
    assert xl.ELO_K(2000, 40, None, "fide-2024", None, "x") == (
        "#VALUE! games_in_period 'x' is not a number"
    )


def _part(name: str) -> str:
    with zipfile.ZipFile(io.BytesIO(build_workbook())) as package:
        return package.read(name).decode("utf-8")


def test_every_defined_name_is_one_excel_accepts() -> None:
    names = re.findall(r'<definedName name="([^"]+)"', _part("xl/workbook.xml"))
    assert "Under12Divisions" in names
    assert "Under10Divisions" in names
    for name in names:
        assert re.fullmatch(r"(_xlnm\.)?[A-Za-z_][A-Za-z0-9_.]*", name), name


def test_every_data_validation_shows_its_message() -> None:
    sheets = [f"xl/worksheets/sheet{n}.xml" for n in range(1, 9)]
    validations = []
    with zipfile.ZipFile(io.BytesIO(build_workbook())) as package:
        for sheet in sheets:
            text = package.read(sheet).decode("utf-8")
            validations += re.findall(r"<dataValidation [^>]*>", text)
    assert len(validations) >= 10
    for validation in validations:
        assert 'showErrorMessage="1"' in validation, validation
        assert 'allowBlank="1"' in validation, validation
        assert " error=" in validation, validation
        assert "errorTitle=" in validation, validation
    results = [v for v in validations if 'sqref="F2:F20000"' in v]
    assert len(results) == 1
    assert 'errorStyle="warning"' in results[0]


def test_a_horizon_turned_off_stays_off_in_a_new_book() -> None:
    from xlgrade.model import Settings
    from xlgrade.workbook.package import read_sheets

    book = build_workbook((), (), Settings(horizon=None))
    inputs = read_inputs(read_sheets(book, ["Settings"]))
    assert inputs.settings.horizon is None


@pytest.mark.parametrize(
    ("label", "value", "why"),
    [
        ("Horizon", -10, "cell B2 (Value): -10 is not from 0: the default is used"),
        (
            "Unanchored grade",
            5000,
            "cell B2 (Value): 5000 is not from 0 to 400: the default is used",
        ),
        (
            "Inactivity allowance",
            -20,
            "cell B2 (Value): -20 is not from 0 to 400: the default is used",
        ),
    ],
)
def test_a_setting_off_its_range_is_a_cell_problem(label: str, value: object, why: str) -> None:
    inputs = read_inputs({"Settings": [SETTINGS_HEADER, [label, value, None]]})
    assert [(p.what, p.why) for p in inputs.problems if p.sheet == "Settings"] == [
        ("bad setting", why)
    ]
    from xlgrade.model import Settings

    assert inputs.settings == Settings()


def test_a_blank_season_date_is_said_not_assumed() -> None:
    rows = [SETTINGS_HEADER, ["Season start", None, None], ["Season end", "2026-05-31", None]]
    inputs = read_inputs({"Settings": rows})
    assert [(p.row, p.what, p.why) for p in inputs.problems if p.sheet == "Settings"] == [
        (2, "blank setting", "cell B2 (Season start) is blank: 2025-06-01 is used")
    ]
