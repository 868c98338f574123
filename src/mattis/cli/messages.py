"""The texts of ``mattis tournament`` and ``mattis lab`` (keys ``tournament.…`` and
``lab.…``), in bokmål and English.

Data only: :func:`mattis.i18n.catalogues` lists this catalogue with the others, so the
table of texts is built in one place and importing this module changes nothing.
"""

from __future__ import annotations

from ..i18n import Catalogue

TOURNAMENT_MESSAGES: Catalogue = {
    "tournament.progress": ("Spiller", "Playing"),
    "tournament.title": (
        "Turnering: {preset}, {players} spillere, {games} spill, frø {seed}",
        "Tournament: {preset}, {players} players, {games} games, seed {seed}",
    ),
    "tournament.setup": (
        "Utdelinger: {deals}, hver spilt {players} ganger med setene rotert, så hver bot får "
        "hver hånd. Arbeidsprosesser: {workers}.",
        "Deals: {deals}, each played {players} times with the seats rotated so every bot gets "
        "every hand. Worker processes: {workers}.",
    ),
    "tournament.rounded": (
        "Rundet opp fra {requested} til {games} spill: hele utdelinger à {players} spill.",
        "Rounded up from {requested} to {games} games: whole deals of {players} games.",
    ),
    "tournament.changed": ("Husregler: {changes}", "House rules: {changes}"),
    "tournament.hard_iterations": (
        "hard tenker {iterations} iterasjoner per trekk.",
        "hard thinks {iterations} iterations per move.",
    ),
    "tournament.hard_seconds": (
        "hard tenker {seconds} s per trekk, så resultatene avhenger av maskinens fart.",
        "hard thinks {seconds} s per move, so the results depend on machine speed.",
    ),
    "tournament.hard_both": (
        "hard tenker {iterations} iterasjoner eller {seconds} s per trekk, det som kommer først, "
        "så resultatene kan avhenge av maskinens fart.",
        "hard thinks {iterations} iterations or {seconds} s per move, whichever ends first, "
        "so the results may depend on machine speed.",
    ),
    "tournament.openspiel": (
        "openspiel-ismcts (OpenSpiels ISMCTS i Python) tenker {simulations} simuleringer per trekk.",
        "openspiel-ismcts (OpenSpiel's Python ISMCTS) thinks {simulations} simulations per move.",
    ),
    "tournament.ray": (
        "Spilt på en Ray-klynge med {workers} CPU-er; resultatene er de samme som lokalt.",
        "Played on a Ray cluster with {workers} CPUs; the results are the same as locally.",
    ),
    "tournament.time": ("Tid {seconds} s · {rate} spill/s", "Time {seconds} s · {rate} games/s"),
    "tournament.capped": (
        "Avbrutt ved taket: {count} spill (tak: {cap} handlinger). De er ikke med i andeler, "
        "plasser eller rating.",
        "Stopped at the cap: {count} games (cap: {cap} actions). They are left out of rates, "
        "places and ratings.",
    ),
    "tournament.capped_none": ("Avbrutt ved taket: ingen", "Stopped at the cap: none"),
    "tournament.table": ("Resultater per bot", "Results per bot"),
    "tournament.levels_table": ("Per nivå", "Per level"),
    "tournament.bot": ("Bot", "Bot"),
    "tournament.level": ("Nivå", "Level"),
    "tournament.games": ("Spill", "Games"),
    "tournament.mattis": ("Mattis", "Mattis"),
    "tournament.mattis_rate": ("Andel", "Rate"),
    "tournament.ci": ("95 % KI", "95% CI"),
    "tournament.mean_place": ("Plass", "Avg place"),
    "tournament.rating": ("Rating", "Rating"),
    "tournament.p95": ("Tid p95", "Think p95"),
    "tournament.iterations_per_second": ("Iter./s", "Iter./s"),
    "tournament.legend": (
        "Andel: ferdige spill som Mattis, med 95 % Wilson-intervall. Plass: snitt, 1 gikk ut først, "
        "flere tapere deler de siste plassene. Rating: OpenSkill μ − 3σ (μ og σ i --json). "
        "Tid p95: 95-persentilen av tenketid per valg som ikke var tvunget.",
        "Rate: finished games as Mattis, with a 95% Wilson interval. Place 1 went out first; "
        "several losers share the last places. Rating: OpenSkill μ − 3σ (μ and σ in --json). "
        "Think p95: 95th percentile per decision that was not forced.",
    ),
    "tournament.levels_note": (
        "Et nivå med flere deltakere teller hver deltakers spill; ratingen er snittet av deres.",
        "A level with several entrants counts each entrant's games; its rating is their mean.",
    ),
    "lab.progress": ("Laboratoriet spiller", "Lab playing"),
    "lab.plan": (
        "{configurations} oppsett × 4 kjøringer × {games} spill = {total} spill. hard tenker "
        "{iterations} iterasjoner per trekk.",
        "{configurations} configurations × 4 runs × {games} games = {total} games. hard thinks "
        "{iterations} iterations per move.",
    ),
    "lab.title": ("Variantlaboratoriet, frø {seed}", "Variant lab, seed {seed}"),
    "lab.variant": ("Variant", "Variant"),
    "lab.players": ("Spillere", "Players"),
    "lab.random": ("Tilfeldig er Mattis", "Random is Mattis"),
    "lab.hard": ("hard er Mattis", "hard is Mattis"),
    "lab.avoided": ("Unngått (poeng)", "Avoided (points)"),
    "lab.spread": ("Setespredning", "Seat spread"),
    "lab.empty": ("Blå-/Blodmattis", "Blå-/Blodmattis"),
    "lab.loops": ("Løkker", "Loops"),
    "lab.legend": (
        "Tilfeldig og hard: andel Mattis i samme seter på de samme utdelingene (hard blant "
        "tilfeldige spillere), med 95 % Wilson-intervall. Setespredning: høyeste minus laveste "
        "setes Mattis-andel når alle spiller tilfeldig. Blå-/Blodmattis og løkker: tilfeldig spill.",
        "Random and hard: Mattis rate in the same seats on the same deals (hard among random "
        "players), with a 95% Wilson interval. Seat spread: highest minus lowest seat's Mattis "
        "rate when everyone plays random. Blå-/Blodmattis and loops: random play.",
    ),
    "lab.written": ("Rapport: {html} · tallene: {json}", "Report: {html} · the numbers: {json}"),
}
