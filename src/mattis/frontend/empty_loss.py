"""How often a deal ends early in Blåmattis or Blodmattis (P1.10), as measured, and when a
front end warns before such a deal: the terminal when a game starts, the web's start page and
friends' setup before a table is made. One table of figures, one threshold, one sentence.

The figures are the variant lab's ``normal`` run (every seat a ``normal`` bot, 100 games for
each preset at each player count it allows), ``benchmarks/lab/lab.json``, made by
``mattis lab --rules pagat,kortregler,app --games 100 --hard-iterations 20 --seed 1``; a test
checks them against that file. They hold for a preset's own rules only: a house rule may
change them either way, and what was not measured is not guessed.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from ..core.rules import NothingLeft, Rules
from ..i18n import Lang, lost_on_empty_name, t

MEASURED_GAMES = 100
"""Games behind each figure."""

MEASURED: MappingProxyType[tuple[str, int], float] = MappingProxyType({
    ("pagat", 3): 0.0, ("pagat", 4): 0.01, ("pagat", 5): 0.24, ("pagat", 6): 0.44,
    ("app", 3): 0.0, ("app", 4): 0.09, ("app", 5): 0.51, ("app", 6): 0.93,
})
"""Share of games ended by Blåmattis/Blodmattis, by preset and player count (``kortregler``
cannot end that way: nothing left is no loss there)."""

NOTABLE_RATE = 0.25
"""From this share on (one game in four), a deal is worth a warning before it starts."""


@dataclass(frozen=True)
class EmptyLossRisk:
    """A measured, notable chance that the deal ends early with Blåmattis or Blodmattis."""

    preset: str
    players: int
    rate: float
    name: str
    """*Blåmattis* or *Blodmattis*."""

    def warning(self, lang: Lang) -> str:
        """The warning in words, with the measured rate."""
        return t("play.empty_loss_warning", lang, players=self.players, percent=round(self.rate * 100),
                 name=self.name, games=MEASURED_GAMES)


def empty_loss_risk(rules: Rules, players: int) -> EmptyLossRisk | None:
    """The measured risk for these rules and player count when it is notable, else ``None``
    (also when these rules were not measured: a house-rule mix)."""
    preset = rules.preset_name
    rate = MEASURED.get((preset, players)) if preset is not None else None
    if preset is None or rate is None or rate < NOTABLE_RATE or rules.nothing_left is not NothingLeft.LOSE:
        return None
    return EmptyLossRisk(preset, players, rate, lost_on_empty_name(rules.nothing_left_counts))
