"""A real spreadsheet application computes the template's formulas: LibreOffice, headless.

The book is the template filled with the small league and recalculated by ``xlgrade recalc``.
LibreOffice opens it in a throw-away profile whose Basic library holds a ``GRADE_POINTS`` shim;
the shim calls the Excel function ``xlgrade_udfs.GRADE_POINTS`` through LibreOffice's Python
script provider. LibreOffice recalculates every formula on load and saves a copy; each computed
cell must equal what xlgrade gives. Skipped only where LibreOffice is absent outside CI.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest
from test_workbook_helpers import GAMES, PLAYERS, build_league, rows_by_header

from xlgrade import ecf
from xlgrade.cli import main
from xlgrade.workbook import layout
from xlgrade.workbook.package import read_sheets

ROOT = Path(__file__).resolve().parent.parent
SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")

if SOFFICE is None:
    if os.environ.get("CI"):
        pytest.fail("LibreOffice (soffice) is needed in CI; .ci/run installs it", pytrace=False)
    pytest.skip("LibreOffice is not installed", allow_module_level=True)

_SHIM = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE script:module PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "module.dtd">
<script:module xmlns:script="http://openoffice.org/2000/script" script:name="Module1" \
script:language="StarBasic">
Function GRADE_POINTS(own, opponent, result, Optional horizon)
    Dim factory As Object, provider As Object, script As Object
    If IsMissing(horizon) Then horizon = &quot;&quot;
    factory = createUnoService(&quot;com.sun.star.script.provider.MasterScriptProviderFactory&quot;)
    provider = factory.createScriptProvider(&quot;&quot;)
    script = provider.getScript(&quot;vnd.sun.star.script:xlgrade_lo.py$grade_points?\
language=Python&amp;location=user&quot;)
    GRADE_POINTS = script.invoke(Array(own, opponent, result, horizon), Array(), Array())
End Function
</script:module>
"""

_SETTINGS = (
    '<item oor:path="/org.openoffice.Office.Calc/Formula/Load">'
    '<prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>'
    '<item oor:path="/org.openoffice.Office.Common/Security/Scripting">'
    '<prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>0</value></prop></item>'
)


def _python_side(paths: list[str]) -> str:
    return f"""import sys
for path in {paths!r}:
    if path not in sys.path:
        sys.path.append(path)
import xlgrade_udfs


def grade_points(own, opponent, result, horizon):
    return xlgrade_udfs.GRADE_POINTS(own, opponent, result, horizon)


g_exportedScripts = (grade_points,)
"""


def _profile(folder: Path) -> str:
    """A fresh LibreOffice profile with the Basic shim and its Python side installed."""
    url = folder.as_uri()
    subprocess.run(
        [SOFFICE, f"-env:UserInstallation={url}", "--headless", "--terminate_after_init"],
        check=True,
        capture_output=True,
        timeout=120,
    )
    user = folder / "user"
    (user / "basic" / "Standard" / "Module1.xba").write_text(_SHIM, encoding="utf-8")
    scripts = user / "Scripts" / "python"
    scripts.mkdir(parents=True, exist_ok=True)
    paths = [str(ROOT), str(ROOT / "udfs"), sysconfig.get_paths()["purelib"]]
    paths.append(sysconfig.get_paths()["platlib"])
    (scripts / "xlgrade_lo.py").write_text(_python_side(paths), encoding="utf-8")
    registry = user / "registrymodifications.xcu"
    text = registry.read_text(encoding="utf-8").replace("</oor:items>", _SETTINGS + "</oor:items>")
    registry.write_text(text, encoding="utf-8")
    return url


def _convert(url: str, book: Path, out: Path, log: Path) -> None:
    """Have LibreOffice open ``book``, recalculate it and save an .xlsx copy in ``out``.

    LibreOffice's own Python must not see this interpreter's installation: with its ``bin``
    folder first on PATH, the embedded interpreter takes the wrong standard library, the shim
    fails and soffice.bin never exits. So PATH is cleaned, and should soffice.bin still hang
    once the copy is complete, the process group this test started is ended.
    """
    own = {os.path.dirname(sys.executable), os.path.join(sys.prefix, "bin")}
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYENV", "_PYENV", "PYTHONHOME", "PYTHONPATH", "VIRTUAL_ENV"))
    }
    env["PATH"] = os.pathsep.join(
        p for p in env.get("PATH", "").split(os.pathsep) if p not in own and "/.pyenv/" not in p
    )
    target = out / (book.stem + ".xlsx")
    with log.open("wb") as stream:
        process = subprocess.Popen(
            [SOFFICE, f"-env:UserInstallation={url}", "--headless", "--convert-to", "xlsx",
             "--outdir", str(out), str(book)],
            stdin=subprocess.DEVNULL,
            stdout=stream,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env=env,
        )  # fmt: skip
    try:
        size = -1
        for _ in range(600):
            if process.poll() is not None:
                break
            if target.exists() and target.stat().st_size == size and size > 0:
                break
            size = target.stat().st_size if target.exists() else -1
            time.sleep(0.25)
        else:
            pytest.fail(f"LibreOffice did not convert {book.name}: {log.read_text()}")
        for ending in (signal.SIGTERM, signal.SIGKILL):
            try:
                process.wait(timeout=5)
                break
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, ending)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert target.exists(), log.read_text()


@pytest.fixture(scope="module")
def computed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, object]]]:
    folder = tmp_path_factory.mktemp("libreoffice")
    book = build_league(folder)
    assert main(["recalc", str(book)]) == 0
    url = _profile(folder / "profile")
    out = folder / "out"
    _convert(url, book, out, folder / "soffice.log")
    raw = read_sheets(out / "league.xlsx", [layout.RESULTS, layout.HISTORY, layout.GRADING_LIST])
    return {name: rows_by_header(rows) for name, rows in raw.items()} | {
        "history": [dict(enumerate(row)) for row in raw[layout.HISTORY]]
    }


def _grade(reference: str) -> float | None:
    for player in PLAYERS:
        if reference in (player.code, player.name):
            return player.grade
    raise AssertionError(reference)


_SCORES = {"1-0": (1.0, 0.0), "½-½": (0.5, 0.5), "0-1": (0.0, 1.0)}


def test_every_results_formula_matches_xlgrade(
    computed: dict[str, list[dict[str, object]]],
) -> None:
    rows = computed[layout.RESULTS]
    assert len(rows) == len(GAMES)
    for game, row in zip(GAMES, rows, strict=True):
        home, away = _grade(game.home), _grade(game.away)
        assert row["Home grade"] == home, row
        assert row["Away grade"] == away, row
        scores = _SCORES.get(game.result)
        if scores is None:  # a default: no score, no points
            assert (row["Home score"], row["Away score"]) == ("def", "def"), row
            assert (row["Home points"], row["Away points"]) == (None, None), row
            continue
        assert (row["Home score"], row["Away score"]) == scores
        for own, other, score, column in ((home, away, scores[0], "Home points"),
                                          (away, home, scores[1], "Away points")):  # fmt: skip
            if other is None:
                assert row[column] is None, row
            else:
                want = ecf.game_points(own, other, score, horizon=40.0).points
                assert row[column] == pytest.approx(want), (column, row)


def test_points_by_hand(computed: dict[str, list[dict[str, object]]]) -> None:
    # Row 2: Smith (142) beat Brown (180): 180 + 50 = 230; Brown gets 142 - 50 = 92.
    first = computed[layout.RESULTS][0]
    assert (first["Home points"], first["Away points"]) == (230, 92)
    # Row 5: Grey (ungraded) beat White (100): no horizon for Grey, 150; White's points
    # need Grey's grade, which only the season gives: blank.
    fourth = computed[layout.RESULTS][3]
    assert (fourth["Home points"], fourth["Away points"]) == (150, None)


def test_grade_history_chart_data(computed: dict[str, list[dict[str, object]]]) -> None:
    history = computed["history"]
    assert history[0][1] == "123456A"
    values = {row[0]: row[1] for row in history[2:5]}
    smith = next(r for r in computed[layout.GRADING_LIST] if r["Code"] == "123456A")
    assert values == {"Start of season": 142, "Estimate": None, "This season": smith["Grade"]}
