"""The public API documents itself: every module of ``xlgrade`` (and the worksheet functions'
module) has a docstring and ``__all__``, every name in ``__all__`` exists, and every public
function, class and method it exports has a docstring.

Each test lists everything that fails it, so one run shows all there is to fix. Modules are
found by walking the package, so a new module is checked as soon as it exists; private modules
(a name starting with ``_``, ``__main__`` included) are left out.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

import xlgrade

OTHER_MODULES = ("xlgrade_udfs",)
"""Public modules outside the package: the Excel functions (``udfs/``)."""


def module_names() -> list[str]:
    """The public modules of the package, the package itself first, then the others."""
    names = [xlgrade.__name__]
    for info in pkgutil.walk_packages(xlgrade.__path__, prefix=f"{xlgrade.__name__}."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.append(info.name)
    return [*names, *OTHER_MODULES]


MODULES = module_names()


def load(name: str) -> ModuleType:
    """Import a module."""
    return importlib.import_module(name)


def own_doc(obj: Any) -> str | None:
    """The docstring written on ``obj`` itself, not one inherited or made up.

    A dataclass without a docstring is given its signature as one; that does not count.
    """
    doc = obj.__dict__.get("__doc__") if isinstance(obj, type) else getattr(obj, "__doc__", None)
    if not isinstance(doc, str) or not doc.strip():
        return None
    if isinstance(obj, type) and dataclasses.is_dataclass(obj):
        try:
            made_up = obj.__name__ + str(inspect.signature(obj)).replace(" -> None", "")
        except (TypeError, ValueError):  # pragma: no cover - a signature is always there
            made_up = None
        if doc == made_up:
            return None
    return doc


def methods(cls: type) -> Iterator[tuple[str, Any]]:
    """The public methods and properties a class defines itself (not those it inherits)."""
    for name, member in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(member, (staticmethod, classmethod)):
            yield name, member.__func__
        elif isinstance(member, property) or inspect.isfunction(member):
            yield name, member


def method_doc(cls: type, name: str, member: Any) -> str | None:
    """A method's docstring, its own or that of the method it overrides."""
    if own_doc(member):
        return own_doc(member)
    for base in cls.__mro__[1:]:
        inherited = base.__dict__.get(name)
        if inherited is not None and getattr(inherited, "__doc__", None):
            return str(inherited.__doc__)
    return None


def undocumented(module: ModuleType) -> list[str]:
    """The public functions, classes and methods in ``module.__all__`` with no docstring."""
    missing: list[str] = []
    for name in getattr(module, "__all__", ()):
        obj = getattr(module, name, None)
        if obj is None or getattr(obj, "__module__", module.__name__) != module.__name__:
            continue  # a constant, or a name re-exported from where it is documented
        if inspect.isclass(obj):
            if own_doc(obj) is None:
                missing.append(f"{module.__name__}.{name}")
            missing += [
                f"{module.__name__}.{name}.{method}"
                for method, member in methods(obj)
                if method_doc(obj, method, member) is None
            ]
        elif callable(obj) and own_doc(inspect.unwrap(obj)) is None and own_doc(obj) is None:
            missing.append(f"{module.__name__}.{name}")
    return missing


def test_the_walk_finds_the_modules() -> None:
    assert {"xlgrade", "xlgrade.ecf", "xlgrade.cli", "xlgrade_udfs"} <= set(MODULES)
    assert not [name for name in MODULES if name.endswith("__main__")]


def test_every_public_module_has_a_docstring() -> None:
    missing = [name for name in MODULES if not (load(name).__doc__ or "").strip()]
    assert not missing, "modules without a docstring:\n  " + "\n  ".join(missing)


def test_every_public_module_has_all() -> None:
    missing = [name for name in MODULES if not hasattr(load(name), "__all__")]
    assert not missing, "modules without __all__:\n  " + "\n  ".join(missing)


def test_every_name_in_all_exists_once() -> None:
    problems: list[str] = []
    for name in MODULES:
        module = load(name)
        exported = list(getattr(module, "__all__", ()))
        problems += [
            f"{name}.{item}: not defined" for item in exported if not hasattr(module, item)
        ]
        problems += [
            f"{name}.{item}: listed {exported.count(item)} times"
            for item in sorted(set(exported))
            if exported.count(item) > 1
        ]
    assert not problems, "__all__ problems:\n  " + "\n  ".join(problems)


def test_every_public_function_class_and_method_has_a_docstring() -> None:
    missing = [item for name in MODULES for item in undocumented(load(name))]
    assert not missing, "public names without a docstring:\n  " + "\n  ".join(missing)


# The checks themselves, on made-up modules: a check that cannot fail proves nothing.


def made_up_module() -> ModuleType:
    """A module with one of each thing the docstring check looks at, some undocumented."""
    module = ModuleType("made_up")

    def documented() -> None:
        """Documented."""

    def bare() -> None:
        pass

    @dataclasses.dataclass(frozen=True)
    class Bare:
        x: int

    class Documented:
        """Documented."""

        def method(self) -> None:
            """Documented."""

        def bare_method(self) -> None:
            pass

        @property
        def bare_property(self) -> int:
            return 1

        def __repr__(self) -> str:
            return "Documented()"

    class Child(Documented):
        """Documented."""

        def method(self) -> None:  # inherits the docstring
            pass

    for obj in (documented, bare, Bare, Documented, Child):
        obj.__module__ = module.__name__
        module.__dict__[obj.__name__] = obj
    module.CONSTANT = 3  # type: ignore[attr-defined]
    module.__all__ = ["CONSTANT", "Bare", "Child", "Documented", "bare", "documented"]  # type: ignore[attr-defined]
    return module


def test_the_docstring_check_finds_what_lacks_one() -> None:
    assert undocumented(made_up_module()) == [
        "made_up.Bare",
        "made_up.Documented.bare_method",
        "made_up.Documented.bare_property",
        "made_up.bare",
    ]


@pytest.mark.parametrize("name", ["xlgrade.ecf", "xlgrade_udfs"])
def test_the_docstring_check_reads_real_modules(name: str) -> None:
    module = load(name)
    assert module.__all__
    assert all(
        own_doc(getattr(module, item))
        for item in module.__all__
        if inspect.isfunction(getattr(module, item))
    )
