"""xlwings Lite's side of the functions and scripts, run through ``xlwings.server`` (the
Office.js protocol on CPython, set up by :func:`xlgrade.workbook.excel_calls.prepare_officejs`).
"""

from __future__ import annotations

import importlib
from types import ModuleType

import pytest

from xlgrade.workbook.excel_calls import prepare_officejs


@pytest.fixture(scope="session")
def lite() -> ModuleType:
    """The module a Lite book's ``main.py`` imports, with xlwings.server registered."""
    return load_lite()


def load_lite() -> ModuleType:
    """Import :mod:`xlgrade_lite` with xlwings' Office.js side working."""
    prepare_officejs()
    return importlib.import_module("xlgrade_lite")
