"""The full rules text, as shipped with the package (``mattis/data/rules.<lang>.md``).

One copy for every front end: ``mattis rules --full`` prints it and the web server renders
it, so the rules a player reads never depend on a source checkout. A test keeps the shipped
files identical to the documentation in ``docs/``.
"""

from __future__ import annotations

from importlib import resources

from ..i18n import Lang


def full_rules(lang: Lang) -> str:
    """The full rules text in ``lang`` (Markdown)."""
    return resources.files("mattis").joinpath("data", f"rules.{lang}.md").read_text(encoding="utf-8")
