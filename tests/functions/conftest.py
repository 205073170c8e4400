"""xlwings Lite's side of the functions and scripts, run through ``xlwings.server`` (the
Office.js protocol on CPython).

``xlwings.server`` lives in xlwings' ``pro`` folder, which asks for a licence key; xlwings'
documented key for noncommercial use, ``noncommercial``, is set for the tests when none is. When
xlwings was imported before the key was set (another test imported it), its Office.js and
remote engines are added as its import would have added them.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


@pytest.fixture(scope="session")
def lite() -> ModuleType:
    """The module a Lite book's ``main.py`` imports, with xlwings.server registered."""
    return load_lite()


def load_lite() -> ModuleType:
    """Import :mod:`xlgrade_lite` with xlwings' Office.js side working."""
    os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")
    import xlwings as xw
    from xlwings.main import Engine
    from xlwings.pro import _xlofficejs, _xlremote

    present = {engine.name for engine in xw.engines}
    for impl in (_xlremote.engine, _xlofficejs.engine):
        if impl.name not in present:
            xw.engines.add(Engine(impl=impl))
    return importlib.import_module("xlgrade_lite")
