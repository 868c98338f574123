"""The text picture the environments' ``render()`` returns: every seat's view side by side,
for a person watching an agent train (not an observation: agents never see it)."""

from __future__ import annotations

from ..extras import MissingExtra

try:
    import gymnasium
except ImportError as error:  # the rl extra is missing: say what to install
    raise MissingExtra(__name__, "rl", error.name) from error

from ..core.game import Game
from ..core.phase import Phase
from ..i18n import Lang, t


def render_text(game: Game, lang: Lang = "en", truncated: bool = False) -> str:
    """The whole table in a few lines: each seat's hand (from that seat's own view), the
    cards on the table, the trump and the stock."""
    views = [game.view(seat) for seat in range(game.players)]
    public = views[0]
    preset = public["preset"] or t("house_rules", lang)
    lines = [t("env.header", lang, preset=preset, players=game.players,
               phase=t(f"env.phase.{public['phase']}", lang), actions=game.num_actions)]
    trump = public["trump_card"] or public["trump"]
    lines.append(" · ".join([
        t("env.trump", lang, trump=trump) if trump else t("env.trump_unknown", lang),
        t("env.stock", lang, count=public["stock_size"]),
    ]))
    for seat, view in enumerate(views):
        marks = []
        if view["to_move"] == seat:
            marks.append(t("env.to_move", lang))
        if seat in view["out"]:
            marks.append(t("env.out", lang))
        if seat in view["losers"]:
            marks.append(t("env.mattis", lang))
        if view["phase"] == Phase.COLLECT:
            marks.append(t("env.won", lang, count=view["won_sizes"][seat]))
        hand = " ".join(view["hand"]) or "-"
        suffix = f"  ({', '.join(marks)})" if marks else ""
        lines.append(f"{t('env.seat', lang, seat=seat)}: {hand}{suffix}")
    plays = [f"{seat}:{'-'.join([cards[0], cards[-1]]) if len(cards) > 1 else cards[0]}"
             for seat, cards in public["table"]]
    lines.append(t("env.table", lang, plays=" ".join(plays)) if plays else t("env.table_empty", lang))
    if truncated:
        lines.append(t("env.truncated", lang, actions=game.num_actions))
    return "\n".join(lines)


def render_in_mode(mode: str | None, game: Game, lang: Lang, truncated: bool) -> str | None:
    """``render()`` of both environments: the text for ``ansi``, printed for ``human``,
    and a warning without a mode (the Gymnasium convention)."""
    if mode is None:
        gymnasium.logger.warn("render() was called without a render_mode; pass render_mode='ansi'")
        return None
    text = render_text(game, lang, truncated)
    if mode == "human":
        print(text)
        return None
    return text
