"""The ``mattis`` command line: rule tables, random-play statistics and benchmarks.

The entry point is :func:`mattis.cli.app.main` (the ``mattis`` console script). This
package imports nothing itself, so ``python -m mattis.cli.app`` runs without runpy's
"found in sys.modules" warning and the rules core stays importable without typer.
"""
