"""The ``mattis`` command line: play, replay, rule tables, simulations, benchmarks and
tournaments.

The entry point is :func:`mattis.cli.app.main` (the ``mattis`` console script), which
builds the app from one module per command; what the commands share is in
:mod:`mattis.cli.common`. This package imports nothing itself, so ``python -m
mattis.cli.app`` runs without runpy's "found in sys.modules" warning and the rules core
stays importable without typer.
"""
