"""Build ligretto; compile the rules core with mypyc when a C compiler is present.

Everything else lives in pyproject.toml. The modules in ``COMPILED`` become C
extensions (mypyc) beside their ``.py`` sources, and ``src/ligretto/
_compiled.json`` records the SHA-256 of every compiled source, so that
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

from setuptools import setup

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


def ext_modules() -> list[object]:
    manifest = os.path.join(ROOT, "src", _build.MANIFEST)
    reason = why_pure()
    if reason is not None:
        print(f"ligretto: building pure Python: {reason}", file=sys.stderr)
        if os.path.exists(manifest):
            os.remove(manifest)
        return []
    from mypyc.build import mypycify

    paths = [os.path.join("src", path) for path in _build.COMPILED]
    hashes = _build.source_hashes(os.path.join(ROOT, "src"))
    # Type-checked on its own terms: only the compiled modules and what they
    # import, without the project's mypy plugins (not build requirements).
    extensions = mypycify(
        ["--config-file", os.path.join(ROOT, "mypyc.ini"), *paths],
        opt_level="3",
        debug_level="0",
        group_name="ligretto_core",
    )
    with open(manifest, "w", encoding="utf-8") as out:
        out.write(hashes.to_json())
    return list(extensions)


setup(ext_modules=ext_modules())
