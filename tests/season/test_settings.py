"""The one table of settings (xlgrade.settings): the values each may take, how a cell is read,
and the season worked out from the games when the settings leave it out."""

from __future__ import annotations

import dataclasses
import datetime as dt
import typing

import pytest

from xlgrade import settings
from xlgrade.errors import GradingError, SettingError
from xlgrade.settings import SETTINGS, Settings, by_label, check, read_cell, season_of
from xlgrade.workbook import layout

SPEC = {spec.name: spec for spec in SETTINGS}


def test_the_table_is_the_settings_dataclass() -> None:
    assert [spec.name for spec in SETTINGS] == [f.name for f in dataclasses.fields(Settings)]
    defaults = Settings()
    for spec in SETTINGS:
        assert getattr(defaults, spec.name) == spec.default
        assert spec.label
        assert spec.meaning
        assert spec.source


def test_the_settings_sheet_shows_every_setting_but_the_tolerance() -> None:
    assert [s.name for s in layout.SETTING_ROWS] == [s.name for s in SETTINGS if s.on_sheet]
    assert [s.name for s in SETTINGS if not s.on_sheet] == ["tolerance"]


def test_choices_are_those_the_annotation_names() -> None:
    hints = typing.get_type_hints(Settings)
    for spec in SETTINGS:
        if spec.kind == "choice" and typing.get_origin(hints[spec.name]) is typing.Literal:
            assert typing.get_args(hints[spec.name]) == spec.choices


def test_the_sources_defaults() -> None:
    # YCA: "The limit fixed was 40"; 1997 leaflet: "less than 30 games"; 1 June to 31 May.
    defaults = Settings()
    assert defaults.horizon == 40
    assert defaults.min_games == 30
    assert (defaults.season_start, defaults.season_end) == (
        dt.date(2025, 6, 1),
        dt.date(2026, 5, 31),
    )
    assert defaults.age_date == dt.date(2026, 6, 1)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"horizon": -1.0}, "Horizon -1.0 is not 0 or more"),
        ({"horizon": float("nan")}, "Horizon nan is not a number"),
        ({"min_games": 2.5}, "Minimum games 2.5 is not a whole number"),
        ({"min_games": -1}, "Minimum games -1 is not from 0 to 9999"),
        ({"tolerance": 0.0}, "Tolerance 0.0 is not more than 0"),
        ({"unanchored_grade": 5000}, "Unanchored grade 5000 is not from 0 to 400"),
        ({"inactivity_allowance": -20}, "Inactivity allowance -20 is not from 0 to 400"),
        ({"floor_at_zero": "yes"}, "Floor at zero 'yes' is not yes or no"),
        ({"season_start": "2025-06-01"}, "Season start '2025-06-01' is not a date"),
        ({"season_name": 2025}, "Season name 2025 is not text"),
        ({"min_games": None}, "Minimum games None must be given"),
        ({"elo_period": "week"}, "Elo period 'week' is not one of 'season', 'month'"),
        # A long value is quoted shortened, with its length (58 characters and "…" of 70).
        (
            {"elo_period": "w" * 70},
            f"Elo period '{'w' * 58}…' (70 characters) is not one of 'season', 'month'",
        ),
        (
            {"season_start": dt.date(2025, 6, 1), "season_end": dt.date(2025, 5, 31)},
            "the season ends (2025-05-31) before it starts (2025-06-01)",
        ),
    ],
)
def test_check_refuses_what_no_season_can_be_graded_with(
    change: dict[str, object], message: str
) -> None:
    with pytest.raises(SettingError) as refused:
        check(dataclasses.replace(Settings(), **change))  # type: ignore[arg-type]
    assert str(refused.value) == message


def test_check_takes_what_each_setting_may_be() -> None:
    check(Settings())
    check(Settings(horizon=None, unanchored_grade=400, elo_k_policy="fide-2024", min_games=0))


@pytest.mark.parametrize(
    ("name", "typed", "value"),
    [
        ("horizon", None, 40.0),  # blank: the default
        ("horizon", "none", None),  # turned off
        ("horizon", "Off", None),
        ("horizon", "35", 35.0),
        ("min_games", 20.0, 20),
        ("borrowing", "Most_Recent", "most_recent"),
        ("floor_at_zero", "no", False),
        ("list_star", "Y", True),
        ("season_start", "1/8/25", dt.date(2025, 8, 1)),
        ("season_start", 45870.0, dt.date(2025, 8, 1)),
        ("junior_age_date", "", None),
        ("elo_k_policy", "", None),
        ("season_name", 2025.0, "2025"),
        ("unanchored_grade", "none", None),
    ],
)
def test_a_cell_is_read_by_its_settings_kind(name: str, typed: object, value: object) -> None:
    assert read_cell(SPEC[name], typed) == value


@pytest.mark.parametrize(
    ("name", "typed", "why"),
    [
        ("horizon", "forty", "'forty' is not a number"),
        ("horizon", -10, "-10 is not 0 or more"),
        ("min_games", "2.5", "'2.5' is not a whole number"),
        ("borrowing", "newest", "'newest' is not one of pro_rata, most_recent"),
        ("floor_at_zero", "maybe", "'maybe' is not yes or no"),
        ("season_start", "next June", "'next June' is not a date"),
        ("unanchored_grade", 5000, "5000 is not from 0 to 400"),
    ],
)
def test_a_cell_that_cannot_be_the_setting_is_refused(name: str, typed: object, why: str) -> None:
    with pytest.raises(GradingError) as refused:
        read_cell(SPEC[name], typed)
    assert str(refused.value) == why


def test_labels_are_found_as_headers_are() -> None:
    assert by_label(" minimum  GAMES ") is SPEC["min_games"]
    assert by_label("under_12_divisions") is SPEC["under_12_divisions"]
    assert by_label("Colour") is None
    assert settings.likely_label("Horizen") == "Horizon"
    assert settings.likely_label("Colour") is None


def test_settings_as_text_rows() -> None:
    rows = dict(settings.text_rows(Settings(season_name="2025-26", horizon=None, list_star=True)))
    assert list(rows) == [s.label for s in layout.SETTING_ROWS]
    assert rows["Season start"] == "2025-06-01"
    assert rows["Horizon"] == "none"
    assert rows["List category *"] == "yes"
    assert rows["Floor at zero"] == "yes"
    assert rows["Minimum games"] == "30"
    assert rows["Unanchored grade"] == ""
    assert rows["Default time control"] == ""


def test_the_season_of_the_games() -> None:
    # 1 June to 31 May: 31 May 2025 is the 2024-25 season, 1 June 2025 the 2025-26 one.
    season = season_of([dt.date(2025, 9, 10), dt.date(2026, 5, 31), None])
    assert (season.start, season.end, season.name) == (
        dt.date(2025, 6, 1),
        dt.date(2026, 5, 31),
        "2025-26",
    )
    assert (
        season.note
        == "the 2025-26 season (2025-06-01 to 2026-05-31), the one the games were played in"
    )
    assert season_of([dt.date(2025, 5, 31)]).name == "2024-25"


def test_games_of_several_seasons_take_the_season_holding_most() -> None:
    dates = [dt.date(2024, 10, 1)] + [dt.date(2025, 10, 1)] * 3
    season = season_of(dates)
    assert season.name == "2025-26"
    assert (season.games, season.dated) == (3, 4)
    assert "3 of the 4 dated games" in season.note
    # A tie: the later season.
    assert season_of([dt.date(2024, 10, 1), dt.date(2025, 10, 1)]).name == "2025-26"


def test_no_dated_game_takes_the_season_holding_today() -> None:
    season = season_of([None], today=dt.date(2027, 1, 15))
    assert season.name == "2026-27"
    assert "no game is dated" in season.note


def test_one_date_given_gives_the_other() -> None:
    start_only, season = settings.filled({"season_start": dt.date(2025, 9, 1)}, [])
    assert start_only["season_end"] == dt.date(2026, 8, 31)
    assert season is None
    end_only, _ = settings.filled({"season_end": dt.date(2024, 2, 29)}, [])
    assert end_only["season_start"] == dt.date(2023, 3, 1)
    neither, season = settings.filled({}, [dt.date(2025, 9, 1)])
    assert (neither["season_start"], neither["season_end"]) == (
        dt.date(2025, 6, 1),
        dt.date(2026, 5, 31),
    )
    assert season is not None
