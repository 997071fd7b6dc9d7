"""How an online table's rounds reach the score (R5) and the Tafel (T2–T5).

The table does not add up points or decide who won; the Tafel does, so
online play and the score board never disagree. By job:

- :mod:`.keeper`: the narrow interface a table keeps its score through
  (``ScoreKeeper``), with its end condition, group link and standing;
- :mod:`.tafel`: that interface on the Tafel's service layer (stacks first,
  then the middle, as a real table enters a round);
- :mod:`.recorder`: each finished round written in a worker thread, its
  answer posted back into the table's actor;
- :mod:`.round_end`: what the table does when a round ends and when its
  score comes back.
"""
