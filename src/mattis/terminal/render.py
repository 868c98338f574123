"""Drawing the table with rich: cards in suit colours, the players, the trick, the hand.

Everything here turns frontend values (:class:`~mattis.frontend.table.TableState`, labels,
sentences) into rich renderables; nothing reads input or changes a game. Text from players
or files is always wrapped in :class:`rich.text.Text`, never parsed as markup.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..core.actions import Action
from ..core.cards import suit_of
from ..core.phase import Phase
from ..core.rules import RULE_OPTIONS, Rules
from ..frontend.cards import card_label, card_role, is_run, run_dash
from ..frontend.seats import Participant, seat_label
from ..frontend.table import TableState, status_line
from ..i18n import (
    Lang,
    format_number,
    option_name,
    option_value,
    preset_summary,
    t,
)

ROLE_STYLES = {"red": "bold red", "black": "bold"}
"""Rich styles per colour role; black suits use the terminal's own text colour so they
stay readable on dark and light backgrounds alike."""
TRUMP_STYLE = "underline"
NEWS_STYLES = {"won": "bold", "out": "bold green", "lose": "bold magenta", "reveal": "bold yellow",
               "shed": "bold yellow", "trump_known": "bold yellow"}


def card_text(card: int, trump_suit: int | None = None) -> Text:
    """One card, e.g. ``10♥`` in red; trumps are underlined."""
    style = ROLE_STYLES[card_role(card)]
    if trump_suit is not None and suit_of(card) == trump_suit:
        style += " " + TRUMP_STYLE
    return Text(card_label(card), style=style)


def cards_text(cards: Sequence[int], trump_suit: int | None = None, separator: str = " ") -> Text:
    """Several cards side by side; a run of one suit reads ``6♥–8♥``."""
    if len(cards) > 1 and is_run(sorted(cards)):
        low, high = min(cards), max(cards)
        joined = card_text(low, trump_suit)
        joined.append(run_dash(), style=ROLE_STYLES[card_role(low)])
        joined.append_text(card_text(high, trump_suit))
        return joined
    text = Text()
    for index, card in enumerate(cards):
        if index:
            text.append(separator)
        text.append_text(card_text(card, trump_suit))
    return text


def play_text(action: Action, label: str, trump_suit: int | None = None) -> Text:
    """A legal move as listed: coloured cards, or *sjanse* / *ta opp* in words."""
    if action.cards:
        return cards_text(list(action.cards), trump_suit)
    return Text(label, style="italic")


def hand_text(cards: Sequence[int], state: TableState) -> Text:
    """A hand in display order, with a gap between suits in phase 2 (or between ranks in
    phase 1 it is one row: suits do not matter yet)."""
    text = Text()
    previous: int | None = None
    for card in cards:
        if previous is not None:
            gap = "   " if state.phase != Phase.COLLECT and suit_of(card) != suit_of(previous) else " "
            text.append(gap)
        text.append_text(card_text(card, state.trump_suit))
        previous = card
    return text


def players_table(state: TableState, lang: Lang, show_cards: bool = False) -> Table:
    """Who is at the table and how many cards each holds (and has won, in phase 1)."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
    table.add_column("", width=1, no_wrap=True)
    table.add_column(t("play.col.player", lang), no_wrap=True)
    table.add_column(t("play.col.hand", lang), justify="right", no_wrap=True)
    collecting = state.phase == Phase.COLLECT
    if collecting:
        table.add_column(t("play.col.won", lang), justify="right", no_wrap=True)
    if show_cards:
        table.add_column(t("play.col.cards", lang))
    table.add_column(t("play.col.notes", lang))
    for row in state.rows:
        notes: list[str] = []
        if row.dealer:
            notes.append(t("play.note.dealer", lang))
        if row.in_tie:
            notes.append(t("play.note.tie", lang))
        if row.holds_trump_card:
            notes.append(t("play.note.trump_card", lang))
        if row.out_place is not None:
            notes.append(t("play.note.out", lang, place=row.out_place))
        if row.loser:
            notes.append(t("play.note.mattis", lang))
        name = Text(row.label, style="bold" if row.to_move else "")
        cells: list[RenderableType] = [
            Text("▶" if row.to_move else "", style="bold cyan"), name, str(row.hand_size)]
        if collecting:
            cells.append(str(row.won_size))
        if show_cards:
            cells.append(hand_text(row.hand, state) if row.hand is not None else Text(""))
        cells.append(Text(", ".join(notes), style="dim"))
        table.add_row(*cells)
    return table


def table_line(state: TableState, lang: Lang) -> Text:
    """The current trick (phase 1) or the plays on the table, oldest first (phase 2)."""
    if state.phase == Phase.COLLECT:
        line = Text(t("play.trick", lang) + " ", style="bold")
        if not state.trick:
            line.append(t("play.trick_empty", lang), style="dim")
            return line
        for index, entry in enumerate(state.trick):
            if index:
                line.append("  ")
            line.append(entry.name + " ")
            line.append_text(cards_text(list(entry.cards)))
        return line
    line = Text(t("play.table", lang) + " ", style="bold")
    if not state.plays:
        line.append(t("play.table_empty", lang), style="dim")
        return line
    for index, entry in enumerate(state.plays):
        if index:
            line.append("  →  ", style="dim")
        line.append(entry.name + " ")
        line.append_text(cards_text(list(entry.cards), state.trump_suit))
    return line


def board(state: TableState, lang: Lang, show_cards: bool = False, hand_title: str | None = None
          ) -> Group:
    """The whole table: status, players, trick or table, and the seat's own hand."""
    parts: list[RenderableType] = [
        Text(status_line(state, lang), style="bold cyan"),
        players_table(state, lang, show_cards),
        table_line(state, lang),
    ]
    if not show_cards:
        hand = Text((hand_title or t("play.your_hand", lang)) + " ", style="bold")
        if state.hand:
            hand.append_text(hand_text(state.hand, state))
        else:
            hand.append(t("play.no_cards", lang), style="dim")
        parts.append(hand)
    if state.trump_suit is not None:
        key = "play.legend_trump_later" if state.phase == Phase.COLLECT else "play.legend_trump"
        parts.append(Text(t(key, lang), style="dim"))
    return Group(*parts)


def choices_text(actions: Sequence[Action], labels: Sequence[str], trump_suit: int | None, *, lang: Lang,
                 width: int) -> Text:
    """The numbered legal moves, wrapped to ``width``: ``1) 4♣  2) 7♥  3) sjanse``."""
    text = Text(t("play.moves", lang) + " ", style="bold")
    column = len(text.plain)
    for number, (action, label) in enumerate(zip(actions, labels, strict=True), start=1):
        item = Text()  # only the number is cyan: cards keep the colours they have in the hand
        item.append(f"{number}) ", style="cyan")
        item.append_text(play_text(action, label, trump_suit))
        size = len(item.plain) + 2
        if column + size > width and column > 0:
            text.append("\n    ")
            column = 4
        elif number > 1:
            text.append("  ")
        text.append_text(item)
        column += size
    return text


def news_text(kind: str, line: str, mine: bool) -> Text:
    """One sentence of what happened, styled by kind (your own moves dimmed)."""
    style = NEWS_STYLES.get(kind, "dim" if mine else "")
    return Text("  " + line, style=style)


def rules_summary(rules: Rules, preset: str, lang: Lang) -> Group:
    """The options of the game being played, briefly (for the ``rules`` command)."""
    base = Rules.preset(preset)
    changed = rules.differences(base)
    key = "play.rules_title_house" if changed else "play.rules_title"
    heading = Text(t(key, lang, preset=preset), style="bold")
    heading.append("\n" + preset_summary(preset, lang), style="dim")
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="cyan", no_wrap=True)
    grid.add_column()
    values = rules.to_dict()
    for field, option in RULE_OPTIONS.items():
        if not option.in_play or (field == "removed_two_player" and not values[field]):
            continue
        grid.add_row(option_name(option.text, lang),
                     Text(option_value(option.text, values[field], lang),
                          style="bold yellow" if field in changed else ""))
    return Group(heading, grid, Text(t("play.rules_more", lang, preset=preset), style="dim"))


def help_text(lang: Lang) -> Group:
    """Every command, with the words that work in the reader's language (every language's work)."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="cyan", no_wrap=True)
    grid.add_column()
    for key in ("card", "sequence", "number", "enter", "chance", "pickup", "hint", "rules", "show",
                "help", "quit"):
        grid.add_row(t(f"play.help.{key}_cmd", lang), t(f"play.help.{key}", lang))
    return Group(Text(t("play.help.title", lang), style="bold"), grid,
                 Text(t("play.help.game", lang), style="dim"))


def score_table(participants: Sequence[Participant], scores: Sequence[int], title: str,
                lang: Lang) -> Table:
    """Times each player was Mattis so far in a match."""
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, show_edge=False)
    table.add_column(t("play.col.player", lang), no_wrap=True)
    table.add_column(t("play.col.mattis", lang), justify="right")
    lowest = min(scores)
    for person, score in zip(participants, scores, strict=True):
        style = "bold green" if score == lowest else ""
        table.add_row(Text(seat_label(person, lang), style=style),
                      Text(format_number(score, lang), style=style))
    return table
