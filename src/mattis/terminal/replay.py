"""Watching a saved game again, move by move, in the terminal.

The saved record is replayed with the rules core (``Game.from_record``), so what is shown is
what the rules make of the stored actions, not a stored transcript. Each step prints what
happened in the same sentences and announcements as live play; step mode also draws the
table before each move and waits for Enter (``b`` steps back one move). The viewpoint is one
seat (only that hand is shown, as during play) or every seat (``--all``, for looking back at
how the cards lay).
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from ..core.game import Game
from ..frontend.cards import sort_hand
from ..frontend.narrate import out_order_line, result_headline
from ..frontend.record import LoadedGame
from ..frontend.seats import seat_label, seat_name
from ..frontend.story import TableStory
from ..frontend.table import table_state
from ..i18n import Lang, t
from .game import EXIT_INTERRUPTED, EXIT_OK, ReadLine
from .render import board, cards_text, news_text

_STOP_WORDS = ("q", "quit", "avslutt", "slutt", "exit", "stopp")
_BACK_WORDS = ("b", "back", "tilbake", "t")


@dataclass
class TerminalReplay:
    """One saved game shown in a terminal."""

    loaded: LoadedGame
    lang: Lang
    console: Console
    step: bool
    seat: int | None
    """The seat whose hand is shown; ``None`` shows every hand."""
    read_line: ReadLine | None = None

    def _read(self, prompt: str) -> str:
        if self.read_line is not None:
            return self.read_line(prompt)
        return self.console.input(Text(prompt, style="dim"))

    def _visible(self, seat: int | None) -> bool:
        return seat is not None and (self.seat is None or seat == self.seat)

    def run(self) -> int:
        """Show the game; returns the exit code."""
        lang, record = self.lang, self.loaded.record
        people = self.loaded.participants
        game = self._start()
        actions: list[str] = [str(a) for a in record.get("actions", [])]
        preset = game.rules.preset_name or t("play.house_rules", lang)
        self.console.print(Rule(Text(t("play.replay_title", lang, rules=preset, players=game.players,
                                       actions=len(actions)), style="bold")))
        if self.loaded.notice is not None:
            key, params = self.loaded.notice
            self.console.print(Text(t(key, lang, **params), style="yellow"))
        if any(p.human or p.name for p in people):  # old records name no one
            seating = ", ".join(f"{p.seat}: {seat_label(p, lang)}" for p in people)
            self.console.print(Text(t("play.replay_seats", lang, seats=seating)))
        if game.dealer >= 0:
            dealer = seat_name(people[game.dealer], lang, initial=False)
            self.console.print(Text(_capital(t("play.dealer_is", lang, who=dealer)), style="dim"))
        if self.seat is None:
            viewpoint = t("play.replay_all", lang)
        elif people[self.seat].human:
            viewpoint = t("play.replay_yours", lang)
        else:
            viewpoint = t("play.replay_seat", lang, who=seat_name(people[self.seat], lang))
        self.console.print(Text(viewpoint, style="dim"))
        story = TableStory(people, game.rules, lang)
        for line in story.tell(game.history, game.seat_view(0, since=game.num_events)):  # puzzles
            self.console.print(news_text(line.kind, line.text, False))
        position = 0
        try:
            while position < len(actions):
                if self.step:
                    self._draw(game)
                    answer = self._read(t("play.replay_prompt_back", lang)).strip().lower()
                    if answer in _STOP_WORDS:
                        return EXIT_OK
                    if answer in _BACK_WORDS:
                        if position == 0:
                            self.console.print(Text(t("play.replay_at_start", lang), style="dim"))
                            continue
                        position -= 1
                        game, story = self._rebuilt(actions[:position])
                        self.console.print(Text(t("play.replay_back", lang, number=position + 1),
                                                style="bold cyan"))
                        continue
                self._show_move(game, story, position + 1, actions[position])
                position += 1
        except EOFError:
            self.console.print()
            return EXIT_OK
        except KeyboardInterrupt:
            self.console.print()
            return EXIT_INTERRUPTED
        self._result(game)
        return EXIT_OK

    def _start(self) -> Game:
        return Game.from_record({**self.loaded.record, "actions": [], "result": None})

    def _rebuilt(self, actions: list[str]) -> tuple[Game, TableStory]:
        """The game and its story after ``actions``, told silently (stepping back)."""
        game = self._start()
        story = TableStory(self.loaded.participants, game.rules, self.lang)
        story.tell(game.history, game.seat_view(0, since=game.num_events))
        for text in actions:
            told = game.num_events
            game.apply(text)
            story.tell(game.events_since(told), game.seat_view(0, since=game.num_events))
        return game, story

    def _show_move(self, game: Game, story: TableStory, number: int, text: str) -> None:
        """Play one stored move and print what happened, the move numbered."""
        mover = game.to_move
        head = Text(f"{number:>4}. ", style="cyan")
        if not self.step and self._visible(mover):
            assert mover is not None
            hand = sort_hand(game.hand(mover), game.phase, game.trump)
            head.append("[", style="dim")
            head.append_text(cards_text(hand, _trump_index(game)))
            head.append("] ", style="dim")
        told = game.num_events
        game.apply(text)
        lines = story.tell(game.events_since(told), game.seat_view(0, since=game.num_events))
        for index, line in enumerate(lines):
            if index == 0:
                head.append(line.text)
                self.console.print(head)
            else:
                self.console.print(news_text(line.kind, "    " + line.text, False))

    def _draw(self, game: Game) -> None:
        view_seat = self.seat if self.seat is not None else (game.to_move or 0)
        view = game.view(view_seat, since=game.num_events)  # the table, not the history
        hands = ({s: game.hand(s) for s in range(game.players)} if self.seat is None else None)
        state = table_state(view, self.loaded.participants, self.lang, show_hands=hands)
        self.console.print()
        title = None
        if self.seat is not None and not self.loaded.participants[self.seat].human:
            title = t("play.hand_of", self.lang,
                      who=seat_name(self.loaded.participants[self.seat], self.lang, initial=False))
        self.console.print(board(state, self.lang, show_cards=self.seat is None, hand_title=title))

    def _result(self, game: Game) -> None:
        people = self.loaded.participants
        self.console.print()
        style = "bold magenta" if game.is_over else "bold yellow"
        self.console.print(Rule(Text(result_headline(game, people, self.lang), style=style)))
        order = out_order_line(game, people, self.lang)
        if order:
            self.console.print(Text(order))


def _trump_index(game: Game) -> int | None:
    return game.trump_suit_index if game.trump_suit_index >= 0 else None


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
