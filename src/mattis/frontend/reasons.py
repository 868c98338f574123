"""Why a bot played its move, and why the hint suggests one, in a player's words.

A bot's :class:`~mattis.bots.Decision` carries a reason key and details (``win_cheap`` with
the rank it beat, a search's share of games that kept you safe); these functions put them
in words for any front end: the terminal's ``--explain`` lines and hints, the tables' hint
message.
"""

from __future__ import annotations

from ..bots import Decision
from ..i18n import Lang, percent_text, t
from .cards import action_label, play_label
from .inputs import MoveInput, parse_input


def hint_reason(decision: Decision, lang: Lang) -> str:
    """Why the strong bot suggests a move, in plain words in ``lang``: how often the move kept
    you out of Mattis in its simulated games, or the rule-based reason."""
    details = dict(decision.detail)
    if decision.reason == "search" and "safe" in details:
        safe = percent_text(details["safe"].removesuffix("%"), lang)  # a whole percentage
        return t("play.hint.search", lang, safe=safe)
    return bot_reason(decision, lang)


BOT_REASONS = ("forced", "random", "careless", "break_loop", "chance_forced", "chance_weak",
               "lead_low", "win_cheap", "sacrifice_low", "must_pick_up", "cheapest_beat",
               "pickup_cheaper", "network")
"""The reason keys of the rule-based bots (:mod:`mattis.bots.rule_based`) and of the
``learned`` one (``network``) with a text."""


def _target_text(detail: str) -> str:
    """A play named in a bot's detail (``9♥``, ``6♥-8♥``) as cards are shown here."""
    parsed = parse_input(detail)
    return play_label(parsed.action) if isinstance(parsed, MoveInput) else detail


def bot_reason(decision: Decision, lang: Lang) -> str:
    """A bot's reason for its move in ``lang`` ("cheapest card that beats 9♥"), from its
    reason key and details; a key without a text gives the bot's own English words."""
    details = dict(decision.detail)
    if decision.reason == "search" and "safe" in details:
        return hint_reason(decision, lang)
    if decision.reason not in BOT_REASONS:
        return decision.explanation
    params: dict[str, object] = {"move": action_label(decision.action, lang)}
    for name in ("target", "oldest"):
        params[name] = _target_text(details.get(name, "?"))
    params["rank"] = details.get("rank", "?")
    key = f"play.bot.{decision.reason}"
    if decision.reason == "win_cheap" and "rank" not in details:
        key += "_plain"
    return t(key, lang, **params)
