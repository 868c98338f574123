"""Playing Mattis in a terminal: one person against bots, one game or a match.

The games are played on the table layer, as at every host (:mod:`.host`: the session deals,
moves for the bots, tells the story and keeps the score); this loop reads a line, hands it
to its :class:`~.host.TerminalTable`, draws what comes back, and paces the bots' moves so
each can be read. Input comes from a ``read_line(prompt)`` function (``console.input`` by
default) so tests can drive the real program through a terminal. Whatever happens (a
finished game, ``quit``, Ctrl-D, Ctrl-C), the game is saved: when it is dealt (which claims
a file of its own), before each of the person's moves and once more at the end, to a file
whose path is printed. If the last save fails, the last line says so and the exit code is
:data:`EXIT_SAVE_FAILED`.
"""

from __future__ import annotations

import asyncio
import os
import select
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from ..frontend.empty_loss import empty_loss_risk
from ..frontend.inputs import Command, CommandInput, parse_input
from ..frontend.match import Match
from ..frontend.narrate import out_order_line, result_headline
from ..frontend.reasons import bot_reason
from ..frontend.record import SaveFile, match_save_path, os_error_text
from ..frontend.seats import Participant, join_names, seat_label, seat_name
from ..frontend.story import LogLine
from ..frontend.text import printable
from ..i18n import Lang, t
from ..table import TableConfig
from .host import Asked, Blank, Moved, Rejected, TerminalTable, terminal_config
from .render import board, choices_text, help_text, news_text, rules_summary, score_table

ReadLine = Callable[[str], str]
"""Shows a prompt and returns the line typed (raises ``EOFError`` at end of input)."""

EXIT_OK = 0
EXIT_SAVE_FAILED = 1
"""Exit code when the game could not be saved at the end: a script must not think it was."""
EXIT_INTERRUPTED = 130
"""Exit code after Ctrl-C, as shells report a program stopped by SIGINT."""
QUIET_AFTER = 14
"""Once you are out, show this many of the bots' moves, then only who goes out."""
TRICK_PAUSE = 2.0
"""A completed trick holds the screen this many paces longer, to see who took it."""
TRICK_KINDS = frozenset({"won", "clear"})


class Ending(Enum):
    """How a game in the terminal came to an end."""

    OVER = "over"
    QUIT = "quit"
    EOF = "eof"
    INTERRUPT = "interrupt"


@dataclass
class TerminalPlay:
    """A match (one game or several) in a terminal."""

    match: Match
    participants: list[Participant]
    """Who sits where: the person and the bots (the match itself only counts seats)."""
    preset: str
    """The preset the rules start from (named in the ``rules`` command)."""
    lang: Lang
    console: Console
    save_base: Path
    config: TableConfig = field(default_factory=lambda: terminal_config(pace=0.0))
    """How the table behaves (the ``terminal`` profile with ``--pace`` and
    ``--hint-seconds``): its bot delay is the pace, seconds between bot moves (0: no pause;
    a completed trick waits longer)."""
    read_line: ReadLine | None = None
    overwrite: bool = False
    """Whether the person allowed replacing an existing saved game at ``save_base``."""
    auto_forced: bool = False
    """Play the person's only legal move without asking."""
    explain: bool = False
    """Show each bot's reason for its move."""
    _skipping: bool = field(default=False, init=False, repr=False)
    """Enter was pressed while bots moved: no more pauses until the person's turn."""
    _save_error: str | None = field(default=None, init=False, repr=False)
    """Why the last save failed, while saving keeps failing (``None`` when it works)."""

    @property
    def pace(self) -> float:
        """Seconds between bot moves at this terminal."""
        return self.config.bot_delay

    @property
    def games(self) -> int:
        """How many games the match has (a terminal match always has an end)."""
        return self.match.games or 1

    def _read(self, prompt: str) -> str:
        if self.read_line is not None:
            return self.read_line(prompt)
        return self.console.input(Text(prompt, style="bold"))

    def _say(self, text: str, style: str = "") -> None:
        self.console.print(Text(text, style=style))

    # ---------------------------------------------------------------- the match

    def run(self) -> int:
        """Play every game of the match; returns the exit code. Each game is saved before
        anything else can go wrong, so an interrupt at any point loses nothing."""
        try:
            return self._run()
        except KeyboardInterrupt:
            self.console.print()
            return EXIT_INTERRUPTED

    def _run(self) -> int:
        self._welcome()
        with asyncio.Runner() as runner:  # one event loop for the table's steps
            return self._play_match(TerminalTable(self.match, self.participants, self.lang,
                                                  config=self.config, runner=runner))

    def _play_match(self, table: TerminalTable) -> int:
        lang = self.lang
        while not table.match.finished:
            game = table.deal()
            number = table.number
            slot = SaveFile(match_save_path(self.save_base, number, self.games), self.overwrite)
            self.console.print()
            title = (t("play.game_n", lang, number=number, games=self.games) if self.games > 1
                     else t("play.game_one", lang))
            dealer = seat_name(self.participants[game.dealer], lang, initial=False)
            self.console.print(Rule(Text(f"{title} · {t('play.dealer_is', lang, who=dealer)}")))
            if self._save(table, slot, number):  # claims this game's file before any move
                self._say(t("play.saving_to", lang, path=_path_text(slot)), "dim")
            ending = self._play_game(table, slot, number)
            if ending is not Ending.OVER:
                saved = self._save(table, slot, number)
                self.console.print()
                self._say(t("play.stopped", lang), "bold")
                if not saved:
                    return self._not_saved(slot)
                self._say(t("play.saved", lang, path=_path_text(slot)), "bold green")
                return EXIT_INTERRUPTED if ending is Ending.INTERRUPT else EXIT_OK
            saved = self._save(table, slot, number)  # the table has counted the game
            self._result(table)
            if not saved:
                return self._not_saved(slot)
            self._say(t("play.saved", lang, path=_path_text(slot)), "bold green")
            if self.games > 1:
                self._scores()
                if not table.match.finished and not self._wait_next():
                    return EXIT_OK
        return EXIT_OK

    def _not_saved(self, slot: SaveFile) -> int:
        """The last line when the final save failed: the truth, and a failing exit code.
        A match stops here rather than play more games that might not be saved either."""
        self._say(t("play.not_saved", self.lang, path=_path_text(slot),
                    error=self._save_error or "?"), "bold red")
        return EXIT_SAVE_FAILED

    def _welcome(self) -> None:
        lang, match = self.lang, self.match
        rules_name = match.rules.preset_name or t("play.house_rules_of", lang, preset=self.preset)
        self.console.print(Rule(Text(t("play.welcome", lang, rules=rules_name, players=match.players),
                                     style="bold")))
        others = [seat_label(p, lang) for p in self.participants if not p.human]
        human = next(p.seat for p in self.participants if p.human)
        self._say(t("play.seating", lang, seat=human, others=join_names(others, lang)))
        if self.games > 1:
            self._say(t("play.match_intro", lang, games=self.games))
        risk = empty_loss_risk(match.rules, match.players)
        if risk is not None:  # P1.10: likely to end early in Blåmattis/Blodmattis
            self._say(risk.warning(lang), "yellow")
        self._say(t("play.how_to", lang), "dim")
        if self.pace > 0:
            self._say(t("play.pace_note", lang), "dim")

    def _wait_next(self) -> bool:
        """Between games: Enter deals the next, ``quit`` stops, ``help`` and ``rules`` answer
        and ask again."""
        while True:
            try:
                answer = self._read(t("play.next_game", self.lang))
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                return False
            if answer.strip().lower() == "q":
                return False
            parsed = parse_input(answer)
            if not isinstance(parsed, CommandInput):
                return True
            if parsed.command is Command.QUIT:
                return False
            if parsed.command is Command.HELP:
                self.console.print(help_text(self.lang))
            elif parsed.command is Command.RULES:
                self.console.print(rules_summary(self.match.rules, self.preset, self.lang))
            else:
                return True

    def _save(self, table: TerminalTable, slot: SaveFile, number: int) -> bool:
        """Save the game so far; whether it worked. A failure is told once, when it starts
        (a full disk must not cost the game on screen, nor repeat at every move), and a
        later success says that saving works again."""
        match = self.match
        extra: dict[str, object] | None = None
        if self.games > 1:
            extra = {"match": {"game": number, "games": self.games, "seed": match.game_seed(1),
                               "scores": list(match.scores)}}
        try:
            slot.write(table.record(extra))
        except OSError as error:
            problem = os_error_text(error)
            if self._save_error is None:
                self._say(t("play.save_failed", self.lang, path=_path_text(slot), error=problem),
                          "bold red")
            self._save_error = problem
            return False
        if self._save_error is not None:
            self._save_error = None
            self._say(t("play.saved_again", self.lang, path=_path_text(slot)), "green")
        return True

    # ---------------------------------------------------------------- one game

    def _play_game(self, table: TerminalTable, slot: SaveFile, number: int) -> Ending:
        shown_while_out = 0
        try:
            while True:
                shown_while_out = self._show_news(table, table.news(), shown_while_out)
                while not table.over and not table.human_to_move:
                    decision = table.step_bot()
                    news = table.news()
                    reason = None
                    if self.explain and decision.reason != "forced":
                        reason = bot_reason(decision, self.lang)
                    shown_while_out = self._show_news(table, news, shown_while_out, reason)
                    if shown_while_out <= QUIET_AFTER:  # no waiting for moves not shown
                        self._pause(news)
                self._skipping = False
                if table.over:
                    return Ending.OVER
                self._save(table, slot, number)
                forced = table.forced_move
                if forced is not None and self.auto_forced:
                    self._say(table.advice(), "yellow")  # why it is the only move
                    self._say(t("play.auto_forced", self.lang,
                                move=table.choice_labels()[0]), "dim")
                    table.handle("")
                    continue
                self._draw_turn(table)
                ending = self._ask(table)
                if ending is not None:
                    return ending
        except EOFError:
            return Ending.EOF
        except KeyboardInterrupt:
            return Ending.INTERRUPT

    def _pause(self, news: list[LogLine]) -> None:
        """Wait between bot moves so each can be read; longer when a trick is complete.
        Enter skips the waiting until the person's next turn (the line is not a move)."""
        if self.pace <= 0 or self._skipping or not news:
            return
        seconds = self.pace * (TRICK_PAUSE if any(item.kind in TRICK_KINDS for item in news) else 1)
        if self.read_line is not None:
            time.sleep(seconds)
            return
        try:
            ready, _, _ = select.select([sys.stdin], [], [], seconds)
        except (OSError, ValueError):  # no selectable stdin (a pipe on Windows): just wait
            time.sleep(seconds)
            return
        if ready:
            os.read(sys.stdin.fileno(), 4096)  # the Enter that asked to skip
            self._skipping = True

    def _show_news(self, table: TerminalTable, items: list[LogLine], shown_while_out: int,
                   reason: str | None = None) -> int:
        for index, item in enumerate(items):
            if table.human_out and item.kind not in ("out", "lose"):
                shown_while_out += 1
                if shown_while_out > QUIET_AFTER:
                    if shown_while_out == QUIET_AFTER + 1:
                        self._say("  " + t("play.others_play_on", self.lang), "dim")
                    continue
            self.console.print(news_text(item.kind, item.text, item.seat == table.human))
            if index == 0 and reason is not None and item.seat is not None:
                who = seat_name(table.participants[item.seat], self.lang)
                self._say(t("play.bot_why", self.lang, who=who, reason=reason), "dim italic")
        return shown_while_out

    def _draw_turn(self, table: TerminalTable) -> None:
        lang = self.lang
        state = table.state()
        self.console.print()
        self.console.print(board(state, lang))
        self.console.print(Text(table.advice(), style="yellow"))
        width = max(40, min(self.console.width, 100))
        self.console.print(choices_text(table.choices(), table.choice_labels(),
                                        state.trump_suit, lang=lang, width=width))

    def _ask(self, table: TerminalTable) -> Ending | None:
        """Read lines until one is a legal move (``None``) or the person stops."""
        lang = self.lang
        while True:
            forced = table.forced_move
            prompt = (t("play.prompt_forced", lang, move=table.choice_labels()[0]) if forced is not None
                      else t("play.prompt", lang))
            reply = table.handle(self._read(prompt))
            if isinstance(reply, Moved):
                return None
            if isinstance(reply, Rejected):
                self._say(reply.message, "bold red")
            elif isinstance(reply, Blank):
                continue
            elif isinstance(reply, Asked):
                if reply.command is Command.QUIT:
                    return Ending.QUIT
                self._command(table, reply.command)

    def _command(self, table: TerminalTable, command: Command) -> None:
        lang = self.lang
        if command is Command.HINT:
            self._say(t("play.thinking", lang), "dim")
            hint = table.hint()
            if isinstance(hint, Rejected):
                self._say(hint.message, "bold red")
            else:
                self._say(hint.text(lang), "bold green")
        elif command is Command.HELP:
            self.console.print(help_text(lang))
        elif command is Command.RULES:
            self.console.print(rules_summary(table.game.rules, self.preset, lang))
        elif command is Command.SHOW:
            self._draw_turn(table)

    # ---------------------------------------------------------------- results

    def _result(self, table: TerminalTable) -> None:
        lang, game = self.lang, table.game
        you_lost = table.human in game.losers
        self.console.print()
        self.console.print(Rule(Text(result_headline(game, table.participants, lang),
                                     style="bold magenta" if you_lost else "bold green")))
        order = out_order_line(game, table.participants, lang)
        if order:
            self._say(order)
        self._say(t("play.you_lost" if you_lost else "play.you_escaped", lang),
                  "bold magenta" if you_lost else "bold green")

    def _scores(self) -> None:
        lang, match = self.lang, self.match
        title = (t("play.score_final", lang, games=self.games) if match.finished
                 else t("play.score_after", lang, played=match.played, games=self.games))
        self.console.print()
        self.console.print(score_table(self.participants, match.scores, title, lang))
        if not match.finished:
            dealer = seat_name(self.participants[match.dealer], lang, initial=False)
            self._say(t("play.loser_deals", lang, who=dealer))
        else:
            fewest = min(match.scores)
            best = [seat_name(self.participants[s], lang, initial=False)
                    for s, score in enumerate(match.scores) if score == fewest]
            self._say(t("play.match_best", lang, who=join_names(best, lang), count=fewest), "bold")


def _path_text(slot: SaveFile) -> str:
    """The save path as shown: a file name typed with control characters stays harmless."""
    return printable(str(slot.shown_path))
