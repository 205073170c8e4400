"""How xlgrade runs LibreOffice: a clean environment, a time limit, a finished file, a missing
profile — checked with stand-in programs, so it runs wherever the tests do."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from xlgrade.workbook import libreoffice
from xlgrade.workbook.libreoffice import LibreOfficeError, make_profile, run_soffice

SH = shutil.which("sh")
pytestmark = pytest.mark.skipif(SH is None, reason="needs a POSIX shell")


def test_the_environment_leaves_out_this_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    own = os.path.dirname(sys.executable)
    monkeypatch.setenv("PATH", os.pathsep.join([own, "/root/.pyenv/shims", "/usr/bin"]))
    monkeypatch.setenv("PYTHONHOME", "/somewhere")
    monkeypatch.setenv("VIRTUAL_ENV", "/a/venv")
    env = libreoffice.clean_environment()
    assert env["PATH"] == "/usr/bin"
    assert "PYTHONHOME" not in env
    assert "VIRTUAL_ENV" not in env


def test_a_run_past_its_time_limit_is_stopped(tmp_path: Path) -> None:
    assert SH is not None
    with pytest.raises(LibreOfficeError) as raised:
        run_soffice(SH, ["-c", "sleep 30"], tmp_path / "log", timeout=0.5)
    assert (
        str(raised.value)
        == f"soffice did not finish within 0.5 s; its output is in {tmp_path / 'log'}"
    )


def test_a_run_is_done_when_its_file_stops_growing(tmp_path: Path) -> None:
    assert SH is not None
    done = tmp_path / "out.pdf"
    # Writes the file, then lingers as soffice.bin sometimes does.
    run_soffice(
        SH, ["-c", f"echo page > {done}; sleep 30"], tmp_path / "log", done=done, timeout=20
    )
    assert done.read_text() == "page\n"


def test_a_profile_that_soffice_did_not_make_is_an_error(tmp_path: Path) -> None:
    assert SH is not None
    fake = tmp_path / "soffice"
    fake.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    fake.chmod(0o755)
    with pytest.raises(LibreOfficeError) as raised:
        make_profile(str(fake), tmp_path / "profile", tmp_path / "log")
    assert str(raised.value) == (
        f"soffice did not create its profile in {tmp_path / 'profile'}; see {tmp_path / 'log'}"
    )


def test_stored_office_js_names_are_handed_to_libreoffice_plain() -> None:
    # Excel stores an Office.js function as _xldudf_ + namespace + name; LibreOffice calls the
    # Basic function of the plain name. Another add-in's function is left alone.
    formula = (
        b'IF(A1,_xldudf_XLGRADE_GRADE_POINTS(B1,C1),"")+_xldudf_SEASON_GRADE(D1,E1)'
        b"+_xldudf_CX_GET(F1)+GRADE_POINTS(1,2,3)"
    )
    assert libreoffice.calc_names(formula) == (
        b'IF(A1,GRADE_POINTS(B1,C1),"")+SEASON_GRADE(D1,E1)+_xldudf_CX_GET(F1)+GRADE_POINTS(1,2,3)'
    )
