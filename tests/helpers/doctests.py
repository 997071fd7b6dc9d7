"""Docstring examples of a module, run against the module as it is loaded.

A module compiled with mypyc has no Python functions for ``doctest`` to
look into, so :func:`run_examples` finds the examples in the module's
``.py`` source (executed once, privately) and runs them in the loaded
module's namespace: the examples check the compiled code when it is
compiled and the pure code otherwise.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import os
import sys
from types import ModuleType


def source_path(module: ModuleType) -> str:
    """The ``.py`` file beside a module (itself, or its extension's source)."""
    path = module.__file__
    assert path is not None, module
    if path.endswith(".py"):
        return path
    folder, file = os.path.split(path)
    return os.path.join(folder, file.split(".", 1)[0] + ".py")


def _examples_module(module: ModuleType) -> ModuleType:
    if module.__file__ is not None and module.__file__.endswith(".py"):
        return module
    # The same name, so that doctest sees the classes as the module's own;
    # never put into sys.modules.
    spec = importlib.util.spec_from_file_location(module.__name__, source_path(module))
    assert spec is not None and spec.loader is not None
    copy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(copy)
    return copy


def run_examples(name: str, optionflags: int = 0) -> doctest.TestResults:
    """Run every docstring example of module ``name``; return failed and attempted."""
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=optionflags)
    source = _examples_module(module)
    # doctest judges what belongs to the module through sys.modules.
    sys.modules[name] = source
    try:
        tests = finder.find(source, name, globs=module.__dict__)
    finally:
        sys.modules[name] = module
    for test in tests:
        runner.run(test)
    return runner.summarize(verbose=False)
