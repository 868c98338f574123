"""Norwegian (bokmål) and English text shared by every front end.

The command line, the terminal game and the web UI all show the same option names,
option values and labels; keeping them here means a rule is called the same thing
everywhere and a translation is fixed once. Only presentation lives here: the rules
core never imports this module.

Messages are looked up by key with :func:`t`; option names and values by their field
name in :class:`mattis.Rules` (the names ``--set field=value`` uses)::

    t("sim.games_per_second", "nb")          # "Spill per sekund"
    option_name("trick", "en")               # "Phase-1 trick"
    option_value("trick", "all", "nb")       # "alle spiller"
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from enum import Enum
from typing import Literal, TypeGuard

Lang = Literal["nb", "en"]
"""A supported language: Norwegian bokmål or English."""

LANGS: tuple[Lang, ...] = ("nb", "en")
DEFAULT_LANG: Lang = "en"
_NORWEGIAN_PREFIXES = ("nb", "no", "nn")


def is_lang(value: object) -> TypeGuard[Lang]:
    """Whether ``value`` is one of :data:`LANGS` (narrows the type for mypy)."""
    return value in LANGS


def parse_lang(text: str) -> Lang:
    """``"nb"``/``"en"`` (any case) as a :data:`Lang`; anything else raises ``ValueError``."""
    key = text.strip().lower() if isinstance(text, str) else text
    if is_lang(key):
        return key
    raise ValueError(f"lang: expected one of {', '.join(LANGS)}, got {text!r}")


def detect_lang(environ: Mapping[str, str] | None = None) -> Lang:
    """The language the locale asks for: ``"nb"`` for Norwegian (nb, no, nn), else ``"en"``.

    Follows POSIX precedence: the first non-empty of ``LC_ALL``, ``LC_MESSAGES`` and
    ``LANG`` decides, so ``LC_ALL=C`` overrides a Norwegian ``LANG``.
    """
    env = os.environ if environ is None else environ
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "").strip().lower()
        if value:
            return "nb" if value.startswith(_NORWEGIAN_PREFIXES) else "en"
    return DEFAULT_LANG


# ---------------------------------------------------------------------------- messages

Catalogue = Mapping[str, tuple[str, str]]
"""Texts by key: ``{key: (bokmål, English)}``."""

BASE_MESSAGES: Catalogue = {
    # key: (bokmål, English)
    "yes": ("ja", "yes"),
    "no": ("nei", "no"),
    "error": ("feil", "error"),
    "players": ("spillere", "players"),
    "house_rules": ("husregler", "house rules"),
    # rules table
    "rules.title": ("Regler: {preset}", "Rules: {preset}"),
    "rules.title_house": ("Regler: {preset} med husregler", "Rules: {preset} with house rules"),
    "rules.compare_title": ("De tre variantene side om side", "The three presets side by side"),
    "rules.field": ("Felt", "Field"),
    "rules.option": ("Valg", "Option"),
    "rules.value": ("Verdi", "Value"),
    "rules.allowed": ("Lovlige verdier", "Allowed values"),
    "rules.changed_one": ("{option}: {value} (før: {was})", "{option}: {value} (was: {was})"),
    "rules.caption_house": ("{preset} med endringer: {changes}", "{preset} with changes: {changes}"),
    "rules.footer": (
        "Endre ett valg med --set felt=verdi, f.eks. --set min_sequence=3.",
        "Change one option with --set field=value, e.g. --set min_sequence=3.",
    ),
    "rules.compare_footer": (
        "Uthevede verdier skiller seg fra pagat.",
        "Highlighted values differ from pagat.",
    ),
    # simulation summary
    "sim.title": (
        "Simulering: {preset}, {players} spillere, {games} spill, frø {seed}",
        "Simulation: {preset}, {players} players, {games} games, seed {seed}",
    ),
    "sim.random_play": (
        "Alle spillere velger tilfeldig blant lovlige trekk.",
        "Every player picks a random legal move.",
    ),
    "sim.changed": ("Husregler: {changes}", "House rules: {changes}"),
    "sim.progress": ("Simulerer", "Simulating"),
    "sim.time": ("Tid", "Time"),
    "sim.seconds": ("{seconds} s", "{seconds} s"),
    "sim.games_per_second": ("Spill per sekund", "Games per second"),
    "sim.actions_per_second": ("Handlinger per sekund", "Actions per second"),
    "sim.actions_per_game": ("Handlinger per spill", "Actions per game"),
    "sim.actions_per_game_value": (
        "snitt {mean}, median {median}, fra {min} til {max}",
        "mean {mean}, median {median}, from {min} to {max}",
    ),
    "sim.phase1_actions": ("Handlinger i fase 1 (snitt)", "Phase-1 actions (mean)"),
    "sim.phase2_actions": ("Handlinger i fase 2 (snitt)", "Phase-2 actions (mean)"),
    "sim.lost_on_empty": ("{name} (tom etter fase 1)", "{name} (empty after phase 1)"),
    "sim.lost_on_empty_value": ("{count} spill ({rate})", "{count} games ({rate})"),
    "sim.lost_on_empty_off": (
        "kan ikke skje: den tomme må ta opp",
        "cannot happen: the empty player must pick up",
    ),
    "sim.multi_losers": ("Spill med flere tapere", "Games with several losers"),
    "sim.longest": ("Lengste spill", "Longest game"),
    "sim.longest_value": (
        "{actions} handlinger (spill {index}, stokkefrø {deck_seed})",
        "{actions} actions (game {index}, deck seed {deck_seed})",
    ),
    "sim.capped": ("Avbrutt ved taket", "Stopped at the cap"),
    "sim.capped_value": ("{count} spill (tak: {cap} handlinger)", "{count} games (cap: {cap} actions)"),
    "sim.none": ("ingen", "none"),
    "sim.finished_note": (
        "Spill avbrutt ved taket er ikke med i tallene per spill ({finished} av {games} ble ferdige).",
        "Games stopped at the cap are left out of the per-game figures ({finished} of {games} finished).",
    ),
    "sim.seats_title": ("Hvem ble Mattis?", "Who was Mattis?"),
    "sim.seat": ("Sete", "Seat"),
    "sim.mattis_count": ("Ganger Mattis", "Times Mattis"),
    "sim.mattis_rate": ("Andel", "Share"),
    "sim.empty_count": ("Av dem {name}", "Of which {name}"),
    "sim.mean_place": ("Snittplassering", "Average place"),
    "sim.seat_note": (
        "Sete 0 spiller ut først; det siste setet gir. Plass 1 gikk ut først, Mattis er sist.",
        "Seat 0 leads first; the last seat deals. Place 1 went out first, Mattis is last.",
    ),
    "sim.no_finished": (
        "Ingen spill ble ferdige innen taket; øk --action-cap.",
        "No game finished within the cap; raise --action-cap.",
    ),
    # benchmarks
    "bench.title": ("Ytelsesmåling", "Benchmarks"),
    "bench.progress": ("Måler", "Measuring"),
    "bench.system": ("Python {python} på {platform}", "Python {python} on {platform}"),
    "bench.settings": (
        "{runs} runder à {games} tilfeldige spill per tilfelle, én prosessorkjerne; medianer.",
        "{runs} runs of {games} random games per case, one core; medians.",
    ),
    "bench.case": ("Tilfelle", "Case"),
    "bench.path": ("Vei", "Path"),
    "bench.paths": (
        "kontrollert = legal_actions() + apply(); rask = legal_actions() + apply_unchecked().",
        "checked = legal_actions() + apply(); fast = legal_actions() + apply_unchecked().",
    ),
    "bench.checked": ("kontrollert", "checked"),
    "bench.unchecked": ("rask", "fast"),
    "bench.games_per_second": ("Spill/s", "Games/s"),
    "bench.actions_per_second": ("Handlinger/s", "Actions/s"),
    "bench.range": ("min–maks", "min–max"),
    "bench.micro_title": (
        "Mikromålinger midt i spillet, µs per kall (median)",
        "Micro-benchmarks on mid-game states, µs per call (median)",
    ),
    "bench.states": ("Tilstander", "States"),
    "bench.copy": ("copy", "copy"),
    "bench.copy_apply": ("copy+apply", "copy+apply"),
    "bench.copy_apply_note": (
        "copy+apply = copy() og så apply_unchecked(); legal_actions = ny utregning, ikke bufret liste.",
        "copy+apply = copy() then apply_unchecked(); legal_actions = fresh computation, not the cached list.",
    ),
    "bench.legal": ("legal_actions", "legal_actions"),
    # RL environments: render() text (mattis.envs)
    "env.phase.collect": ("innsamling", "collecting"),
    "env.phase.shed": ("utspilling", "shedding"),
    "env.phase.over": ("ferdig", "over"),
    "env.header": (
        "Mattis ({preset}), {players} spillere, {phase}, handling {actions}",
        "Mattis ({preset}), {players} players, {phase}, action {actions}",
    ),
    "env.trump": ("trumf: {trump}", "trump: {trump}"),
    "env.trump_unknown": ("trumf: ukjent", "trump: unknown"),
    "env.stock": ("bunke: {count}", "stock: {count}"),
    "env.seat": ("plass {seat}", "seat {seat}"),
    "env.won": ("vunnet {count}", "won {count}"),
    "env.to_move": ("i trekket", "to move"),
    "env.out": ("ute", "out"),
    "env.mattis": ("MATTIS", "MATTIS"),
    "env.table": ("bordet: {plays}", "table: {plays}"),
    "env.table_empty": ("bordet: tomt", "table: empty"),
    "env.truncated": ("avbrutt etter {actions} handlinger", "truncated after {actions} actions"),
}


def catalogues() -> dict[str, Catalogue]:
    """Every catalogue of texts, by the module that keeps it.

    Each area keeps its texts next to its code; this list is the one place that gathers
    them, so no import has the side effect of adding texts. The imports wait until the
    first lookup because those modules import this one.
    """
    from .cli.messages import TOURNAMENT_MESSAGES
    from .frontend.messages import PLAY_MESSAGES
    from .web.messages import WEB_MESSAGES

    return {
        __name__: BASE_MESSAGES,
        "mattis.frontend.messages": PLAY_MESSAGES,
        "mattis.cli.messages": TOURNAMENT_MESSAGES,
        "mattis.web.messages": WEB_MESSAGES,
    }


def duplicate_keys(sources: Mapping[str, Catalogue]) -> dict[str, list[str]]:
    """Keys found in more than one catalogue, with the catalogues that define them."""
    owners: dict[str, list[str]] = {}
    for source, catalogue in sources.items():
        for key in catalogue:
            owners.setdefault(key, []).append(source)
    return {key: names for key, names in owners.items() if len(names) > 1}


@functools.cache
def _table() -> dict[str, tuple[str, str]]:
    """All catalogues in one table, built on the first lookup. A key in two catalogues is a
    bug (one of the texts would silently win), so it stops the program at once."""
    sources = catalogues()
    duplicates = duplicate_keys(sources)
    if duplicates:
        key, names = next(iter(duplicates.items()))
        raise ValueError(f"message key {key!r} is defined in {' and '.join(names)}")
    table: dict[str, tuple[str, str]] = {}
    for catalogue in sources.values():
        table.update(catalogue)
    return table


def t(key: str, lang: Lang, **fmt: object) -> str:
    """The message ``key`` in ``lang``, formatted with ``fmt`` (``str.format`` syntax).

    An unknown key raises ``KeyError``: a missing text is a bug to catch in tests, not
    something to paper over at run time.
    """
    nb, en = _table()[key]
    template = nb if lang == "nb" else en
    return template.format(**fmt) if fmt else template


def format_number(value: float, lang: Lang, decimals: int = 0) -> str:
    """A number the way readers of ``lang`` write it: ``12,345.6`` in English and
    ``12 345,6`` in Norwegian (no-break space between thousands, decimal comma)."""
    text = f"{value:,.{decimals}f}"
    if lang == "nb":
        text = text.replace(",", "\u00a0").replace(".", ",")
    return text


def format_percent(rate: float, lang: Lang, decimals: int = 1) -> str:
    """A fraction as a percentage: ``33.7%`` in English, ``33,7 %`` in Norwegian."""
    number = format_number(rate * 100, lang, decimals)
    return f"{number}\u00a0%" if lang == "nb" else f"{number}%"


def message_keys() -> tuple[str, ...]:
    """Every message key (for tests that check both languages are present)."""
    return tuple(_table())


def message_template(key: str, lang: Lang) -> str:
    """The unformatted text of ``key`` (for tests comparing the two languages' placeholders)."""
    return _pick(_table()[key], lang)


# ---------------------------------------------------------------------------- rule options

OPTION_RULE_REFS: dict[str, str] = {
    "min_players": "C2",
    "max_players": "C2",
    "removed_two_player": "C4",
    "trick": "P1.2",
    "chance": "P1.4",
    "draw": "P1.4a",
    "tie": "P1.5",
    "trump": "P1.6",
    "phase1_end": "P1.7",
    "nothing_left": "P1.10",
    "nothing_left_counts": "P1.10",
    "min_sequence": "P2.2",
    "voluntary_pickup": "P2.4",
    "follow_suit": "P2.5",
}
"""The rule number in the rules documentation that each option belongs to."""

_OPTION_NAMES: dict[str, tuple[str, str]] = {
    "min_players": ("Færrest spillere", "Fewest players"),
    "max_players": ("Flest spillere", "Most players"),
    "removed_two_player": ("Kort lagt bort med to spillere", "Cards removed with two players"),
    "trick": ("Stikk i fase 1", "Phase-1 trick"),
    "chance": ("Sjansing", "Chancing (sjansing)"),
    "draw": ("Trekking", "Drawing"),
    "tie": ("Likt (krig)", "Tie (krig)"),
    "trump": ("Trumf", "Trump"),
    "phase1_end": ("Slutt på fase 1", "End of phase 1"),
    "nothing_left": ("Tom etter fase 1", "Nothing left after phase 1"),
    "nothing_left_counts": ("Hva som teller som tom", "What counts as nothing left"),
    "min_sequence": ("Korteste serie", "Shortest sequence (serie)"),
    "voluntary_pickup": ("Frivillig å ta opp", "Voluntary pick-up"),
    "follow_suit": ("Plikt til å følge sort", "Must follow suit"),
}

_OPTION_DESCRIPTIONS: dict[str, tuple[str, str]] = {
    "min_players": ("Minste antall spillere", "Smallest number of players"),
    "max_players": ("Største antall spillere", "Largest number of players"),
    "removed_two_player": (
        "Kort som legges bort usett før utdeling når dere er to",
        "Cards put away unseen before a two-player deal",
    ),
    "trick": ("Hvem som spiller til hvert stikk", "Who plays to each trick"),
    "chance": (
        "Om du kan spille øverste kort i trekkbunken rett ut",
        "Whether you may play the top card of the stock straight out",
    ),
    "draw": ("Når dere trekker fra trekkbunken", "When players draw from the stock"),
    "tie": ("Hva som skjer når høyeste valør er lik", "What happens when the highest rank is tied"),
    "trump": ("Hvordan trumfkortet velges", "How the trump card is chosen"),
    "phase1_end": ("Når innsamlingen slutter", "When collecting ends"),
    "nothing_left": (
        "Hva som skjer med en spiller uten kort etter fase 1",
        "What happens to a player with no cards after phase 1",
    ),
    "nothing_left_counts": (
        "Hvilke kort som teller når dere ser etter tomme spillere",
        "Which cards count when looking for empty players",
    ),
    "min_sequence": ("Færrest kort i en serie i fase 2", "Fewest cards in a phase-2 sequence"),
    "voluntary_pickup": (
        "Om du kan ta opp selv om du kunne slått",
        "Whether you may pick up even when you could beat",
    ),
    "follow_suit": (
        "Om du må slå i sorten i stedet for å trumfe når du har sorten",
        "Whether holding the led suit forbids trumping it",
    ),
}

_ENUM_VALUES: dict[str, dict[str, tuple[str, str]]] = {
    "trick": {
        "all": ("alle spiller", "everyone plays"),
        "pair": ("utspiller mot nabo til venstre", "leader against left neighbour"),
    },
    "draw": {
        "after_play": ("trekk etter hvert kort fra hånden", "draw after each card from hand"),
        "after_trick": ("alle trekker opp til 3 etter stikket", "everyone draws up to 3 after the trick"),
    },
    "tie": {
        "replay": ("de like spiller ett kort til", "tied players play one more card"),
        "two_cards": ("krig med to nye kort hver", "war with two new cards each"),
        "any_match": ("krig på alle like valører", "war on any matching rank"),
    },
    "trump": {
        "hidden_last": ("siste kort i trekkbunken, skjult", "last card of the stock, hidden"),
        "bottom_up": ("nederste kort, snudd opp", "bottom card, turned face up"),
    },
    "phase1_end": {
        "no_card": ("når noen ikke har noe å spille", "when someone has nothing to play"),
        "one_left": ("når færre enn to kan spille", "when fewer than two can play"),
        "stock_empty": ("når trekkbunken er tom", "when the stock is empty"),
    },
    "nothing_left": {
        "lose": ("taper med en gang", "loses at once"),
        "must_pick_up": ("må ta opp", "must pick up"),
    },
    "nothing_left_counts": {
        "all_cards": ("alle kort (Blåmattis)", "all cards (Blåmattis)"),
        "won_pile": ("bare stikkbunken (Blodmattis)", "won pile only (Blodmattis)"),
    },
}

_PRESET_SUMMARIES: dict[str, tuple[str, str]] = {
    "pagat": (
        "Alle spiller til hvert stikk, de like spiller om igjen, Blåmattis taper straks, "
        "serier på 2 eller flere",
        "All play each trick, tied players replay, Blåmattis loses at once, sequences of 2+",
    ),
    "kortregler": (
        "2–6 spillere, stikk mellom utspiller og nabo, krig med to kort, "
        "du må slå når du kan",
        "2–6 players, tricks between leader and left neighbour, two-card war, forced beating",
    ),
    "app": (
        "Trumf snudd opp ved utdeling, krig på alle like valører, Blodmattis, følg sort",
        "Trump turned up at the deal, war on any matching rank, Blodmattis, follow suit",
    ),
}


def _pick(pair: tuple[str, str], lang: Lang) -> str:
    return pair[0] if lang == "nb" else pair[1]


def option_name(field: str, lang: Lang) -> str:
    """The short name of the rule option ``field``, e.g. ``"Stikk i fase 1"``."""
    try:
        return _pick(_OPTION_NAMES[field], lang)
    except KeyError:
        raise ValueError(f"unknown option {field!r}") from None


def option_description(field: str, lang: Lang) -> str:
    """A one-line explanation of the rule option ``field``."""
    try:
        return _pick(_OPTION_DESCRIPTIONS[field], lang)
    except KeyError:
        raise ValueError(f"unknown option {field!r}") from None


def option_value(field: str, value: object, lang: Lang) -> str:
    """The value of option ``field`` in words, e.g. ``("trick", "all") -> "alle spiller"``.

    ``value`` may be the typed value (enum, bool, int) or its text form.
    """
    if field not in _OPTION_NAMES:
        raise ValueError(f"unknown option {field!r}")
    if isinstance(value, bool):
        return t("yes" if value else "no", lang)
    text = value.value if isinstance(value, Enum) else str(value).strip().lower()
    if field in _ENUM_VALUES:
        try:
            return _pick(_ENUM_VALUES[field][text], lang)
        except KeyError:
            raise ValueError(f"{field}: unknown value {value!r}") from None
    if text in ("true", "false"):
        return t("yes" if text == "true" else "no", lang)
    if field == "min_sequence":
        if text == "0":
            return "av (ingen serier)" if lang == "nb" else "off (no sequences)"
        return f"minst {text} kort" if lang == "nb" else f"at least {text} cards"
    if field == "removed_two_player":
        if text == "0":
            return "ingen" if lang == "nb" else "none"
        return f"{text} kort" if lang == "nb" else f"{text} cards"
    return text


def option_values(field: str) -> tuple[str, ...]:
    """The text values of an enum option that have translations (empty for other options)."""
    return tuple(_ENUM_VALUES.get(field, {}))


def preset_summary(preset: str, lang: Lang) -> str:
    """What sets a preset apart, in one line."""
    try:
        return _pick(_PRESET_SUMMARIES[preset], lang)
    except KeyError:
        raise ValueError(f"unknown preset {preset!r}") from None


def lost_on_empty_name(nothing_left_counts: object) -> str:
    """*Blåmattis* when all cards count, *Blodmattis* when only the won pile does (P1.10).

    Both are proper names and the same in every language.
    """
    text = nothing_left_counts.value if isinstance(nothing_left_counts, Enum) else str(nothing_left_counts)
    return "Blodmattis" if text == "won_pile" else "Blåmattis"
