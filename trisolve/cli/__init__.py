"""The ``trisolve`` command: ``main`` and one ``*_cmd`` module per subcommand,
each a thin layer over ``trisolve.api``."""
