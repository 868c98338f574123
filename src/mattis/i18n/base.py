"""Words every front end uses (keys without a prefix), in bokmål and English.

Data only, like every catalogue in this package: :func:`mattis.i18n.catalogues` gathers
them, so importing a catalogue changes nothing.
"""

from __future__ import annotations

BASE_MESSAGES: dict[str, tuple[str, str]] = {
    # key: (bokmål, English)
    "yes": ("ja", "yes"),
    "no": ("nei", "no"),
    "error": ("feil", "error"),
    "players": ("spillere", "players"),
    "house_rules": ("husregler", "house rules"),
}
