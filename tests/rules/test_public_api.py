"""The public API documents itself: every module of ``xlgrade`` (and the worksheet functions'
module) has a docstring and ``__all__``, every name in ``__all__`` exists, and every public
function, class and method it exports has a docstring; no module takes another's private name
(``_x``): modules talk through public names.

Each test lists everything that fails it, so one run shows all there is to fix. Modules are
found by walking the package, so a new module is checked as soon as it exists; private modules
(a name starting with ``_``, ``__main__`` included) are left out.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from pathlib import Path
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


CROSSING_LEFT: frozenset[tuple[str, str]] = frozenset()
"""Private names still taken from another module, each until its module is split by part (the
workbook's package layer): an entry no longer needed fails the test, so the set only shrinks."""


def private(name: str) -> bool:
    """Whether a name is private to its module (``_x``; ``__x__`` is not)."""
    return name.startswith("_") and not name.endswith("__")


def crossings(
    module: str, source: str, is_package: bool, modules: set[str]
) -> set[tuple[str, str]]:
    """The private names module ``module`` (its text ``source``) takes from other modules of
    ``modules``: ``from M import _x``, and ``m._x`` on a module ``m`` it imported."""
    found: set[tuple[str, str]] = set()
    tree = ast.parse(source)
    here = module.split(".") if is_package else module.split(".")[:-1]
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    aliases[alias.asname or alias.name.split(".")[0]] = alias.name
        elif isinstance(node, ast.ImportFrom):
            base = here[: len(here) - node.level + 1] if node.level else []
            origin = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:
                target = f"{origin}.{alias.name}"
                if target in modules:
                    aliases[alias.asname or alias.name] = target
                elif origin in modules and origin != module and private(alias.name):
                    found.add((module, target))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and aliases.get(node.value.id, module) != module
            and private(node.attr)
        ):
            found.add((module, f"{aliases[node.value.id]}.{node.attr}"))
    return found


def package_sources() -> dict[str, tuple[str, bool]]:
    """Every module of the package, private ones included: its text and whether a package."""
    root = Path(xlgrade.__file__).parent
    out = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        name = ".".join(parts[:-1] if is_package else parts)
        out[name] = (path.read_text(encoding="utf-8"), is_package)
    return out


def test_no_private_name_is_taken_from_another_module() -> None:
    sources = package_sources()
    found: set[tuple[str, str]] = set()
    for module, (source, is_package) in sources.items():
        found |= crossings(module, source, is_package, set(sources))
    assert sorted(found - CROSSING_LEFT) == [], "make the name public in its module"
    assert sorted(CROSSING_LEFT - found) == [], "no longer taken: delete it from CROSSING_LEFT"


def test_the_crossing_check_finds_each_way_of_taking_a_private_name() -> None:
    modules = {"xlgrade", "xlgrade.a", "xlgrade.b", "xlgrade.b.c"}
    source = (
        "from xlgrade.a import _one, two, __version__\n"
        "from .. import _three\n"
        "from .c import _four\n"
        "import xlgrade.a as a\n"
        "from xlgrade.b import c\n"
        "a._five, c.six, c._seven, _own._eight\n"
    )
    assert crossings("xlgrade.b", source, True, modules) == {
        ("xlgrade.b", "xlgrade.a._one"),
        ("xlgrade.b", "xlgrade._three"),
        ("xlgrade.b", "xlgrade.b.c._four"),
        ("xlgrade.b", "xlgrade.a._five"),
        ("xlgrade.b", "xlgrade.b.c._seven"),
    }
    # A module's own private names, and those of a module it does not import, are its own.
    assert crossings("xlgrade.a", "from xlgrade.a import _x\nb._y\n", False, modules) == set()
