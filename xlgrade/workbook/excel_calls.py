"""A worksheet function called as Excel calls it, through either xlwings route.

The arguments are what a spreadsheet engine computed for the formula: a value, or a range as
rows of cells (a flat list is a column), ``None`` in a cell for an empty one; an argument left
out of the formula (``=GRADE_POINTS(A2, B2, C2)``) is :data:`OMITTED`. Each route then gets them
in the shape its xlwings side declares for every parameter of :mod:`xlgrade_udfs` (rows of
cells, ``ndim=2``; Office.js ``dimensionality: "matrix"``):

- :func:`officejs_call` (xlwings Lite): every argument rows of cells even for one value, an
  empty cell as ``""``, a date as its serial number, a whole number as JSON carries it (an
  ``int``), a left-out argument ``null``; made through ``xlwings.server.custom_functions_call``,
  the code xlwings Lite runs. The answer is rows of cells, as Excel receives it.
- :func:`classic_call` (classic xlwings on Windows): what its COM side hands over with
  ``ndim=2``: rows of cells, numbers as floats, an empty cell as ``None``, a date as a
  ``datetime``, a left-out argument the parameter's default.

The LibreOffice route (:mod:`xlgrade.workbook.libreoffice`), the tests that drive the shipped
books' formulas and the README's pictures all call through here, never the Python function
directly. xlwings is needed (``pip install xlgrade[excel]``).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import inspect
import os
from types import ModuleType
from typing import Any, Final

from xlgrade.cells import date_serial

__all__ = [
    "OMITTED",
    "classic_call",
    "lite_module",
    "officejs_call",
    "officejs_matrix",
    "prepare_officejs",
]

OMITTED: Final = inspect.Parameter.empty
"""An argument left out of the formula."""


def _rows(value: object) -> list[list[Any]]:
    """A value or a range as rows of cells (a flat list or tuple is a column)."""
    if not isinstance(value, list | tuple):
        return [[value]]
    if value and not isinstance(value[0], list | tuple):
        return [[cell] for cell in value]
    return [list(row) for row in value]


def _officejs_cell(value: object) -> object:
    if value is None:
        return ""
    if isinstance(value, dt.datetime | dt.date):
        return date_serial(value)  # the 1900 system: Office.js passes a date as its serial
    if isinstance(value, float) and value.is_integer():
        return int(value)  # JSON carries 150, not 150.0
    return value


def officejs_matrix(value: object) -> list[list[Any]]:
    """An argument as Office.js passes a matrix parameter to a custom function."""
    return [[_officejs_cell(cell) for cell in row] for row in _rows(value)]


def prepare_officejs() -> None:
    """Make xlwings' Office.js side work on CPython.

    ``xlwings.server`` lives in xlwings' ``pro`` folder, which asks for a licence key; xlwings'
    documented key for noncommercial use is set when none is. When xlwings was imported before
    the key was set, its Office.js and remote engines are added as its import would have.
    """
    os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")
    import xlwings as xw
    from xlwings.main import Engine
    from xlwings.pro import _xlofficejs, _xlremote

    present = {engine.name for engine in xw.engines}
    for impl in (_xlremote.engine, _xlofficejs.engine):
        if impl.name not in present:
            xw.engines.add(Engine(impl=impl))


@functools.cache
def lite_module() -> ModuleType:
    """A module holding every function of :mod:`xlgrade_udfs` registered for xlwings Lite
    (:func:`xlgrade_udfs.lite_function`), as a Lite book's ``main.py`` registers them."""
    prepare_officejs()
    import xlgrade_udfs

    module = ModuleType("xlgrade_lite_functions")
    for name, function in xlgrade_udfs.FUNCTIONS.items():
        setattr(module, name, xlgrade_udfs.lite_function(function))
    return module


def officejs_call(
    name: str, *arguments: object, module: ModuleType | None = None, caller: str = "A1"
) -> Any:
    """``name`` called as xlwings Lite calls it, the answer as Excel receives it (rows of
    cells). ``module`` holds the registered functions (a Lite book's ``xlgrade_lite``);
    :func:`lite_module` when not given."""
    prepare_officejs()
    import xlwings as xw
    from xlwings import server

    data = {
        "func_name": name,
        "args": [None if a is OMITTED else officejs_matrix(a) for a in arguments],
        "version": xw.__version__,
        "client": "Office.js",
        "runtime": "1.4",
        "culture_info_name": "en-GB",
        "date_format": "dd/mm/yyyy",
        "caller_address": caller,
    }
    return asyncio.run(server.custom_functions_call(data, module or lite_module()))


def _classic_cell(value: object) -> object:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**1023:
        return float(value)  # COM hands every number over as a double
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return dt.datetime(*value.timetuple()[:3])
    return value


def classic_call(name: str, *arguments: object) -> Any:
    """``name`` called as classic xlwings calls it with ``ndim=2`` (see the module)."""
    import xlgrade_udfs

    function = xlgrade_udfs.FUNCTIONS[name]
    parameters = list(inspect.signature(function).parameters.values())
    given = [
        parameter.default
        if argument is OMITTED
        else [[_classic_cell(cell) for cell in row] for row in _rows(argument)]
        for argument, parameter in zip(arguments, parameters, strict=False)
    ]
    return function(*given)
