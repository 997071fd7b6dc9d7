"""Ligretto as software: the Tafel (score board), the rules engine, online play, the simulator."""

__version__ = "0.1.0"

from ligretto import _build

#: Which build of the core runs: compiled with mypyc or pure Python (see
#: ``ligretto._build``); decided before any core module is imported.
BUILD = _build.activate()
