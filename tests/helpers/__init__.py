"""Helpers shared by the test modules, importable as ``helpers`` from every test.

``tests/`` is on ``sys.path`` through ``pythonpath`` in pyproject.toml's
``[tool.pytest.ini_options]``. Test modules import what they share from here,
never from one another:

- ``helpers.profiles``: ``examples(n)``, the Hypothesis example counts per profile;
- ``helpers.api``: a game made through the Tafel API (``new_game``'s games);
- ``helpers.layout``: rules positions built from an explicit layout;
- ``helpers.positions``: four-seat positions and the R3 legality walk for the bot tests;
- ``helpers.browser``: the live servers (Tafel, online play) and Chromium's settings;
- ``helpers.play``: an online-play server, the practice round's start, a table with a bot;
- ``helpers.axe``: axe-core's options and one page's audit (serious and critical, tap targets);
- ``helpers.fuzz``: the schema-driven fuzz tests' examples, checks and Hypothesis settings;
- ``helpers.tafel_pages``: filling in the Tafel's forms in a browser;
- ``helpers.live_table``: ``settled(table)``, waiting on an online table's actor.
"""
