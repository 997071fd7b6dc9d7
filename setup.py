"""Build ligretto; compile the rules core with mypyc when a C compiler is present.

Everything else lives in pyproject.toml. The modules in ``COMPILED`` become C
extensions (mypyc) beside their ``.py`` sources, and ``ligretto/_compiled.json``
(in ``src`` for an in-place build, in the wheel otherwise) records the
SHA-256 of every compiled source, so that
``ligretto._build`` can refuse extensions older than their sources (it then
loads the pure Python modules instead). Without mypyc, without a C compiler
or Python headers, or with ``LIGRETTO_PURE_BUILD=1``, the package is pure
Python and behaves identically. See CONTRIBUTING.md ("The compiled core").
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import sys
import sysconfig
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = os.path.dirname(os.path.abspath(__file__))
# ligretto._build by its path: importing the package would import the core.
_spec = importlib.util.spec_from_file_location(
    "_ligretto_build", os.path.join(ROOT, "src", "ligretto", "_build.py")
)
assert _spec is not None and _spec.loader is not None
_build = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = _build  # dataclasses look their module up
_spec.loader.exec_module(_build)


def why_pure() -> str | None:
    """Why this build cannot be compiled, or ``None`` when it can."""
    if os.environ.get("LIGRETTO_PURE_BUILD", "") not in ("", "0"):
        return "LIGRETTO_PURE_BUILD is set"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc (package mypy) is not installed in the build environment"
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    if shutil.which(shlex.split(cc)[0]) is None:
        return f"no C compiler ({cc!r} not found)"
    include = sysconfig.get_paths()["include"]
    if not os.path.exists(os.path.join(include, "Python.h")):
        return f"no Python headers (Python.h not in {include})"
    return None


#: The compiled sources' hashes, taken before mypyc reads them; None: pure build.
HASHES: Any = None


def ext_modules() -> list[object]:
    global HASHES
    reason = why_pure()
    if reason is not None:
        print(f"ligretto: building pure Python: {reason}", file=sys.stderr)
        return []
    from mypyc.build import mypycify

    paths = [os.path.join("src", path) for path in _build.COMPILED]
    HASHES = _build.source_hashes(os.path.join(ROOT, "src"))
    # Type-checked on its own terms: only the compiled modules and what they
    # import, without the project's mypy plugins (not build requirements).
    return list(
        mypycify(
            ["--config-file", os.path.join(ROOT, "mypyc.ini"), *paths],
            opt_level="3",
            debug_level="0",
            group_name="ligretto_core",
        )
    )


def write_manifest(folder: str) -> None:
    """Record the compiled sources' hashes under ``folder`` (or drop a stale record)."""
    path = os.path.join(folder, _build.MANIFEST)
    if HASHES is None:
        if os.path.exists(path):
            os.remove(path)
        return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as out:
        out.write(HASHES.to_json())


class BuildPy(build_py):
    """A wheel: the record goes beside the compiled modules."""

    def run(self) -> None:
        super().run()
        if not getattr(self, "editable_mode", False):
            write_manifest(self.build_lib)


class BuildExt(build_ext):
    """In place (editable install, ``make``): the record goes into ``src``."""

    def run(self) -> None:
        super().run()
        if self.inplace or getattr(self, "editable_mode", False):
            write_manifest(os.path.join(ROOT, "src"))


setup(ext_modules=ext_modules(), cmdclass={"build_py": BuildPy, "build_ext": BuildExt})
