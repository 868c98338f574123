"""A game review (:mod:`mattis.bots.review`) told in words, the same in every front end.

The terminal's ``mattis review`` prints these sentences; the browser's review screen is to
show the same ones, so a turning point is explained in one wording everywhere:
"Å spille 9♥ her ville ha senket risikoen fra 31 % til 22 %." Move numbers count from 1,
as ``mattis replay`` numbers them (the review's ``action`` + 1).
"""

from __future__ import annotations

from ..bots.review import DecisionReview
from ..core.actions import CHANCE, PICKUP, Action
from ..core.phase import Phase
from ..i18n import Lang, format_percent, t
from .cards import action_label, play_label


def move_number(decision: DecisionReview) -> int:
    """The move's number as ``mattis replay`` shows it (the action number + 1)."""
    return decision.action + 1


def phase_number(decision: DecisionReview) -> int:
    """1 for phase 1 (collecting), 2 for phase 2 (shedding)."""
    return 1 if decision.phase == Phase.COLLECT else 2


def risk_texts(risk: float, best_risk: float, lang: Lang) -> tuple[str, str]:
    """Two risks as percentages, whole unless they would look equal (then one decimal)."""
    for decimals in (0, 1, 2):
        shown = format_percent(risk, lang, decimals), format_percent(best_risk, lang, decimals)
        if shown[0] != shown[1] or risk == best_risk:
            return shown
    return shown


def move_text(text: str, lang: Lang) -> str:
    """A move of the review (action text such as ``"7h"``) as players read it: ``7♥``,
    ``6♥–8♥``, *sjanse*, *ta opp*."""
    return action_label(Action.parse(text), lang)


def better_move_sentence(decision: DecisionReview, lang: Lang) -> str:
    """What the best move would have done: "Å spille 9♥ her ville ha senket risikoen fra
    31 % til 22 %." (chancing and picking up in their own words)."""
    risk, best = risk_texts(decision.risk, decision.best_risk, lang)
    action = Action.parse(decision.best)
    if action is CHANCE:
        return t("play.review.better_chance", lang, risk=risk, best_risk=best)
    if action is PICKUP:
        return t("play.review.better_pickup", lang, risk=risk, best_risk=best)
    return t("play.review.better_play", lang, play=play_label(action), risk=risk, best_risk=best)


def turning_point_sentence(decision: DecisionReview, lang: Lang) -> str:
    """A turning point in full: the move, what was played, and what would have been safer."""
    played = t("play.review.played", lang, number=move_number(decision), phase=phase_number(decision),
               play=move_text(decision.played, lang))
    return f"{played} {better_move_sentence(decision, lang)}"


def points_text(difference: float) -> str:
    """A difference of risks in whole percentage points: ``+9``, ``0``."""
    points = round(difference * 100)
    return f"+{points}" if points > 0 else str(points)


def uncertainty_text(standard_error: float, lang: Lang) -> str:
    """The standard error of a difference, in percentage points: "± 3 prosentpoeng"."""
    points = max(1, round(standard_error * 100)) if standard_error > 0 else 0
    return t("play.review.uncertainty", lang, points=points)
