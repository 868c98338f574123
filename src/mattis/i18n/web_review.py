"""The review screen's words (the English source): the labels of a finished game's review in
the browser, served by ``GET /api/texts`` as ``review.…``. The review's sentences themselves
("Playing 9♥ here would have lowered the risk from 31% to 22%.") are ``play.review.…``, the
same for the terminal and the page (:mod:`mattis.frontend.review`).

Data only: :func:`mattis.i18n.catalogues` gathers it with the others.
"""

from __future__ import annotations

from .plural import Source

REVIEW_MESSAGES: dict[str, Source] = {
    "web.ui.review.open": "Review the game",
    "web.ui.review.title": "Your game, looked back on",
    "web.ui.review.close": "Close",
    "web.ui.review.working": "Going through your choices … {percent}",
    "web.ui.review.starting": "Going through your choices …",
    "web.ui.review.device": (
        "The review on this device is a simpler one: fewer random deals per choice, so its figures "
        "are less sure than on a server."
    ),
    "web.ui.review.failed": "The review could not be worked out.",
    "web.ui.review.chart_title": "Your risk of becoming Mattis over the game",
    "web.ui.review.chart_desc": (
        "A line over the game's {moves} moves: at each of your {choices} choices, the estimated risk "
        "after the move you played. Turning points are marked; the table below gives every figure."
    ),
    "web.ui.review.turning": "Turning points",
    "web.ui.review.choices": "Every choice",
    "web.ui.review.col_move": "Move",
    "web.ui.review.col_played": "Played",
    "web.ui.review.col_risk": "Risk",
    "web.ui.review.col_best": "Safest move",
    "web.ui.review.col_best_risk": "Its risk",
    "web.ui.review.step": "Choice {n} of {count}",
    "web.ui.review.prev": "Previous choice",
    "web.ui.review.next": "Next choice",
    "web.ui.review.to_turning": "Show move {move}",
    "web.ui.review.where": "Move {move}, phase {phase}",
    "web.ui.review.your_hand": "Your hand",
    "web.ui.review.on_table": "On the table",
    "web.ui.review.nothing_on_table": "Nothing on the table.",
    "web.ui.review.trump": "Trump: {suit}",
    "web.ui.review.stock": "Stock: {count}",
    "web.ui.review.hands": "Cards in hand",
    "web.ui.review.options": "Every move you had, and its risk",
    "web.ui.review.played_mark": "played",
    "web.ui.review.best_mark": "safest",
    "web.ui.review.same": "You played the safest move.",
    "web.err.review_busy": (
        "A review of another game is being worked out for your seat; wait until it is done."
    ),
}
