"""The simulator's pure part: bots play a round or a whole game in virtual time, from a seed.

No I/O and no processes (``ligretto.simulate`` runs many of these on worker
processes and prints what they found).
"""
