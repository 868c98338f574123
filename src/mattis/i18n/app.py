"""The offline app's texts (keys ``app.…``) (the English source).

``app.level_help.…`` say what each bot level does (``{seconds}`` is the ``hard``, ``expert`` or
``master`` bot's budget where it plays: the server's ``--hard-seconds``, or the phone budget on the device);
``app.ui.…`` are the labels of installing, updating and playing with no server, served to
the pages by ``GET /api/texts`` with the ``web.ui.…`` labels; ``web.err.open_elsewhere`` is the
worker's one refusal the server never gives.

Data only: :func:`mattis.i18n.catalogues` gathers it with the others.
"""

from __future__ import annotations

from .plural import Source

APP_MESSAGES: dict[str, Source] = {
    "app.level_help.random": "plays a random legal move",
    "app.level_help.easy": "simple rules of thumb, with the odd hasty move",
    "app.level_help.normal": "plays like a careful person",
    "app.level_help.hard": "searches possible games, up to {seconds} s a move",
    "app.level_help.learned": (
        "a neural network that learned from the search bot's games, "
        "playing on instinct without thinking ahead"
    ),
    "app.level_help.expert": (
        "searches longer and plays the possible games out with card sense, up to {seconds} s a move"
    ),
    "app.level_help.master": (
        "the strongest: thinks ahead with a neural network that learned from thousands of the search bot's "
        "games, up to {seconds} s a move"
    ),
    "app.ui.offline": "No server answers: you play against bots on this device.",
    "app.ui.on_device": "On this device",
    "app.ui.update_ready": "A new version of Mattis is ready.",
    "app.ui.update_now": "Update",
    "app.ui.loading_engine": "Loading the game engine …",
    "app.ui.my_stats": "My statistics",
    "app.ui.my_stats_help": "Your games against the bots, played on this device.",
    "app.ui.my_stats_none": "No finished games on this device yet.",
    "app.ui.my_stats_all": "All games",
    "app.ui.my_stats_against": "Against",
    "app.ui.my_stats_games": "Games",
    "app.ui.my_stats_mattis": "Mattis",
    "app.ui.my_stats_rate": "Mattis rate",
    "app.ui.my_stats_interval": "95% interval",
    "app.ui.my_stats_interval_later": "from 10 games",
    "app.ui.my_stats_rating": (
        "OpenSkill rating: {ordinal} (mean {mu}, uncertainty {sigma}; {games} games rated)"
    ),
    "app.ui.my_stats_rating_help": (
        "It grows with whom you outlast: a hard bot counts for more than a random one. The rating is "
        "the mean less three times the uncertainty, as the server counts it."
    ),
    "web.err.open_elsewhere": "This table is open in another tab or window; play on there, or close it.",
}
