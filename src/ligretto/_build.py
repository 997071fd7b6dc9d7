"""Which build of the core runs: compiled with mypyc, or pure Python.

The modules in :data:`COMPILED` are compiled to C extensions when the
package is built with a C compiler (``setup.py``); each extension lies
beside its ``.py`` source and Python prefers it. ``_compiled.json``, written
by the same build, holds the SHA-256 of every compiled source. On import of
``ligretto`` (:func:`activate`) the pure sources are loaded instead of the
extensions when

- ``LIGRETTO_PURE`` is set to anything but ``0`` (``make test-pure``), or
- a compiled source changed since the build (stale extensions; a warning
  says so, and ``make`` rebuilds them),

so a developer who edits ``rules/round.py`` never runs old compiled code.
The two builds behave identically; only speed differs.

No imports beyond the standard library: ``setup.py`` loads this file too.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType

#: Source files (relative to ``src``) compiled with mypyc. ``rules/errors.py``
#: and ``rules/options.py`` stay interpreted: compiled, the errors lose their
#: class attribute ``code`` on subclasses and RuleOptions' checks turn into
#: ``TypeError``; neither is on a hot path. Package ``__init__`` files stay
#: interpreted too (they only import).
COMPILED: tuple[str, ...] = (
    "ligretto/rules/actions.py",
    "ligretto/rules/cards.py",
    "ligretto/rules/deadlock.py",
    "ligretto/rules/events.py",
    "ligretto/rules/interning.py",
    "ligretto/rules/layout.py",
    "ligretto/rules/result.py",
    "ligretto/rules/round.py",
    "ligretto/rules/snapshot.py",
    "ligretto/rules/values.py",
    "ligretto/rules/view.py",
    # the simulator's inner loop and what it calls for every decision
    "ligretto/sim/engine.py",
    "ligretto/bots/bot.py",
    "ligretto/bots/strategies.py",
    "ligretto/bots/timing.py",
    "ligretto/bots/tuned.py",
)

#: The build's record of the compiled sources' hashes (relative to ``src``).
MANIFEST = "ligretto/_compiled.json"

#: Set to anything but ``0`` to run the pure Python modules of a compiled build.
PURE_ENV = "LIGRETTO_PURE"

_SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def module_name(path: str) -> str:
    """``ligretto/rules/round.py`` → ``ligretto.rules.round``."""
    return path.removesuffix(".py").replace("/", ".")


@dataclass(frozen=True)
class Hashes:
    """SHA-256 of each compiled source, keyed by its path under ``src``."""

    files: dict[str, str]

    def to_json(self) -> str:
        return json.dumps({"format": 1, "sources": self.files}, indent=1, sort_keys=True) + "\n"


def source_hashes(src: str = _SRC, paths: Sequence[str] = COMPILED) -> Hashes:
    """Hash the compiled modules' sources as they are now."""
    files = {}
    for path in paths:
        with open(os.path.join(src, path), "rb") as f:
            files[path] = hashlib.sha256(f.read()).hexdigest()
    return Hashes(files)


@dataclass(frozen=True)
class Build:
    """What :func:`activate` decided: ``compiled`` or ``pure``, and why pure."""

    kind: str
    reason: str
    modules: tuple[str, ...]

    def describe(self) -> str:
        """One line for ``ligretto version``."""
        if self.kind == "compiled":
            return f"compiled with mypyc: {len(self.modules)} core modules"
        return f"pure Python ({self.reason})"


def _extension(path: str, src: str) -> str | None:
    base = os.path.join(src, path.removesuffix(".py"))
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        if os.path.exists(base + suffix):
            return base + suffix
    return None


def decide(src: str = _SRC, environ: dict[str, str] | None = None) -> Build:
    """Whether the compiled extensions may run, judged from the files on disk."""
    env = os.environ if environ is None else environ
    modules = tuple(module_name(p) for p in COMPILED)
    try:
        with open(os.path.join(src, MANIFEST), encoding="utf-8") as f:
            recorded: dict[str, str] = json.load(f)["sources"]
    except (OSError, ValueError, KeyError):
        return Build("pure", "not compiled: built without mypyc or a C compiler", modules)
    if env.get(PURE_ENV, "") not in ("", "0"):
        return Build("pure", f"{PURE_ENV} is set", modules)
    missing = [p for p in COMPILED if _extension(p, src) is None]
    if missing or set(recorded) != set(COMPILED):
        return Build("pure", "the compiled build is incomplete: run `make venv`", modules)
    changed = [p for p, h in source_hashes(src).files.items() if recorded[p] != h]
    if changed:
        names = ", ".join(module_name(p) for p in changed)
        return Build(
            "pure", f"compiled modules are older than their sources ({names}): run `make`", modules
        )
    return Build("compiled", "", modules)


class _PureFinder(importlib.abc.MetaPathFinder):
    """Finds the ``.py`` source of a compiled module before the extension."""

    def __init__(self, sources: dict[str, str]) -> None:
        self._sources = sources

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        source = self._sources.get(fullname)
        return None if source is None else importlib.util.spec_from_file_location(fullname, source)


_build: Build | None = None


def activate() -> Build:
    """Decide once per process; with a pure decision, load the ``.py`` sources."""
    global _build
    if _build is None:
        _build = decide()
        if _build.kind == "pure":
            sources = {module_name(p): os.path.join(_SRC, p) for p in COMPILED}
            sys.meta_path.insert(0, _PureFinder(sources))
            if "older than" in _build.reason:
                warnings.warn(f"ligretto runs pure Python: {_build.reason}", stacklevel=2)
    return _build


def loaded() -> Build:
    """The build actually loaded, checked on the modules themselves."""
    build = activate()
    import ligretto.rules.round as probe

    compiled = not (probe.__file__ or "").endswith(".py")
    if compiled != (build.kind == "compiled"):  # pragma: no cover - a broken install
        return Build("pure" if not compiled else "compiled", "mismatch", build.modules)
    return build
