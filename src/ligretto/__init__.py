"""Ligretto as software: the Tafel (score board), the rules engine, online play, the simulator."""

__version__ = "0.1.0"
