"""Running the simulator: worker processes, whole runs and the ``ligretto simulate`` command.

The pure simulator (``ligretto.sim``) plays one round or one game from a
seed; this package spreads many of them over processes (``pool``), gathers
and summarizes them (``run``), and prints the result (``command``).
"""
