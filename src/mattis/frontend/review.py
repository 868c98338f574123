"""A game review (:mod:`mattis.bots.review`) told in words, the same in every front end.

The terminal's ``mattis review`` prints these sentences; a browser's review screen is to
show the same ones, so a turning point is explained in one wording everywhere:
"Å spille 9♥ her ville ha senket risikoen fra 31 % til 22 %." Move numbers count from 1,
as ``mattis replay`` numbers them (the review's ``action`` + 1).

:func:`review_report` gathers all of it for one language in a :class:`ReviewReport`, a frozen
value whose :meth:`~ReviewReport.to_dict` is plain JSON: the review's figures and its words,
what a page needs to draw the risk over the game and explain the turning points
(``docs/review.md`` gives the shape).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..bots.review import REVIEW_ITERATIONS, DecisionReview, Knowledge, Review
from ..core.actions import CHANCE, PICKUP, Action
from ..core.phase import Phase
from ..i18n import Lang, format_percent, t
from .cards import action_label, cards_label, play_label


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


def choice_words(decision: DecisionReview, lang: Lang) -> dict[str, Any]:
    """One choice in words, for a page that steps through the review: its move number and
    phase, every legal move as players read it (``labels``, by action text), and what the
    safest move would have done (:func:`better_move_sentence`; ``None`` when the move played
    was the safest)."""
    return {
        "action": decision.action,
        "move": move_number(decision),
        "phase": phase_number(decision),
        "labels": {text: move_text(text, lang) for text, _ in decision.options},
        "sentence": None if decision.best == decision.played else better_move_sentence(decision, lang),
    }


def points_text(difference: float) -> str:
    """A difference of risks in whole percentage points: ``+9``, ``0``."""
    points = round(difference * 100)
    return f"+{points}" if points > 0 else str(points)


def uncertainty_text(standard_error: float, lang: Lang) -> str:
    """The standard error of a difference, in percentage points: "± 3 prosentpoeng"."""
    points = max(1, round(standard_error * 100)) if standard_error > 0 else 0
    return t("play.review.uncertainty", lang, points=points)


def cost_uncertainty(decision: DecisionReview, lang: Lang) -> str:
    """A cost's uncertainty, "uncertainty ± 3 percentage points", with "; the difference may
    be chance" when the cost is not clear (:attr:`~mattis.bots.review.DecisionReview.clear`)."""
    text = uncertainty_text(decision.cost_se, lang)
    return text if decision.clear else t("play.review.may_be_chance", lang, uncertainty=text)


def knowledge_sentence(knew: Knowledge, iterations: int, lang: Lang) -> str:
    """What the seat knew at a choice and what was guessed: "Known then: the hand 7♥ 9♥ K♠;
    1 card in other hands known from the play. The 23 unseen cards were dealt at random 400
    times." (Which cards, and whose, are in :attr:`Knowledge.known` for a page to show.)"""
    known = sum(len(cards) for cards in knew.known)
    elsewhere = t("play.review.knew_elsewhere", lang, count=known) if known else ""
    hand = t("play.review.knew", lang, hand=cards_label(knew.hand), elsewhere=elsewhere)
    guessed = (t("play.review.unseen", lang, unseen=knew.unseen, iterations=iterations) if knew.unseen
               else t("play.review.all_known", lang))
    return f"{hand} {guessed}"


def method_sentence(review: Review, lang: Lang) -> str:
    """How every risk of ``review`` was estimated, and what counts as a loss."""
    included = t("play.review.included", lang, name=review.also_mattis) if review.also_mattis else ""
    return t("play.review.method", lang, included=included, iterations=review.iterations, seed=review.seed)


@dataclass(frozen=True, slots=True)
class TurningPointText:
    """A turning point in words."""

    action: int
    move: int
    """Its number as ``mattis replay`` shows it (:func:`move_number`)."""
    sentence: str
    """What was played and what would have been safer (:func:`turning_point_sentence`)."""
    uncertainty: str
    """The standard error of the difference, and whether it may be chance
    (:func:`cost_uncertainty`)."""
    knew: str
    """What the seat knew there (:func:`knowledge_sentence`)."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {"action": self.action, "move": self.move, "sentence": self.sentence,
                "uncertainty": self.uncertainty, "knew": self.knew}


@dataclass(frozen=True, slots=True)
class ReviewReport:
    """A review with everything said about it in one language: the value a page renders."""

    review: Review
    lang: Lang
    method: str
    """How the risks were estimated (:func:`method_sentence`)."""
    notes: tuple[str, ...]
    """Said before the figures: a lighter budget than the default, an unfinished game."""
    verdict: str | None
    """Said instead of turning points when there are none: no choices, or none that cost."""
    turning_points: tuple[TurningPointText, ...]
    forced: str | None
    """How many forced moves were not judged, if any."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"review": Review.to_dict(), "lang", "words": {…}}``."""
        return {
            "review": self.review.to_dict(),
            "lang": self.lang,
            "words": {
                "method": self.method,
                "notes": list(self.notes),
                "verdict": self.verdict,
                "turning_points": [point.to_dict() for point in self.turning_points],
                "forced": self.forced,
            },
        }


def review_report(review: Review, lang: Lang) -> ReviewReport:
    """``review`` told in ``lang``."""
    notes = []
    if review.iterations < REVIEW_ITERATIONS:
        notes.append(t("play.review.light", lang, iterations=review.iterations, full=REVIEW_ITERATIONS))
    if not review.finished:
        notes.append(t("play.review.unfinished", lang))
    verdict = None
    if not review.decisions:
        verdict = t("play.review.no_decisions", lang)
    elif not review.turning_points:
        verdict = t("play.review.no_turning", lang)
    points = []
    for action in review.turning_points:
        decision = review.decision(action)
        points.append(TurningPointText(
            action=action,
            move=move_number(decision),
            sentence=turning_point_sentence(decision, lang),
            uncertainty=cost_uncertainty(decision, lang),
            knew=knowledge_sentence(decision.knew, review.iterations, lang),
        ))
    forced = t("play.review.forced", lang, count=len(review.forced)) if review.forced else None
    return ReviewReport(review=review, lang=lang, method=method_sentence(review, lang), notes=tuple(notes),
                        verdict=verdict, turning_points=tuple(points), forced=forced)
